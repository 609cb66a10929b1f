# Benchmark (issue 5): bench/run builds large libraries with
# bench/mklarge.py and times mtlbx against the goals in bench/README.md.
# Nothing here runs in make check or CI; the scripts are only distributed.
EXTRA_DIST += bench/README.md bench/run bench/mklarge.py \
	bench/baseline_parser.py bench/mktree.py
