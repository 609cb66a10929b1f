#!/bin/sh
# The explorer and a file that shrinks while it is mapped: once the screen
# is up, the file is truncated to 100 bytes, and the explorer is asked to
# show its last byte (":" "$" in the hex panel). Truncation unmaps every
# page past the new end from all mappings, so that read raises SIGBUS
# whatever was read before: deterministic, with no race against the
# background hasher. The explorer must restore the terminal, print one
# line naming the file, and exit 2, as the command line does.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

cp "$SAMPLE" "$WORK/shrinks.metallib"
start 160 30 xterm -- "$WORK/shrinks.metallib"
to_bytes
wait_for "Functions (" 10 || finish
# Truncate in place (not a rename: the mapping must see it).
truncate -s 100 "$WORK/shrinks.metallib" 2>/dev/null || dd if=/dev/null of="$WORK/shrinks.metallib" bs=1 seek=100 2>/dev/null
keys 3
keys :
type_text '$'
keys Enter
wait_for "EXITED:2" 10
expect "shrinks.metallib: the file changed or shrank while it was being read"
wait_for "STTY:same" 5
finish
