#!/bin/sh
# `info` and `ls` on a damaged library (CONTRACT: a section or module runs
# past the end of the file; issue 36): exit 1 with one line on stderr
# naming the file and the offset of the field that declares what is
# missing, `ls` still listing what it can read (no made-up module offset),
# and `info` never saying "every byte explained". Cuts of the sample at
# each kind of place (inside the header, the function list, the metadata,
# the module list, the embedded sources), of a fat file's second slice, and
# the issue's `head -c 5000` of a corpus library; the whole files stay
# exit 0 and quiet.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
SAMPLE=$SRC/data/sample.metallib
FAT=$SRC/tests/fixtures/fat.metallib
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-damaged.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

# whole FILE: exit 0 from both, nothing on stderr, every byte explained.
whole() {
    "$MTLBX_BIN" info "$1" >"$WORK/out" 2>"$WORK/err"
    st=$?
    [ $st -eq 0 ] && [ ! -s "$WORK/err" ] || fail "info $1: exit $st, stderr: $(cat "$WORK/err")"
    grep -q '(every byte explained)' "$WORK/out" || fail "info $1 does not explain every byte"
    "$MTLBX_BIN" ls "$1" >"$WORK/out" 2>"$WORK/err"
    st=$?
    [ $st -eq 0 ] && [ ! -s "$WORK/err" ] || fail "ls $1: exit $st, stderr: $(cat "$WORK/err")"
}

# damaged FILE OFFSET FUNCTIONS: what a cut file gives; OFFSET the field
# named, FUNCTIONS the lines ls still lists.
damaged() {
    "$MTLBX_BIN" info "$1" >"$WORK/out" 2>"$WORK/err"
    st=$?
    [ $st -eq 1 ] || fail "info on $1 exited $st, not 1"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "info on $1: not one line on stderr: $(cat "$WORK/err")"
    grep -q "^mtlbx: $1:$2: damaged library: " "$WORK/err" || fail "info on $1: the line does not name offset $2: $(cat "$WORK/err")"
    grep -q 'every byte explained' "$WORK/out" && fail "info on $1 says every byte is explained"
    grep -q '^Damaged ' "$WORK/out" || fail "info on $1 does not say it is damaged"
    "$MTLBX_BIN" ls "$1" >"$WORK/out" 2>"$WORK/err"
    st=$?
    [ $st -eq 1 ] || fail "ls on $1 exited $st, not 1"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "ls on $1: not one line on stderr: $(cat "$WORK/err")"
    grep -q "^mtlbx: $1:$2: damaged library: " "$WORK/err" || fail "ls on $1: the line does not name offset $2: $(cat "$WORK/err")"
    [ "$(grep -cv '^#' "$WORK/out")" -eq "$3" ] || fail "ls on $1 listed $(grep -cv '^#' "$WORK/out") functions, not $3"
    # A module that is not there has no offset and size to show.
    grep -q ' 0x00000000          0 ' "$WORK/out" && fail "ls on $1 shows a module at offset 0, size 0"
}

whole "$SAMPLE"
whole "$FAT"

# The sample's header fields (FORMAT §2): 24 function list offset, 32 its
# size, 64 private metadata size, 80 module list size; the HSRD entry of
# its header extension at 1379 (its size field).
head -c 60 "$SAMPLE" >"$WORK/header.metallib"
damaged "$WORK/header.metallib" 60 0
head -c 100 "$SAMPLE" >"$WORK/list.metallib"
damaged "$WORK/list.metallib" 32 1
head -c 2000 "$SAMPLE" >"$WORK/metadata.metallib"
damaged "$WORK/metadata.metallib" 64 8
head -c 20000 "$SAMPLE" >"$WORK/modules.metallib"
damaged "$WORK/modules.metallib" 80 8
head -c 40000 "$SAMPLE" >"$WORK/sources.metallib"
damaged "$WORK/sources.metallib" 1379 8
# Fat: the second slice's entry (at 28) runs past the end of the file.
head -c 7000 "$FAT" >"$WORK/fat.metallib"
damaged "$WORK/fat.metallib" 28 1

# Several files: the damaged one makes the status 1, the others list.
"$MTLBX_BIN" ls "$SAMPLE" "$WORK/modules.metallib" >"$WORK/out" 2>"$WORK/err"
st=$?
[ $st -eq 1 ] || fail "ls of a whole and a damaged file exited $st, not 1"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "ls of two files: not one line on stderr: $(cat "$WORK/err")"

# The issue's case, when the corpus is there.
if [ -f "$CORPUS/candle-steel-gemm.metallib" ]; then
    head -c 5000 "$CORPUS/candle-steel-gemm.metallib" >"$WORK/gemm.metallib"
    damaged "$WORK/gemm.metallib" 32 26
    whole "$CORPUS/candle-steel-gemm.metallib"
else
    echo "SKIP (corpus part): no corpus at $CORPUS"
fi
[ $FAILED -eq 0 ] || exit 1
exit 0
