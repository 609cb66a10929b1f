#!/bin/sh
# The explorer stays fluent (issue 11): a slow llvm-dis runs in the
# background, the keys still work, and Esc or Ctrl-C cancels it with no
# process and no temporary file left; long names are cut in the middle;
# filter and sort; search counts its matches and wraps; p finds a hash
# mismatch; y copies through OSC 52 (read back from tmux's clipboard);
# the mouse clicks and scrolls (raw SGR reports, as xterm sends them).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# A fake llvm-dis that reads the module, then hangs: its pid is what
# must be gone after a cancel (exec keeps the pid).
cat > "$WORK/slow-dis" <<SCRIPT
#!/bin/sh
echo \$\$ > '$WORK/dis.pid'
cat > /dev/null
echo "; partial output"
exec sleep 60
SCRIPT
chmod +x "$WORK/slow-dis"
mkdir "$WORK/tmp"

gone() {
    _pid=$(cat "$WORK/dis.pid" 2>/dev/null)
    [ -n "$_pid" ] || { fail "the fake llvm-dis never started"; return; }
    _i=0
    while [ $_i -lt 50 ] && ps -o stat= -p "$_pid" >/dev/null 2>&1; do
        sleep 0.1
        _i=$((_i + 1))
    done
    # Neither running nor a zombie: killed and reaped.
    if ps -o stat= -p "$_pid" >/dev/null 2>&1; then
        fail "llvm-dis (pid $_pid) still there: $(ps -o stat=,args= -p "$_pid")"
    fi
    rm -f "$WORK/dis.pid"
    [ -z "$(ls -A "$WORK/tmp")" ] || fail "temporary files left: $(ls -A "$WORK/tmp")"
}

start 80 24 xterm-256color TMPDIR="$WORK/tmp" -- --llvm-dis "$WORK/slow-dis" "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "(Esc cancels)"
# The UI still answers: j moves the selection while llvm-dis runs.
keys j
wait_for "1 Tree  5/18"
wait_for "sample.metallib: fragment"
expect "(Esc cancels)"
keys Escape
wait_for "llvm-dis cancelled"
gone
expect_not "partial output"
# Quitting (Q) while it runs leaves nothing behind either.
keys d
wait_for "(Esc cancels)"
keys Q
wait_for "EXITED:0" 10
gone

# Ctrl-C cancels too and does not end the explorer. (The test's own
# shell in the pane gets the SIGINT as well, so this one runs last in
# its session: the session is not reused after it.)
start 80 24 xterm-256color TMPDIR="$WORK/tmp" -- --llvm-dis "$WORK/slow-dis" "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "(Esc cancels)"
keys C-c
wait_for "llvm-dis cancelled"
gone
expect "1 Tree"
keys j
wait_for "1 Tree  5/18"

# *: expands everything below in the background, the selection staying
# on its row; then the tree has more rows than the 18 it opened with.
start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys g '*'
wait_for "expanded everything below"
expect "1 Tree  1/"
expect_not "1 Tree  1/18 "
rows=$(screen | sed -n 's/.*1 Tree  1\/\([0-9]*\).*/\1/p' | head -1)
[ "${rows:-0}" -gt 100 ] || fail "after *, only ${rows:-?} rows"
keys j
wait_for "1 Tree  2/$rows"
quit_and_check

# Search: the count of matches, n steps through them and wraps.
click() { T send-keys -t 0 -l "$(printf '\033[<%s;%s;%sM\033[<%s;%s;%sm' "$1" "$2" "$3" "$1" "$2" "$3")"; }
start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys /
wait_for "Search names/tags"
type_text _main
keys Enter
# From vertex_main, itself a match: the next one.
wait_for "match 2/"
expect "1 Tree  5/18  match 2/"
keys n
wait_for "match 3/"
keys N N N
wait_for "(wrapped to the last match)"
keys Escape
wait_for "search highlights cleared"
quit_and_check

# Mouse: a click on a tree row selects it, one on the detail panel
# focuses it; the wheel moves three rows.
start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys g
wait_for "1 Tree  1/18"
click 0 10 8
wait_for "1 Tree  6/18"
T send-keys -t 0 -l "$(printf '\033[<65;10;8M')"
wait_for "1 Tree  9/18"
T send-keys -t 0 -l "$(printf '\033[<64;10;8M')"
wait_for "1 Tree  6/18"
click 0 50 6
wait_for "2 Detail  TYPE"
quit_and_check

# --no-mouse: the same report is plain keys, not a click.
start 80 24 xterm-256color -- --no-mouse "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys g
click 0 10 8
sleep 0.5
expect_not "1 Tree  6/18"
keys Escape
quit_and_check

# p: the next problem. A copy of the sample with one module byte changed
# has a hash mismatch.
cp "$SAMPLE" "$WORK/bad.metallib"
printf 'Z' | dd of="$WORK/bad.metallib" bs=1 seek=$((0xc94 + 200)) conv=notrunc 2>/dev/null
start 100 30 xterm-256color -- "$WORK/bad.metallib"
to_bytes
wait_for "1 hash mismatch"
keys g p
wait_for "hash mismatch (HASH does not match the module)"
expect "bad.metallib: vertex"
quit_and_check

# y: OSC 52 with the selected name; tmux with set-clipboard on turns it
# into a paste buffer, so what arrives is decoded base64.
start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
T set-option -g set-clipboard on
wait_for "Functions (8)"
keys j
wait_for "sample.metallib: fragment"
keys y
wait_for "copied the name: fragment_main"
[ "$(T show-buffer 2>/dev/null)" = "fragment_main" ] || fail "clipboard holds '$(T show-buffer 2>&1)', not fragment_main"
keys 3 y
wait_for "copied the offset: 0x"
quit_and_check

# Corpus: long names, filter and sort.
GEMM=$CORPUS/candle-steel-gemm.metallib
if [ -f "$GEMM" ]; then
    last=$("$MTLBX_BIN" ls "$GEMM" | awk 'NR == 1 { print $NF }')
    tail20=$(printf '%s' "$last" | tail -c 20)
    start 80 24 xterm-256color -- "$GEMM"
    to_bytes
    wait_for "Functions (240)"
    # Cut in the middle: the end that tells the kernels apart shows.
    keys '>' '>' '>'
    wait_for "tree 48 columns"
    screen | sed -n 6p | grep -F -q -- "$tail20" || fail "last 20 characters ($tail20) not in the first function's row"
    screen | sed -n 6p | grep -F -q -- "…" || fail "no ellipsis in the cut row"
    # The status line shows the whole name (wrapped).
    screen | tail -4 | tr -d '\n' | grep -F -q -- "$last" || fail "status does not show $last whole"
    # The title keeps its counts and a gap.
    wait_for "  240 functions, hashes checked" 60   # hashing may still run (ASan, a loaded CI)
    # Filter: kernels with tt_float32 in the name; the count matches ls.
    want=$("$MTLBX_BIN" ls "$GEMM" | grep -c tt_float32)
    keys f
    wait_for "Filter (words"
    type_text tt_float32
    keys Enter
    wait_for "filter tt_float32: $want of 240 functions"
    expect "filter tt_float32: $want/240"
    # Sort by name: the first row is the smallest name among them.
    first=$("$MTLBX_BIN" ls "$GEMM" | awk '{ print $NF }' | grep tt_float32 | LC_ALL=C sort | head -1)
    keys S
    wait_for "functions, in name order"
    keys g j j j
    wait_for "1 Tree  4/"
    screen | tail -4 | tr -d '\n' | grep -F -q -- "$first" || fail "sorted by name, the first function is not $first"
    # Esc clears the filter.
    keys Escape
    wait_for "filter cleared"
    expect "/247  in name order"
    expect_not "filter tt_float32"
    # Counts: 5j moves five rows, 10G goes to row 10.
    keys g 5 j
    wait_for "1 Tree  6/247"
    keys 1 0 G
    wait_for "1 Tree  10/247"
    quit_and_check
else
    echo "note: corpus not found at $CORPUS; the long-name, filter and sort checks did not run"
fi
finish
