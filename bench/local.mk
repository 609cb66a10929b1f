# Benchmark (issue 5): bench/run builds large libraries with
# bench/mklarge.py and times mtlbx against the goals in bench/README.md.
# Nothing here runs in make check or CI; the scripts are only distributed.
EXTRA_DIST += bench/README.md bench/run bench/mklarge.py \
	bench/baseline_parser.py bench/mkchanged.py bench/mktree.py bench/list_functions.py

# The native bitcode reader alone (issue 8): every function's interface
# decoded, nothing printed per function unless --each. For bench/run's
# `sig`-style rows next to openssl dgst -sha256 and llvm-dis.
noinst_PROGRAMS += bench/decode_interfaces
bench_decode_interfaces_SOURCES = bench/decode_interfaces.c
bench_decode_interfaces_LDADD = $(MTLBX_LIBS)

# The function table's sort and filter alone (issue 20), timed in CPU
# milliseconds for bench/run's "sort of 200,000 rows" row.
noinst_PROGRAMS += bench/sort_functions
bench_sort_functions_SOURCES = bench/sort_functions.c
bench_sort_functions_CPPFLAGS = $(AM_CPPFLAGS)
bench_sort_functions_LDADD = src/ui/libmtlbxui.a src/program/libmtlbxprogram.a $(MTLBX_LIBS)
