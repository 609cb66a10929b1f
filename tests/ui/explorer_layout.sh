#!/bin/sh
# The explorer and the byte layout: bytes no structure claims are marked in
# the hex panel (a '~' after the row's offset, which survives NO_COLOR and
# ASCII) and named in its title, `u` jumps to them; a Core Image kernel's
# ARGR arguments are rows of their own, selected from their bytes.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found (tools/mkcrafted.py builds the damaged file)"
    exit 77
fi
PYTHONDONTWRITEBYTECODE=1 python3 "$SRC/tools/mkcrafted.py" "$WORK" "$SRC" || { echo "FAIL: mkcrafted.py"; exit 1; }

start 100 30 vt100 NO_COLOR=1 -- --ascii "$WORK/fat-gap-unclaimed.metallib"
to_bytes
wait_for "Library 1"
keys u
wait_for "9 bytes unclaimed at 0x907"
expect "UNCLAIMED 0x907+9"
expect "00000900~"
# Only one run: `u` again says so and stays.
keys u
wait_for "the only run of unclaimed bytes"
quit_and_check

GAINMAP=$CORPUS/gainmap-ci-chemharuka.metallib
if [ -f "$GAINMAP" ]; then
    start 100 30 xterm-256color -- "$GAINMAP"
    to_bytes
    wait_for "GainMapFilter"
    # 272 is inside the second argument of ARGR ("sdr", a float4).
    keys :
    type_text "272"
    keys Enter
    wait_for '"sdr"'
    expect "float4  sdr"
    expect "RETR  returns float4"
    expect "ARGR  3 arguments"
    quit_and_check
else
    echo "note: no corpus at $CORPUS, the ARGR rows were not checked"
fi
finish
