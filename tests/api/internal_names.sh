#!/bin/sh
# Only the public face is named mtlbx_ (issue 42, LIBRARY.md): every global
# name the parser library defines that starts mtlbx_ is one of the exported
# names of src/lib/api/libmtlbx.sym; the internal API is mbx_, so that a
# reader (and a binding author reading nm) never mistakes an internal
# function for a promise. Read from the build tree's convenience archive,
# which holds the whole library, internal names included.
srcdir=${MTLBX_SRCDIR:-${srcdir:-.}}
A=src/lib/.libs/libmtlbx_private.a
SYM=$srcdir/src/lib/api/libmtlbx.sym
[ -f "$A" ] || { echo "FAIL: no $A: build the library first"; exit 1; }
[ -f "$SYM" ] || { echo "FAIL: no $SYM"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-names.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
nm -g --defined-only "$A" | awk 'NF == 3 && $2 ~ /[TDRBVW]/ { print $3 }' | sort -u >"$W/globals"
n=$(grep -c '^mbx_' "$W/globals")
[ "$n" -gt 100 ] || { echo "FAIL: only $n mbx_ names in $A: is this the parser library?"; exit 1; }
grep '^mtlbx_' "$W/globals" | grep -vxF -f "$SYM" >"$W/stray"
if [ -s "$W/stray" ]; then
    echo "FAIL: internal functions under the public prefix mtlbx_ (name them mbx_, or export them):"
    sed 's/^/  /' "$W/stray"
    exit 1
fi
echo "ok: $(grep -c '^mtlbx_' "$W/globals") mtlbx_ names, all public; $n internal mbx_ names"
