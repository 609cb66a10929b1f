#!/bin/sh
# The README's C and Python examples, as a reader copies them: the C one
# built with pkg-config's flags alone says how to run it when given no
# file and lists the sample's kernels; the Python CI check fails a library
# exactly when `mtlbx check --os macos:14.0` finds an error of the OS rule
# (a warning, such as a library built for iOS, is printed, not failed).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
need_python

# A fenced block of README.md: the one that holds MARKER.
block() {
    awk -v m="$1" '
        /^```/ { if (in_block && found) { printf "%s", text; exit } in_block = !in_block; text = ""; found = 0; next }
        in_block { text = text $0 "\n"; if (index($0, m)) found = 1 }' "$SRC/README.md"
}
block '/* kernels.c:' >"$WORK/kernels.c"
block '"""every_kernel_loads.py' >"$WORK/every_kernel_loads.py"
[ -s "$WORK/kernels.c" ] && [ -s "$WORK/every_kernel_loads.py" ] || { fail "README examples not found"; finish; }

# shellcheck disable=SC2046
if ! $CC -o "$WORK/kernels" "$WORK/kernels.c" $(pkg-config --cflags --libs mtlbx) 2>"$WORK/cc.err"; then
    fail "kernels.c does not build: $(head -5 "$WORK/cc.err")"
    finish
fi
with_lib "$WORK/kernels" >"$WORK/out" 2>"$WORK/err"
st=$?
[ $st -eq 2 ] && grep -q '^usage: kernels ' "$WORK/err" && ok "kernels.c without a file says how to run it" ||
    fail "kernels.c without a file: exit $st, $(cat "$WORK/err")"
SAMPLE=$SRC/data/sample.metallib
with_lib "$WORK/kernels" "$SAMPLE" >"$WORK/out" 2>"$WORK/err" || fail "kernels.c on the sample: $(cat "$WORK/err")"
want=$("$BIN" ls "$SAMPLE" | awk '$2 == "kernel"' | wc -l)
[ "$want" -gt 0 ] && [ "$(wc -l <"$WORK/out")" -eq "$want" ] && ok "kernels.c lists the sample's $want kernels" ||
    fail "kernels.c on the sample: $(cat "$WORK/out")"

site=$(ls -d "$PREFIX"/lib/python3*/*-packages 2>/dev/null | head -n 1)
export PYTHONPATH="$site"
n=0
for f in $FIXTURE_FILES; do
    "$BIN" check --os macos:14.0 --json "$f" >"$WORK/check.json" 2>/dev/null
    want=0
    grep -q '"severity":"error".*"rule":"os"' "$WORK/check.json" && want=1
    with_python "$WORK/every_kernel_loads.py" "$f" >"$WORK/py.out" 2>"$WORK/py.err"
    got=$?
    if [ $got -ne $want ]; then
        fail "every_kernel_loads.py $f: exit $got, check --os says $want: $(cat "$WORK/py.out" "$WORK/py.err" | head -5)"
    elif [ $want -eq 0 ] && grep -q ': warning: ' "$WORK/py.out"; then
        n=$((n + 1))   # a warning printed, and the job not failed
    fi
done
ok "every_kernel_loads.py agrees with check --os on every fixture ($n with warnings only)"
finish
