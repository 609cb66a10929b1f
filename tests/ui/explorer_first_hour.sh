#!/bin/sh
# What a new user trips on in the explorer (issue 15, items 7, 8, 10, 11,
# 12), at 80x24 and 120x40, with NO_COLOR and ASCII drawing:
#   ] reaches library 1 of a fat file; Backspace restores the detail
#   cursor; paging the hex panel expands nothing; hash digests only on the
#   function and its HASH tag; "unknown" target as info says it; error
#   fields marked "!"; the problem list (!) holds every finding and Enter
#   follows one; s lists all six archives of a library, its heading
#   aligned; w proposes a name from the function; path prompts complete
#   with Tab and remember (Up).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# status_offset: the selected node's offset, from the hex panel's title
# ("node 0x431c+154"), in decimal.
status_offset() {
    _h=$(screen | sed -n 's/.* node 0x\([0-9a-f]*\)+[0-9].*/\1/p' | tail -1)
    [ -n "$_h" ] && printf '%d\n' "0x$_h"
}

# A copy of the sample whose vertex_main module no longer matches HASH.
python3 - "$SAMPLE" "$WORK/bad.metallib" <<'PY' || { echo "FAIL: python3"; exit 1; }
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
data[0xc94 + 100] ^= 0xff          # inside vertex_main's module
data[0x14f4 + 100] ^= 0xff         # inside fragment_main's module
open(sys.argv[2], 'wb').write(data)
PY

for size in "80 24" "120 40"; do
    set -- $size
    W=$1 H=$2
    for mode in color nocolor; do
        if [ $mode = nocolor ]; then env="NO_COLOR=1"; opt="--ascii"; else env=""; opt=""; fi

        # ---- the damaged sample -------------------------------------------
        # shellcheck disable=SC2086
        start "$W" "$H" xterm-256color $env -- $opt "$WORK/bad.metallib"
        to_bytes
        wait_for "Functions (8)"
        wait_for "hashes checked"
        # Hash digests on the HASH tag, marked "!" in the margin, and not
        # on the function's other tags.
        keys l l
        wait_for "bad.metallib: NAME"
        expect_not "sha256 actual"
        keys j j
        wait_for "bad.metallib: HASH"
        wait_for "sha256 actual"
        screen | grep -q '[│|]!sha256 expected' || fail "$W x$H $mode: no ! before sha256 expected"
        keys j
        wait_for "bad.metallib: OFFT"
        expect_not "sha256 actual"
        keys h h
        # The library's target reads as info reads it.
        want_target=$("$MTLBX_BIN" info "$WORK/bad.metallib" | sed -n 's/^  target *//p')
        keys g
        wait_for "bad.metallib: Library"
        screen | grep -q "target  *$want_target" || fail "$W x$H $mode: library target is not '$want_target'"
        # The problem list: every finding, by offset; Enter follows one.
        keys '!'
        wait_for "Diagnostics: "
        n_check=$("$MTLBX_BIN" check "$WORK/bad.metallib" | wc -l)
        n_view=$(screen | grep -c '^ *[0-9]* 0x[0-9a-f]\{8\}  \(error\|warning\): ')
        [ "$n_view" -eq "$n_check" ] || fail "$W x$H $mode: problem list shows $n_view findings, check $n_check"
        expect "Diagnostics: $n_check error"  # "1 error", "2 errors"
        off=$(screen | sed -n 's/^ *[0-9]* 0x\([0-9a-f]\{8\}\)  error: HASH of function 0.*/\1/p' | head -1)
        [ -n "$off" ] || fail "no HASH finding for function 0"
        keys Enter
        wait_for "at 0x$(printf '%x' "0x$off")"
        expect "bad.metallib: HASH"
        # Backspace: the problem list again, then where ! was pressed.
        keys BSpace
        wait_for "Diagnostics: "
        keys BSpace
        wait_for "back (1 more)"
        # Backspace restores the detail cursor: Tab to the detail, down to a
        # field, jump away with :, come back.
        keys 1 "]" Tab
        wait_for "2 Detail  index"
        keys j j
        wait_for "2 Detail  NAME"
        keys :
        wait_for "Go to offset"
        type_text "0x4e62"
        keys Enter
        wait_for "at 0x4e62"
        keys BSpace
        wait_for "back (1 more)"
        wait_for "2 Detail  NAME"
        quit_and_check 0

        # ---- w: a name from the function; Tab completes paths; Up recalls -
        mkdir -p "$WORK/out/deep"
        start "$W" "$H" xterm-256color $env -- $opt "$SAMPLE"
        to_bytes
        wait_for "Functions (8)"
        keys w
        wait_for "Write node bytes to: vertex_main.entry.bin"
        keys C-u
        type_text "ou"
        keys Tab
        wait_for "Write node bytes to: out/"
        type_text "d"
        keys Tab
        wait_for "Write node bytes to: out/deep/"
        type_text "v.bin"
        keys Enter
        wait_for "wrote 164 bytes to out/deep/v.bin"
        [ "$(wc -c <"$WORK/out/deep/v.bin")" -eq 164 ] || fail "out/deep/v.bin"
        rm -f "$WORK/out/deep/v.bin"
        keys j w
        wait_for "Write node bytes to: fragment_main.entry.bin"
        keys Up
        wait_for "Write node bytes to: out/deep/v.bin"
        keys Escape
        # Paging the hex panel does not open the functions it passes.
        keys 3 NPage NPage NPage NPage NPage
        sleep 0.3
        n_open=$(screen | grep -c '[▾v-] .*\(vertex\|fragment\|kernel\|visible\|mesh\|object\|intersection\)  ')
        [ "$n_open" -eq 0 ] || fail "$W x$H $mode: paging the hex panel expanded $n_open functions"
        quit_and_check 0
    done
done

# ---- ] reaches library 1 of a fat corpus file ---------------------------------
fat=$CORPUS/libtracepoint-rt-ios-fat.metallib
if [ -f "$fat" ]; then
    n0=$("$MTLBX_BIN" ls "$fat" | awk '/^# library 1/ { exit } /^ / { n++ } END { print n }')
    lib1=$("$MTLBX_BIN" ls "$fat" | sed -n 's/^# library 1 at 0x\([0-9a-f]*\)/\1/p')
    for size in "80 24" "120 40"; do
        set -- $size
        start "$1" "$2" xterm-256color NO_COLOR=1 -- "$fat"
        to_bytes
        wait_for "Functions ("
        i=0
        while [ $i -lt "$n0" ]; do keys ']'; i=$((i + 1)); done
        sleep 0.5
        at=$(status_offset)
        [ -n "$at" ] && [ "$at" -ge "$(printf '%d' "0x$lib1")" ] || fail "$1x$2: ] $n0 times did not reach library 1 (at $at)"
        keys '['
        sleep 0.3
        at=$(status_offset)
        [ -n "$at" ] && [ "$at" -lt "$(printf '%d' "0x$lib1")" ] || fail "$1x$2: [ did not come back to library 0"
        quit_and_check 0
    done
else
    echo "note: no corpus; the fat-file and six-archive checks are skipped"
fi

# ---- s lists all six archives, the heading aligned with the rows ---------------
six=$CORPUS/angle-mac-msl21-debug-hsrc.metallib
if [ -f "$six" ]; then
    for size in "80 24" "120 40"; do
        set -- $size
        start "$1" "$2" xterm-256color NO_COLOR=1 -- --ascii "$six"
        to_bytes
        wait_for "Functions ("
        keys s
        wait_for "Source archives: 6"
        [ "$(screen | grep -c '^archive [0-5] ')" -ge 2 ] || fail "$1x$2: fewer than two archive headings on screen"
        # "size" ends in the same column as the sizes below it.
        head_end=$(screen | awk '/^  type +size  name/ { print index($0, "size") + 3; exit }')
        row_end=$(screen | awk '/^  file +[0-9]+  / { match($0, /^  file +[0-9]+/); print RLENGTH; exit }')
        [ -n "$head_end" ] && [ "$head_end" = "$row_end" ] || fail "$1x$2: heading ends at $head_end, sizes at $row_end"
        keys G
        wait_for "archive 5 "
        keys q
        wait_for "Functions ("
        quit_and_check 0
    done
fi
finish
