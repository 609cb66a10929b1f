#!/bin/sh
# Terminal behaviour: live resize (including below the minimum size),
# the four TERMs the issue names, NO_COLOR / --no-color, ASCII line
# drawing (--ascii and a non-UTF-8 locale), restoring the terminal on
# quit and on SIGTERM/SIGINT, and a hostile function name (an ESC
# sequence and invalid UTF-8) showing as visible escapes.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# --- resize -------------------------------------------------------------
start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
expect "00000010  70 9f 00 00"              # 16 bytes a row at 80 columns
T resize-window -t 0 -x 160 -y 40
wait_for "00000020  f9 04 00 00"            # 32 a row at 160: no row starts at 0x10
wait_gone "00000010  70 9f 00 00"
T resize-window -t 0 -x 60 -y 20
wait_for "00000058  08 00 00 00 a4 00 00 00  "   # 8 a row at 60 columns
T resize-window -t 0 -x 30 -y 10
wait_for "Terminal too small: 30x10"
T resize-window -t 0 -x 80 -y 24
wait_for "Functions (8)"
wait_gone "Terminal too small"
keys j
wait_for '"fragment_main"'
quit_and_check 0

# --- TERM and colour ------------------------------------------------------
for term in xterm-256color screen-256color vt100 linux; do
    start 80 24 "$term" -- "$SAMPLE"
    to_bytes
    wait_for "Functions (8)" || { echo "(TERM=$term)"; continue; }
    keys j Tab j
    wait_for "2 Detail" || echo "(TERM=$term)"
    quit_and_check 0 || echo "(TERM=$term)"
done

# A terminal that cannot draw the explorer is refused with a message.
start 80 24 dumb -- "$SAMPLE"
to_bytes
wait_for "EXITED:2"
expect "cannot position the cursor"
wait_for "STTY:same"
start 80 24 no-such-terminal -- "$SAMPLE"
to_bytes
wait_for "EXITED:2"
expect "cannot use terminal type 'no-such-terminal'"

colour_codes() { T capture-pane -p -e -t 0 | grep -c "$(printf '\033')\[[0-9;]*3[0-7][;m]"; }

# The selected function's bytes (its entry starts at 0x5c) are highlighted
# in the hex panel: a background colour, or bold/underline without colour.
hex_row_0x60() { T capture-pane -p -e -t 0 | grep "00000060"; }

start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
[ "$(colour_codes)" -gt 0 ] || fail "no colours by default on xterm-256color"
hex_row_0x60 | grep -q "$(printf '\033')\[[0-9;]*4[0-7]m4e 41 4d 45" || fail "node bytes not highlighted in colour"
quit_and_check 0

start 80 24 xterm-256color NO_COLOR=1 -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
[ "$(colour_codes)" -eq 0 ] || fail "colours despite NO_COLOR"
hex_row_0x60 | grep -q "$(printf '\033')\[[0-9;]*[14]m4e 41 4d 45" || fail "node bytes not highlighted without colour"
quit_and_check 0

start 80 24 xterm-256color -- --no-color "$SAMPLE"
to_bytes
wait_for "Functions (8)"
[ "$(colour_codes)" -eq 0 ] || fail "colours despite --no-color"
quit_and_check 0

# --- ASCII line drawing ---------------------------------------------------
start 80 24 xterm-256color -- --ascii "$SAMPLE"
to_bytes
wait_for "- Functions (8)"
wait_for "+ ok  vertex"
expect "|"
screen | grep -q "$(printf '\342\226')" && fail "UTF-8 glyphs despite --ascii"
quit_and_check 0

TEST_LC_ALL=C start 80 24 vt100 -- "$SAMPLE"
to_bytes
wait_for "- Functions (8)"
screen | grep -q "$(printf '\342\226')" && fail "UTF-8 glyphs in the C locale"
quit_and_check 0

# --- signals restore the terminal ------------------------------------------
pid_of_explorer() {
    _shell=$(T list-panes -t 0 -F '#{pane_pid}')
    ps -o pid= --ppid "$_shell" 2>/dev/null | tr -d ' ' | head -n 1
}
for sig in TERM INT HUP; do
    start 80 24 xterm-256color -- "$SAMPLE"
    to_bytes
    wait_for "Functions (8)"
    pid=$(pid_of_explorer)
    if [ -z "$pid" ]; then
        fail "cannot find the explorer's pid"
        continue
    fi
    kill -s "$sig" "$pid"
    wait_for "EXITED:" 10 && wait_for "STTY:same" 5
    expect_not "Functions (8)"
done

# --- hostile names -----------------------------------------------------------
# The sample with its first function renamed: "vertex_main" becomes ESC
# "[2J" (clear screen), an invalid byte 0xff and "rtex_m" (same length).
HOSTILE=$WORK/hostile.metallib
if command -v python3 >/dev/null 2>&1; then
    python3 - "$SAMPLE" "$HOSTILE" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
at = data.index(b'vertex_main\0')
data[at:at + 11] = b'\x1b[2J\xffrtex_m'
open(sys.argv[2], 'wb').write(data)
PY
    start 80 24 xterm-256color -- "$HOSTILE"
    to_bytes
    wait_for "Functions (8)"
    wait_for '\x1b[2J\xffrtex_m'
    expect "3 Hex"                              # the screen was not cleared
    keys e
    wait_for "Write module to:"
    expect_not "$(printf '\033')"
    keys Escape
    quit_and_check 0
else
    echo "note: python3 missing; hostile-name check skipped"
fi

finish
