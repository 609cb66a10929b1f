#!/bin/sh
# `dump --json` byte for byte: the document is streamed (one function's
# jansson object at a time, src/lib/json/json_stream.c), and must stay exactly
# what jansson printed for the whole tree: same keys, order, indentation
# and escapes. tests/golden/NAME.dump.json is the output for
# tests/fixtures/NAME.metallib, run from the fixtures directory (so "path"
# is the bare name). test_fixtures and test_corpus compare the meaning of
# the JSON; this compares the bytes. NAME.layout.json is the same for
# dump --json --layout, whose regions json_stream writes without jansson.
#
# When a change to the schema is intended, regenerate with
#   MTLBX_GOLDEN_UPDATE=1 make check TESTS=tests/cli/dump_golden.sh
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-golden.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
status=0
n=0
for golden in "$SRC"/tests/golden/*.dump.json "$SRC"/tests/golden/*.layout.json; do
    name=$(basename "$golden" .json)
    case $name in
    *.dump) name=${name%.dump} flags="--json" ;;
    *.layout) name=${name%.layout} flags="--json --layout" ;;  # the regions are written without jansson
    esac
    # shellcheck disable=SC2086 # flags are words
    (cd "$SRC/tests/fixtures" && "$BIN" dump $flags "$name.metallib") >"$WORK/out.json" 2>"$WORK/err"
    rc=$?
    if [ -n "${MTLBX_GOLDEN_UPDATE:-}" ]; then
        cp "$WORK/out.json" "$golden"
        echo "updated $golden"
        continue
    fi
    n=$((n + 1))
    if [ $rc -ne 0 ] || [ -s "$WORK/err" ]; then
        echo "FAIL: $name: exit $rc"; cat "$WORK/err"; status=1
    elif ! cmp -s "$golden" "$WORK/out.json"; then
        echo "FAIL: $name: output differs from $golden:"
        diff "$golden" "$WORK/out.json" | head -20
        status=1
    else
        echo "ok: $name (dump $flags)"
    fi
done
[ $n -gt 0 ] || [ -n "${MTLBX_GOLDEN_UPDATE:-}" ] || { echo "FAIL: no golden files"; exit 1; }
exit $status
