# Comparing two libraries (issue 9): compare.c and `mtlbx diff` on the
# project's fixtures (test_compare), `diff --json` on real pairs of the
# corpus against a diff computed from their `dump --json` documents
# (test_compare_corpus, exit 77 without the corpus), `git diff` through
# `mtlbx textconv` (compare_git.sh, needs git and python3) and the
# explorer's compare view in tmux (compare_explorer.sh); both make their
# second library with tests/compare_rebuild.py.
if HAVE_CRITERION
check_PROGRAMS += tests/lib/compare/test_compare tests/lib/compare/test_compare_corpus
tests_lib_compare_test_compare_SOURCES = tests/lib/compare/test_compare.c tests/testenv.c tests/testenv.h \
	tests/imagebuf.c tests/imagebuf.h
tests_lib_compare_test_compare_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_lib_compare_test_compare_LDADD = $(TEST_LIBS) $(JANSSON_LIBS)

tests_lib_compare_test_compare_corpus_SOURCES = tests/lib/compare/test_compare_corpus.c tests/testenv.c tests/testenv.h
tests_lib_compare_test_compare_corpus_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_lib_compare_test_compare_corpus_LDADD = $(CRITERION_LIBS) $(JANSSON_LIBS)
TESTS += tests/lib/compare/test_compare tests/lib/compare/test_compare_corpus
endif

# tests/cli/textconv_rebound.sh: git diff shows a rebound buffer as sig lines.
# tests/ui/compare_values.sh: the compare view shows old -> new as diff does.
# tests/ui/compare_releases.sh: the explorer compares two folders or wheels.
# tests/cli/diff_release.sh: two folders, wheels and tars (issue 21 item 4)
# and modules changed behind an unchanged HASH (issue 23 item 4).
# tests/cli/diff_one_sided.sh: a fat file against one with fewer libraries.
# tests/cli/diff_scan.sh: large files, their bytes compared on a thread.
COMPARE_SHELL_TESTS = tests/cli/compare_git.sh tests/ui/compare_explorer.sh tests/ui/compare_values.sh tests/ui/compare_releases.sh \
	tests/cli/diff_release.sh tests/cli/diff_one_sided.sh tests/cli/diff_scan.sh \
	tests/cli/textconv_rebound.sh
TESTS += $(COMPARE_SHELL_TESTS)
EXTRA_DIST += $(COMPARE_SHELL_TESTS) tests/compare_rebuild.py tests/mkrebound.py
