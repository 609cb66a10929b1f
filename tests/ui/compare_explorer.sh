#!/bin/sh
# The explorer's compare view (D): the sample against a rebuild in which
# compute_main changed (tests/compare_rebuild.py). D lists the change,
# Enter jumps to the function in A, Backspace comes back, b jumps to it in
# B, d shows the coloured diff -u of the two llvm-dis outputs, q returns to
# the list and then to the view D was pressed in (the panels here), and q
# again to the function table. Each changed field reads old -> new, as
# `mtlbx diff` says. Also: D with one file says why it does nothing, and a
# file against itself is identical.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

"$MTLBX_BIN" dump --json "$SAMPLE" >"$WORK/dump.json" || { echo "FAIL: dump"; exit 1; }
hashes=$(python3 "$SRC/tests/compare_rebuild.py" "$WORK/dump.json" "$SAMPLE" "$WORK/b.metallib" compute_main) ||
    { echo "FAIL: compare_rebuild.py"; exit 1; }
old_hash16=$(echo "$hashes" | cut -d' ' -f1)
new_hash16=$(echo "$hashes" | cut -d' ' -f2)
new_hash8=$(echo "$new_hash16" | cut -c1-8)

start 100 30 xterm-256color -- "$SAMPLE" "$WORK/b.metallib"
to_bytes
wait_for "b.metallib"
keys D
wait_for "Compare: "
expect "1 change"
expect "~ kernel    compute_main: hash $old_hash16 -> $new_hash16"

# Enter: the function in A, its detail on screen; Backspace: the list again.
keys Enter
wait_for "Backspace returns to the comparison"
expect '"compute_main"'
expect "sample.metallib: kern"  # the status may cut the rest
keys BSpace
wait_for "Compare: "
expect "~ kernel    compute_main: hash $old_hash16 -> $new_hash16"

# b: the same function in B.
keys b
wait_for "B (b.metallib)"
expect '"compute_main"'
expect "$new_hash8...  ok"
keys BSpace
wait_for "Compare: "

# d: the unified diff of the two disassemblies (llvm-dis and diff needed).
if "$MTLBX_BIN" dis "$SAMPLE" compute_main >/dev/null 2>&1 && command -v diff >/dev/null 2>&1; then
    keys d
    wait_for "diff -u of llvm-dis: compute_main" 20
    expect "--- A/compute_main"
    expect "+++ B/compute_main"
    expect "-define void @compute_main("
    expect "+define void @compute_mai2("
    # Green and red lines: the pane's escape sequences carry the colours.
    T capture-pane -e -p -t 0 | grep -F "+define void @compute_mai2(" | grep -q "$(printf '\033')\[" ||
        fail "the added line is not coloured"
    keys q
    wait_for "Compare: "
else
    echo "note: llvm-dis or diff is missing; the disassembly diff is not checked"
fi

# / searches the rows.
keys /
wait_for "Search the changes"
type_text "nothing-like-this"
keys Enter
wait_for "no change matches"

keys q
wait_gone "Compare: "
wait_for "1 Tree"
keys q
wait_for "Functions  16"
expect_not "1 Tree"
quit_and_check

# One file: D explains itself.
start 100 30 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys D
wait_for "open two files to compare them"
quit_and_check

# A file against itself.
start 100 30 xterm-256color -- "$SAMPLE" "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys D
wait_for "0 changes (identical)"
keys q
wait_gone "0 changes"
quit_and_check
finish
