#!/bin/sh
# What the installed libmtlbx exports (issue 32, LIBRARY.md): every name
# <mtlbx.h> declares, and nothing else; no name without the mtlbx_ prefix
# reaches a host process (the internal API, with or without the prefix,
# stays inside: src/lib/api/libmtlbx.sym), whether it loads the shared
# library or links the static archive.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
[ -n "$SO" ] && [ -f "$SO" ] || { fail "no libmtlbx.so.N under $PREFIX/lib"; finish; }
nm -D --defined-only "$SO" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | sort -u >"$WORK/exported"
# The functions the header declares: "name(" after a return type.
sed -n 's/^[A-Za-z_][A-Za-z0-9_ ]*[ *]\(mtlbx_[a-z0-9_]*\)(.*/\1/p' "$PREFIX/include/mtlbx.h" | sort -u >"$WORK/declared"
n=$(wc -l <"$WORK/exported")
stray=$(grep -v '^mtlbx_' "$WORK/exported")
[ -z "$stray" ] && ok "$n exported symbols, all with the mtlbx_ prefix" ||
    fail "exported without the prefix: $(echo $stray)"
[ "$(wc -l <"$WORK/declared")" -gt 20 ] || fail "found only $(wc -l <"$WORK/declared") functions in mtlbx.h"
extra=$(comm -23 "$WORK/exported" "$WORK/declared")
missing=$(comm -13 "$WORK/exported" "$WORK/declared")
[ -z "$extra" ] && ok "nothing exported that <mtlbx.h> does not declare" ||
    fail "exported but not declared in <mtlbx.h> (internal API leaking): $(echo $extra)"
[ -z "$missing" ] && ok "every function <mtlbx.h> declares is exported" ||
    fail "declared in <mtlbx.h> but not exported: $(echo $missing)"

# The Debian package's symbols file (debian/libmtlbx1.symbols): every name
# exported, none that is not, so that dpkg-gensymbols records the version
# that brought each function and packages built against libmtlbx1 depend
# on a version that has what they call.
SYMBOLS=$SRC/debian/libmtlbx1.symbols
if [ -f "$SYMBOLS" ]; then
    sed -n 's/^ \([A-Za-z_][A-Za-z0-9_]*\)@Base .*/\1/p' "$SYMBOLS" | sort -u >"$WORK/packaged"
    extra=$(comm -23 "$WORK/exported" "$WORK/packaged")
    gone=$(comm -13 "$WORK/exported" "$WORK/packaged")
    [ -z "$extra" ] && [ -z "$gone" ] &&
        ok "debian/libmtlbx1.symbols lists exactly the $n exported names" ||
        fail "debian/libmtlbx1.symbols: missing $(echo $extra); not exported $(echo $gone)"
else
    fail "no $SYMBOLS"
fi

# The static archive: make install leaves only the same names global
# (src/lib/api/local.mk), where configure found objcopy.
A=$PREFIX/lib/libmtlbx.a
if [ ! -f "$A" ]; then
    ok "no static archive (configure --disable-static)"
elif [ -z "${MTLBX_OBJCOPY:-}" ]; then
    ok "libmtlbx.a keeps its internal names: configure found no objcopy"
else
    nm -g --defined-only "$A" | awk 'NF == 3 { print $3 }' | sort -u >"$WORK/archived"
    extra=$(comm -23 "$WORK/archived" "$WORK/declared")
    [ -z "$extra" ] && [ -s "$WORK/archived" ] &&
        ok "libmtlbx.a defines $(wc -l <"$WORK/archived") global names, all of <mtlbx.h>" ||
        fail "libmtlbx.a defines global names <mtlbx.h> does not declare: $(echo $extra | cut -c1-300)"
fi
finish
