# `mtlbx sig` and `dump --json --interfaces` on the sample, the corpus and
# a cut module (tests/sig_cli.sh); tests/test_msl_decl (node.mk) covers the
# declaration text itself. Included by tests/local.mk.
SIG_TESTS = tests/sig_cli.sh
TESTS += $(SIG_TESTS)
EXTRA_DIST += $(SIG_TESTS) tests/sig_sample.expected

# The ordered pool that decodes on every CPU and prints in order.
check_PROGRAMS += tests/test_ordered_pool
tests_test_ordered_pool_SOURCES = tests/test_ordered_pool.c
tests_test_ordered_pool_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_ordered_pool_LDADD = $(MTLBX_UTIL_LIBS) $(CRITERION_LIBS) -lpthread
TESTS += tests/test_ordered_pool
