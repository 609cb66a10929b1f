# Tests of extract, sources and dis and what is beneath them: the source
# section and archive decoding (test_source_archives), the safe-write and
# llvm-dis helpers (test_safe_write_run_tool), and the real binary on the
# corpus (test_cli_extract_sources_dis, exit 77 = skipped when
# ../shared/corpus is absent).
if HAVE_CRITERION
check_PROGRAMS += tests/cli/test_source_archives tests/cli/test_safe_write_run_tool tests/cli/test_cli_extract_sources_dis

# Builds bzip2'd ustar archives with libbz2 and libarchive's writer, so the
# decoder is checked against an independent encoder.
tests_cli_test_source_archives_SOURCES = tests/cli/test_source_archives.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h \
	tests/scratch_dir.c tests/scratch_dir.h tests/testenv.c tests/testenv.h
tests_cli_test_source_archives_CPPFLAGS = $(TEST_CPPFLAGS) $(LIBARCHIVE_CFLAGS)
tests_cli_test_source_archives_LDADD = $(TEST_LIBS)

tests_cli_test_safe_write_run_tool_SOURCES = tests/cli/test_safe_write_run_tool.c tests/scratch_dir.c tests/scratch_dir.h
tests_cli_test_safe_write_run_tool_CPPFLAGS = $(TEST_CPPFLAGS)
tests_cli_test_safe_write_run_tool_LDADD = $(MTLBX_PROGRAM_LIBS) $(CRITERION_LIBS)

tests_cli_test_cli_extract_sources_dis_SOURCES = tests/cli/test_cli_extract_sources_dis.c tests/testenv.c tests/testenv.h \
	tests/scratch_dir.c tests/scratch_dir.h
tests_cli_test_cli_extract_sources_dis_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS) $(LIBGCRYPT_CFLAGS)
tests_cli_test_cli_extract_sources_dis_LDADD = $(MTLBX_PROGRAM_LIBS) $(CRITERION_LIBS) $(JANSSON_LIBS) $(LIBGCRYPT_LIBS)

TESTS += tests/cli/test_source_archives tests/cli/test_safe_write_run_tool tests/cli/test_cli_extract_sources_dis
endif
