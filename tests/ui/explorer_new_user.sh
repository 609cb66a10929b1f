#!/bin/sh
# What a new user tripped on at 80x24 (issues 46 and 42): n repeats a
# search that found nothing in every list view; two members of one
# wheel are told apart (each its path inside the archive, cut from the
# left); a filter matches what the table shows, and its words narrow
# (each must match), in the function table and in the tree's function
# lists.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# search_twice PROMPT MISS: / with a query nothing matches, a move (which
# clears the message), then n: the same miss again, not "no search yet".
search_twice() {
    keys /
    wait_for "$1"
    type_text zzqqzz
    keys Enter
    wait_for "$2"
    keys j
    wait_gone "$2" 3
    keys n
    wait_for "$2"
    expect_not "no search yet"
}

# ---- two members of one wheel at 80 columns ----------------------------------
WHL=mlx_metal_kernels_for_testing-0.29.0-cp312-cp312-macosx_14_0_arm64.whl
mkdir -p "$WORK/dist"
python3 - "$SAMPLE" "$WORK/dist/$WHL" <<'PY' || { echo "FAIL: python3"; exit 1; }
import sys, zipfile
lib = open(sys.argv[1], "rb").read()
with zipfile.ZipFile(sys.argv[2], "w") as z:
    for name in ("alpha", "beta"):
        z.writestr("mlx_metal_kernels_for_testing-0.29.0.data/purelib/mlx/lib/kernels_%s.metallib" % name, lib)
PY
for root in "$WORK/dist/$WHL" "$WORK/dist"; do
    start 80 24 xterm-256color -- "$root"
    wait_for "2 metallibs"
    wait_for "mlx/lib/kernels_alpha.metallib"
    expect "mlx/lib/kernels_beta.metallib"
    # Named directly, the wheel is the heading and a member its own path.
    if [ "$root" = "$WORK/dist/$WHL" ]; then
        expect_not "$WHL!"
    fi
    wait_for "names indexed"
    search_twice "Search paths" "no library matches zzqqzz"
    quit_and_check
done

# ---- n repeats a search that found nothing, in every list view ---------------
start 80 24 xterm-256color -- "$SAMPLE" "$FIXTURES/fat.metallib"
wait_for " Functions  "
search_twice "Search functions" "not found: zzqqzz"
# Marks in two files: w refuses once, whole (not again, cut, on the status line).
keys g Space G Space
wait_for "2 marked"
keys w
wait_for "the marked functions are in 2 files"
[ "$(screen | grep -c 'the marked functions are in 2 files')" -eq 1 ] || fail "the refusal shows more than once"
wait_for "unmarks all)"
keys u
wait_for "2 functions unmarked"
keys D
wait_for "Compare: "
search_twice "Search the changes" "no change matches zzqqzz"
quit_and_check
start 80 24 xterm-256color -- "$SAMPLE"
to_bytes
keys s
wait_for "Source archive"
search_twice "Search member names" "no member matches zzqqzz"
quit_and_check

# ---- marks survive a change of the shown files -------------------------------
# Two functions marked in a.metallib, b.metallib opened from the folder list,
# then a.metallib again: the two are still marked (b's table has none).
mkdir -p "$WORK/two" && cp "$SAMPLE" "$WORK/two/a.metallib" && cp "$FIXTURES/fat.metallib" "$WORK/two/b.metallib"
start 80 24 xterm-256color -- "$WORK/two"
wait_for "names indexed"
keys g j Enter
wait_for "mtlbx  a.metallib"
keys Space Space
wait_for "sorted by file order  2 marked"
keys F
wait_for "Folders and archives"
keys j Enter
wait_for "mtlbx  b.metallib"
expect_not "marked"
keys F
wait_for "Folders and archives"
keys k Enter
wait_for "mtlbx  a.metallib"
wait_for "sorted by file order  2 marked"
[ "$(screen | grep -c '^\* ')" -eq 2 ] || fail "the two marks are not on their rows again"
quit_and_check

# ---- w on a function's page: a library of that function ---------------------
start 80 24 xterm-256color -- "$SAMPLE"
wait_for " Functions  "
keys /
wait_for "Search functions"
type_text compute_main
keys Enter
wait_for "match 1/"
keys Enter
wait_for "kernel compute_main"
keys w
wait_for "Write a library of 1 function to: compute_main.metallib"
keys Enter
wait_for "wrote compute_main.metallib: a library of 1 function"
[ "$("$MTLBX_BIN" ls "$WORK/compute_main.metallib" | awk '{ print $NF }')" = compute_main ] ||
    fail "w on the page did not write compute_main alone"
quit_and_check

# ---- S cycles through the columns shown at this width ------------------------
# sorts W: the columns S sorts by, in turn, until the file's order again.
sorts() {
    start "$1" 24 xterm-256color -- "$SAMPLE"
    wait_for " Functions  "
    got=""
    i=0
    while [ $i -lt 12 ]; do
        keys S
        wait_for "S again for the next column" || break
        col=$(screen | sed -n 's/.*sorted by \(.*\)  (S again.*/\1/p' | tail -1)
        got="$got $col"
        keys j     # clears the message, so the next one is new
        wait_gone "S again for the next column" 3
        [ "$col" = "file order" ] && break
        i=$((i + 1))
    done
    quit_and_check
}
sorts 80
[ "$got" = " stage args msl size hash src name file order" ] || fail "S at 80 columns:$got"
sorts 140
[ "$got" = " stage args msl size hash src requires name file order" ] || fail "S at 140 columns:$got"

# ---- the compare view's status ends with the work, not at the next key -------
start 80 24 xterm-256color -- "$SAMPLE" "$FIXTURES/fat.metallib"
wait_for " Functions  "
keys D
wait_for "Compare: "
# No key after D: the progress must leave the status line by itself.
wait_gone "Esc cancels" 3
quit_and_check

MINIMAX=$CORPUS/minimax-h3-mlx-v129.metallib
if [ ! -f "$MINIMAX" ]; then
    echo "SKIP: no corpus at $CORPUS"
    exit 77
fi
# Counts from the CLI, not written down: every function is MSL 4.0 there.
total=$("$MTLBX_BIN" ls "$MINIMAX" | wc -l)
msl40=$("$MTLBX_BIN" ls "$MINIMAX" | awk '$4 == "4.0"' | wc -l)
argmin=$("$MTLBX_BIN" ls "$MINIMAX" | awk '$2 == "kernel" && $NF ~ /argmin/' | wc -l)
[ "$msl40" -gt 0 ] && [ "$argmin" -gt 0 ] && [ "$argmin" -lt "$total" ] || { echo "FAIL: corpus counts"; exit 1; }

# filter_to TEXT: f, the text in place of the last one (Ctrl-U), Enter.
filter_to() {
    keys f
    wait_for "Filter (words"
    keys C-u
    type_text "$1"
    keys Enter
}

# ---- the function table --------------------------------------------------
start 80 24 xterm-256color -- "$MINIMAX"
wait_for " Functions  $total"
filter_to "msl 4.0"
wait_for "($msl40 shown, filter msl 4.0)"
filter_to "air 2.8"
wait_for "shown, filter air 2.8)"
filter_to "kernel argmin"
wait_for "($argmin shown, filter kernel argmin)"
expect_not "argmax"
filter_to "argmin kernel"
wait_for "($argmin shown, filter argmin kernel)"
filter_to "msl 3.0"
wait_for "(0 shown, filter msl 3.0)"
keys Escape
wait_for " Functions  $total  sorted"

# ---- the tree's function list (b, then f) --------------------------------
keys b
wait_for " 1 Tree  "
filter_to "kernel argmin"
wait_for "$argmin of $total functions"
filter_to "msl 4.0"
wait_for "$msl40 of $total functions"
quit_and_check

# ---- the interface page (Enter) at 80 columns: columns in line, no wrap ------
# argmin_bool_ takes 8 buffers and 7 built-ins (thread_position_in_threadgroup):
# every row's name starts under its heading's "name", and each row is one
# screen line (a wrapped name would start a line with spaces only before it).
start 80 24 xterm-256color -- "$MINIMAX"
wait_for " Functions  $total"
keys Enter
wait_for "thread_position_in_threadgroup"
screen | awk '
    / #  / { col = index($0, " name") + 1; heads++; next }
    col && /^  [0-9]+  / {
        rows++
        if (substr($0, col - 1, 1) != " " || substr($0, col, 1) == " ") { print "out of line: " $0; bad = 1 }
    }
    col && /^ +[a-z_]+$/ { print "wrapped: " $0; bad = 1 }
    END { if (heads < 2 || rows < 15) { print "headings " heads ", rows " rows; bad = 1 } exit bad }' ||
    fail "the interface table at 80 columns"
quit_and_check
finish
