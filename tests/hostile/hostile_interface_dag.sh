#!/bin/sh
# Metadata nodes that share children (issue 23, item 6): a kernel whose
# argument's air.struct_type_info holds the same child twice, 25 levels
# deep (tests/hostile_mkbitcode.py, under 1 KB), stands for 2^25 values
# written out. Every command that prints interfaces must stay within a
# time and a memory bound, report the cut as a diagnostic with an offset
# inside the module, and keep what is above the cut (stage, names,
# bindings). Also inside a zip archive (the same code path).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
if asan_build; then
    SECONDS_MAX=300
    limited() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=512" "$@"; }
else
    SECONDS_MAX=60
    limited() { (ulimit -v 600000 && exec "$@"); }   # 600 MB; unbounded it took 7 GB
fi
# run STATUS NAME ARGS...: the command under the bounds, its exit status checked.
run() {
    _want=$1 _name=$2
    shift 2
    limited timeout "$SECONDS_MAX" "$BIN" "$@" >"$WORK/out" 2>"$WORK/err"
    _st=$?
    if [ "$_st" -eq "$_want" ]; then
        ok "$_name: exit $_st"
    else
        fail "$_name: exit $_st, want $_want (124: over ${SECONDS_MAX} s; 134/137/2: out of memory?)"
        head -3 "$WORK/err"
    fi
}
# cut_reported NAME: a warning naming the file and an offset inside the module.
cut_reported() {
    grep -q "^mtlbx: $WORK/[a-z.!]*:[0-9][0-9]*: F: .*interface cut" "$WORK/err" ||
        { fail "$1: no cut warning with an offset"; head -3 "$WORK/err"; }
}
need timeout
python3 "$SRC/tests/hostile_mkbitcode.py" "$WORK/dag.metallib" dag 25 || exit 1
python3 "$SRC/tests/hostile_mkbitcode.py" "$WORK/dag2.metallib" dag 25 leag || exit 1
python3 "$SRC/tests/hostile_mkbitcode.py" "$WORK/small.metallib" dag 10 || exit 1
[ "$(wc -c <"$WORK/dag.metallib")" -lt 2048 ] || fail "the DAG library is not small"

# A DAG that fits the budget is printed whole, with no warning.
run 0 "sig --json, 2^10 values" sig --json "$WORK/small.metallib"
[ ! -s "$WORK/err" ] || fail "a warning for a DAG within the budget: $(cat "$WORK/err")"
python3 - "$WORK/out" <<'PY' || fail "sig --json did not write the 2^10 DAG out in full"
import json, sys
arg = json.load(open(sys.argv[1]))[0]["inputs"][0]
def leaves(v):
    return sum(leaves(x) for x in v) if isinstance(v, list) else 1
assert leaves(arg["properties"]["struct_type_info"]) == 1024
PY

run 1 "sig" sig "$WORK/dag.metallib"
cut_reported "sig"
grep -q '^kernel void F(.*device const float\* x \[\[buffer(0)\]\]' "$WORK/out" || fail "sig lost the declaration: $(head -3 "$WORK/out")"

run 1 "sig --json" sig --json "$WORK/dag.metallib"
cut_reported "sig --json"
python3 - "$WORK/out" "$WORK/dag.metallib" <<'PY' || fail "sig --json: the cut interface is not what was kept"
import json, os, sys
o = json.load(open(sys.argv[1]))[0]
x = o["inputs"][0]
assert (o["stage"], x["name"], x["kind"], x["location"], x["type"]) == ("kernel", "x", "buffer", 0, "float"), x
assert o["error"]["severity"] == "warning" and 0 < o["error"]["offset"] < os.path.getsize(sys.argv[2]), o["error"]
PY

run 0 "dump --json --interfaces" dump --json --interfaces "$WORK/dag.metallib"
python3 - "$WORK/out" "$WORK/dag.metallib" <<'PY' || fail "dump --json --interfaces: no cut diagnostic inside the module"
import json, os, sys
lib = json.load(open(sys.argv[1]))["libraries"][0]
d = [d for d in lib["diagnostics"] if "interface cut" in d["message"]]
assert len(d) == 1 and d[0]["severity"] == "warning", lib["diagnostics"]
m = lib["functions"][0]["module"]
assert m["offset"] <= d[0]["offset"] < m["offset"] + m["size"], (d, m)
assert lib["functions"][0]["interface"]["inputs"][0]["name"] == "x"
PY

run 1 "diff --json" diff --json "$WORK/dag.metallib" "$WORK/dag2.metallib"
grep -q '"identical": false' "$WORK/out" || fail "diff --json: not a difference"
run 1 "diff" diff "$WORK/dag.metallib" "$WORK/dag2.metallib"

run 0 "textconv" textconv "$WORK/dag.metallib"
grep -q '^  input buffer(0) x: float' "$WORK/out" || fail "textconv lost the argument"
grep -q '^  interface cut: .* (at [0-9]*)$' "$WORK/out" || fail "textconv does not say the interface was cut"

# Inside an archive: the same path.
python3 "$SRC/tests/mkzip.py" "$WORK/app.zip" "d:Payload/dag.metallib=$WORK/dag.metallib" || exit 1
run 1 "sig --json inside a zip" sig --json "$WORK/app.zip!Payload/dag.metallib"
grep -q "interface cut" "$WORK/err" || fail "sig --json inside a zip: no cut warning"
finish
