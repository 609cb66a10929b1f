# Tests of extract, sources and dis and what is beneath them: the source
# section and archive decoding (test_pullout_sources), the safe-write and
# llvm-dis helpers (test_pullout_util), and the real binary on the corpus
# (test_pullout_cli, exit 77 = skipped when ../shared/corpus is absent).
if HAVE_CRITERION
check_PROGRAMS += tests/test_pullout_sources tests/test_pullout_util tests/test_pullout_cli

# Builds bzip2'd ustar archives with libbz2 and libarchive's writer, so the
# decoder is checked against an independent encoder.
tests_test_pullout_sources_SOURCES = tests/test_pullout_sources.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h \
	tests/pullout_tmp.c tests/pullout_tmp.h tests/testenv.c tests/testenv.h
tests_test_pullout_sources_CPPFLAGS = $(TEST_CPPFLAGS) $(LIBARCHIVE_CFLAGS)
tests_test_pullout_sources_LDADD = $(TEST_LIBS)

tests_test_pullout_util_SOURCES = tests/test_pullout_util.c tests/pullout_tmp.c tests/pullout_tmp.h
tests_test_pullout_util_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pullout_util_LDADD = $(MTLBX_UTIL_LIBS) $(CRITERION_LIBS)

tests_test_pullout_cli_SOURCES = tests/test_pullout_cli.c tests/testenv.c tests/testenv.h \
	tests/pullout_tmp.c tests/pullout_tmp.h
tests_test_pullout_cli_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS) $(LIBGCRYPT_CFLAGS)
tests_test_pullout_cli_LDADD = $(MTLBX_UTIL_LIBS) $(CRITERION_LIBS) $(JANSSON_LIBS) $(LIBGCRYPT_LIBS)

TESTS += tests/test_pullout_sources tests/test_pullout_util tests/test_pullout_cli
endif
