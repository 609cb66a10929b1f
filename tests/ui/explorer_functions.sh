#!/bin/sh
# The function table (the home of a library) and a function's page, on
# corpus files, at 80x24 and 200x50, with colour, NO_COLOR and --ascii:
# every visible name starts at its first character; `/` counts matching
# functions; after /steel_gemm_tn and Enter, the page shows buffer(3) and
# GEMMParams with its members; `s` on a gsm-gaussian function shows the
# line that defines it; Backspace then Ctrl-] (forward) returns; `b`
# shows the bytes of the function; the status line never wraps into the
# key bar, which offers only the view's keys; `?` lists them first.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

GEMM=$CORPUS/candle-steel-gemm.metallib
GSM=$CORPUS/gsm-gaussian-v129-hsrd-63fn.metallib
if [ ! -f "$GEMM" ] || [ ! -f "$GSM" ]; then
    echo "SKIP: corpus not found at $CORPUS (set MTLBX_CORPUS)"
    exit 77
fi
"$MTLBX_BIN" ls "$GEMM" | awk '{ print $NF }' > "$WORK/names"
[ -s "$WORK/names" ] || { echo "FAIL: mtlbx ls printed no names"; exit 1; }

# check_names HEIGHT: every function row of the table shows a name that
# starts at the name's first character (a prefix of a real name, at
# least 12 characters, cut only at its end), and the screen shows as many
# rows as fit. At 200 columns every name is whole.
check_names() {
    screen > "$WORK/screen"
    awk -v h="$1" -v wide="$2" '
        FNR == NR { names[$0] = 1; next }
        /^stage +args +msl/ && !col { col = index($0, "name"); next }
        col && /^kernel / {
            n = substr($0, col)
            sub(/ +$/, "", n)
            cut = 0
            if (sub(/(…|~)$/, "", n)) cut = 1
            rows++
            ok = 0
            if (cut == 0 && (n in names)) ok = 1
            if (cut == 1 && length(n) >= 12)
                for (k in names) if (index(k, n) == 1) { ok = 1; break }
            if (!ok) { print "bad name row: [" n "]"; bad = 1 }
            if (wide && cut) { print "cut at 200 columns: [" n "]"; bad = 1 }
        }
        END {
            # 24 lines: title, table title, headings, the whole name (one or
            # two lines), status, key bar: at least 16 rows.
            if (rows < h - 8) { print "only " rows " function rows"; bad = 1 }
            exit bad
        }' "$WORK/names" "$WORK/screen" || fail "function table names (height $1)"
}

# The status line (second to last) is one line and the key bar (last)
# is untouched by it.
check_bars() {
    screen > "$WORK/screen"
    _last=$(tail -1 "$WORK/screen")
    case $_last in
        " $1"*) ;;
        *) fail "key bar is not the last line: [$_last]" ;;
    esac
}

for mode in colour nocolor ascii; do
    for size in "80 24" "200 50"; do
        set -- $size
        w=$1 h=$2
        env_args="" opt=""
        [ $mode = nocolor ] && env_args="NO_COLOR=1"
        [ $mode = ascii ] && opt="--ascii"
        # shellcheck disable=SC2086
        start "$w" "$h" xterm-256color $env_args -- $opt "$GEMM"
        wait_for "Functions  240"
        wide=0
        [ "$w" -ge 200 ] && wide=1
        check_names "$h" "$wide"
        check_bars "Enter open"
        # The key bar offers the table's keys only: no panel or write keys.
        expect_not "Tab panel"
        expect_not "w write"
        # / counts functions, not rows: as many as the names that match.
        want=$(grep -c gemm_nt_float32 "$WORK/names")
        keys /
        wait_for "Search functions"
        type_text gemm_nt_float32
        keys Enter
        wait_for "match 1/$want"
        keys n
        wait_for "match 2/$want"
        # The page of the first steel_gemm_tn function: its interface.
        keys g /
        wait_for "Search functions"
        type_text steel_gemm_tn
        keys Enter
        wait_for "match 1/"
        keys Enter
        wait_for "Interface  (s source"
        keys i
        wait_for "buffer(3)" 30
        expect "GEMMParams"
        expect "int M"
        expect "int lda"
        check_bars "i iface"
        expect_not "/ search"
        # Its whole name shows, from its first character.
        name=$(grep steel_gemm_tn "$WORK/names" | head -1)
        expect "kernel $(printf %s "$name" | cut -c1-40)"
        # Back to the table, forward to the page again.
        keys BSpace
        wait_for "Functions  240"
        expect_not "Interface  (s source"
        keys C-]
        wait_for "Interface  (s source"
        expect "buffer(3)"
        # b: the bytes of this function; Backspace comes back to the page.
        keys b
        wait_for "the function's bytes"
        wait_for "Hex"
        keys BSpace
        wait_for "Interface  (s source"
        # q closes the page; q in the table quits.
        keys q
        wait_for "Functions  240"
        quit_and_check 0
    done
done

# `s` on a gsm-gaussian function: the line that defines it, its member's
# path in the title; Backspace (q) returns to the page. In every mode, as
# the table's checks above.
for mode in colour nocolor ascii; do
for size in "80 24" "200 50"; do
    set -- $size
    env_args="" opt=""
    [ $mode = nocolor ] && env_args="NO_COLOR=1"
    [ $mode = ascii ] && opt="--ascii"
    # shellcheck disable=SC2086
    start "$1" "$2" xterm-256color $env_args -- $opt "$GSM"
    wait_for "Functions  63"
    keys /
    wait_for "Search functions"
    type_text radixHistogramKernel
    keys Enter
    wait_for "match 1/1"
    keys Enter
    wait_for "Interface  (s source"
    keys s
    wait_for "kernel void radixHistogramKernel("
    wait_for "defines radixHistogramKernel"
    expect "GaussianMetalRenderer.metal in /Users/"
    keys q
    wait_for "Interface  (s source"
    # From the table too, for another function (a template instance is
    # defined under its base name).
    keys BSpace
    wait_for "Functions  63"
    keys g s
    wait_for "kernel void projectGaussiansPacked("
    keys q
    wait_for "Functions  63"
    quit_and_check 0
done
done

# A library without sources says so in one line.
start 80 24 xterm-256color -- "$GEMM"
wait_for "Functions  240"
keys s
wait_for "no embedded sources in this library"
# S sorts by each column in turn; the heading of the sort column is in
# capitals.
keys S
wait_for "sorted by stage"
expect "STAGE"
keys S S S
wait_for "sorted by size"
expect "SIZE"
# f filters: the title counts what is shown.
keys f
wait_for "Filter (words"
type_text gemm_tt
keys Enter
want=$(grep -c gemm_tt "$WORK/names")
wait_for "($want shown, filter gemm_tt)"
# ? lists this view's keys first.
keys '?'
wait_for "This view: Function table"
keys q
wait_for "Functions  240"
quit_and_check 0

# IR: llvm-dis of the function, cached by module hash.
if command -v llvm-dis >/dev/null 2>&1 || [ -n "${MTLBX_LLVM_DIS:-}" ]; then
    start 80 24 xterm-256color -- "$GEMM"
    wait_for "Functions  240"
    keys Enter
    wait_for "Interface  (s source"
    keys d
    wait_for "llvm-dis: steel_gemm" 60
    wait_for "define" 10
    keys q
    wait_for "Interface  (s source"
    keys d
    wait_for "(cached)" 10
    keys q
    wait_for "Interface  (s source"
    keys q
    wait_for "Functions  240"
    quit_and_check 0
else
    echo "note: llvm-dis not found, the IR pane was not checked"
fi
finish
