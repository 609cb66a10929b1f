#!/bin/sh
# The views as a whole (issue 37), at 80x24, as a new user meets them:
# q closes a view back to the one it was opened from and quits only at the
# first (Enter, b, q is the page again, not the end); Backspace walks one
# history across views (D, Enter, Backspace is the comparison again, with
# D pressed in the function table); s on a function lands where `mtlbx
# src` does (gsm-gaussian's macro-built renderTilesFused_half, line 3740);
# a prompt's label never runs into what is typed; a write that fails keeps
# its reason on screen; in a folder holding ggml's and candle's libraries
# `/simd_lane_id` finds candle's at once, even while the names are being
# indexed; and candle opened from the corpus folder has its arguments
# read, so the same search finds them there too.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# ---- q closes back to the parent -------------------------------------------
start 80 24 xterm-256color -- "$SAMPLE"
wait_for " Functions  8"
expect "q quit"                        # the first view: q quits there
keys Enter
wait_for " Interface  "
expect "q close"
keys b
wait_for " 1 Tree  "
keys q
wait_for " Interface  "                # back to the page, not out
expect_not "EXITED"
keys q
wait_for " Functions  8"
keys q
wait_for "EXITED:0" 10
wait_for "STTY:same" 5

# ---- Backspace walks the views: D, Enter, Backspace ------------------------
start 80 24 xterm-256color -- "$SAMPLE" "$FIXTURES/unknown-tags.metallib"
wait_for " Functions  10"
keys D
wait_for "Compare: 17 changes"
keys j Enter
wait_for "Backspace returns to the comparison"
expect " 1 Tree  "
keys BSpace
wait_for "Compare: 17 changes"
expect_not " 1 Tree  "
# Forward again, and q from the panels comes back here too.
keys C-]
wait_for " 1 Tree  "
keys q
wait_for "Compare: 17 changes"
keys q
wait_for " Functions  10"
quit_and_check

# ---- a prompt's label and what is typed ------------------------------------
start 80 24 xterm-256color -- "$SAMPLE"
wait_for " Functions  8"
keys /
wait_for "Search functions"
type_text compute
wait_for ": compute"
# The label is cut to half the line with an ellipsis, then ": ".
screen | grep -q '^Search functions (name.*[…~]: compute' || fail "the prompt's label runs into the typed text"
keys Escape

# ---- a failed write says why -----------------------------------------------
keys '?'
wait_for "mtlbx explorer keys"
keys w C-u
type_text "$WORK/no/such/dir/keys.txt"
keys Enter
wait_for "cannot write"
screen | tr -d '\n' | grep -q "No such file or directory" || fail "the write's reason is not on screen"
quit_and_check

# ---- s lands where mtlbx src does ------------------------------------------
GSM=$CORPUS/gsm-gaussian-v129-hsrd-63fn.metallib
if [ -f "$GSM" ]; then
    want=$("$MTLBX_BIN" src "$GSM" renderTilesFused_half | sed -n '1s/.*:\([0-9]*\)$/\1/p')
    [ "$want" = 3740 ] || fail "mtlbx src puts renderTilesFused_half at line '$want', not 3740"
    start 80 24 xterm-256color -- "$GSM"
    wait_for " Functions  63"
    keys /
    wait_for "Search functions"
    type_text renderTilesFused_half
    keys Enter
    wait_for "match 1/"
    keys s
    wait_for "line $want defines renderTilesFused_half" 20
    expect "line $want/"
    screen | sed -n 3p | grep -q "^$want .*host_name(\"renderTilesFused_\" #name)" ||
        fail "line $want is not the first shown: $(screen | sed -n 3p)"
    quit_and_check
else
    echo "note: no corpus at $CORPUS: s on renderTilesFused_half is not checked"
fi

# ---- folders: ggml's and candle's ------------------------------------------
GGML=$CORPUS/ggml-acorn-llama-default.metallib CANDLE=$CORPUS/candle-steel-gemm.metallib
if [ -f "$GGML" ] && [ -f "$CANDLE" ]; then
    mkdir -p "$WORK/ml"
    for f in "$GGML" "$CORPUS"/metaljl-*.metallib "$CANDLE"; do cp "$f" "$WORK/ml/"; done
    start 80 24 xterm-256color -- "$WORK/ml"
    wait_for "Folders and archives"
    # At once, while the names may still be indexed: the search waits.
    keys /
    wait_for "Search paths"
    type_text simd_lane_id
    keys Enter
    wait_for "candle-steel-gemm.metallib: uint simd_lane_id in " 60
    expect_not "no library matches"
    quit_and_check

    # candle from the corpus folder: its arguments are read (the column
    # fills) and / finds them, as it does with the file opened alone.
    start 80 24 xterm-256color -- "$CORPUS"
    wait_for "Folders and archives"
    keys /
    wait_for "Search paths"
    type_text candle-steel-gemm
    keys Enter
    wait_for "candle-steel-gemm.metallib" 20
    keys Enter
    wait_for " Functions  240" 30
    # The args column fills as the interfaces are read: no "..." stays.
    _i=0
    while screen | sed -n '4,20p' | grep -q '^[a-z]* *\.\.\. '; do
        _i=$((_i + 1))
        [ $_i -gt 300 ] && { fail "the arguments column stays at ..."; break; }
        sleep 0.1
    done
    # Every interface read (the title counts them until then).
    wait_for "hashes checked" 60
    wait_gone ", interfaces " 60
    keys /
    wait_for "Search functions"
    type_text simd_lane_id
    keys Enter
    wait_for "match 1/240" 30
    quit_and_check
else
    echo "note: no corpus at $CORPUS: the folder searches are not checked"
fi
finish
