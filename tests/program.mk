# Helpers in src/program checked against what they stand in for, and the
# text buffer on its own (test_text_buf).
if HAVE_CRITERION
# Two releases paired, their archive members read ahead in one pass each,
# under a read-ahead budget and with sizes the archives misstate.
check_PROGRAMS += tests/program/test_release_pairs
tests_program_test_release_pairs_SOURCES = tests/program/test_release_pairs.c tests/scratch_dir.c tests/scratch_dir.h
tests_program_test_release_pairs_CPPFLAGS = $(TEST_CPPFLAGS)
tests_program_test_release_pairs_LDADD = $(MTLBX_PROGRAM_LIBS) $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/program/test_release_pairs
# The growable text buffer the explorer and find share.
check_PROGRAMS += tests/program/test_text_buf
tests_program_test_text_buf_SOURCES = tests/program/test_text_buf.c
tests_program_test_text_buf_CPPFLAGS = $(TEST_CPPFLAGS)
tests_program_test_text_buf_LDADD = $(MTLBX_PROGRAM_LIBS) $(CRITERION_LIBS)
TESTS += tests/program/test_text_buf
endif
# The explorer's case-insensitive search against the tolower() loop.
check_PROGRAMS += tests/program/test_nocase
tests_program_test_nocase_SOURCES = tests/program/test_nocase.c
tests_program_test_nocase_CPPFLAGS = $(TEST_CPPFLAGS)
tests_program_test_nocase_LDADD = $(MTLBX_PROGRAM_LIBS) $(CRITERION_LIBS)
TESTS += tests/program/test_nocase
# Unique output names (issue 35: linear in the names written).
if HAVE_CRITERION
check_PROGRAMS += tests/program/test_name_set
tests_program_test_name_set_SOURCES = tests/program/test_name_set.c
tests_program_test_name_set_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/src/program
tests_program_test_name_set_LDADD = $(MTLBX_PROGRAM_LIBS) $(CRITERION_LIBS)
TESTS += tests/program/test_name_set
endif
