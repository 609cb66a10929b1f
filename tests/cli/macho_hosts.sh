#!/bin/sh
# Metallibs inside Mach-O files (issue 34): `find`, `ls`, `info`, `dump`,
# `diff` and `check` see a metallib in any section of a Mach-O host, thin
# or universal, 32- or 64-bit, either byte order, on disk or inside a
# wheel, named HOST!SEGMENT,SECTION (ARCH!SEGMENT,SECTION in a universal
# file); its LC_BUILD_VERSION gates it under --os declared; hostile load
# commands give one line and the survey goes on. The hosts are built here
# by tests/mkmacho.py around the project's own fixtures (always runs).
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
M=$MTLBX_BIN
MK="python3 $SRC/tests/mkmacho.py"
REL="python3 $SRC/tests/mkrelease.py"
L26=$SRC/tests/fixtures/dylib-v129.metallib   # macOS 26.0, triple air64_v28-apple-macosx26.0.0
L15=$SRC/data/sample.metallib                 # macOS 15.0, triple ...-macosx15.0.0
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-macho.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
. "$SRC/tests/expect_lib.sh"
cd "$W" || exit 1
N26=$("$M" ls "$L26" | wc -l)
N15=$("$M" ls "$L15" | wc -l)

# ---- where the metallibs are ------------------------------------------------
$MK libk.dylib --section "__TEXT,metal_basic=$L26" --minos macos:14.0 || exit 1
$MK uni.dylib --section "__TEXT,metal_basic=$L26" --minos macos:14.0 --universal arm64,x86_64 || exit 1
$MK uni64.dylib --section "__TEXT,metal_basic=$L26" --minos macos:14.0 --universal arm64,i386 --fat64 || exit 1
$MK ppc.dylib --section "__DATA,metallib=$L15" --arch ppc --minos macos:10.5 --version-min || exit 1
$MK two.dylib --section "__TEXT,metal_basic=$L26" --section "__DATA,shaders=$L15" || exit 1
$MK plain.dylib --minos macos:14.0 || exit 1

expect 0 "find on a thin host" -- "$M" find libk.dylib
[ "$(cut -f1,4 out)" = "libk.dylib!__TEXT,metal_basic	$N26" ] && ok "named HOST!SEGMENT,SECTION, $N26 functions" ||
    fail "thin host: $(cat out)"
expect 0 "find on universal hosts" -- "$M" find uni.dylib uni64.dylib
printf 'uni.dylib!arm64!__TEXT,metal_basic\nuni.dylib!x86_64!__TEXT,metal_basic\nuni64.dylib!arm64!__TEXT,metal_basic\nuni64.dylib!i386!__TEXT,metal_basic\n' >want
cut -f1 out | cmp -s - want && ok "each slice's section, named by its arch (32- and 64-bit records)" ||
    fail "universal hosts: $(cat out)"
expect 0 "find on a 32-bit big-endian host" -- "$M" find ppc.dylib
[ "$(cut -f1,4 out)" = "ppc.dylib!__DATA,metallib	$N15" ] && ok "ppc: any segment, any section" || fail "ppc: $(cat out)"
expect 0 "find on a host without a metallib" -- "$M" find plain.dylib
[ ! -s out ] && [ ! -s err ] && ok "nothing to list, nothing said" || fail "plain host: $(cat out err)"

# In a wheel (read in one pass as it is decompressed) and in a folder.
$REL torch-2.9-cp312-none-macosx_14_0_arm64.whl "torch/lib/libtorch_cpu.dylib=libk.dylib" \
    "torch/lib/uni.so=uni.dylib" "torch/__init__.py=$SRC/tests/mkmacho.py" || exit 1
expect 0 "find on a wheel holding hosts" -- "$M" find torch-2.9-cp312-none-macosx_14_0_arm64.whl
printf '%s\n' "torch-2.9-cp312-none-macosx_14_0_arm64.whl!torch/lib/libtorch_cpu.dylib!__TEXT,metal_basic" \
    "torch-2.9-cp312-none-macosx_14_0_arm64.whl!torch/lib/uni.so!arm64!__TEXT,metal_basic" \
    "torch-2.9-cp312-none-macosx_14_0_arm64.whl!torch/lib/uni.so!x86_64!__TEXT,metal_basic" >want
cut -f1 out | cmp -s - want && ok "ARCHIVE!MEMBER!SEGMENT,SECTION" || fail "wheel: $(cat out)"
mkdir -p tree/App.app/Contents/Frameworks && cp libk.dylib tree/App.app/Contents/Frameworks/K
expect 0 "find on a folder holding a host" -- "$M" find tree
[ "$(cut -f1 out)" = "tree/App.app/Contents/Frameworks/K!__TEXT,metal_basic" ] && ok "found by content, not name" ||
    fail "folder: $(cat out)"

# ---- every command opens them ----------------------------------------------
"$M" ls "$L26" >ls.want
expect 0 "ls HOST!SEGMENT,SECTION" -- "$M" ls 'libk.dylib!__TEXT,metal_basic'
cmp -s out ls.want && ok "the section's library, as ls of the file itself" || fail "ls: $(cat out err)"
expect 0 "ls HOST (one metallib)" -- "$M" ls libk.dylib
cmp -s out ls.want && ok "a host with one metallib opens it" || fail "ls HOST: $(cat out err)"
expect 0 "ls ARCHIVE!MEMBER!SEGMENT,SECTION" -- "$M" ls \
    'torch-2.9-cp312-none-macosx_14_0_arm64.whl!torch/lib/uni.so!x86_64!__TEXT,metal_basic'
cmp -s out ls.want && ok "a section of a host inside a wheel" || fail "ls in wheel: $(cat out err)"
expect 2 "ls on a host with two metallibs" -- "$M" ls two.dylib
grep -q "2 metallibs in its sections: name one, as HOST!__TEXT,metal_basic or HOST!__DATA,shaders" err &&
    ok "names them: $(cat err)" || fail "two: $(cat err)"
expect 2 "ls on a host with none" -- "$M" ls plain.dylib
grep -q "not a metallib: a Mach-O file with no metallib in its sections" err && ok "says so" || fail "none: $(cat err)"
expect 0 "dump --json HOST!SEGMENT,SECTION" -- "$M" dump --json 'uni.dylib!arm64!__TEXT,metal_basic'
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(len(d["libraries"][0]["functions"]) != int(sys.argv[2]))' \
    out "$N26" && ok "its document" || fail "dump: $(head -c 300 out)"
expect 0 "info ARCH!SEGMENT,SECTION" -- "$M" info 'uni64.dylib!i386!__TEXT,metal_basic'
expect 1 "diff of two hosts" -- "$M" diff libk.dylib two.dylib
grep -q '^+ __DATA,shaders$' out && grep -q '1 added, 1 the same' out && ok "paired by section" || fail "diff: $(cat out)"
# Two wheels holding hosts: their sections are read ahead, once per wheel.
$MK lib15.dylib --section "__TEXT,metal_basic=$L15" --minos macos:14.0 || exit 1
$REL old.whl "t/lib.dylib=libk.dylib" "t/uni.so=uni.dylib" || exit 1
$REL new.whl "t/lib.dylib=lib15.dylib" "t/uni.so=uni.dylib" || exit 1
expect 1 "diff of two wheels holding hosts" -- "$M" diff old.whl new.whl
grep -q '^~ t/lib.dylib!__TEXT,metal_basic$' out && grep -q 'old.whl -> new.whl: 1 library changed, 2 the same' out &&
    ok "the changed section, the universal one's two the same" || fail "diff of wheels: $(cat out)"

# ---- check takes them; LC_BUILD_VERSION gates them (--os declared) ---------
expect 0 "check on a host" -- "$M" check libk.dylib
expect 1 "check --os declared on a host whose minos is 14.0" -- "$M" check --os declared libk.dylib
grep -q '^libk.dylib!__TEXT,metal_basic:0: error: library needs macOS 26.0, more than the macOS 14.0 its package declares (LC_BUILD_VERSION minos 14.0 of libk.dylib (arm64)): target triple air64_v28-apple-macosx26.0.0' out &&
    ok "the slice's minimum OS is the floor" || fail "check --os declared: $(cat out)"
expect 1 "check --os declared HOST!SEGMENT,SECTION" -- "$M" check --os declared 'libk.dylib!__TEXT,metal_basic'
grep -q '(LC_BUILD_VERSION minos 14.0 of libk.dylib (arm64))' out && ok "its slice's minimum, named alone" ||
    fail "HOST!SECTION: $(cat out)"
$MK uni26.dylib --section "__TEXT,metal_basic=$L26" --minos macos:26.0 --universal arm64,x86_64 || exit 1
expect 0 "check --os declared on a universal host at minos 26.0" -- "$M" check --os declared uni26.dylib
expect 1 "find --os declared on a universal host at minos 14.0" -- "$M" find --os declared uni.dylib
[ "$(grep -c 'error: library needs macOS 26.0, more than the macOS 14.0' out)" -eq 2 ] &&
    grep -q 'LC_BUILD_VERSION minos 14.0 of uni.dylib (x86_64)' out && ok "each slice by its own minimum" ||
    fail "universal: $(cat out)"
expect 1 "check --os declared on a 32-bit big-endian host (LC_VERSION_MIN_MACOSX 10.5)" -- "$M" check --os declared ppc.dylib
grep -q 'more than the macOS 10.5 its package declares (LC_VERSION_MIN minos 10.5 of ppc.dylib (ppc))' out &&
    ok "LC_VERSION_MIN_MACOSX is a floor too" || fail "ppc: $(cat out)"

# ---- hostile load commands: one line each, the survey goes on --------------
for kind in ncmds cmdsize0 cmdsize-past sizeofcmds-past nsects section-past section-overlap truncated; do
    $MK "bad-$kind.dylib" --section "__TEXT,metal_basic=$L26" --minos macos:14.0 --hostile "$kind" || exit 1
done
for kind in fat-count fat-overlap; do
    $MK "bad-$kind.dylib" --section "__TEXT,metal_basic=$L26" --minos macos:14.0 --universal arm64,x86_64 \
        --hostile "$kind" || exit 1
done
for f in bad-*.dylib; do
    "$M" find "$f" libk.dylib >out 2>err
    st=$?
    if [ $st -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "^mtlbx: $f: Mach-O at offset [0-9]*: " err &&
        grep -q '^libk.dylib!__TEXT,metal_basic' out; then
        ok "$f: exit 1, $(cat err)"
    else
        fail "$f: exit $st, stdout $(cut -f1 out | tr '\n' ' '), stderr $(cat err)"
    fi
done
# check: the same line on stderr (exit 2: not all could be read), and the
# next operand is still checked.
"$M" check bad-cmdsize0.dylib libk.dylib >out 2>err
st=$?
[ $st -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q '^mtlbx: bad-cmdsize0.dylib: Mach-O at offset 36: ' err &&
    ok "check on a hostile host: exit 2, $(cat err)" || fail "check hostile: exit $st, $(cat out err)"
# What can still be read is read: the extra commands are past the real ones.
"$M" find bad-ncmds.dylib >out 2>err
grep -q '^bad-ncmds.dylib!__TEXT,metal_basic' out && ok "a lying ncmds still lists the real section" ||
    fail "ncmds: $(cat out err)"
exit $FAILED
