#!/bin/sh
# The explorer with an llvm-dis that fails, floods, hangs or says nothing (fake tools,
# so this runs the same with or without LLVM installed). Each time the
# explorer must report it or show what it got, stay usable (move, open
# the help, quit cleanly with exit 0 and the terminal restored), and never
# let the tool's bytes act on the terminal.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

tool() { # tool NAME BODY: an executable sh script in $WORK
    printf '#!/bin/sh\n%s\n' "$2" > "$WORK/$1"
    chmod +x "$WORK/$1"
}
tool failing 'cat >/dev/null; printf "error: Invalid bitcode \033[2J\033]0;pwned\007signature\n" >&2; exit 3'
# 200 MB of IR whose lines carry ESC sequences: capped at 64 MiB.
tool flooding 'cat >/dev/null; yes "define void @f() ; \033[31mred\033[0m" | head -c 200000000'
# Never exits, and a grandchild keeps stdout open: only the timeout
# (30 s, killing the whole process group) ends it.
tool hanging 'sleep 1000 & cat >/dev/null; sleep 1000'
# Exits 0 and prints nothing (issue 35 item 9): a failure, not an empty page.
tool silent 'cat >/dev/null; exit 0'

usable() { # the panels still answer keys, then quit cleanly
    keys j
    keys '?'
    wait_for "mtlbx explorer keys" 10
    keys q
    wait_for "Functions (8)" 10
    quit_and_check 0
}

start 120 30 xterm-256color MTLBX_LLVM_DIS="$WORK/failing" -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "llvm-dis failed" 30
expect "Invalid bitcode"
# The tool's ESC and BEL show as "?": the clear-screen did not act, so the
# panels are still there.
expect "?[2J?]0;pwned?signature"
expect "1 Tree"
usable

start 120 30 xterm-256color MTLBX_LLVM_DIS="$WORK/flooding" -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "llvm-dis output exceeds 67108864 bytes; stopped" 60
expect "1 Tree"
usable

start 120 30 xterm-256color MTLBX_LLVM_DIS="$WORK/silent" -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "llvm-dis exited with status 0 but printed nothing" 30
expect "1 Tree"
usable

start 120 30 xterm-256color MTLBX_LLVM_DIS="$WORK/hanging" -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "(Esc cancels)" 10
# The timeout is 30 s; allow for a slow (sanitizer) build.
wait_for "llvm-dis failed" 50
usable
finish
