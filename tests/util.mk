# Helpers in src/util checked against what they stand in for: the
# streaming JSON writer against jansson (test_json_stream).
if HAVE_CRITERION
check_PROGRAMS += tests/util/test_json_stream
tests_util_test_json_stream_SOURCES = tests/util/test_json_stream.c
tests_util_test_json_stream_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_util_test_json_stream_LDADD = $(MTLBX_UTIL_LIBS) $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/util/test_json_stream
endif
# The explorer's case-insensitive search against the tolower() loop.
check_PROGRAMS += tests/util/test_nocase
tests_util_test_nocase_SOURCES = tests/util/test_nocase.c
tests_util_test_nocase_CPPFLAGS = $(TEST_CPPFLAGS)
tests_util_test_nocase_LDADD = $(MTLBX_UTIL_LIBS) $(CRITERION_LIBS)
TESTS += tests/util/test_nocase
