#!/bin/sh
# The installed <mtlbx.h> (issue 32, LIBRARY.md): self-contained (it
# includes standard headers only, and compiles alone) as C99 with every
# warning an error, and as C++; the prefix has the files LIBRARY.md lists
# (libmtlbx.so.N with its SONAME, the static archive, mtlbx.pc, the man
# page and the Python module); pkg-config gives the version the header and
# the library say.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
H=$PREFIX/include/mtlbx.h
[ -f "$H" ] || { fail "no $H"; finish; }

others=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//p' "$H" | grep -v '^<std\(def\|int\)\.h>$')
[ -z "$others" ] && ok "mtlbx.h includes <stddef.h> and <stdint.h> only" ||
    fail "mtlbx.h includes more than standard headers: $others"

# A file that includes the header twice, uses a name of each kind, and
# nothing else.
cat >"$WORK/alone.c" <<'EOC'
#include <mtlbx.h>
#include <mtlbx.h>
int f(mtlbx *h);
int f(mtlbx *h)
{
    size_t n = 0;
    int64_t v = mtlbx_function_int(h, 0, 0, MTLBX_HASH_OK);
    return (mtlbx_function_column(h, 0, MTLBX_NAME, &n) != NULL) + (int)v + MTLBX_VERSION_NUMBER + MTLBX_FATAL;
}
EOC
if $CC -std=c99 -pedantic -Wall -Wextra -Wstrict-prototypes -Werror -I"$PREFIX/include" -c "$WORK/alone.c" \
    -o "$WORK/alone.o" 2>"$WORK/err"; then
    ok "compiles alone as C99 (-pedantic -Wall -Wextra -Werror)"
else
    fail "does not compile alone as C99: $(head -5 "$WORK/err")"
fi
CXX=
for c in ${MTLBX_CXX:-} g++ c++ clang++; do
    command -v "$c" >/dev/null 2>&1 && { CXX=$c; break; }
done
if [ -z "$CXX" ]; then
    fail "no C++ compiler (g++, c++ or clang++) to compile the header as C++ with"
else
    cp "$WORK/alone.c" "$WORK/alone.cc"
    if $CXX -std=c++11 -pedantic -Wall -Wextra -Werror -I"$PREFIX/include" -c "$WORK/alone.cc" \
        -o "$WORK/alonecc.o" 2>"$WORK/err"; then
        ok "compiles alone as C++11 ($CXX)"
    else
        fail "does not compile alone as C++: $(head -5 "$WORK/err")"
    fi
    # C++ sees C names (extern "C"): the object asks for mtlbx_function_int, not a mangled name.
    nm -u "$WORK/alonecc.o" 2>/dev/null | grep -q ' mtlbx_function_int$' && ok "C linkage from C++" ||
        fail "C++ does not see <mtlbx.h>'s functions with C linkage"
fi

[ -n "$SO" ] && [ -f "$SO" ] || { fail "no libmtlbx.so.N under $PREFIX/lib"; finish; }
soname=$(objdump -p "$SO" | awk '$1 == "SONAME" { print $2 }')
case $soname in
libmtlbx.so.[0-9]*) ok "$(basename "$SO") has SONAME $soname" ;;
*) fail "$(basename "$SO") has SONAME '$soname'" ;;
esac
[ -f "$PREFIX/lib/libmtlbx.a" ] && ok "the static archive is installed" || fail "no libmtlbx.a"
for f in "$PREFIX"/share/man/man3/mtlbx.3 "$PREFIX"/lib/python3*/*-packages/mtlbx/__init__.py; do
    [ -f "$f" ] && ok "installed: ${f#"$PREFIX"/}" || fail "not installed: $f"
done

v=$(pkg-config --modversion mtlbx)
hv=$(sed -n 's/^#define MTLBX_VERSION_STRING "mtlbx \(.*\)"$/\1/p' "$H")
[ -n "$v" ] && [ "$v" = "$hv" ] && ok "pkg-config and the header say version $v" ||
    fail "pkg-config says version '$v', the header '$hv'"
case " $(pkg-config --cflags --libs mtlbx) " in
*" -I$PREFIX/include "*"-L$PREFIX/lib "*"-lmtlbx "*) ok "pkg-config: $(pkg-config --cflags --libs mtlbx)" ;;
*) fail "pkg-config --cflags --libs mtlbx: $(pkg-config --cflags --libs mtlbx)" ;;
esac
finish
