# Folders, app bundles and .ipa/.zip archives (issue 10): `mtlbx find`
# and ARCHIVE!MEMBER paths. The folders and archives are built at test
# time in a temporary directory (tests/mkzip.py), never committed:
#   tests/cli/containers_find.sh    from the project's fixtures, always runs
#   tests/cli/containers_corpus.sh  the whole corpus rearranged (skips without it)
#   tests/ui/explorer_containers.sh  the explorer on a folder of the corpus (tmux)
#   tests/cli/find_terminal.sh      find's progress line and results on one terminal
#   tests/cli/find_archives.sh      archives by content (wheels, tars, nested) and
#                               special operands; archives from tests/mkrelease.py
#   tests/cli/find_mappings.sh      many small libraries cost no munmap or madvise each
#   tests/cli/macho_hosts.sh        metallibs in Mach-O sections (tests/mkmacho.py), hostile
#                               load commands (issue 34)
#   tests/cli/gpu_archives.sh      binary archives (fat files with GPU code) built from
#                               ../shared/gpu-archives by tests/mkgpuarchive.py
#                               (skips without it): check, dump, info, ls, find,
#                               thin, hostile GPU slices (issue 45)
CONTAINER_TESTS = \
	tests/cli/gpu_archives.sh \
	tests/cli/macho_hosts.sh \
	tests/cli/find_mappings.sh \
	tests/cli/containers_find.sh \
	tests/cli/containers_corpus.sh \
	tests/cli/find_terminal.sh \
	tests/cli/find_archives.sh \
	tests/ui/explorer_containers.sh
TESTS += $(CONTAINER_TESTS)
EXTRA_DIST += $(CONTAINER_TESTS) tests/mkgpuarchive.py tests/mkzip.py tests/mkrelease.py tests/expect_lib.sh
