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
# bounded NAME STATUS SECONDS MB CMD...: CMD exits STATUS within SECONDS
# (it is killed at twice that) and its peak RSS stays under MB (when GNU
# time is there to say). Output in $WORK/out and $WORK/err.
bounded() {
    _name=$1 _want=$2 _secs=$3 _mb=$4
    shift 4
    _t0=$(date +%s%N)
    if [ -x /usr/bin/time ]; then
        timeout -s KILL $((_secs * 2)) /usr/bin/time -f %M -o "$WORK/rss" "$@" >"$WORK/out" 2>"$WORK/err"
    else
        echo 0 >"$WORK/rss"
        timeout -s KILL $((_secs * 2)) "$@" >"$WORK/out" 2>"$WORK/err"
    fi
    _st=$?
    _ms=$((($(date +%s%N) - _t0) / 1000000))
    _kb=$(tail -1 "$WORK/rss" 2>/dev/null)
    case $_kb in '' | *[!0-9]*) _kb=0 ;; esac
    if [ "$_st" -ne "$_want" ]; then
        fail "$_name: exit $_st, expected $_want (${_ms} ms)"
        head -3 "$WORK/err"
        return 1
    fi
    if [ "$_ms" -gt $((_secs * 1000)) ]; then
        fail "$_name: took ${_ms} ms, the bound is ${_secs} s"
        return 1
    fi
    if [ "$_kb" -gt $((_mb * 1024)) ]; then
        fail "$_name: peak RSS $((_kb / 1024)) MB, the bound is ${_mb} MB"
        return 1
    fi
    ok "$_name: exit $_st in ${_ms} ms, peak RSS $((_kb / 1024)) MB"
}
