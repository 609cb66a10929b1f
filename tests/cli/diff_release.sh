#!/bin/sh
# Release inventories (issue 21 item 4) and modules changed behind an
# unchanged HASH (issue 23 item 4): `mtlbx diff` on two generated folders,
# two generated wheels and a tar against a wheel (one library changed, one
# added, one removed) against the JSON of CONTRACT.md "Archives, folders
# and releases"; then a library against copies patched behind their HASH.
# Everything is generated here (tests/mkrelease.py, tests/compare_rebuild.py)
# from corpus libraries, or from the project's own without the corpus.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
case $CORPUS in /*) ;; *) CORPUS=$(pwd)/$CORPUS ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
M=$MTLBX_BIN
MK="python3 $SRC/tests/mkrelease.py"
if [ -f "$CORPUS/angle-mac-msl21-v124.metallib" ]; then
    LA=$CORPUS/angle-mac-msl21-v124.metallib LB=$CORPUS/angle-2019-ios-v123-nomdsz.metallib
    LD=$CORPUS/candle-steel-gemm.metallib
else
    echo "note: no corpus at $CORPUS: using the project's own libraries"
    LA=$SRC/data/sample.metallib LB=$SRC/tests/fixtures/legacy-v122-ios.metallib
    LD=$SRC/tests/fixtures/dylib-v129.metallib
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-diffr.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
. "$SRC/tests/expect_lib.sh"
cd "$W" || exit 1

# LA2: LA with its second function rebuilt (new module bytes, new HASH).
"$M" dump --json "$LA" >a.json || exit 1
NAME=$(python3 -c 'import json; print(json.load(open("a.json"))["libraries"][0]["functions"][1]["name"])')
python3 "$SRC/tests/compare_rebuild.py" a.json "$LA" LA2.metallib "$NAME" >/dev/null || exit 1

# ---- two folders, two wheels, a tar against a wheel -------------------------
$MK old "mlx/lib/mlx.metallib=$LA" "mlx/lib/gone.metallib=$LB" "mlx/lib/same.metallib=$LD" &&
    $MK new "mlx/lib/mlx.metallib=LA2.metallib" "mlx/lib/extra.metallib=$LB" "mlx/lib/same.metallib=$LD" &&
    $MK old.whl "mlx/lib/mlx.metallib=$LA" "mlx/lib/gone.metallib=$LB" "mlx/lib/same.metallib=$LD" &&
    $MK new.whl "mlx/lib/mlx.metallib=LA2.metallib" "mlx/lib/extra.metallib=$LB" "mlx/lib/same.metallib=$LD" &&
    $MK old.tar.gz "mlx/lib/mlx.metallib=$LA" "mlx/lib/gone.metallib=$LB" "mlx/lib/same.metallib=$LD" || exit 1
expect 1 "diff of two libraries" -- "$M" diff --json "$LA" LA2.metallib
cp out pair.json
check_release() {  # OLD NEW: the contract's object, the pair's diff inside
    python3 - "$1" "$2" "$W/out" "$W/pair.json" <<'PY'
import json, sys
old, new, out, pair = sys.argv[1:5]
d = json.load(open(out))
assert list(d)[:6] == ["a", "b", "identical", "added", "removed", "changed"], list(d)
assert (d["a"], d["b"], d["identical"]) == (old, new, False), d
assert d["added"] == ["mlx/lib/extra.metallib"], d["added"]
assert d["removed"] == ["mlx/lib/gone.metallib"], d["removed"]
assert [c["path"] for c in d["changed"]] == ["mlx/lib/mlx.metallib"], d["changed"]
inner, ref = d["changed"][0]["diff"], json.load(open(pair))
sep = "/" if not old.endswith((".whl", ".tar.gz")) else "!"
assert inner["a"] == old + sep + "mlx/lib/mlx.metallib", inner["a"]
for k in ("a", "b"):
    inner.pop(k), ref.pop(k)
assert inner == ref, "the changed library's diff is not diff's"
PY
}
for sides in "old new" "old.whl new.whl" "old.tar.gz new.whl"; do
    set -- $sides
    expect 1 "diff --json $1 $2" -- "$M" diff --json "$1" "$2"
    check_release "$1" "$2" && ok "$1 against $2: the contract's JSON" || fail "$1 against $2: $(head -c 600 out)"
done
expect 1 "diff of two folders, as text" -- "$M" diff old new
python3 - "$W/out" "$NAME" <<'PY' && ok "text: a line per library, the changed one's diff below it" || { fail "text:"; cat out; }
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "+ mlx/lib/extra.metallib", lines
assert lines[1] == "- mlx/lib/gone.metallib", lines
assert lines[2] == "~ mlx/lib/mlx.metallib", lines
assert lines[3].startswith("    old/mlx/lib/mlx.metallib -> new/mlx/lib/mlx.metallib: 1 function changed"), lines
assert any(l.startswith("    ~ ") and sys.argv[2] in l for l in lines[4:]), lines
assert lines[-1] == "old -> new: 1 library changed, 1 added, 1 removed, 1 the same", lines[-1]
PY
expect 0 "a release against itself" -- "$M" diff old.whl old.whl
grep -q "identical, 3 the same" out && ok "identical" || fail "$(cat out)"
expect 2 "a release against one library" -- "$M" diff old "$LA"
grep -q "a single library" err && ok "refused, saying why" || fail "$(cat err)"

# ---- modules changed behind an unchanged HASH ------------------------------
# LA-patched: one byte of function 1's module changed, its HASH left alone
# (hash_ok true -> false). LA-hurt1/2: the same module hurt in two
# different ways on both sides (hash_ok false on both: module_hash).
python3 - "$LA" a.json <<'PY' || exit 1
import json, sys
src, dump = sys.argv[1:3]
fn = json.load(open(dump))["libraries"][0]["functions"][1]
at = fn["module"]["offset"] + fn["module"]["size"] // 2
data = open(src, "rb").read()
def write(name, flip):
    b = bytearray(data)
    b[at] ^= flip
    open(name, "wb").write(b)
write("LA-patched.metallib", 0x40)
write("LA-hurt1.metallib", 0x01)
write("LA-hurt2.metallib", 0x02)
PY
cp "$LA" LA-copy.metallib
expect 0 "a byte-identical copy" -- "$M" diff "$LA" LA-copy.metallib
grep -q "identical" out && ok "says identical" || fail "$(cat out)"
expect 1 "a module patched behind its HASH" -- "$M" diff "$LA" LA-patched.metallib
grep -q "identical" out && fail "called identical: $(cat out)"
grep -q "hash_ok true -> false" out && ok "shown as hash_ok true -> false" || fail "$(cat out)"
expect 1 "the same, --json" -- "$M" diff --json "$LA" LA-patched.metallib
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["identical"] is False
ch = d["libraries"][0]["functions"]["changed"]
assert len(ch) == 1 and ch[0]["name"] == sys.argv[2], ch
assert "hash_ok" in [f["field"] for f in ch[0]["fields"]], ch' out "$NAME" && ok "hash_ok in the JSON" || fail "$(cat out)"
expect 1 "modules hurt differently on both sides" -- "$M" diff --json LA-hurt1.metallib LA-hurt2.metallib
python3 -c '
import json, sys
ch = json.load(open(sys.argv[1]))["libraries"][0]["functions"]["changed"]
f = {x["field"]: x for x in ch[0]["fields"]}
assert "module_hash" in f and f["module_hash"]["a"] != f["module_hash"]["b"], ch' out &&
    ok "module_hash tells them apart" || fail "$(cat out)"
# ---- a renamed function and a renamed library ------------------------------
# LA-renamed: function 1's NAME with its last byte changed (same HASH).
python3 - "$LA" a.json <<'PY' || exit 1
import json, sys
src, dump = sys.argv[1:3]
doc = json.load(open(dump))
fn = doc["libraries"][0]["functions"][1]
data = bytearray(open(src, "rb").read())
e = fn["entry"]
name = fn["name"].encode()
at = data.index(name + b"\0", e["offset"], e["offset"] + e["size"]) + len(name) - 1
data[at] = ord("Z") if data[at] != ord("Z") else ord("Y")
open("LA-renamed.metallib", "wb").write(data)
PY
expect 1 "a renamed function" -- "$M" diff --json "$LA" LA-renamed.metallib
python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["libraries"][0]["functions"]
assert f["added"] == [] and f["removed"] == [], f
assert [r["a"] for r in f["renamed"]] == [sys.argv[2]], f["renamed"]' out "$NAME" &&
    ok "recognised by its hash, not removed and added" || fail "$(head -c 800 out)"
expect 1 "the same as text" -- "$M" diff "$LA" LA-renamed.metallib
grep -q "^> .*$NAME -> .*(renamed: same hash)$" out && ok "a > line" || fail "$(cat out)"
# ---- the content of a changed source member, as diff -u ---------------------
S12=$CORPUS/metaljl-sources.12.metallib S26=$CORPUS/metaljl-sources.26.metallib
if [ -f "$S12" ] && [ -f "$S26" ] && command -v diff >/dev/null 2>&1; then
    expect 1 "two libraries with changed source members" -- "$M" diff "$S12" "$S26"
    grep -qx "~ source    metal-working-dir.txt" out &&
        grep -A6 -x "~ source    metal-working-dir.txt" out | grep -qx "    -/Users/tim/Julia/pkg/Metal/test/metallib" &&
        grep -A6 -x "~ source    metal-working-dir.txt" out | grep -qx "    +/Users/tim/Julia/pkg/Metal-14/test/metallib" &&
        ok "the member's content change shown as diff -u lines" || fail "$(cat out)"
    LC_ALL=C grep -q "$(printf '\033')" out && fail "a raw ESC reached the output"
    grep -q "^> source .*sources.metal -> .*sources.metal (renamed: same bytes)$" out &&
        ok "a moved member recognised by its bytes" || fail "$(cat out)"
else
    echo "SKIP (some checks): no corpus or no diff(1) for the source member diff"
fi
exit $FAILED
