# `mtlbx sig` and `dump --json --interfaces` on the sample, the corpus and
# a cut module (tests/cli/sig_cli.sh); tests/lib/model/test_msl_decl (node.mk) covers the
# declaration text itself. Included by tests/local.mk.
SIG_TESTS = tests/cli/sig_cli.sh
TESTS += $(SIG_TESTS)
EXTRA_DIST += $(SIG_TESTS) tests/sig_sample.expected tests/msl_grammar.py
