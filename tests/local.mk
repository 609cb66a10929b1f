# Tests. Every test finds the binary, the source tree and the corpus
# through these variables; MTLBX_CORPUS may be set from outside (CI sets it
# so that the corpus tests also run under make distcheck).
AM_TESTS_ENVIRONMENT = \
	MTLBX_BIN='$(abs_top_builddir)/src/mtlbx'; export MTLBX_BIN; \
	MTLBX_SRCDIR='$(abs_top_srcdir)'; export MTLBX_SRCDIR; \
	MTLBX_BUILDDIR='$(abs_top_builddir)'; export MTLBX_BUILDDIR; \
	MTLBX_CORPUS="$${MTLBX_CORPUS:-$(abs_top_srcdir)/../shared/corpus}"; export MTLBX_CORPUS; \
	MTLBX_LLVM_AS='$(LLVM_AS)'; export MTLBX_LLVM_AS; \
	LC_ALL=C.UTF-8; export LC_ALL; \
	LSAN_OPTIONS="suppressions=$(abs_top_srcdir)/tests/lsan.supp$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	export LSAN_OPTIONS;

if HAVE_CRITERION
TEST_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) -I$(top_srcdir)/tests
# libarchive itself (mtlbx loads it with dlopen): tests write archives.
TEST_LIBS = $(MTLBX_LIBS) $(LIBARCHIVE_LIBS) $(CRITERION_LIBS)

check_PROGRAMS += tests/lib/container/test_lib tests/lib/container/test_corpus tests/lib/container/test_fixtures
tests_lib_container_test_lib_SOURCES = tests/lib/container/test_lib.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_lib_container_test_lib_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_container_test_lib_LDADD = $(TEST_LIBS)

tests_lib_container_test_corpus_SOURCES = tests/lib/container/test_corpus.c tests/jsoncmp.c tests/jsoncmp.h tests/testenv.c tests/testenv.h
tests_lib_container_test_corpus_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_lib_container_test_corpus_LDADD = $(TEST_LIBS) $(JANSSON_LIBS)

tests_lib_container_test_fixtures_SOURCES = tests/lib/container/test_fixtures.c tests/jsoncmp.c tests/jsoncmp.h tests/testenv.c tests/testenv.h
tests_lib_container_test_fixtures_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_lib_container_test_fixtures_LDADD = $(TEST_LIBS) $(JANSSON_LIBS)

TESTS += tests/lib/container/test_lib tests/lib/container/test_corpus tests/lib/container/test_fixtures

check_PROGRAMS += tests/lib/container/test_reflection
tests_lib_container_test_reflection_SOURCES = tests/lib/container/test_reflection.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_lib_container_test_reflection_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_container_test_reflection_LDADD = $(TEST_LIBS)
TESTS += tests/lib/container/test_reflection

# The Mach-O reader on tests/mkmacho.py's shapes and damage (the fuzz seeds).
check_PROGRAMS += tests/lib/container/test_macho
tests_lib_container_test_macho_SOURCES = tests/lib/container/test_macho.c tests/testenv.c tests/testenv.h
tests_lib_container_test_macho_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_container_test_macho_LDADD = $(TEST_LIBS)
TESTS += tests/lib/container/test_macho

# The one binary search the library, the explorer and sig share.
check_PROGRAMS += tests/lib/container/test_lower_bound
tests_lib_container_test_lower_bound_SOURCES = tests/lib/container/test_lower_bound.c
tests_lib_container_test_lower_bound_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_container_test_lower_bound_LDADD = $(TEST_LIBS)
TESTS += tests/lib/container/test_lower_bound

# Requirements in the library: platform names, triples, a damaged module.
check_PROGRAMS += tests/lib/checks/test_requirements
tests_lib_checks_test_requirements_SOURCES = tests/lib/checks/test_requirements.c tests/testenv.c tests/testenv.h
tests_lib_checks_test_requirements_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_checks_test_requirements_LDADD = $(TEST_LIBS)
TESTS += tests/lib/checks/test_requirements
check_PROGRAMS += tests/lib/checks/test_layout_blocks
tests_lib_checks_test_layout_blocks_SOURCES = tests/lib/checks/test_layout_blocks.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_lib_checks_test_layout_blocks_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_checks_test_layout_blocks_LDADD = $(TEST_LIBS)
TESTS += tests/lib/checks/test_layout_blocks

check_PROGRAMS += tests/lib/checks/test_sha256_batch
tests_lib_checks_test_sha256_batch_SOURCES = tests/lib/checks/test_sha256_batch.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_lib_checks_test_sha256_batch_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_checks_test_sha256_batch_LDADD = $(TEST_LIBS)
TESTS += tests/lib/checks/test_sha256_batch

# The streaming JSON writer of dump --json (src/lib/json) against jansson.
check_PROGRAMS += tests/lib/json/test_json_stream
tests_lib_json_test_json_stream_SOURCES = tests/lib/json/test_json_stream.c
tests_lib_json_test_json_stream_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_lib_json_test_json_stream_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/lib/json/test_json_stream

check_PROGRAMS += tests/lib/model/test_names
tests_lib_model_test_names_SOURCES = tests/lib/model/test_names.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_lib_model_test_names_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_model_test_names_LDADD = $(TEST_LIBS)
TESTS += tests/lib/model/test_names
endif

EXTRA_DIST += tests/lsan.supp

# The README's Quick start, test command and textconv recipe, run as written
# in a scratch clone (skips outside a git checkout).
TESTS += tests/readme_quickstart.sh
EXTRA_DIST += tests/readme_quickstart.sh

# Damage a HASH does not see, built at test time by tools/mkcrafted.py.
TESTS += tests/lib/checks/crafted.sh
EXTRA_DIST += tests/lib/checks/crafted.sh tools/mkcrafted.py

include tests/node.mk
include tests/extract_sources.mk
include tests/ui.mk
include tests/hostile.mk
include tests/sig.mk
include tests/compare.mk
include tests/interface.mk
include tests/cli.mk
include tests/program.mk
include tests/containers.mk
include tests/writer.mk
include tests/api.mk
include tests/install.mk
