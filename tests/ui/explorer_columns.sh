#!/bin/sh
# The function table's file and requires columns (issues 20 and 21). With
# several files open (several operands), or a fat file's several
# libraries, a FILE column names each row's library (its file's short
# name, "#N " first for a fat file's Nth); a REQUIRES column gives the
# first OS that loads the function, as `mtlbx find` and `sig` say it, and
# S sorts by both. At 80 columns the requires column is dropped, so that
# names keep their width; with one library there is no file column.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

GEMM=$CORPUS/candle-steel-gemm.metallib
K11=$CORPUS/metaljl-kernel.11.metallib
K26=$CORPUS/metaljl-kernel.26.metallib
FAT=$CORPUS/libtracepoint-rt-ios-fat.metallib
for f in "$GEMM" "$K11" "$K26" "$FAT"; do
    if [ ! -f "$f" ]; then
        echo "SKIP: corpus not found at $CORPUS (set MTLBX_CORPUS)"
        exit 77
    fi
done
# What the command line says each library requires (find's last column).
req() { "$MTLBX_BIN" find "$1" | awk -F '\t' '{ print $NF; exit }'; }
r11=$(req "$K11") r26=$(req "$K26") rgemm=$(req "$GEMM")
[ -n "$r11" ] && [ -n "$r26" ] && [ "$r11" != "$r26" ] || { echo "FAIL: find gave no requirements ($r11, $r26)"; exit 1; }

# row NAME: the screen's table row of that file (its first one).
row() { screen | grep -m1 "^$1 " ; }

# Two files, 120 columns: both columns, each row with its file and its
# requirement.
for mode in colour ascii; do
    if [ $mode = ascii ]; then
        start 120 30 xterm-256color NO_COLOR=1 -- --ascii "$K26" "$K11"
    else
        start 120 30 xterm-256color -- "$K26" "$K11"
    fi
    wait_for "Functions  2"
    screen | grep -q '^file  *stage  *args  *msl  *size  *hash  *src  *requires  *name' ||
        fail "$mode: the headings are not file .. requires .. name: $(screen | sed -n 3p)"
    row metaljl-kernel.11 | grep -F -q " $r11 " || fail "$mode: kernel.11's row lacks '$r11': $(row metaljl-kernel.11)"
    row metaljl-kernel.26 | grep -F -q " $r26 " || fail "$mode: kernel.26's row lacks '$r26': $(row metaljl-kernel.26)"
    # File order: kernel.26 (named first) on top. S: by file, then on
    # to requires, where the older requirement comes first.
    screen | sed -n 4p | grep -q '^metaljl-kernel.26 ' || fail "$mode: file order does not start with kernel.26"
    keys S
    # The title said "sorted by file order" before: wait for the heading.
    wait_for "FILE"
    expect "sorted by file"
    for col in stage args msl size hash src requires; do
        keys S
        wait_for "sorted by $col" || break
    done
    expect "REQUIRES"
    screen | sed -n 4p | grep -q '^metaljl-kernel.11 ' || fail "$mode: sorted by requires, kernel.11 ($r11) is not first"
    keys S
    wait_for "sorted by name"
    quit_and_check 0
done

# A fat file: one file, several libraries, each row says which.
start 120 30 xterm-256color -- "$FAT"
wait_for "Functions  "
screen | grep -q '^file  *stage' || fail "fat file: no file column"
screen | grep -q '^#1 libtracepoint' || fail "fat file: no row of library #1"
quit_and_check 0

# One library: no file column; requires at 120 columns, not at 80, where
# the names keep their width.
start 120 30 xterm-256color -- "$GEMM"
wait_for "Functions  240"
screen | grep -q '^stage  *args  *msl  *size  *hash  *src  *requires  *name' || fail "one library, 120 columns: headings $(screen | sed -n 3p)"
screen | sed -n 4p | grep -F -q " $rgemm " || fail "one library: the first row lacks '$rgemm'"
keys S
wait_for "sorted by stage"
quit_and_check 0
start 80 24 xterm-256color -- "$GEMM"
wait_for "Functions  240"
screen | grep -q '^stage  *args  *msl  *size  *hash  *src  *name' || fail "80 columns: headings $(screen | sed -n 3p)"
expect_not "requires"
quit_and_check 0
finish
