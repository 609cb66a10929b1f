#!/bin/sh
# check's threads (issue 22): a small file, or a process allowed one CPU
# (`taskset -c 0`), is checked on the main thread alone. Starting the
# layout thread and a hash worker per CPU cost more than they saved on
# the corpus (54 files, 12 MB): and while a process has more than one
# thread, every munmap and page release flushes every CPU's TLB, dear on
# a paravirtualised machine. A large file on two CPUs still uses threads.
# strace counts the threads started (clone/clone3).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need strace taskset python3

# Only clones with CLONE_THREAD are threads of check's own: under the
# sanitizers, LeakSanitizer clones a tracer at exit (and cannot work under
# ptrace at all, so leak checking is off for these runs).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
threads_started() { # FILE [taskset CPU]: threads `check` starts on FILE
    log=$WORK/strace.log
    if [ -n "${2:-}" ]; then
        taskset -c "$2" strace -f -qq -e trace=clone,clone3 -o "$log" "$BIN" check "$1" >/dev/null 2>&1
    else
        strace -f -qq -e trace=clone,clone3 -o "$log" "$BIN" check "$1" >/dev/null 2>&1
    fi
    grep -c 'CLONE_THREAD' "$log"
}

n=$(threads_started "$SAMPLE")
if [ "$n" = 0 ]; then ok "check of the sample starts no thread"; else fail "check of the sample started $n threads"; fi

# 12 MiB of modules: above the size where check takes threads.
python3 "$SRC/tests/hostile_mkbig.py" "$WORK/big.metallib" 3 4 || exit 1
n=$(threads_started "$WORK/big.metallib" 0)
if [ "$n" = 0 ]; then ok "check on one CPU starts no thread"; else fail "check under taskset -c 0 started $n threads"; fi

if [ "$(nproc)" -ge 2 ]; then
    n=$(threads_started "$WORK/big.metallib")
    if [ "$n" -gt 0 ]; then ok "check of 12 MiB on $(nproc) CPUs starts $n threads"; else fail "check of 12 MiB on $(nproc) CPUs started no thread"; fi
fi
finish
