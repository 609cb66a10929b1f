#!/bin/sh
# `mtlbx diff` of a fat file against a file with fewer libraries: the
# libraries that only one side has are reported, not read. The pass that
# lets go of each side's entries behind it (issue 22) must skip the side
# that is not there: it crashed on this pair before that was checked.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
CORPUS=${MTLBX_CORPUS:-}
A=$CORPUS/libtracepoint-rt-watchos-fat.metallib
B=$CORPUS/libtracepoint-rt-xros.metallib
if [ -z "$CORPUS" ] || [ ! -f "$A" ] || [ ! -f "$B" ]; then
    echo "SKIP: MTLBX_CORPUS with the libtracepoint-rt files is not set"
    exit 77
fi
fail=0
for args in "$A $B" "$B $A" "--json $A $B"; do
    # shellcheck disable=SC2086 # the words of args
    out=$("$MTLBX_BIN" diff $args 2>&1)
    rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "FAIL: diff $args: exit $rc (want 1: different)"
        fail=1
    elif ! printf '%s\n' "$out" | grep -q 'in one file only\|"only_in"\|only in'; then
        echo "FAIL: diff $args: the one-sided library is not reported"
        printf '%s\n' "$out" | head -3
        fail=1
    else
        echo "ok: diff $args"
    fi
done
exit $fail
