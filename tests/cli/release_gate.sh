#!/bin/sh
# The release gate (issue 34): `find` and `check --os declared` hold each
# library against the minimum its package declares (a wheel's platform
# tag and WHEEL Tag: lines, an app's binary or XML Info.plist, a Mach-O
# host's LC_BUILD_VERSION) in Metal's own words; `check --expect` is the
# kernel inventory; `check --json` and `--format github` are for CI. The
# packages are built here around real corpus libraries (tests/mkrelease.py,
# tests/mkmacho.py, Python's plistlib), never committed:
#   metaljl-kernel.26   macOS 26.0, triple air64_v28-apple-macosx26.0.0, MSL 4.0, AIR 2.8, one kernel foo
#   metaljl-kernel.13   macOS 13.0, triple air64-apple-macosx13.0.0, kernel foo
#   metaljl-kernels.13  macOS 13.0, kernels foo bar baz
#   ccv-mfa-ios16       iOS 16.0, triple air64-apple-ios16.0.0, MSL 3.0, AIR 2.5
#   mistralrs-empty-default  a library without functions (mistral.rs shipped one)
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
case $CORPUS in /*) ;; *) CORPUS=$(pwd)/$CORPUS ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
for f in metaljl-kernel.26 metaljl-kernel.13 metaljl-kernels.13 ccv-mfa-ios16 mistralrs-empty-default; do
    [ -f "$CORPUS/$f.metallib" ] || { echo "SKIP: no corpus at $CORPUS (set MTLBX_CORPUS): $f.metallib"; exit 77; }
done
M=$MTLBX_BIN
REL="python3 $SRC/tests/mkrelease.py"
MK="python3 $SRC/tests/mkmacho.py"
L26=$CORPUS/metaljl-kernel.26.metallib L13=$CORPUS/metaljl-kernel.13.metallib
K13=$CORPUS/metaljl-kernels.13.metallib IOS16=$CORPUS/ccv-mfa-ios16.metallib
EMPTY=$CORPUS/mistralrs-empty-default.metallib
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-gate.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
. "$SRC/tests/expect_lib.sh"
cd "$W" || exit 1
# has WHAT TEXT...: each TEXT is in $W/out
has() {
    _what=$1
    shift
    for _t in "$@"; do
        grep -qF -- "$_t" out || { fail "$_what: no \"$_t\" in: $(cat out)"; return; }
    done
    ok "$_what"
}
# both COMMAND...: find and check give exit $1 on the operands
both() {
    _st=$1 _what=$2
    shift 2
    expect "$_st" "find --os declared: $_what" -- "$M" find --os declared "$@"
    cp out find.out
    expect "$_st" "check --os declared: $_what" -- "$M" check --os declared "$@"
}

# ---- a wheel's platform tag -------------------------------------------------
WHL=mlx-0.29.0-cp312-cp312-macosx_14_0_arm64.whl
$REL "$WHL" "mlx/lib/mlx.metallib=$L26" "mlx/__init__.py=$SRC/tests/mkrelease.py" || exit 1
both 1 "a macosx_14_0 wheel holding a macOS 26 library" "$WHL"
WORDS="$WHL!mlx/lib/mlx.metallib:0: error: library needs macOS 26.0, more than the macOS 14.0 its package declares (wheel tag macosx_14_0_arm64 in the file name $WHL): target triple air64_v28-apple-macosx26.0.0, which Metal refuses below macOS 26 (\"Unsupported target triple\"); language version 4.0, first supported on macOS 26.0; deployment target 0x00020008 (AIR 2.8), first supported on macOS 26.0"
[ "$(cat out)" = "$WORDS" ] && ok "check: one error, both versions, in Apple's words, the triple deciding" ||
    fail "check's words: $(cat out)"
grep -qxF -- "$WORDS" find.out && ok "find: the same finding after the library's line" || fail "find: $(cat find.out)"
$REL ok-1.0-cp312-cp312-macosx_14_0_arm64.whl "mlx/lib/mlx.metallib=$L13" || exit 1
both 0 "a macosx_14_0 wheel holding a macOS 13 library" ok-1.0-cp312-cp312-macosx_14_0_arm64.whl
[ ! -s out ] && ok "no finding" || fail "macOS 13 in a 14.0 wheel: $(cat out)"

# The WHEEL's Tag: lines (after the library in the archive) count, and the
# lowest version declared is the floor.
printf 'Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp312-cp312-macosx_13_0_arm64\n' >WHEEL
$REL pkg-1.0-py3-none-any.whl "pkg/k.metallib=$L26" "pkg-1.0.dist-info/WHEEL=WHEEL" || exit 1
both 1 "a WHEEL Tag: line, the file name saying none" pkg-1.0-py3-none-any.whl
has "the WHEEL is named" "more than the macOS 13.0 its package declares (wheel tag macosx_13_0_arm64 in pkg-1.0-py3-none-any.whl!pkg-1.0.dist-info/WHEEL)"
$REL two-1.0-cp312-cp312-macosx_14_0_arm64.whl "two/k.metallib=$L13" "two-1.0.dist-info/WHEEL=WHEEL" || exit 1
$REL low-1.0-cp312-cp312-macosx_12_0_arm64.whl "low/k.metallib=$L13" || exit 1
both 1 "a macOS 13 library in a wheel declaring 12.0" low-1.0-cp312-cp312-macosx_12_0_arm64.whl
has "the triple decides" "library needs macOS 13.0, more than the macOS 12.0 its package declares" \
    "target triple air64-apple-macosx13.0.0, which Metal refuses below macOS 13" "language version 3.0, first supported on macOS 13.0"
both 0 "file name 14.0 and WHEEL 13.0 around a macOS 13 library: the lowest, 13.0, holds" \
    two-1.0-cp312-cp312-macosx_14_0_arm64.whl
$REL dist.zip "wheels/$WHL=$WHL" || exit 1
both 1 "a wheel inside a zip: the inner wheel's name is its floor" dist.zip
has "named by the inner wheel" "dist.zip!wheels/$WHL!mlx/lib/mlx.metallib:0: error: library needs macOS 26.0, more than the macOS 14.0 its package declares (wheel tag macosx_14_0_arm64 in the file name $WHL)"

# ---- an app's Info.plist, binary in an .ipa, XML in a folder ---------------
python3 -c 'import plistlib, sys
for v in ("15.0", "16.0"):
    with open("Info-%s.plist" % v, "wb") as f:
        plistlib.dump({"CFBundleIdentifier": "org.example.app", "MinimumOSVersion": v,
                       "CFBundleSupportedPlatforms": ["iPhoneOS"]}, f, fmt=plistlib.FMT_BINARY)
with open("Info-mac.plist", "wb") as f:
    plistlib.dump({"CFBundleIdentifier": "org.example.mac", "LSMinimumSystemVersion": "13.0"}, f)' || exit 1
[ "$(head -c 8 Info-15.0.plist)" = bplist00 ] || { fail "plistlib did not write a binary plist"; exit 1; }
$REL A15.ipa "Payload/A.app/Info.plist=Info-15.0.plist" "Payload/A.app/default.metallib=$IOS16" || exit 1
$REL A16.ipa "Payload/A.app/default.metallib=$IOS16" "Payload/A.app/Info.plist=Info-16.0.plist" || exit 1
both 1 "an .ipa whose binary Info.plist says MinimumOSVersion 15.0, holding an iOS 16 library" A15.ipa
has "the plist is named, in Apple's words" \
    "A15.ipa!Payload/A.app/default.metallib:0: error: library needs iOS 16.0, more than the iOS 15.0 its package declares (MinimumOSVersion 15.0 in A15.ipa!Payload/A.app/Info.plist)" \
    "target triple air64-apple-ios16.0.0" "language version 3.0, first supported on iOS 16.0" \
    "deployment target 0x00020005 (AIR 2.5), first supported on iOS 16.0"
both 0 "the same at MinimumOSVersion 16.0 (the plist after the library)" A16.ipa
expect 1 "check --os declared ARCHIVE!MEMBER reads the declarations beside it" -- \
    "$M" check --os declared 'A15.ipa!Payload/A.app/default.metallib'
has "the member's app plist" "(MinimumOSVersion 15.0 in A15.ipa!Payload/A.app/Info.plist)"
expect 2 "check on a member that is not there" -- "$M" check 'A15.ipa!Payload/A.app/none.metallib'
mkdir -p Mac.app/Contents/Resources && cp Info-mac.plist Mac.app/Contents/Info.plist &&
    cp "$L26" Mac.app/Contents/Resources/default.metallib || exit 1
both 1 "an .app folder whose XML Info.plist says LSMinimumSystemVersion 13.0" Mac.app
has "the folder's plist" "more than the macOS 13.0 its package declares (LSMinimumSystemVersion 13.0 in Mac.app/Contents/Info.plist)"
both 1 "the library named alone still has its app's floor" Mac.app/Contents/Resources/default.metallib
has "looked in the folders above it" "LSMinimumSystemVersion 13.0 in Mac.app/Contents/Info.plist"

# ---- a Mach-O host's LC_BUILD_VERSION ---------------------------------------
$MK libk.dylib --section "__TEXT,metal_basic=$L26" --minos macos:14.0 || exit 1
$MK libk26.dylib --section "__TEXT,metal_basic=$L26" --minos macos:26.0 --universal arm64,x86_64 || exit 1
both 1 "a dylib whose __TEXT,metal_basic holds a macOS 26 library, minos 14.0" libk.dylib
has "LC_BUILD_VERSION is the floor" \
    "libk.dylib!__TEXT,metal_basic:0: error: library needs macOS 26.0, more than the macOS 14.0 its package declares (LC_BUILD_VERSION minos 14.0 of libk.dylib (arm64))"
both 0 "the same at minos 26.0, universal" libk26.dylib
$REL torch-2.9-cp312-none-macosx_11_0_arm64.whl "torch/lib/libtorch_cpu.dylib=libk26.dylib" || exit 1
both 1 "that dylib in a macosx_11_0 wheel: the wheel's tag is lower" torch-2.9-cp312-none-macosx_11_0_arm64.whl
has "the lowest floor, the wheel's" "more than the macOS 11.0 its package declares (wheel tag macosx_11_0_arm64"

# ---- nothing declared; header and triple disagree ---------------------------
mkdir plain && cp "$L26" plain/k.metallib || exit 1
both 1 "a library nothing declares a minimum for" plain
has "one warning, where it looked" "plain/k.metallib:0: warning: library for macOS: nothing declares the oldest macOS it must load on; looked at a wheel's platform tag (k.metallib is not a wheel's name), the folders above it (no .app, .appex or .framework)"
[ "$(wc -l <out)" -eq 1 ] && ok "one line" || fail "more than one line: $(cat out)"
# The header forged to macOS 15 (bytes 12-13): Metal still reads the triple.
python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[12:14] = (15).to_bytes(2, "little")
open(sys.argv[2], "wb").write(b)' "$L26" forged.metallib || exit 1
$REL forged-1.0-cp312-cp312-macosx_15_0_arm64.whl "f/k.metallib=forged.metallib" || exit 1
both 1 "a header saying 15.0 over a 26.0 triple, in a 15.0 wheel" forged-1.0-cp312-cp312-macosx_15_0_arm64.whl
has "the triple decides, the disagreement is said" "library needs macOS 26.0, more than the macOS 15.0" \
    "warning: the header's deployment target (os_version) is macOS 15.0, the modules' target triple says macOS 26.0 (air64_v28-apple-macosx26.0.0, 1 module): Metal decides by the triple"

# ---- check --expect ---------------------------------------------------------
printf '# the kernels the host asks for\nfoo\n  bar  \nkernel_mul_mv_ext_bf16_f32_r1_2\n\n' >kernels.txt
expect 1 "check --expect: a missing name" -- "$M" check --expect kernels.txt "$K13"
[ "$(cat out)" = "$K13:0: error: function kernel_mul_mv_ext_bf16_f32_r1_2 is missing, which kernels.txt expects" ] &&
    ok "one error naming it (foo and bar are there)" || fail "expect: $(cat out)"
printf 'f*\nba?\n[bf]oo\n' >globs.txt
expect 0 "check --expect: globs that match" -- "$M" check --expect globs.txt "$K13"
printf 'f*\nq*\n' >globs2.txt
expect 1 "check --expect: a glob that matches nothing" -- "$M" check --expect globs2.txt "$K13"
has "the glob is named" "no function matches q*, which globs2.txt expects"
expect 1 "check --expect OLDER.metallib" -- "$M" check --expect "$K13" "$L26"
printf '%s\n' "$L26:0: error: function bar is missing, which $K13 expects" \
    "$L26:0: error: function baz is missing, which $K13 expects" >want
cmp -s out want && ok "every function of the older library, each missing one named" || fail "older: $(cat out)"
$REL old-1.0-py3-none-any.whl "a/k.metallib=$K13" || exit 1
$REL new-1.0-py3-none-any.whl "a/k.metallib=$K13" "a/more.metallib=$L26" || exit 1
expect 0 "check --expect OLDER.whl on a newer wheel that keeps them all" -- "$M" check --expect old-1.0-py3-none-any.whl \
    new-1.0-py3-none-any.whl
expect 1 "check --expect on an empty library" -- "$M" check --expect kernels.txt "$EMPTY"
has "an empty library fails any --expect" "$EMPTY:0: error: library has no functions, and kernels.txt expects 3 names"
printf '# nothing asked for by name\n\n' >none.txt
expect 1 "check --expect with a list that names nothing" -- "$M" check --expect none.txt "$K13"
[ "$(cat out)" = "$K13:0: error: none.txt names no function: an --expect list that names nothing checks nothing" ] &&
    ok "an empty list is a finding, not a pass" || fail "empty list: $(cat out)"
expect 1 "check --expect with a library that has no function" -- "$M" check --expect "$EMPTY" "$K13"
has "an empty library as the list is refused too" "names no function"
expect 2 "check --expect on a list that cannot be read" -- "$M" check --expect missing.txt "$K13"
expect 2 "check --expect on a .metallib that is not one" -- "$M" check --expect kernels.metallib "$K13"

# ---- CI formats ---------------------------------------------------------------
expect 1 "check --json" -- "$M" check --json --os declared --expect kernels.txt "$WHL" plain
python3 -c 'import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) >= 4, lines
rules = set()
for l in lines:
    o = json.loads(l)
    assert set(o) == {"file", "offset", "severity", "message", "rule"}, o
    assert o["severity"] in ("error", "warning") and isinstance(o["offset"], int), o
    rules.add(o["rule"])
assert rules == {"os-declared", "expect"}, rules' out && ok "JSON Lines: file, offset, severity, message, rule" ||
    fail "--json: $(cat out)"
mkdir -p 'odd,dir:50%' && cp "$WHL" 'odd,dir:50%/' || exit 1
expect 1 "check --format github" -- "$M" check --format github --os declared "odd,dir:50%/$WHL"
has "an annotation, GitHub's escaping in the file property" \
    "::error file=odd%2Cdir%3A50%25/$WHL,title=mtlbx check (os-declared)::odd,dir:50%25/$WHL!mlx/lib/mlx.metallib:0: library needs macOS 26.0"
[ "$(wc -l <out)" -eq 1 ] && ok "one annotation, on the archive (a file GitHub knows), the member in its message" ||
    fail "github: $(cat out)"
expect 2 "--format nonsense" -- "$M" check --format yaml "$L13"
exit $FAILED
