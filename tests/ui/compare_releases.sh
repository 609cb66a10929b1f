#!/bin/sh
# The explorer's release compare at 80x24 (issue 21): `mtlbx OLD NEW` on two
# generated folders, then on two generated wheels (tests/mkrelease.py), D in
# the folder list pairs the libraries by path as `mtlbx diff OLD NEW` does:
# one added, one removed, one changed with its requirement change first (the
# text `mtlbx diff` prints for that pair), the unchanged one counted. Enter
# on the changed pair opens the compare view of its two libraries; q there
# goes back to the release list, q again to the folder list, D to the
# release list again, and q from it to the folder list. Uses the corpus's metaljl
# kernel for macOS 13 and 26 (a requirement change); without the corpus,
# the sample and a rebuild of it (no requirement change to check).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
MK="python3 $SRC/tests/mkrelease.py"
if [ -f "$CORPUS/metaljl-kernel.13.metallib" ] && [ -f "$CORPUS/metaljl-kernel.26.metallib" ]; then
    OLD=$CORPUS/metaljl-kernel.13.metallib NEW=$CORPUS/metaljl-kernel.26.metallib
else
    echo "note: no corpus at $CORPUS: the sample and a rebuild (no requirement change)"
    "$MTLBX_BIN" dump --json "$SAMPLE" >"$WORK/dump.json" || { echo "FAIL: dump"; exit 1; }
    python3 "$SRC/tests/compare_rebuild.py" "$WORK/dump.json" "$SAMPLE" "$WORK/b.metallib" compute_main >/dev/null ||
        { echo "FAIL: compare_rebuild.py"; exit 1; }
    OLD=$SAMPLE NEW=$WORK/b.metallib
fi
OTHER=$FIXTURES/legacy-v122-ios.metallib SAME=$FIXTURES/dylib-v129.metallib
# What diff says of the changed pair: its requirement change, if any.
req=$("$MTLBX_BIN" diff "$OLD" "$NEW" | sed -n 's/^~ header    \(requires .*\)$/\1/p')

cd "$WORK" || exit 1
for kind in "" .whl; do
    $MK "old$kind" "mlx/lib/mlx.metallib=$OLD" "mlx/lib/gone.metallib=$OTHER" "mlx/lib/same.metallib=$SAME" &&
        $MK "new$kind" "mlx/lib/mlx.metallib=$NEW" "mlx/lib/extra.metallib=$OTHER" "mlx/lib/same.metallib=$SAME" ||
        { echo "FAIL: mkrelease.py"; exit 1; }
    sep=/
    [ -n "$kind" ] && sep=!
    start 80 24 xterm-256color -- "old$kind" "new$kind"
    wait_for "names indexed"
    keys D
    wait_for "Releases: 1 changed, 1 added, 1 removed, 1 the same"
    expect "+ mlx/lib/extra.metallib"
    expect "- mlx/lib/gone.metallib"
    row=$(screen | grep -F "~ mlx/lib/mlx.metallib: ")
    [ -n "$row" ] || fail "no changed row for mlx/lib/mlx.metallib"
    if [ -n "$req" ]; then
        want=$(printf '~ mlx/lib/mlx.metallib: %s' "$req" | cut -c1-70)
        case $row in "$want"*) ;; *) fail "the changed row does not start with diff's requirement change: '$row' (want '$want')" ;; esac
    fi
    keys G Enter
    wait_for "Compare: "
    expect "A old$kind${sep}mlx/lib/mlx.metallib"
    expect "B new$kind"  # the rest may be cut at 80 columns
    [ -z "$req" ] || expect "~ header    $(printf '%s' "$req" | cut -c1-50)"
    # q closes each view back to the one it was opened from: the compare
    # view to the release list, that to the folder list; D there comes
    # back to the pairs at once.
    keys q
    wait_for "Releases: 1 changed"
    keys q
    wait_for "names indexed"
    keys D
    wait_for "Releases: 1 changed"
    keys q
    wait_for "names indexed"
    quit_and_check
done

# One folder: D says what it needs.
start 80 24 xterm-256color -- old
wait_for "names indexed"
keys D
wait_for "D compares two folders or archives"
quit_and_check
finish
