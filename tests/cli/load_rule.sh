#!/bin/sh
# One answer to "will it load" (issue 41; CONTRACT.md "Requirements", "The
# release gate", "Comparing two libraries"): on libraries crafted by
# tests/mkloadrule.py (forged headers both ways, mixed triples, a newer
# minor, macOS 10.x, a lying function list, a cut file, a reordered
# library) and on every corpus file, each place that answers gives the
# same version: info's "Loads on", dump --json's requires, sig's comment,
# check --os and find --os (at that version: no finding; one release
# below: an error), check --os declared (a wheel declaring that version),
# and Python's check_os through the C library. Plain check names each lie
# of a function list and a header that is not the triples; a cut file is
# not OK for check, ls --verify or mtlbx_verify; diff does not call a
# reordered library identical; pack packs a newer-minor module with a note
# and refuses a newer release, naming both. Needs python3 and llvm-as
# (the crafted modules); the corpus part skips without the corpus.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
case $CORPUS in /*) ;; *) CORPUS=$(pwd)/$CORPUS ;; esac
LIBDIR=$(dirname "$MTLBX_BIN")/lib/.libs
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
LLVM_AS=${LLVM_AS:-$(command -v llvm-as || command -v llvm-as-19 || command -v llvm-as-14)}
[ -n "$LLVM_AS" ] || { echo "SKIP: llvm-as is not installed (the crafted modules need it)"; exit 77; }
M=$MTLBX_BIN
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-loadrule.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
python3 "$SRC/tests/mkloadrule.py" "$W/c" "$LLVM_AS" || { echo "mkloadrule.py failed"; exit 1; }
cd "$W" || exit 1

# Python through the built C library, when it loads (python.sh tests the module itself).
PY=
if [ -f "$LIBDIR/libmtlbx.so.1" ] &&
    LD_LIBRARY_PATH=$LIBDIR PYTHONPATH=$SRC/python python3 -c 'import mtlbx' 2>/dev/null; then
    PY=1
else
    echo "note: the Python module does not load from this build: its answers are not compared"
fi
py() { LD_LIBRARY_PATH=$LIBDIR PYTHONPATH=$SRC/python python3 -c "$@"; }

# below PLATFORM VERSION: the release before it ("15.0" -> "14.0"; on macOS
# "10.14" -> "10.13", as each 10.x was a release).
below() {
    case $1:$2 in
    macOS:10.*) echo "10.$((${2#10.} - 1))" ;;
    *) echo "$((${2%%.*} - 1)).0" ;;
    esac
}

# agree FILE PLATFORM VERSION: every place answers VERSION for FILE's one library.
agree() {
    empty= f=$1 plat=$2 want=$3 low=$(below "$2" "$3") name=$(basename "$1")
    lower=$(echo "$plat" | tr 'A-Z' 'a-z')
    got=$("$M" info "$f" 2>/dev/null | sed -n "s/^Loads on  $plat \([0-9.]*\) or later.*/\1/p")
    [ "$got" = "$want" ] || fail "$name: info says Loads on $plat '$got', expected $want"
    got=$("$M" dump --json "$f" 2>/dev/null | python3 -c 'import json,sys
d = json.load(sys.stdin)["libraries"][0]
fv = sorted({f["requires"]["version"] for f in d["functions"]}, key=lambda v: tuple(map(int, v.split("."))))
print(d["requires"]["version"], fv[-1] if fv else "-")')
    case $got in
    "$want $want") ;;
    "$want -") empty=1 ;; # no function: sig has nothing to say
    *) fail "$name: dump --json requires (library, highest function): $got, expected $want" ;;
    esac
    got=$("$M" sig "$f" 2>/dev/null | sed -n "s|^// requires $plat \([0-9.]*\):.*|\1|p" | sort -t. -k1,1n -k2,2n | tail -1)
    [ "$got" = "$want" ] || [ -n "$empty" ] || fail "$name: sig's highest requirement comment: '$got', expected $want"
    for cmd in check find; do
        "$M" $cmd --os "$lower:$want" "$f" >out 2>&1
        grep -q "error: \(library\|function\) .*needs" out && fail "$name: $cmd --os $lower:$want: $(cat out)"
        "$M" $cmd --os "$lower:$low" "$f" >out 2>&1
        grep -q "error: library needs $plat $want" out || fail "$name: $cmd --os $lower:$low gives no 'needs $plat $want': $(cat out)"
    done
    if [ "$plat" = macOS ]; then
        # A wheel declaring the version: the release gate's verdict is the same.
        for v in "$want" "$low"; do
            tag=macosx_$(echo "$v" | tr . _)_arm64
            rm -rf rel.whl && python3 "$SRC/tests/mkrelease.py" "p-1.0-py3-none-$tag.whl" "p/k.metallib=$f" || exit 1
            "$M" check --os declared "p-1.0-py3-none-$tag.whl" >out 2>&1
            e=$(grep -c "error: library needs" out)
            [ "$v" = "$want" ] && [ "$e" != 0 ] && fail "$name: --os declared at $v: $(cat out)"
            [ "$v" = "$low" ] && [ "$e" = 0 ] && fail "$name: --os declared at $v finds nothing: $(cat out)"
            rm -f "p-1.0-py3-none-$tag.whl"
        done
    fi
    if [ -n "$PY" ]; then
        got=$(py 'import mtlbx, sys
f = mtlbx.open(sys.argv[1])
hi = [x for x in f.check_os(sys.argv[2] + ":" + sys.argv[3]) if x[0] == "error"]
lo = [x for x in f.check_os(sys.argv[2] + ":" + sys.argv[4]) if x[0] == "error"]
print(len(hi), len(lo) > 0)' "$f" "$plat" "$want" "$low")
        [ "$got" = "0 True" ] || fail "$name: Python check_os at $want and $low: $got"
    fi
}

while IFS="	" read -r name version; do
    plat=macOS
    [ "$name" = nonmac.metallib ] && plat=iOS
    before=$FAILED
    agree "c/$name" "$plat" "$version"
    [ "$FAILED" = "$before" ] && ok "$name: every place answers $plat $version"
done <c/expected.tsv

# --- plain check: the header against the triples, both ways ------------------
"$M" check c/forged-down.metallib >out 2>&1
grep -q "warning: the header's deployment target (os_version) is macOS 14.0, the modules' target triple says macOS 15.0" out &&
    ok "check: a header forged down is a warning naming both" || fail "forged down: $(cat out)"
"$M" check c/forged-up.metallib >out 2>&1
grep -q "warning: the header's deployment target (os_version) is macOS 15.0, the modules' target triple says macOS 14.0" out &&
    ok "check: a header forged up is a warning naming both" || fail "forged up: $(cat out)"
"$M" check c/honest.metallib >out 2>&1 && [ ! -s out ] && ok "check: an honest library is clean" ||
    fail "honest: $(cat out)"
# The newer minor on iOS: loads on macOS (measured), not known elsewhere; --os and
# --os declared say the same.
"$M" check --os ios:17.0 c/nonmac.metallib >out 2>&1
grep -q "warning: library's target triple asks for iOS 17.2, a newer minor than iOS 17.0" out &&
    ! grep -q "error" out && ok "check --os ios:17.0: a newer minor is a warning, not an error" || fail "nonmac: $(cat out)"

# --- plain check: a function list that lies -----------------------------------
"$M" check c/lying.metallib >out 2>&1
st=$?
[ $st = 1 ] || fail "lying: check exits $st"
for words in "function named_wrong: NAME is named_wrong, but its module defines no function of that name (its entry is real_name)" \
    "function typed_wrong: TYPE is vertex, but its module declares it a kernel function" \
    "function air_wrong: AIR version is 2.4 in the function list, 2.3 in its module" \
    "function msl_wrong: MSL version is 2.4 in the function list, 2.3 in its module"; do
    grep -qF "error: $words" out && ok "check: $words" || fail "lying: no '$words' in: $(cat out)"
done
[ "$(grep -c error out)" = 4 ] || fail "lying: not four errors: $(cat out)"

# --- a cut file: nobody says OK -----------------------------------------------
"$M" check c/cut.metallib >out 2>&1 && fail "check of a cut file exits 0" || ok "check: a cut file is a finding"
"$M" ls --verify c/cut.metallib >out 2>&1 && fail "ls --verify of a cut file exits 0" || true
[ "$(grep -c 'module could not be read, so it is not verified' out)" = 2 ] &&
    ok "ls --verify: the two modules cut off are named" || fail "ls --verify: $(cat out)"
if [ -n "$PY" ]; then
    got=$(py 'import mtlbx, sys, ctypes
from mtlbx import _native as n
f = mtlbx.open(sys.argv[1])
print(sorted(x.name for x in f.verify()), n.lib.mtlbx_verify(f._h.ptr) == n.OK)' c/cut.metallib 2>&1)
    [ "$got" = "['b', 'c'] False" ] && ok "Python verify() and mtlbx_verify: the cut modules, not OK" ||
        fail "Python/C verify of a cut file: $got"
fi

# --- diff: another order is not identical --------------------------------------
"$M" diff c/order-a.metallib c/order-b.metallib >out 2>&1
st=$?
[ $st = 1 ] && ! grep -q identical out && ok "diff: a reordered library is a change" || fail "diff order: $st $(cat out)"
"$M" diff --json c/order-a.metallib c/order-b.metallib | python3 -c 'import json, sys
d = json.load(sys.stdin)
h = d["libraries"][0]["header"]
assert not d["identical"] and h == [{"field": "function_order", "a": ["a", "b", "c"], "b": ["c", "a", "b"]}], h' &&
    ok "diff --json: {field: function_order}" || fail "diff --json of a reordered library"

# --- pack: Metal's rule for --target ------------------------------------------
"$M" unpack c/minor.metallib -o un >/dev/null 2>&1 && "$M" pack un -o back.metallib >out 2>&1 &&
    "$M" info back.metallib | grep -q "target *macOS 13.0" &&
    ok "pack: a library of 13.2 modules under a 13.0 header packs back with its own target" ||
    fail "pack back of minor.metallib: $(cat out)"
"$M" pack --target macos:13.0 un/k.air -o t.metallib >out 2>&1 &&
    grep -q "note: function k is built for macOS 13.2.0 .*a newer minor than the target macOS 13.0" out &&
    ok "pack --target: a newer minor is packed, with a note" || fail "pack newer minor: $(cat out)"
"$M" pack --target macos:12.0 un/k.air -o t12.metallib >out 2>&1
[ $? = 2 ] && grep -q "built for macOS 13.2.0 .*newer than the target macOS 12.0 by a release" out && [ ! -e t12.metallib ] &&
    ok "pack --target: a newer release is refused, naming both" || fail "pack newer release: $(cat out)"
# One parser: what check --os refuses, pack --target refuses too.
for spec in "macos:14.300" "macos-simulator:14.0" "ios:" "vision:1.0" "14.0"; do
    "$M" check --os "$spec" c/honest.metallib >/dev/null 2>&1
    a=$?
    "$M" pack --target "$spec" un/k.air -o s.metallib >/dev/null 2>&1
    b=$?
    [ $a = 2 ] && [ $b = 2 ] || fail "--os/--target $spec: check $a, pack $b (both should refuse)"
done
for spec in "iOS-simulator:17.0" "xros:2.0" "MacCatalyst:17.0"; do
    "$M" check --os "$spec" c/honest.metallib >/dev/null 2>&1
    [ $? != 2 ] || fail "check --os $spec refused"
done
ok "check --os and pack --target refuse the same spellings"

# --- the corpus: every place, one answer ---------------------------------------
if [ -d "$CORPUS" ]; then
    n=0
    for f in "$CORPUS"/*.metallib; do
        line=$("$M" info "$f" 2>/dev/null | sed -n 's/^Loads on  \([A-Za-z]*\) \([0-9.]*\) or later.*/\1 \2/p')
        # One library with a known version (fat files have a line per slice).
        [ "$(echo "$line" | grep -c .)" = 1 ] || continue
        set -- $line
        case $1 in macOS | iOS | tvOS | visionOS | macCatalyst) ;; *) continue ;; esac
        [ "$2" = "${2#0}" ] || continue
        case $2 in 10.* | *.0) ;; *) continue ;; esac
        before=$FAILED
        agree "$f" "$1" "$2"
        [ "$FAILED" = "$before" ] && n=$((n + 1))
    done
    [ $n -gt 20 ] && ok "corpus: every place gives one answer on $n libraries" || fail "corpus: only $n libraries agree"
else
    echo "note: no corpus at $CORPUS: only the crafted libraries are compared"
fi
exit $FAILED
