# Shared by the tests/hostile_*.sh scripts of issue 12: where the binary,
# the sources and the fixtures are, a private work directory removed on
# exit, and small checks. Sourced, not run. POSIX sh.
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
SAMPLE=$SRC/data/sample.metallib
FIXTURES=$SRC/tests/fixtures
if [ ! -x "$BIN" ]; then
    echo "FAIL: no binary at $BIN"
    exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-hostile.XXXXXX") || exit 1
FAILED=0
hostile_cleanup() { rm -rf "$WORK"; }
trap hostile_cleanup EXIT
trap 'exit 1' INT TERM HUP

fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
# need TOOL...: skip (77) when a tool the test drives is missing.
need() {
    for _t in "$@"; do
        command -v "$_t" >/dev/null 2>&1 || { echo "SKIP: $_t is not installed"; exit 77; }
    done
}
# A sanitizer build reserves terabytes of address space, so `ulimit -v`
# cannot start it; such a build is limited through its allocator instead.
asan_build() { ! (ulimit -v 400000; "$BIN" --version) >/dev/null 2>&1; }
finish() { exit $FAILED; }
