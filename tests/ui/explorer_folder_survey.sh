#!/bin/sh
# The folder list as a survey table (mtlbx DIR), on a scratch folder
# holding a copy of the corpus: function counts are numbers within 5
# seconds of the first screen (filled in the background, as `find` does),
# sizes have digit grouping, S sorts (by functions: the biggest library
# first), the title names the folder (also after opening a library and
# coming back with F), and /GEMMParams finds the library whose kernels
# take it (candle-steel-gemm); a fat file's row keeps its columns in line.
# In colour, with NO_COLOR and with --ascii.
# Skips (77) without tmux or the corpus.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
if [ ! -f "$CORPUS/candle-steel-gemm.metallib" ]; then
    echo "SKIP: the corpus is not at $CORPUS"
    exit 77
fi
mkdir "$WORK/corpus" && cp "$CORPUS"/*.metallib "$WORK/corpus/" || exit 1

# What the table must show, from the command line.
candle_fns=$("$MTLBX_BIN" ls --names "$WORK/corpus/candle-steel-gemm.metallib" | wc -l | tr -d ' ')
biggest= most=-1
for f in "$WORK"/corpus/*.metallib; do
    n=$("$MTLBX_BIN" ls --names "$f" 2>/dev/null | wc -l | tr -d ' ')
    if [ "$n" -gt "$most" ]; then most=$n biggest=$(basename "$f"); fi
done

# wait_row REGEX SECONDS: until a screen row matches the extended REGEX.
wait_row() {
    _limit=$(($2 * 10)) _i=0
    while [ $_i -lt $_limit ]; do
        screen | grep -E -q -- "$1" && return 0
        sleep 0.1
        _i=$((_i + 1))
    done
    fail "timed out ($2 s) waiting for a row matching: $1"
    return 1
}

run() {
    label=$1
    shift
    start 120 40 xterm-256color "$@" "$WORK/corpus"
    wait_for "Folders and archives" 20 || return
    # Within 5 seconds of the first screen: candle's count, as a number.
    wait_row "^ +3,128,032 +$candle_fns +1\.2\.7 +macOS 14\.0\.0 +3\.1 +0 +candle-steel-gemm\.metallib" 5 || return
    screen | sed -n 1p | grep -q "mtlbx  $WORK/corpus" || fail "$label: the title does not name the folder"
    # A fat file's cells ("1.2.5,1.2.7", "unknown,iOS 16.0.0") are cut to
    # their columns, so its MSL, problems and path stay under their headings.
    wait_row "^ +34,468 +36  1\.2\.5,(…|~)  unknown,iOS 1(…|~)  2\.3-3\.0 +0  libtracepoint-rt-ios-fat\.metallib" 5
    # S: by size, then by functions: the biggest library first.
    keys S
    wait_for "sorted by size"
    keys S
    wait_for "sorted by functions"
    # The scan may still be counting the biggest library (a sanitizer
    # build is slow): the table re-sorts as counts arrive, so wait for it.
    _i=0
    until screen | sed -n 5p | grep -q " $most  .*$biggest"; do
        _i=$((_i + 1))
        if [ $_i -gt 300 ]; then
            fail "$label: sorted by functions, $biggest ($most) is not first"
            break
        fi
        sleep 0.1
    done
    # Which library takes GEMMParams: once the names are indexed.
    wait_for "names indexed" 120 || return
    keys /
    wait_for "Search paths, function, argument and type names"
    type_text GEMMParams
    keys Enter
    wait_row "^candle-steel-gemm\.metallib: mlx::steel::GEMMParams params in steel_gemm" 5
    # Enter opens it; F comes back, and the title names the folder again.
    keys Enter
    wait_for "F goes back to the list" 30 || return
    screen | sed -n 1p | grep -q "candle-steel-gemm" || fail "$label: the library's title does not name it"
    keys F
    wait_for "Folders and archives"
    screen | sed -n 1p | grep -q "mtlbx  $WORK/corpus" || fail "$label: after F the title does not name the folder: $(screen | sed -n 1p)"
    screen | sed -n 1p | grep -q "candle" && fail "$label: after F the title still names the library"
    quit_and_check
}

run colour --
run NO_COLOR NO_COLOR=1 --
run ascii -- --ascii
finish
