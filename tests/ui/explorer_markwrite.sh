#!/bin/sh
# Marking functions in the function table and writing a library of them
# (issue 33): Space marks and moves down, the rows show `*` and the title
# and status lines count the marks, which stay on their functions through
# a sort and a filter; w asks for a path and writes, with the writer of
# `mtlbx pack --from`, a library that holds the marked functions and
# nothing else, byte for byte what pack --from writes, that check reads
# without a finding, and leaves no temporary behind. An existing file is
# replaced only when the question is answered y; the file shown never is.
# A write that fails (a file-size limit) leaves nothing.
# On a fat corpus file (when the corpus is there), a marks every function
# and the library written is the whole file's, as pack --from writes it.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# The library shown is a copy in the test's folder, where mtlbx runs, so
# that "the file shown" is a name the prompt can be given.
cp "$SAMPLE" "$WORK/shown.metallib" || exit 1
cp "$SAMPLE" "$WORK/shown.orig" || exit 1

# no_temporaries: nothing but what the test named is left in $WORK.
no_temporaries() {
    _left=$(ls -A "$WORK" | grep -F '.mtlbx-tmp' || true)
    [ -z "$_left" ] || fail "temporary files left behind: $_left"
}

# expect_re / expect_re_not REGEX: a line of the screen matches (or none).
expect_re() { screen | grep -q -- "$1" || fail "no line matches: $1"; }
expect_re_not() { if screen | grep -q -- "$1"; then fail "a line matches: $1"; fi; }

# checks_clean FILE: mtlbx check reads it with exit 0 and not a word.
checks_clean() {
    if ! "$MTLBX_BIN" check "$1" > "$WORK/check.out" 2>&1 || [ -s "$WORK/check.out" ]; then
        fail "check finds something in $1:"
        cat "$WORK/check.out"
    fi
}

# names FILE: the function names mtlbx ls prints, one a line.
names() { "$MTLBX_BIN" ls "$1" | grep -v '^#' | awk '{ print $NF }'; }

start 100 30 xterm-256color -- shown.metallib
wait_for "Functions  8"

# Space on vertex_main (row 1) marks it and moves to fragment_main; j,
# then Space marks compute_main.
keys Space
wait_for "1 marked"
keys j Space
wait_for "Functions  8  sorted by file order  2 marked"
expect_re "^\* vertex .*vertex_main"
expect_re "^\* kernel .*compute_main"
expect_re "^  fragment .*fragment_main"
expect "function 4 of 8  module 2,096 bytes  2 marked"

# A sort and a filter move the rows, not the marks.
keys S
wait_for "sorted by stage"
expect_re "^\* vertex .*vertex_main"
expect_re "^  vertex .*patch_vertex"
expect_re "^\* kernel .*compute_main"
keys f
type_text "kernel"
keys Enter
wait_for "(1 shown, filter kernel)"
expect_re "^\* kernel .*compute_main"
keys Escape
wait_for "filter and search cleared"

# w: the prompt offers a name; a library of the two is written.
keys w
wait_for "Write a library of 2 marked functions to: shown-2-functions.metallib"
keys C-u
type_text "two.metallib"
keys Enter
wait_for "wrote two.metallib: a library of 2 functions"
[ -f "$WORK/two.metallib" ] || fail "two.metallib not written"
names "$WORK/two.metallib" > "$WORK/two.names"
printf 'vertex_main\ncompute_main\n' > "$WORK/two.want"
cmp -s "$WORK/two.names" "$WORK/two.want" || { fail "two.metallib holds other functions:"; cat "$WORK/two.names"; }
size=$(wc -c < "$WORK/two.metallib" | tr -d ' ')
expect "a library of 2 functions, $(echo "$size" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') bytes"
checks_clean "$WORK/two.metallib"
"$MTLBX_BIN" info "$WORK/two.metallib" > "$WORK/info.out" 2> "$WORK/info.err" || fail "info cannot read two.metallib"
[ -s "$WORK/info.err" ] && { fail "info says something on two.metallib:"; cat "$WORK/info.err"; }
grep -q "^Functions *2 (1 vertex, 1 kernel)" "$WORK/info.out" || { fail "info does not count 2 functions"; cat "$WORK/info.out"; }
# The same bytes as the command line's pack --from.
"$MTLBX_BIN" pack --from "$SAMPLE" -f vertex_main -f compute_main -o "$WORK/cli.metallib" ||
    fail "pack --from failed"
cmp -s "$WORK/two.metallib" "$WORK/cli.metallib" || fail "the explorer's library differs from pack --from's"
no_temporaries

# Again onto two.metallib: asked, n keeps it as it was.
cp "$WORK/two.metallib" "$WORK/two.before"
keys w C-u
type_text "two.metallib"
keys Enter
wait_for "two.metallib exists. Overwrite it?"
keys n
wait_for "not written: two.metallib exists"
cmp -s "$WORK/two.metallib" "$WORK/two.before" || fail "two.metallib changed though n was answered"

# The file shown is never written over, whatever is answered.
keys w C-u
type_text "shown.metallib"
keys Enter
wait_for "shown.metallib is the file shown; give another name"
cmp -s "$WORK/shown.metallib" "$WORK/shown.orig" || fail "the file shown was changed"

# u unmarks all; w then writes the function under the cursor, and y
# replaces two.metallib.
keys u
wait_for "2 functions unmarked"
expect_not "2 marked"
expect_re_not "^\* "
keys g j j j
wait_for "function 4 of 8"
expect_re "^kernel .*compute_main"
keys w
wait_for "Write a library of 1 function to: compute_main.metallib"
keys C-u
type_text "two.metallib"
keys Enter
wait_for "two.metallib exists. Overwrite it?"
keys y
wait_for "wrote two.metallib: a library of 1 function"
[ "$(names "$WORK/two.metallib")" = compute_main ] || fail "two.metallib is not compute_main alone"
checks_clean "$WORK/two.metallib"
no_temporaries
keys q
wait_for "EXITED:0"

# A write that fails (a file-size limit of 10 KB, under the 24 KB the
# library needs: EFBIG) says so in one line and leaves nothing.
cat > "$WORK/limited.sh" <<LIMITED
#!/bin/sh
ulimit -f 20
exec '$MTLBX_BIN' "\$@"
LIMITED
chmod +x "$WORK/limited.sh"
REAL_BIN=$MTLBX_BIN
MTLBX_BIN=$WORK/limited.sh
start 100 30 xterm-256color -- shown.metallib
MTLBX_BIN=$REAL_BIN
wait_for "Functions  8"
keys Space Space
wait_for "2 marked"
keys w C-u
type_text "limited.metallib"
keys Enter
wait_for "cannot write limited.metallib: write failed: File too large"
[ -e "$WORK/limited.metallib" ] && fail "limited.metallib left behind"
no_temporaries
keys q
wait_for "EXITED:0"

# A fat file (corpus): a marks every function of its libraries, and the
# library written is pack --from's of every name.
FAT=$CORPUS/libtracepoint-rt-ios-fat.metallib
if [ -f "$FAT" ]; then
    cp "$FAT" "$WORK/fat.metallib"
    start 120 30 xterm-256color -- fat.metallib
    wait_for "Functions"
    keys a
    wait_for "every function shown marked:"
    keys w C-u
    type_text "fatmarked.metallib"
    keys Enter
    wait_for "wrote fatmarked.metallib"
    set --
    for n in $(names "$WORK/fat.metallib" | sort -u); do set -- "$@" -f "$n"; done
    "$MTLBX_BIN" pack --from "$WORK/fat.metallib" "$@" -o "$WORK/fatcli.metallib" || fail "pack --from (fat) failed"
    cmp -s "$WORK/fatmarked.metallib" "$WORK/fatcli.metallib" || fail "the fat library differs from pack --from's"
    names "$WORK/fatmarked.metallib" > "$WORK/fat.got"
    names "$WORK/fat.metallib" > "$WORK/fat.want"
    cmp -s "$WORK/fat.got" "$WORK/fat.want" || fail "the fat library lost or gained functions"
    checks_clean "$WORK/fatmarked.metallib"
    no_temporaries
    keys q
    wait_for "EXITED:0"
else
    echo "note: no corpus at $CORPUS: the fat-file part is not run"
fi

exit $FAILED
