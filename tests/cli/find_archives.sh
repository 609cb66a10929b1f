#!/bin/sh
# Archives by content (issue 21 item 3) and special operands (issue 23
# item 10): `mtlbx find` on a wheel, compressed tars, a zip inside a zip,
# nesting past the limit, a misnamed text file, compressed bytes that hold
# no archive, a FIFO and a device named on the command line; the header
# row on a terminal. The archives are built here by tests/mkrelease.py from
# corpus libraries (the project's fixtures without the corpus).
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
case $CORPUS in /*) ;; *) CORPUS=$(pwd)/$CORPUS ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
MK="python3 $SRC/tests/mkrelease.py"
M=$MTLBX_BIN

if [ -f "$CORPUS/angle-mac-msl21-v124.metallib" ] && [ -f "$CORPUS/angle-2019-ios-v123-nomdsz.metallib" ]; then
    LA=$CORPUS/angle-mac-msl21-v124.metallib LB=$CORPUS/angle-2019-ios-v123-nomdsz.metallib
else
    echo "note: no corpus at $CORPUS: using the project's fixtures"
    LA=$SRC/tests/fixtures/dylib-v129.metallib LB=$SRC/tests/fixtures/legacy-v122-ios.metallib
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-finda.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
. "$SRC/tests/expect_lib.sh"
# paths_are WHAT LINE...: the first column of $W/out is exactly these lines
paths_are() {
    _what=$1
    shift
    printf '%s\n' "$@" >"$W/want"
    cut -f1 "$W/out" | cmp -s - "$W/want" && ok "$_what" || { fail "$_what:"; cat "$W/out"; }
}
NA=$("$M" ls "$LA" | wc -l)
NB=$("$M" ls "$LB" | wc -l)
cd "$W" || exit 1

# ---- wheels and tars, recognised by content --------------------------------
$MK mlx-0.1-py3-none-any.whl "mlx/lib/mlx.metallib=$LA" "mlx/__init__.py=$SRC/tests/mkrelease.py" || exit 1
expect 0 "find on a wheel" -- "$M" find mlx-0.1-py3-none-any.whl
paths_are "the wheel's library listed" "mlx-0.1-py3-none-any.whl!mlx/lib/mlx.metallib"
[ "$(cut -f4 out)" = "$NA" ] && ok "its function count is ls's" || fail "function count: $(cat out)"
for t in rel.tar.gz rel.tgz rel.tar.xz rel.tar.bz2 rel.tar; do
    $MK "$t" "rel/a.metallib=$LA" "rel/sub/b=$LB" || exit 1
    expect 0 "find on $t" -- "$M" find "$t"
    paths_are "both libraries of $t" "$t!rel/a.metallib" "$t!rel/sub/b"
done
if tar --zstd -cf rel.tar.zst -C "$W" mlx-0.1-py3-none-any.whl 2>/dev/null; then
    expect 0 "find on a .tar.zst" -- "$M" find rel.tar.zst
    paths_are "a wheel inside a .tar.zst" "rel.tar.zst!mlx-0.1-py3-none-any.whl!mlx/lib/mlx.metallib"
else
    echo "SKIP (one check): tar cannot write zstd"
fi
# The same wheel named like nothing in particular is still read.
cp mlx-0.1-py3-none-any.whl wheel.bin
expect 0 "a zip named .bin" -- "$M" find wheel.bin
paths_are "found by content" "wheel.bin!mlx/lib/mlx.metallib"

# ---- nesting ---------------------------------------------------------------
$MK App.ipa "Payload/App.app/default.metallib=$LB" || exit 1
$MK outer.zip "dist/App.ipa=App.ipa" "top.metallib=$LA" || exit 1
expect 0 "find on a zip holding an .ipa" -- "$M" find outer.zip
paths_are "the .ipa's library named through both archives" \
    "outer.zip!dist/App.ipa!Payload/App.app/default.metallib" "outer.zip!top.metallib"
expect 0 "ls on a nested member path" -- "$M" ls "outer.zip!dist/App.ipa!Payload/App.app/default.metallib"
[ "$(wc -l <out)" = "$NB" ] && ok "the nested member opens" || fail "ls gave $(wc -l <out) lines"
"$M" dump --json "$LB" | python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("path"); print(json.dumps(d))' >d1
"$M" dump --json "outer.zip!dist/App.ipa!Payload/App.app/default.metallib" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("path"); print(json.dumps(d))' >d2
cmp -s d1 d2 && ok "dump --json of the nested member = the file" || fail "the nested member reads differently"
expect 2 "a nested member that is not there" -- "$M" info "outer.zip!dist/App.ipa!nope.metallib"
grep -q "no such member" err && ok "says no such member" || fail "$(cat err)"
# Five levels: the fifth is not opened, and that is said.
$MK l1.zip "lib.metallib=$LA" && $MK l2.zip "l1.zip=l1.zip" && $MK l3.zip "l2.zip=l2.zip" &&
    $MK l4.zip "l3.zip=l3.zip" && $MK l5.zip "l4.zip=l4.zip" || exit 1
expect 0 "four levels" -- "$M" find l4.zip
paths_are "read to the bottom" "l4.zip!l3.zip!l2.zip!l1.zip!lib.metallib"
expect 1 "five levels" -- "$M" find l5.zip
grep -qx "mtlbx: l5.zip: l4.zip!l3.zip!l2.zip!l1.zip: archives nested more than 4 deep: not opened" err &&
    ok "the level past the limit reported" || fail "$(cat err)"

# ---- what is not a metallib or an archive ----------------------------------
printf 'release notes\n' >notes.metallib
expect 1 "a text file named .metallib" -- "$M" find notes.metallib
grep -qx "mtlbx: notes.metallib: not a metallib: magic 72 65 6c 65 is neither MTLB nor CB FE BA BE" err &&
    ok "reported as not a metallib" || fail "$(cat err)"
$MK bad.whl "pkg/notes.metallib=notes.metallib" "pkg/good.metallib=$LA" || exit 1
expect 1 "a wheel holding a misnamed member" -- "$M" find bad.whl
paths_are "the good one still listed" "bad.whl!pkg/good.metallib"
grep -q "^mtlbx: bad.whl!pkg/notes.metallib: not a metallib" err && ok "the misnamed member reported" || fail "$(cat err)"
printf 'plain text\n' | gzip -c >readme.gz
expect 1 "compressed text named on the command line" -- "$M" find readme.gz
grep -q "^mtlbx: readme.gz: not a metallib, nor an archive" err && ok "said so" || fail "$(cat err)"
printf 'plain text\n' >readme.txt
expect 1 "a text file named on the command line" -- "$M" find readme.txt
mkdir quiet && cp readme.gz readme.txt quiet/ && cp "$LA" quiet/lib
expect 0 "the same files met in a folder" -- "$M" find quiet
paths_are "pass quietly" "quiet/lib"

# ---- special files as operands ---------------------------------------------
if mkfifo fifo 2>/dev/null; then
    expect 1 "find on a FIFO" -- timeout 20 "$M" find fifo
    grep -qx "mtlbx: fifo: not a regular file or folder (a FIFO)" err && ok "the FIFO reported" || fail "$(cat err)"
    for c in info ls check sig textconv; do
        expect 2 "$c on a FIFO" -- timeout 20 "$M" $c fifo
        grep -q "^mtlbx: fifo: not a regular file (a FIFO)$" err && ok "$c says not a regular file" || fail "$(cat err)"
    done
    expect 2 "diff with a FIFO" -- timeout 20 "$M" diff "$LA" fifo
    grep -q "not a regular file (a FIFO)" err && ok "diff says not a regular file" || fail "$(cat err)"
    cp "$LA" inside && mkdir withfifo && mv fifo withfifo/ && mv inside withfifo/
    expect 0 "a FIFO inside a folder is skipped" -- timeout 20 "$M" find withfifo
else
    echo "SKIP (some checks): cannot make a FIFO"
fi
if [ -c /dev/null ]; then
    expect 1 "find on a device" -- "$M" find /dev/null
    grep -qx "mtlbx: /dev/null: not a regular file or folder (a device)" err && ok "the device reported" || fail "$(cat err)"
    expect 2 "info on a device" -- "$M" info /dev/null
    grep -qx "mtlbx: /dev/null: not a regular file (a device)" err && ok "info says not a regular file" || fail "$(cat err)"
fi

# ---- the header row, on a terminal only -----------------------------------
expect 0 "find into a pipe" -- "$M" find mlx-0.1-py3-none-any.whl
grep -q "^PATH" out && fail "a header row went into a pipe"
if command -v script >/dev/null 2>&1; then
    script -qec "$M find mlx-0.1-py3-none-any.whl 2>/dev/null" /dev/null </dev/null >tty.out 2>&1
    tr -d '\r' <tty.out | head -1 | grep -q "^PATH	VERSION	TARGET	FUNCTIONS	PROBLEMS	REQUIRES$" &&
        ok "a header row on a terminal" || { fail "no header row on a terminal:"; cat tty.out; }
else
    echo "SKIP (one check): script(1) is not installed"
fi
exit $FAILED
