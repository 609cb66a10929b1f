#!/bin/sh
# The explorer on real libraries (../shared/corpus, when present) and on
# the project's fixtures: a fat file shows one library per slice, several
# files open as several roots, a library with 177 functions scrolls to its
# end at once, HSRD sources list their members, unknown tags are marked,
# and every fixture and corpus file opens and quits cleanly.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# --- fixtures (always present) ----------------------------------------------
start 100 30 xterm-256color -- "$FIXTURES/fat.metallib"
to_bytes
wait_for "Fat header"
wait_for "1.2.5"
expect "1.2.8"
quit_and_check 0

start 100 30 xterm-256color -- "$FIXTURES/unknown-tags.metallib"
to_bytes
wait_for "Functions"
keys /
wait_for "Search names/tags"
type_text ZZZZ
keys Enter
wait_for "match 1/1"
wait_for ": ZZZZ"
# The unknown tag's row carries the "?" marker in column 0.
screen | grep -q '^?.*ZZZZ' || fail "unknown tag ZZZZ is not marked with ?"
quit_and_check 0

# Several files: one root per file, each named.
start 100 30 xterm-256color -- "$SAMPLE" "$FIXTURES/empty.metallib" "$FIXTURES/hsrc-v125.metallib"
to_bytes
wait_for "sample.metallib | empty.metallib | hsrc-v125.metallib"
wait_for "hsrc-v125.metallib"
keys G
wait_for "hsrc-v125.metallib:"
quit_and_check 0

# A file that cannot be opened next to one that can: the explorer opens
# the good one and names the bad one in the status line.
printf 'not a metallib' > "$WORK/junk.bin"
start 100 30 xterm-256color -- "$WORK/junk.bin" "$SAMPLE"
wait_for "could not open"
expect "junk.bin"
keys j
wait_for "sample.metallib"
quit_and_check 0

for f in "$FIXTURES"/*.metallib; do
    start 80 24 vt100 -- "$f"
    to_bytes
    wait_for "1 Tree" || { echo "($f)"; continue; }
    keys G g j Tab j Tab G
    wait_for "3 Hex" || echo "($f)"
    quit_and_check 0 || echo "($f)"
done

# --- corpus (optional) -------------------------------------------------------
if [ ! -d "$CORPUS" ]; then
    echo "note: no corpus at $CORPUS; corpus checks skipped"
    finish
fi

big=$CORPUS/mmbeauty-ios-default-v122-177fn.metallib
if [ -f "$big" ]; then
    start 80 24 xterm-256color -- "$big"
    to_bytes
    wait_for "Functions (177)"
    # To the end and back is instant; [ steps back to the last function.
    keys G
    wait_for "1 Tree  183/183"
    keys [
    wait_for "1 Tree  180/183"
    # The hash mark appears when the background check reaches this function;
    # under ASan on a loaded CI that can take many seconds.
    wait_for "ok  fragment" 60
    keys g
    wait_for "1 Tree  1/183"
    quit_and_check 0
fi

fat=$CORPUS/libtracepoint-rt-ios-fat.metallib
if [ -f "$fat" ]; then
    start 100 30 xterm-256color -- "$fat"
    to_bytes
    wait_for "Fat header"
    quit_and_check 0
fi

hsrd=$CORPUS/gsm-gaussian-v129-hsrd-63fn.metallib
if [ -f "$hsrd" ]; then
    start 100 30 xterm-256color -- "$hsrd"
    to_bytes
    wait_for "Functions (63)"
    keys s
    wait_for "Source archive"
    wait_for "members"
    keys Enter
    wait_for "source: "
    keys q
    wait_for "Source archive"
    keys q
    wait_for "Functions (63)"
    quit_and_check 0
fi

# Every corpus file opens, survives a walk through all panels, and quits.
for f in "$CORPUS"/*.metallib "$CORPUS"/*.metallibsym; do
    [ -f "$f" ] || continue
    start 80 24 xterm-256color -- "$f"
    to_bytes
    # Not a metallib at all: the explorer says so and exits 2, like info.
    if ! "$MTLBX_BIN" info "$f" >/dev/null 2>&1; then
        wait_for "EXITED:2" || echo "($f)"
        expect "$(basename "$f")"
        continue
    fi
    wait_for "1 Tree" || { echo "($f)"; continue; }
    keys G Tab G Tab G 1 g
    wait_for "1 Tree  1/" || echo "($f)"
    quit_and_check 0 || echo "($f)"
done

finish
