#!/bin/sh
# The man page SYNOPSIS and the README's command table are printed by
# src/cli/cmddoc from the command table: this fails when either document
# no longer matches it (run `src/cli/cmddoc man` / `markdown` and paste).
BUILD=${MTLBX_BUILDDIR:-$(pwd)}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CMDDOC=$BUILD/src/cli/cmddoc
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-clidoc.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
FAILED=0

"$CMDDOC" man >"$WORK/want.man" || { echo "FAIL: cmddoc man"; exit 1; }
sed -n '/^\.Sh SYNOPSIS$/,/^\.Sh DESCRIPTION$/p' "$SRC/man/mtlbx.1" | sed '1d;$d' >"$WORK/got.man"
if ! cmp -s "$WORK/want.man" "$WORK/got.man"; then
    echo "FAIL: man/mtlbx.1 SYNOPSIS differs from 'src/cli/cmddoc man':"
    diff "$WORK/want.man" "$WORK/got.man"
    FAILED=1
fi

"$CMDDOC" markdown >"$WORK/want.md" || { echo "FAIL: cmddoc markdown"; exit 1; }
# The README's table: from its header row to the first line after it that
# is not a table row.
awk '/^\| command \| what it does \|$/ { on = 1 } on && !/^\|/ { exit } on' "$SRC/README.md" >"$WORK/got.md"
if ! cmp -s "$WORK/want.md" "$WORK/got.md"; then
    echo "FAIL: README.md's command table differs from 'src/cli/cmddoc markdown':"
    diff "$WORK/want.md" "$WORK/got.md"
    FAILED=1
fi

# Every command of the table has its own entry in the man page's COMMANDS.
"$CMDDOC" markdown | sed -n 's/^| `mtlbx \([a-z]*\) .*/\1/p' | while read -r cmd; do
    grep -q "^\.It Cm $cmd" "$SRC/man/mtlbx.1" || { echo "FAIL: man page has no .It Cm $cmd"; exit 1; }
done || FAILED=1
# Both pages render without a warning from the formatter (man-db's
# `man --warnings` runs groff -ww: an mdoc macro it cannot fill, such as
# .Lb for a library it has no name for, prints on every view), and each
# names the other under SEE ALSO.
if command -v groff >/dev/null 2>&1; then
    for page in mtlbx.1 mtlbx.3; do
        warnings=$(groff -ww -mdoc -Tutf8 "$SRC/man/$page" 2>&1 >/dev/null)
        [ -z "$warnings" ] || { echo "FAIL: man/$page renders with warnings: $warnings"; FAILED=1; }
    done
else
    echo "note: no groff, the man pages' warnings are not checked"
fi
sed -n '/^\.Sh SEE ALSO$/,/^\.Sh /p' "$SRC/man/mtlbx.1" | grep -q '^\.Xr mtlbx 3' ||
    { echo "FAIL: mtlbx(1) SEE ALSO does not name mtlbx(3)"; FAILED=1; }
sed -n '/^\.Sh SEE ALSO$/,/^\.Sh /p' "$SRC/man/mtlbx.3" | grep -q '^\.Xr mtlbx 1' ||
    { echo "FAIL: mtlbx(3) SEE ALSO does not name mtlbx(1)"; FAILED=1; }
grep -qF -- '--os PLATFORM:VERSION\|declared' "$WORK/want.md" ||
    { echo "FAIL: the command table does not name --os declared"; FAILED=1; }
[ $FAILED -eq 0 ] && echo "ok: man page and README match the command table"
exit $FAILED
