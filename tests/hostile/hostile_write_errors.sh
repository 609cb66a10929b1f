#!/bin/sh
# Lost output is an error (issue 12, item 4): every command's standard
# output on /dev/full, and on a "full disk" (RLIMIT_FSIZE, with SIGXFSZ
# ignored so the write fails with EFBIG as on a full filesystem), must end
# in exit 2 and a message, never exit 0. The message is one line and gives
# the write's own reason (issue 35 item 14: `find --json` said
# "Inappropriate ioctl for device", the errno of an isatty() long before;
# find and diff said it twice). A file-size limit the process does not
# ignore killed it by SIGXFSZ without a word, leaving a half-written
# .mtlbx-tmp-* behind `extract` and `sources -o` (item 10): now the write
# fails, one line says so, and nothing is left.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
[ -w /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }

# An llvm-dis that prints 300 KB of "assembly": dis has plenty to lose.
cat >"$WORK/llvm-dis" <<'TOOL'
#!/bin/sh
cat >/dev/null
i=0
while [ $i -lt 6000 ]; do
    echo "  %$i = add i32 %a, %b ; padding padding padding"
    i=$((i + 1))
done
TOOL
chmod +x "$WORK/llvm-dis"
export MTLBX_LLVM_DIS="$WORK/llvm-dis"
name=$("$BIN" ls "$SAMPLE" | awk 'NR == 1 { print $NF }')
sources=$FIXTURES/hsrc-v125.metallib

# expect_lost LABEL CMD...: CMD with stdout on /dev/full.
expect_lost() {
    _label=$1
    shift
    "$@" >/dev/full 2>"$WORK/err"
    _rc=$?
    if [ $_rc -eq 2 ] && [ "$(cat "$WORK/err")" = "mtlbx: write error on standard output: No space left on device" ]
    then
        ok "$_label > /dev/full: exit 2: $(head -1 "$WORK/err")"
    else
        fail "$_label > /dev/full: exit $_rc, not one line with ENOSPC:"
        head -3 "$WORK/err"
    fi
}
expect_lost info "$BIN" info "$SAMPLE"
expect_lost ls "$BIN" ls "$SAMPLE"
expect_lost "dump --json" "$BIN" dump --json "$SAMPLE"
expect_lost check "$BIN" check "$FIXTURES/unknown-tags.metallib"
expect_lost dis "$BIN" dis "$SAMPLE" "$name"
expect_lost "sources --list" "$BIN" sources "$sources" --list
mkdir "$WORK/x"
expect_lost extract "$BIN" extract "$SAMPLE" -o "$WORK/x"
expect_lost --help "$BIN" --help
expect_lost "ls --names" "$BIN" ls --names "$SAMPLE"
expect_lost "dump --json --layout" "$BIN" dump --json --layout "$SAMPLE"
expect_lost sig "$BIN" sig "$SAMPLE"
expect_lost "sig --json" "$BIN" sig --json "$SAMPLE"
expect_lost src "$BIN" src "$SAMPLE" compute
expect_lost textconv "$BIN" textconv "$SAMPLE"
expect_lost find "$BIN" find "$SAMPLE"
expect_lost "find --json" "$BIN" find --json "$SAMPLE"
expect_lost diff "$BIN" diff "$SAMPLE" "$FIXTURES/fat.metallib"
expect_lost "diff --json" "$BIN" diff --json "$SAMPLE" "$FIXTURES/fat.metallib"
mkdir "$WORK/old" "$WORK/new"
cp "$SAMPLE" "$WORK/old/a.metallib"
cp "$FIXTURES/fat.metallib" "$WORK/new/a.metallib"
expect_lost "diff of two folders" "$BIN" diff "$WORK/old" "$WORK/new"

# A file-size limit of 64 KiB under `dis > out.ll`: a full disk mid-file.
(
    trap '' XFSZ
    ulimit -f 128
    exec "$BIN" dis "$SAMPLE" "$name" >"$WORK/out.ll" 2>"$WORK/err"
)
rc=$?
if [ $rc -eq 2 ] && grep -q "write error" "$WORK/err"; then
    ok "dis > out.ll on a full disk: exit 2 ($(wc -c <"$WORK/out.ll") bytes written)"
else
    fail "dis > out.ll on a full disk: exit $rc"
    head -3 "$WORK/err"
fi
# The same limit, SIGXFSZ not ignored: the write fails all the same.
(
    ulimit -f 128
    exec "$BIN" dis "$SAMPLE" "$name" >"$WORK/out.ll" 2>"$WORK/err"
)
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$WORK/err")" = "mtlbx: write error on standard output: File too large" ]; then
    ok "dis > out.ll under ulimit -f, SIGXFSZ not ignored: exit 2, one line"
else
    fail "dis > out.ll under ulimit -f, SIGXFSZ not ignored: exit $rc"
    head -3 "$WORK/err"
fi

# extract and sources -o under a limit of 1 KiB (sh counts 512-byte
# blocks; every module and the sample's largest source are larger): one
# line per file that could not be written, exit 2, no temporary file left,
# and what fits is still written.
# limited LABEL CMD...: CMD under `ulimit -f 2`, SIGXFSZ not ignored.
limited() {
    _label=$1
    shift
    rm -rf "$WORK/lim"
    mkdir "$WORK/lim"
    (
        ulimit -f 2
        exec "$@" >"$WORK/out" 2>"$WORK/err"
    )
    _rc=$?
    _left=$(find "$WORK/lim" -name '.mtlbx-tmp-*' | wc -l)
    if [ $_rc -eq 2 ] && [ "$_left" -eq 0 ] && grep -q ': write failed: File too large$' "$WORK/err"; then
        ok "$_label under ulimit -f: exit 2, nothing left: $(head -1 "$WORK/err")"
    else
        fail "$_label under ulimit -f: exit $_rc, $_left temporary files left"
        head -3 "$WORK/err"
    fi
}
limited "extract -f compute_main" "$BIN" extract "$SAMPLE" -o "$WORK/lim" -f compute_main
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "extract: not one line: $(cat "$WORK/err")"
[ -z "$(ls -A "$WORK/lim")" ] || fail "extract left: $(ls -A "$WORK/lim")"
limited "sources -o" "$BIN" sources "$SAMPLE" -o "$WORK/lim"
[ "$(grep -c 'write failed' "$WORK/err")" -eq 1 ] || fail "sources -o: $(cat "$WORK/err")"
[ -f "$WORK/lim/0/metal-options.txt" ] || fail "sources -o: the members that fit were not written"
finish
