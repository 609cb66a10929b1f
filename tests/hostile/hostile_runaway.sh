#!/bin/sh
# Small inputs that made mtlbx run away or say nothing (issue 23; a silent
# llvm-dis, issue 35 item 9), each run with its expected exit status and a
# bound on time and peak memory. The bounds are generous (CI is a loaded
# 2-core machine running ASan); what they catch is the old behaviour,
# which was many times over them.
# The libraries come from tests/hostile_mkrunaway.py.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
python3 "$SRC/tests/hostile_mkrunaway.py" "$WORK" || exit 1

# Item 5: modules whose bitcode is truncated. sig and dump --interfaces
# could not read them, yet check printed nothing and exited 0. Now one
# error, at the module's offset. (A module whose blocks nest past the
# reader's depth limit was the second case; since the reader steps over
# every block the interface does not need by its length word, that nest
# is never entered and such a module reads fine: check and sig must then
# agree that it is clean, below.)
bounded "check, a valid library" 0 10 200 "$BIN" check "$WORK/valid.metallib" &&
    { [ ! -s "$WORK/out" ] || fail "check reports a valid library: $(cat "$WORK/out")"; }
for damage in truncated; do
    lib=$WORK/$damage.metallib
    off=$("$BIN" dump --json "$lib" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["libraries"][0]["functions"][1]["module"]["offset"])')
    if bounded "check, a $damage module" 1 10 200 "$BIN" check "$lib"; then
        if [ "$(wc -l <"$WORK/out")" -eq 1 ] &&
            grep -q "^$lib:$off: error: function 1: interface not decoded: " "$WORK/out"; then
            ok "check names the $damage module at its offset $off: $(cat "$WORK/out")"
        else
            fail "check on the $damage module said: $(cat "$WORK/out")"
        fi
    fi
    "$BIN" sig "$lib" >/dev/null 2>&1
    [ $? -eq 1 ] || fail "sig on the $damage module does not fail: the library is no regression input"
done
"$BIN" sig "$WORK/nested.metallib" >/dev/null 2>&1 && bounded "check, a nest the reader steps over" 0 10 200 \
    "$BIN" check "$WORK/nested.metallib" && { [ ! -s "$WORK/out" ] || fail "check reports what sig reads: $(cat "$WORK/out")"; }

# Item 7: 2,000 functions on one 1.5 MB module. Each function read the
# whole module again: minutes under load, 4 to 19 s on an idle machine.
# Read once, it is well under a second (4 s for sig and 8 s for sig --json
# under ASan on a loaded 2-core machine).
SHARED=$WORK/shared.metallib
if bounded "sig, 2000 functions on one module" 0 10 400 "$BIN" sig "$SHARED"; then
    n=$(grep -c '^kernel void kernel_' "$WORK/out")
    [ "$n" -eq 2000 ] && grep -q 'kernel void kernel_01999(' "$WORK/out" &&
        grep -q 'a1999_7_x*' "$WORK/out" || fail "sig printed $n declarations, not each function's own 2000"
fi
# check reads the module once to hash it (each function has the same HASH)
# and once to decode it: the old hash pass read 3 GB.
bounded "check, 2000 functions on one module" 0 10 400 "$BIN" check "$SHARED" &&
    { [ ! -s "$WORK/out" ] || fail "check reports the shared module: $(head -3 "$WORK/out")"; }
bounded "sig --json, 2000 functions on one module" 0 30 400 "$BIN" sig --json "$SHARED" &&
    [ "$(grep -o '"name":"a[0-9]*_7_' "$WORK/out" | sort -u | wc -l)" -eq 2000 ] ||
    fail "sig --json does not give each function its own arguments"

# Item 9: an llvm-dis that exits at once but leaves a child holding its
# output open. The old code waited for the pipe to close: 30 s, then "timed
# out". Now it stops on the exit, drains briefly, kills what is left, and
# says so; the output is llvm-dis's and the exit status its verdict.
cp "$(command -v sleep)" "$WORK/lingering-sleep"
stand_in() {
    printf '#!/bin/sh\n"%s" 1000 &\ncat >/dev/null\n%s\n' "$WORK/lingering-sleep" "$2" >"$WORK/$1"
    chmod +x "$WORK/$1"
}
stand_in forking-llvm-dis "echo '; ModuleID = <stand-in>'; exit 0"
stand_in forking-failing-llvm-dis "echo 'error: Invalid record' >&2; exit 1"
if bounded "dis, llvm-dis exits 0 leaving a child on its output" 0 10 200 \
    "$BIN" --llvm-dis "$WORK/forking-llvm-dis" dis "$WORK/valid.metallib" first; then
    grep -q '^; ModuleID = <stand-in>$' "$WORK/out" || fail "dis lost llvm-dis's output"
    grep -q 'kept its output open' "$WORK/err" || fail "dis did not say why it stopped reading: $(cat "$WORK/err")"
fi
if bounded "dis, llvm-dis exits 1 leaving a child on its output" 2 10 200 \
    "$BIN" --llvm-dis "$WORK/forking-failing-llvm-dis" dis "$WORK/valid.metallib" first; then
    grep -q 'exited with status 1: error: Invalid record' "$WORK/err" ||
        fail "dis did not report the failure: $(cat "$WORK/err")"
fi
# Issue 35 item 9: an llvm-dis that exits 0 and prints nothing. dis printed
# nothing and exited 0, as if the module were empty; llvm-dis writes at
# least a "; ModuleID" line for any module it reads, so it is the tool's
# failure: exit 2 and one line naming it.
printf '#!/bin/sh\ncat >/dev/null\nexit 0\n' >"$WORK/silent-llvm-dis"
chmod +x "$WORK/silent-llvm-dis"
if bounded "dis, llvm-dis exits 0 and prints nothing" 2 10 200 \
    "$BIN" --llvm-dis "$WORK/silent-llvm-dis" dis "$WORK/valid.metallib" first; then
    [ ! -s "$WORK/out" ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
        grep -q ': function first: llvm-dis exited with status 0 but printed nothing$' "$WORK/err" &&
        ok "dis says llvm-dis printed nothing" || fail "dis on a silent llvm-dis: $(cat "$WORK/err" "$WORK/out")"
fi

# The process group is killed: no lingering child outlives the command.
for _i in 1 2 3 4 5 6 7 8 9 10; do
    pgrep -f "$WORK/lingering-sleep" >/dev/null || break
    sleep 1
done
if pgrep -f "$WORK/lingering-sleep" >/dev/null; then
    fail "llvm-dis's child was left running"
    for _pid in $(pgrep -f "$WORK/lingering-sleep"); do kill "$_pid"; done
else
    ok "llvm-dis's child was killed"
fi

finish
