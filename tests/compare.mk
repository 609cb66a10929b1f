# Comparing two libraries (issue 9): compare.c and `mtlbx diff` on the
# project's fixtures (test_compare), `diff --json` on real pairs of the
# corpus against a diff computed from their `dump --json` documents
# (test_compare_corpus, exit 77 without the corpus), `git diff` through
# `mtlbx textconv` (compare_git.sh, needs git and python3) and the
# explorer's compare view in tmux (compare_explorer.sh); both make their
# second library with tests/compare_rebuild.py.
if HAVE_CRITERION
check_PROGRAMS += tests/test_compare tests/test_compare_corpus
tests_test_compare_SOURCES = tests/test_compare.c tests/testenv.c tests/testenv.h \
	src/util/values_json.c src/util/values_json.h src/util/interface_json.c src/util/interface_json.h
tests_test_compare_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS) -I$(top_srcdir)/src/util
tests_test_compare_LDADD = $(TEST_LIBS) $(JANSSON_LIBS)

tests_test_compare_corpus_SOURCES = tests/test_compare_corpus.c tests/testenv.c tests/testenv.h
tests_test_compare_corpus_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_test_compare_corpus_LDADD = $(CRITERION_LIBS) $(JANSSON_LIBS)
TESTS += tests/test_compare tests/test_compare_corpus
endif

# tests/textconv_rebound.sh: git diff shows a rebound buffer as sig lines.
# tests/compare_values.sh: the compare view shows old -> new as diff does.
# tests/compare_releases.sh: the explorer compares two folders or wheels.
# tests/diff_release.sh: two folders, wheels and tars (issue 21 item 4)
# and modules changed behind an unchanged HASH (issue 23 item 4).
COMPARE_SHELL_TESTS = tests/compare_git.sh tests/compare_explorer.sh tests/compare_values.sh tests/compare_releases.sh \
	tests/diff_release.sh \
	tests/textconv_rebound.sh
TESTS += $(COMPARE_SHELL_TESTS)
EXTRA_DIST += $(COMPARE_SHELL_TESTS) tests/compare_rebuild.py tests/mkrebound.py
