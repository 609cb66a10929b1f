# The command line as a whole: help, option order, -o, ls and check
# (cli_usage.sh), and the documents generated from the command table
# (cli_doc.sh, against src/cli/cmddoc).
CLI_TESTS = \
	tests/cli_usage.sh \
	tests/cli_doc.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS)
