#!/bin/sh
# Function NAME operands and `mtlbx src`, the real binary:
#   - dis, sig, src and extract -f take a name, a unique prefix or a glob;
#     a prefix of several lists them, a miss names the closest functions
#     ("did you mean"), both on one line with exit 1;
#   - src prints the member line that defines the function (a plain
#     definition in angle-mac-msl21-debug-hsrc, a macro-instantiated
#     template in gsm-gaussian), --all the whole member, and a library with
#     no sources is one line and exit 1.
# The sample (data/) parts always run; the corpus parts skip with a message
# when ../shared/corpus is absent.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
SAMPLE=$SRC/data/sample.metallib
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-names.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
M() { "$MTLBX_BIN" "$@" >"$WORK/out" 2>"$WORK/err"; }

# --- the sample: sig and extract -f ------------------------------------------
M sig "$SAMPLE" comp || fail "sig with a unique prefix: $(cat "$WORK/err")"
grep -q '^kernel void compute_main' "$WORK/out" || fail "sig comp did not print compute_main"
M sig "$SAMPLE" '*_main'
grep -q '^vertex .*vertex_main' "$WORK/out" && grep -q 'fragment_main' "$WORK/out" &&
    grep -q 'object_main' "$WORK/out" || fail "sig '*_main' did not print every *_main"
grep -q 'visible_fn' "$WORK/out" && fail "sig '*_main' printed visible_fn"
M sig "$SAMPLE" 'compute_mian'
st=$?
[ $st -eq 1 ] || fail "sig with a typo exited $st, not 1"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "a miss is not one line: $(cat "$WORK/err")"
grep -q "no function named 'compute_mian'; did you mean compute_main" "$WORK/err" ||
    fail "no did-you-mean: $(cat "$WORK/err")"
M sig "$SAMPLE" v
st=$?
[ $st -eq 1 ] || fail "sig with an ambiguous prefix exited $st, not 1"
grep -q "'v' matches 2 functions: vertex_main, visible_fn" "$WORK/err" ||
    fail "an ambiguous prefix does not list its functions: $(cat "$WORK/err")"

mkdir "$WORK/x"
M extract "$SAMPLE" -o "$WORK/x" -f 'patch*' -f frag || fail "extract -f glob and prefix: $(cat "$WORK/err")"
[ -f "$WORK/x/patch_vertex.air" ] && [ -f "$WORK/x/fragment_main.air" ] ||
    fail "extract -f did not write patch_vertex.air and fragment_main.air"
[ "$(ls "$WORK/x" | wc -l)" -eq 2 ] || fail "extract -f wrote other files: $(ls "$WORK/x")"
M extract "$SAMPLE" -o "$WORK/x" -f nope_nothing
[ $? -eq 1 ] || fail "extract -f with no match did not exit 1"

# dis resolves the name before it looks for llvm-dis, so these need none.
M --llvm-dis /nonexistent/llvm-dis dis "$SAMPLE" '*main'
st=$?
[ $st -eq 1 ] || fail "dis with a glob of several exited $st, not 1"
grep -q "'\*main' matches 5 functions" "$WORK/err" || fail "dis glob of several: $(cat "$WORK/err")"
M --llvm-dis /nonexistent/llvm-dis dis "$SAMPLE" intersect
st=$?
[ $st -eq 2 ] && grep -q "llvm-dis not found" "$WORK/err" ||
    fail "dis with a unique prefix did not get to llvm-dis ($st): $(cat "$WORK/err")"
M --llvm-dis /nonexistent/llvm-dis dis "$SAMPLE" vertx_main
[ $? -eq 1 ] && grep -q "did you mean vertex_main" "$WORK/err" || fail "dis did-you-mean: $(cat "$WORK/err")"

# The sample's embedded source: the definition, from its line to its end.
M src "$SAMPLE" compute || fail "src sample compute: $(cat "$WORK/err")"
head -1 "$WORK/out" | grep -q '^// .*/sample_shaders.metal:45$' || fail "src sample: $(head -1 "$WORK/out")"
sed -n 2p "$WORK/out" | grep -q '^kernel void compute_main(device float \*data' || fail "src sample: $(sed -n 2p "$WORK/out")"
tail -1 "$WORK/out" | grep -q '^}$' || fail "src sample does not end at the closing brace: $(tail -1 "$WORK/out")"

# No embedded sources: one line, exit 1, after the name is found.
NOSRC=$SRC/tests/fixtures/nomdsz-v123.metallib
name=$("$MTLBX_BIN" ls --names "$NOSRC" | head -1)
M src "$NOSRC" "$name"
st=$?
[ $st -eq 1 ] || fail "src on a library without sources exited $st, not 1"
grep -q "no embedded sources" "$WORK/err" || fail "src without sources: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "src without sources is not one line"
[ -s "$WORK/out" ] && fail "src without sources printed something"

# --- the corpus: src ------------------------------------------------------------
ANGLE=$CORPUS/angle-mac-msl21-debug-hsrc.metallib
GSM=$CORPUS/gsm-gaussian-v129-hsrd-63fn.metallib
if [ ! -f "$ANGLE" ] || [ ! -f "$GSM" ]; then
    echo "SKIP (part): the corpus is not at $CORPUS; src on real sources not tested"
else
    M src "$ANGLE" blitVS || fail "src angle blitVS: $(cat "$WORK/err")"
    head -1 "$WORK/out" | grep -q '^// .*shaders/blit.metal:[0-9][0-9]*$' || fail "src: no // PATH:LINE line: $(head -1 "$WORK/out")"
    sed -n 2p "$WORK/out" | grep -q '^vertex BlitVSOut blitVS(' || fail "src: the second line is not the definition: $(sed -n 2p "$WORK/out")"
    tail -1 "$WORK/out" | grep -q '^}' || fail "src: does not end at the closing brace: $(tail -1 "$WORK/out")"
    # The line number is the member's: compare with the member written out.
    line=$(head -1 "$WORK/out" | sed 's/.*://')
    "$MTLBX_BIN" sources "$ANGLE" -o "$WORK/srcs" >/dev/null || fail "sources -o"
    blit=$(find "$WORK/srcs" -name blit.metal | head -1)
    [ "$(sed -n "${line}p" "$blit")" = "$(sed -n 2p "$WORK/out")" ] || fail "src: line $line of blit.metal is not the one printed"
    M src "$ANGLE" blitVS --all || fail "src --all"
    [ "$(($(wc -l <"$WORK/out") - 1))" -eq "$(wc -l <"$blit")" ] || fail "src --all did not print the whole member"

    # A template instantiated by a macro (host_name("renderTiles_" #name)).
    M src "$GSM" renderTiles_float || fail "src gsm renderTiles_float: $(cat "$WORK/err")"
    sed -n 2p "$WORK/out" | grep -q '^kernel void renderTiles($' || fail "src renderTiles_float: $(sed -n 1,2p "$WORK/out")"
    # Every function of both libraries is found in its sources.
    for lib in "$ANGLE" "$GSM"; do
        "$MTLBX_BIN" ls --names "$lib" >"$WORK/names"
        while read -r n; do
            "$MTLBX_BIN" src "$lib" "$n" >/dev/null 2>"$WORK/err" || fail "src $(basename "$lib") $n: $(cat "$WORK/err")"
        done <"$WORK/names"
    done
    # A typo in the start of a long name still finds it.
    M sig "$CORPUS/candle-steel-gemm.metallib" steel_gemm_nn_flot16
    [ $? -eq 1 ] && grep -q "did you mean steel_gemm_nn_float16_float16_" "$WORK/err" ||
        fail "no did-you-mean for a typo in a long name: $(cat "$WORK/err")"
    M src "$CORPUS/candle-steel-gemm.metallib" 'steel_gemm_nt_float32*bm32_bn32*MN_taligned_K_taligned'
    [ $? -eq 1 ] && grep -q "no embedded sources" "$WORK/err" || fail "candle (no sources): $(cat "$WORK/err")"
fi

[ "$FAILED" -eq 0 ] || exit 1
echo PASS
