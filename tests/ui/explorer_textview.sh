#!/bin/sh
# The text view as good as less, in colour, with NO_COLOR and with
# --ascii, at 80x24: a search in the IR view (llvm-dis) says "match 1/N",
# the match is highlighted (reverse or underline, read from the cells'
# attributes with capture-pane -e) on a row above the status line, n and
# N wrap with a message, & shows only the matching lines and & again all
# of them, # hides the line numbers, G goes to the end (100%), and a long
# title never cuts the position. The source view colours MSL keywords.
# Skips (77) without tmux, python3 or llvm-dis.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
if ! command -v llvm-dis >/dev/null 2>&1 && [ -z "$MTLBX_LLVM_DIS" ]; then
    echo "SKIP: llvm-dis is not installed (the IR view needs it)"
    exit 77
fi

# attr_at ROW TEXT: the SGR attributes (bold, underline, reverse, fg, bg)
# in effect at the first TEXT on screen row ROW (1-based), from the
# escape sequences capture-pane -e writes.
attr_at() {
    T capture-pane -e -p -t 0 | python3 -c '
import re, sys
row, text = int(sys.argv[1]), sys.argv[2]
line = sys.stdin.read().split("\n")[row - 1]
state, plain, attrs = set(), "", []
for m in re.finditer(r"\x1b\[([0-9;]*)m|(.)", line, re.S):
    if m.group(2) is None:
        codes = [c for c in (m.group(1) or "0").split(";") if c != ""] or ["0"]
        for c in codes:
            if c == "0": state = set()
            elif c == "1": state.add("bold")
            elif c == "4": state.add("underline")
            elif c == "7": state.add("reverse")
            elif c in ("24",): state.discard("underline")
            elif c in ("27",): state.discard("reverse")
            elif c in ("22",): state.discard("bold")
            elif c.startswith("3") or c.startswith("4"):
                state = {s for s in state if not s.startswith("c" + c[0])} | {"c" + c}
    else:
        plain += m.group(2); attrs.append(frozenset(state))
at = plain.find(text)
print(" ".join(sorted(attrs[at])) if at >= 0 else "absent")
' "$1" "$2"
}

# row_of TEXT: the first screen row (1-based) holding TEXT, or 0.
row_of() {
    screen | grep -n -F -m1 -- "$1" | cut -d: -f1 | grep . || echo 0
}

check_run() {
    label=$1
    shift
    start 80 24 "$@"
    to_bytes && wait_for "Functions (8)" 20 || return
    keys d
    wait_for "llvm-dis: vertex_main" 30 || return
    wait_for "ModuleID"
    keys /
    wait_for "Search text"
    type_text "float"
    keys Enter
    wait_for "match 1/15" || return
    # The status line is row 23 (of 24): the match line is above it.
    [ "$(screen | sed -n 23p | grep -c 'match 1/15')" -eq 1 ] || fail "$label: the status line is not row 23"
    cur=$(screen | sed -n 2p | sed 's/.*line \([0-9]*\)\/.*/\1/')
    row=$(screen | grep -n "^ *$cur %struct" | cut -d: -f1)
    [ -n "$row" ] && [ "$row" -ge 3 ] && [ "$row" -le 22 ] || fail "$label: match line $cur not shown above the status line"
    a=$(attr_at "$row" float)
    case $a in
        *underline* | *reverse*) ;;
        *) fail "$label: the match is not underlined or reversed ($a)" ;;
    esac
    # Another match on a line that is not the current one is marked too.
    r2=$(row_of "@shade_weight(float %nx)")
    a=$(attr_at "$r2" "float %nx")
    case $a in
        *underline* | *reverse*) ;;
        *) fail "$label: a match on another line is not marked ($a)" ;;
    esac
    # N from the first match wraps to the last, with a message.
    keys N
    wait_for "match 15/15" || return
    expect "search hit the top"
    keys n
    wait_for "match 1/15"
    expect "search hit the bottom"
    # &: only matching lines; & again: all lines.
    keys '&'
    wait_for "[& matching lines]"
    expect_not "entry:"
    keys '&'
    wait_gone "[& matching lines]"
    wait_for "entry:"
    # #: no line numbers; G: the last line, 100%.
    keys '#'
    wait_for "line numbers hidden"
    [ "$(screen | grep -c '^ *[0-9][0-9]* ')" -eq 0 ] || fail "$label: # left line numbers"
    keys G
    wait_for "100%"
    keys g
    wait_for "line 1/"
    keys q
    wait_for "Functions (8)"
    quit_and_check
}

check_run colour xterm-256color --
check_run NO_COLOR xterm-256color NO_COLOR=1 --
check_run ascii xterm-256color -- --ascii

# Syntax colour: IR keywords bold in every mode (colour adds a hue).
start 80 24 xterm-256color NO_COLOR=1 -- "$SAMPLE"
to_bytes && wait_for "Functions (8)" 20
keys d
wait_for "ModuleID" 30
r=$(row_of "entry:")
r=$((r - 1))
case $(attr_at "$r" define) in *bold*) ;; *) fail "NO_COLOR: 'define' is not bold" ;; esac
keys q
wait_for "Functions (8)"
# MSL: the source member's 'kernel' is bold too.
keys s
wait_for "Source archive"
keys /
type_text "sample_shaders.metal"
keys Enter
keys Enter
wait_for "source: "
keys /
type_text "compute_main(device"
keys Enter
wait_for "match 1/1"
keys j
r=$(row_of "kernel void compute_main")
case $(attr_at "$r" kernel) in *bold*) ;; *) fail "NO_COLOR: MSL 'kernel' is not bold ($(attr_at "$r" kernel))" ;; esac
keys q
wait_for "Source archive"
keys q
wait_for "Functions (8)"
quit_and_check

# At 80 columns a long function name gives way in the title, not the
# position: "line N/M  P%" stays whole at its end (candle-steel-gemm's
# names are 70 characters and more).
GEMM=$CORPUS/candle-steel-gemm.metallib
if [ -f "$GEMM" ]; then
    start 80 24 xterm-256color -- "$GEMM"
    wait_for "Functions  240"
    keys d
    wait_for "ModuleID" 30
    keys G
    wait_for "100%"
    screen | sed -n 2p | grep -Eq "llvm-dis: steel_gemm_nn_.*   line ([0-9]+)/\1  100%\$" ||
        fail "the IR title cuts its position: $(screen | sed -n 2p)"
    keys q
    wait_for "Functions  240"
    quit_and_check
else
    echo "note: the corpus is not at $CORPUS; the long-title check skipped"
fi

finish
