#!/bin/sh
# The explorer's compare view at 80x24 shows each changed field with its old
# and new value in the words `mtlbx diff` prints (issue 21): on the corpus's
# metaljl kernel built for macOS 13 and for macOS 26, the requirement change
# is the first row and the function's language_version reads OLD -> NEW
# (both read from `dump --json`); on the sample against a rebuild with a
# rebound, retyped buffer (tests/mkrebound.py, needs llvm-as) the selected
# row, shown whole under the list, is diff's line for it. q from the compare
# view returns to the view D was pressed in (the byte explorer here), and q
# from there to the function table. Each part skips alone when what it
# needs is missing.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
RAN=0

# The selected row as the view shows it under the list: the lines after
# its heading, joined, without spaces (wrapping may cut inside a word).
detail_text() {
    screen | sed -n '/^ The selected change/,$p' | sed -n 2,4p | tr -d ' \n'
}
# `mtlbx diff`'s line that starts with $3 for files $1 and $2, without spaces.
diff_line() {
    "$MTLBX_BIN" diff "$1" "$2" | grep -F -- "$3" | head -1 | tr -d ' \n'
}

# ---- corpus: requirements first, language_version old -> new ---------------
A13=$CORPUS/metaljl-kernel.13.metallib A26=$CORPUS/metaljl-kernel.26.metallib
if [ -f "$A13" ] && [ -f "$A26" ]; then
    RAN=1
    "$MTLBX_BIN" dump --json "$A13" >"$WORK/a.json" && "$MTLBX_BIN" dump --json "$A26" >"$WORK/b.json" ||
        { echo "FAIL: dump"; exit 1; }
    lv() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["libraries"][0]["functions"][0]["language_version"])' "$1"; }
    old_lv=$(lv "$WORK/a.json") new_lv=$(lv "$WORK/b.json")
    [ -n "$old_lv" ] && [ "$old_lv" != "$new_lv" ] || { echo "FAIL: the two corpus files have one MSL version"; exit 1; }
    req=$("$MTLBX_BIN" diff "$A13" "$A26" | sed -n 2p)
    case $req in "~ header    requires "*" -> "*) ;; *) echo "FAIL: diff's first change is not requires: $req"; exit 1 ;; esac

    start 80 24 xterm-256color -- "$A13" "$A26"
    to_bytes
    keys D
    wait_for "Compare: "
    # The first row under the title is the requirement change, old -> new,
    # as diff prints it (the row is cut at the screen's width).
    first=$(screen | sed -n 3p)
    want=$(printf '%s' "$req" | cut -c1-70)
    case $first in "$want"*) ;; *) fail "first row is not diff's requires line: '$first' (want '$want...')" ;; esac
    keys G
    wait_for "language_version $old_lv -> $new_lv"
    [ "$(detail_text)" = "$(diff_line "$A13" "$A26" "~ kernel")" ] ||
        fail "the selected function's change is not diff's line: $(detail_text)"
    keys q
    wait_gone "Compare: "
    wait_for " 1 Tree  "
    keys q
    wait_for "Functions  2"
    expect_not " 1 Tree  "
    quit_and_check
else
    echo "note: no corpus at $CORPUS: the requirement and MSL change is not checked"
fi

# ---- a rebound, retyped buffer: buffer(0) float -> buffer(3) half -----------
if command -v llvm-as >/dev/null 2>&1; then
    RAN=1
    python3 "$SRC/tests/mkrebound.py" "$SRC/tools" "$WORK" 3 half || { echo "FAIL: mkrebound.py"; exit 1; }
    start 80 24 xterm-256color -- "$WORK/old.metallib" "$WORK/new.metallib"
    wait_for " Functions  "
    keys D
    wait_for "Compare: "
    expect "~ kernel    compute_main: hash "
    want=$(diff_line "$WORK/old.metallib" "$WORK/new.metallib" "~ kernel")
    case $want in *"interfacebuffer(0)data:float->buffer(3)half"*) ;; *) fail "diff does not name the rebinding: $want" ;; esac
    [ "$(detail_text)" = "$want" ] || fail "the selected change is not diff's line: $(detail_text)"
    keys q
    wait_gone "Compare: "
    expect "Functions  16"
    quit_and_check
else
    echo "note: llvm-as is missing: the rebound buffer is not checked"
fi

[ "$RAN" = 1 ] || { echo "SKIP: neither the corpus nor llvm-as is here"; exit 77; }
finish
