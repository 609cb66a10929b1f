# Benchmark (issue 5): bench/run builds large libraries with
# bench/mklarge.py and times mtlbx against goals. Nothing here runs in
# make check or CI; the scripts are only distributed.
