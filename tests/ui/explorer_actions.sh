#!/bin/sh
# The explorer's verbs on the bundled sample: extract a module (and check
# its bytes against the command line's extract), refuse to overwrite
# without asking, disassemble with llvm-dis into the pager and search it,
# open the source archive, view a member, write one and all members, write
# a node's raw bytes, and report a missing llvm-dis without crashing.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"

# e on the first function: a prompt with a default name, then the file.
keys e
wait_for "Write module to: vertex_main.air"
keys Enter
wait_for "wrote 2560 bytes to ./vertex_main.air"
[ -f "$WORK/vertex_main.air" ] || fail "vertex_main.air was not written"
mkdir "$WORK/cli"
if "$MTLBX_BIN" extract "$SAMPLE" -o "$WORK/cli" -f vertex_main >/dev/null 2>&1; then
    cmp "$WORK/vertex_main.air" "$WORK/cli/vertex_main.air" || fail "module bytes differ from mtlbx extract"
else
    echo "note: mtlbx extract unavailable; checking the module size only"
    [ "$(wc -c < "$WORK/vertex_main.air")" -eq 2560 ] || fail "wrong module size"
fi

# Again: the file exists, so it asks; n keeps the old file.
keys e
wait_for "Write module to: vertex_main.air"
keys Enter
wait_for "exists. Overwrite it? (y/N)"
keys n
wait_for "not written: vertex_main.air exists"
# A path into a missing directory is an error in the status line.
keys e
wait_for "Write module to"
keys C-u
type_text "no/such/dir/x.air"
keys Enter
wait_for "cannot write no/such/dir/x.air"
# Esc cancels a prompt.
keys e
wait_for "Write module to"
keys Escape
wait_gone "Write module to"

# e on the header has no function to extract: it says what to select.
keys k k
wait_for "sample.metallib: Header"
keys e
wait_for "select a function"
keys j j
wait_for "sample.metallib: vertex"

# E writes every module into a directory.
keys E
wait_for "Extract all modules into directory: ./modules"
keys Enter
wait_for "wrote 8 modules to ./modules"
[ "$(ls "$WORK/modules" | wc -l)" -eq 8 ] || fail "expected 8 files in modules/"
cmp "$WORK/vertex_main.air" "$WORK/modules/vertex_main.air" || fail "E and e disagree"

# d: llvm-dis into the pager; / searches it; q returns to the panels.
if command -v llvm-dis >/dev/null 2>&1 || [ -n "$MTLBX_LLVM_DIS" ]; then
    keys d
    wait_for "llvm-dis: vertex_main" 30
    wait_for "ModuleID"
    keys /
    wait_for "Search text"
    type_text "define"
    keys Enter
    wait_for "define"
    keys G
    keys w
    wait_for "Save text to: vertex_main.ll"
    keys Enter
    wait_for "bytes to ./vertex_main.ll"
    grep -q "define" "$WORK/vertex_main.ll" || fail "saved IR lacks a define"
    keys q
    wait_for "Functions (8)"
else
    echo "note: llvm-dis not installed; only the missing-tool message is checked"
fi

# s: the function's source archive, its members, a member's text.
keys s
wait_for "Source archive"
wait_for "members"
expect "file"
keys Enter
wait_for "source: "
keys q
wait_for "Source archive"
# w writes one member; W writes them all under a directory.
keys w
wait_for "Write member to:"
keys Enter
wait_for "wrote"
keys W
wait_for "Write all members under directory: ./sources-0"
keys Enter
wait_for "wrote"
wait_for "files under ./sources-0"
[ -d "$WORK/sources-0" ] || fail "sources-0 was not created"
[ -n "$(find "$WORK/sources-0" -type f)" ] || fail "no member files under sources-0"
# Again: it asks before replacing them.
keys W
wait_for "Write all members under directory"
keys Enter
wait_for "already exist in ./sources-0. Overwrite them? (y/N)"
keys n
wait_for "refused"
keys q
wait_for "Functions (8)"

# w: the selected node's raw bytes (the function's 164-byte entry), under
# a name built from the function's name.
keys w
wait_for "Write node bytes to: vertex_main.entry.bin"
keys Enter
wait_for "wrote 164 bytes to ./vertex_main.entry.bin"
[ "$(wc -c < "$WORK/vertex_main.entry.bin")" -eq 164 ] || fail "wrong node size"

quit_and_check 0

# A damaged source archive: s lists it as such beside the one that still
# decodes, and the explorer goes on.
if command -v python3 >/dev/null 2>&1; then
    python3 - "$SAMPLE" "$WORK/badsrc.metallib" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
at = data.index(b'BZh9')
data[at + 10:at + 200] = bytes(190)   # wreck the first bzip2 block
open(sys.argv[2], 'wb').write(data)
PY
    start 80 24 xterm-256color -- "$WORK/badsrc.metallib"
    to_bytes
    wait_for "Functions (8)"
    keys s
    wait_for "does not decode"
    expect "! archive 0"
    expect "archive 1  1  (2 members)"
    keys q
    wait_for "Functions (8)"
    keys j
    wait_for '"fragment_main"'
    quit_and_check 0
else
    echo "note: python3 missing; damaged-archive check skipped"
fi

# Without llvm-dis, d says so in the status line and the explorer goes on.
start 80 24 xterm-256color MTLBX_LLVM_DIS=/nonexistent/llvm-dis PATH=/nonexistent -- "$SAMPLE"
to_bytes
wait_for "Functions (8)"
keys d
wait_for "llvm-dis not found"
keys j
wait_for '"fragment_main"'
quit_and_check 0
finish
