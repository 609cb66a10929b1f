#!/bin/sh
# Out of memory never becomes a smaller "clean" answer (issue 12, item 1).
# `ls` on 2,000,000 minimal function entries and `dump --json` on
# 1,000,000 (200,000 in a sanitizer build), each under a range of memory
# limits (`ulimit -v` in a subshell; in a sanitizer build, its allocator refusing large blocks):
# at every limit the command either prints everything and exits 0, or
# exits 2 naming the file and "out of memory". At least one limit must
# hit the failure path, so the test cannot pass without exercising it.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
DUMP_N=1000000
if asan_build; then
    # Blocks above the size fail, instead of the whole address space
    # being capped. The function table is an anonymous mapping, decoded
    # in blocks (container/lazy_table.c), which this limit does not
    # govern; the largest allocation left that grows with the functions
    # is 1 byte each (2 MB here), so 1 MB is the limit that must fail.
    # Fewer entries for dump: the sanitizers make every function slow.
    LIMITS="1 16 64"
    DUMP_N=200000
    limited() {
        _mb=$1
        shift
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=$_mb" "$@"
    }
else
    LIMITS="100 200 400"
    limited() {
        _mb=$1
        shift
        (ulimit -v $((_mb * 1024)) && exec "$@")
    }
fi

python3 "$SRC/tests/hostile_mklib.py" "$WORK/2m.metallib" 2000000 || exit 1
python3 "$SRC/tests/hostile_mklib.py" "$WORK/1m.metallib" $DUMP_N || exit 1
"$BIN" ls "$WORK/2m.metallib" >"$WORK/ls.full" 2>"$WORK/err" || { fail "ls without a limit"; cat "$WORK/err"; }
"$BIN" dump --json "$WORK/1m.metallib" >"$WORK/dump.full" 2>"$WORK/err" || { fail "dump without a limit"; cat "$WORK/err"; }
hit=0
# check NAME LIMIT STATUS OUT FULL: the invariant for one run.
check() {
    if [ "$3" -eq 0 ]; then
        if cmp -s "$4" "$5" && [ ! -s "$WORK/err" ]; then
            ok "$1 under $2 MB: complete, exit 0"
        else
            fail "$1 under $2 MB: exit 0 with incomplete output ($(wc -c <"$4") of $(wc -c <"$5") bytes)"
            head -3 "$WORK/err"
        fi
    elif [ "$3" -eq 2 ] && grep -q "\.metallib.*out of memory" "$WORK/err"; then
        hit=$((hit + 1))
        ok "$1 under $2 MB: exit 2: $(head -1 "$WORK/err")"
    else
        fail "$1 under $2 MB: exit $3 without an out-of-memory message:"
        head -3 "$WORK/err"
    fi
}
for mb in $LIMITS; do
    limited "$mb" "$BIN" ls "$WORK/2m.metallib" >"$WORK/out" 2>"$WORK/err"
    check ls "$mb" $? "$WORK/out" "$WORK/ls.full"
    limited "$mb" "$BIN" dump --json "$WORK/1m.metallib" >"$WORK/out" 2>"$WORK/err"
    check "dump --json" "$mb" $? "$WORK/out" "$WORK/dump.full"
done
[ $hit -gt 0 ] || fail "no limit made the parser run out of memory: the test proves nothing"
finish
