# Shared by the tests of the installed library (tests/api/*.sh): where the
# scratch prefix is that make check installed libmtlbx into
# (tests/api.mk), how a program finds it there, a private work directory
# removed on exit, and small checks. Sourced, not run. POSIX sh.
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
BUILD=${MTLBX_BUILDDIR:-$(pwd)}
BIN=${MTLBX_BIN:-$BUILD/src/mtlbx}
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
PREFIX=${MTLBX_API_PREFIX:-$BUILD/tests/api/prefix}
if [ ! -f "$PREFIX/lib/pkgconfig/mtlbx.pc" ]; then
    echo "FAIL: nothing is installed at $PREFIX (make check installs it first: tests/api/prefix.stamp)"
    exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-api.XXXXXX") || exit 1
FAILED=0
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
finish() { exit $FAILED; }

# Only what the installed files say: pkg-config reads the prefix's mtlbx.pc,
# and the loader finds libmtlbx.so.N there (an outside program would be
# installed with it, or use its prefix's ld.so.conf).
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
export LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CC=${MTLBX_CC:-cc}
PYTHON=${MTLBX_PYTHON:-python3}
SO=$(ls "$PREFIX"/lib/libmtlbx.so.[0-9]* 2>/dev/null | head -n 1)

# A sanitizer build's libmtlbx needs the ASan runtime first in the process
# (ASan refuses to start otherwise), and the programs that load it here,
# the consumer and python3, are not built with it: the runtime is
# preloaded into them (with_lib). The consumer keeps the leak check (what
# mtlbx_free leaves behind is a failure); python3 cannot (the interpreter
# itself keeps memory to the end), so its runs do without.
ASAN_RUNTIME=
if [ -n "$SO" ] && command -v ldd >/dev/null 2>&1; then
    ASAN_RUNTIME=$(ldd "$SO" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
fi
with_lib() {
    if [ -n "$ASAN_RUNTIME" ]; then
        LD_PRELOAD="$ASAN_RUNTIME${LD_PRELOAD:+:$LD_PRELOAD}" "$@"
    else
        "$@"
    fi
}
with_python() {
    if [ -n "$ASAN_RUNTIME" ]; then
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" with_lib "$PYTHON" "$@"
    else
        "$PYTHON" "$@"
    fi
}
need_python() {
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 7))' 2>/dev/null ||
        { echo "SKIP: no Python 3.7 or later ($PYTHON)"; exit 77; }
}
# The metallibs every tree has: the sample and the fixtures.
FIXTURE_FILES="$SRC/data/sample.metallib $(ls "$SRC"/tests/fixtures/*.metallib)"
