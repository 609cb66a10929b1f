#!/bin/sh
# pack --target and pack --from on the project's own libraries (issue 33;
# the corpus's Apple-built modules are tests/cli/pack_corpus.sh):
#   - the sample's modules that carry what the writer reads packed for
#     macOS 15: check reads the library without a finding, and each
#     function has the sample's name, type, AIR and MSL versions and HASH;
#   - refused with exit 2, one line and no output file: bytes that are not
#     AIR, two functions of one name, a module built for a newer OS than
#     the target or for another platform, a target the writer does not
#     know, a module it cannot describe (a tessellation patch);
#   - pack --from LIB -f NAME: a one-function library that check reads
#     clean, the function's values kept; a glob keeps what it matches; no
#     match exits 1 with no output; LIB itself is never replaced.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
SAMPLE=$SRC/data/sample.metallib
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-packm.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# `ls` line of a function without its module offset: type, versions, size,
# hash, name.
values() { # FILE
    "$MTLBX_BIN" ls "$1" | awk '{ print $2, $3, $4, $6, $7, $8 }' | sort
}

"$MTLBX_BIN" extract "$SAMPLE" -o "$WORK/m" >/dev/null || { echo "FAIL: extract"; exit 1; }
mods="fragment_main intersect_tri mesh_main object_main visible_fn"
set --
for m in $mods; do set -- "$@" "$WORK/m/$m.air"; done
if "$MTLBX_BIN" pack "$@" --target macOS:15.0 -o "$WORK/s.metallib" 2>"$WORK/err"; then
    values "$SAMPLE" | grep -E " ($(echo $mods | tr ' ' '|'))$" >"$WORK/want"
    values "$WORK/s.metallib" >"$WORK/got"
    "$MTLBX_BIN" check "$WORK/s.metallib" >"$WORK/check" 2>&1 && cmp -s "$WORK/want" "$WORK/got" &&
        "$MTLBX_BIN" info "$WORK/s.metallib" | grep -q "container version    1.2.8 (macOS)" &&
        ok "5 modules packed for macOS 15: a clean 1.2.8 library with the sample's functions" ||
        fail "packed modules: $(head -2 "$WORK/check"); $(diff "$WORK/want" "$WORK/got" | head -4)"
else
    fail "pack --target macOS:15.0: $(cat "$WORK/err")"
fi

refused() { # LABEL EXPECTED-TEXT ARGS...
    label=$1
    want=$2
    shift 2
    rm -f "$WORK/r.metallib"
    "$MTLBX_BIN" pack "$@" -o "$WORK/r.metallib" >/dev/null 2>"$WORK/err"
    st=$?
    if [ $st -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "$want" "$WORK/err" && [ ! -e "$WORK/r.metallib" ] &&
        [ -z "$(ls -A "$WORK" | grep mtlbx-tmp)" ]; then
        ok "refused, $label: $(cat "$WORK/err")"
    else
        fail "$label: exit $st, $(cat "$WORK/err")"
    fi
}
head -c 4096 "$SAMPLE" >"$WORK/lib.air"
printf 'BC\300\336' >"$WORK/bare.air"
refused "a metallib named .air" "lib.air:0: not an AIR module" "$WORK/lib.air" --target macOS:15.0
refused "a bitstream that is not AIR" "bare.air" "$WORK/bare.air" --target macOS:15.0
refused "two functions of one name" "already defines a function named mesh_main" \
    "$WORK/m/mesh_main.air" "$WORK/m/mesh_main.air" --target macOS:15.0
refused "a module built for a newer OS" "built for macOS 15.0.0 .*newer than the target macOS 14.0" \
    "$WORK/m/mesh_main.air" --target macOS:14.0
refused "a module of another platform" "another platform than iOS 18.0" "$WORK/m/mesh_main.air" --target iOS:18.0
refused "a target the writer does not know" "does not know what Apple's tools write" \
    "$WORK/m/mesh_main.air" --target macOS:16.0
refused "a tessellation patch function" "(TESS)" "$WORK/m/patch_vertex.air" --target macOS:15.0
refused "no such module" "nothere.air: No such file" "$WORK/nothere.air" --target macOS:15.0

# --- pack --from ------------------------------------------------------------------
if "$MTLBX_BIN" pack --from "$SAMPLE" -f compute_main -o "$WORK/one.metallib" 2>"$WORK/err"; then
    values "$SAMPLE" | grep ' compute_main$' >"$WORK/want"
    values "$WORK/one.metallib" >"$WORK/got"
    u1=$("$MTLBX_BIN" info "$SAMPLE" | awk '$1 == "uuid" { print $2 }')
    u2=$("$MTLBX_BIN" info "$WORK/one.metallib" | awk '$1 == "uuid" { print $2 }')
    "$MTLBX_BIN" check "$WORK/one.metallib" >"$WORK/check" 2>&1 && cmp -s "$WORK/want" "$WORK/got" &&
        [ -n "$u2" ] && [ "$u1" != "$u2" ] &&
        "$MTLBX_BIN" sources --list "$WORK/one.metallib" | grep -q sample_shaders.metal &&
        ok "pack --from -f compute_main: a clean one-function library, its sources kept, a UUID of its own" ||
        fail "--from: $(head -2 "$WORK/check"); $(cat "$WORK/got"); uuid $u1 $u2"
else
    fail "pack --from: $(cat "$WORK/err")"
fi
"$MTLBX_BIN" pack --from "$SRC/tests/fixtures/fat.metallib" -f 'blur*' -o "$WORK/fat1.metallib" 2>"$WORK/err" &&
    "$MTLBX_BIN" check "$WORK/fat1.metallib" >/dev/null &&
    [ "$("$MTLBX_BIN" ls --names "$WORK/fat1.metallib" | sort -u)" = blur_kernel ] &&
    ok "pack --from a fat file with a glob keeps the slices' matching functions" ||
    fail "--from fat: $(cat "$WORK/err")"
"$MTLBX_BIN" pack --from "$SAMPLE" -f no_such_function -o "$WORK/none.metallib" >/dev/null 2>"$WORK/err"
st=$?
[ $st -eq 1 ] && [ ! -e "$WORK/none.metallib" ] && grep -q "no function named 'no_such_function'" "$WORK/err" &&
    ok "pack --from with no match: exit 1, no output" || fail "no match: exit $st, $(cat "$WORK/err")"
cp "$SAMPLE" "$WORK/in.metallib"
"$MTLBX_BIN" pack --from "$WORK/in.metallib" -f compute_main -o "$WORK/in.metallib" --force 2>"$WORK/err"
st=$?
[ $st -eq 2 ] && cmp -s "$SAMPLE" "$WORK/in.metallib" && grep -q "that is the input file" "$WORK/err" &&
    ok "pack --from never replaces its input, even with --force" || fail "input replaced: exit $st, $(cat "$WORK/err")"

exit $FAILED
