# The command line as a whole: help, option order, -o, ls and check
# (cli_usage.sh), the documents generated from the command table
# (cli_doc.sh, against src/cli/cmddoc), the README's facts
# (readme_facts.sh), and how many files include each header
# (include_fanout.sh, issue 42).
CLI_TESTS = \
	tests/cli/cli_usage.sh \
	tests/cli/cli_names_src.sh \
	tests/cli/cli_doc.sh \
	tests/cli/readme_facts.sh \
	tests/cli/include_fanout.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS)

# Shell completion, run by bash and by an interactive zsh (zsh/zpty).
COMPLETION_TESTS = \
	tests/cli/completion_bash.sh \
	tests/cli/completion_zsh.sh
TESTS += $(COMPLETION_TESTS)
EXTRA_DIST += $(COMPLETION_TESTS)

# info and ls on a damaged library: exit 1, one line naming the offset
# (issue 36).
TESTS += tests/cli/damaged_info_ls.sh
EXTRA_DIST += tests/cli/damaged_info_ls.sh

# Start-up: libarchive and libstdc++ are loaded on first use, not linked,
# and a libarchive that cannot be loaded is one clear line (issue 22).
TESTS += tests/cli/startup_libs.sh tests/cli/check_threads.sh
EXTRA_DIST += tests/cli/startup_libs.sh tests/cli/check_threads.sh

# dis (and the explorer's d) falling back on a newer llvm-dis when the
# chosen one rejects a module.
TESTS += tests/cli/dis_newer_llvm.sh tests/ui/explorer_dis_newer_llvm.sh
EXTRA_DIST += tests/cli/dis_newer_llvm.sh tests/ui/explorer_dis_newer_llvm.sh

# Requirements ("will it load here?"), the --os gate of check and find, and
# --slice, against values computed from data/requirements.tsv.
REQUIREMENTS_TESTS = tests/cli/requirements.sh
TESTS += $(REQUIREMENTS_TESTS)
EXTRA_DIST += $(REQUIREMENTS_TESTS)

# The release gate (issue 34): check and find --os declared against wheels,
# .ipa and .app Info.plist and Mach-O hosts built around corpus libraries,
# check --expect, --json and --format github (skips without the corpus;
# tests/cli/macho_hosts.sh covers hosts from the fixtures).
RELEASE_GATE_TESTS = tests/cli/release_gate.sh
TESTS += $(RELEASE_GATE_TESTS)
EXTRA_DIST += $(RELEASE_GATE_TESTS)

# One answer to "will it load" (issue 41): every place agrees on crafted
# libraries (tests/mkloadrule.py: forged headers, mixed triples, a lying
# function list, a cut file, a reordered library) and on the corpus.
LOAD_RULE_TESTS = tests/cli/load_rule.sh
TESTS += $(LOAD_RULE_TESTS)
EXTRA_DIST += $(LOAD_RULE_TESTS) tests/mkloadrule.py
