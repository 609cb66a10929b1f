#!/bin/sh
# Nothing left behind, nothing torn (issue 12, items 5, 6 and 7), with a
# real library of two 32 MiB modules written to a temporary directory:
#  - SIGINT, SIGTERM and SIGHUP at random moments of `extract`: the
#    process dies of that signal (or has finished) and no .mtlbx-tmp-*
#    file is left;
#  - `dis` with an llvm-dis that hangs (and has a child of its own), then
#    SIGINT or SIGTERM to mtlbx alone, as a terminal's Ctrl-C (llvm-dis
#    runs in its own process group): its whole group is gone at once;
#  - the input rewritten in place (same size) at a random moment of
#    `extract`: every .air written is a consistent copy (its SHA-256 is
#    the module's before or after the rewrite, never a mix), else exit 2
#    saying the file changed;
#  - the input truncated at a random moment: exit 0 or the documented
#    "changed or shrank" message and exit 2, no temporary file;
#  - `extract --force` never replaces its own input (lib.air holding "lib").
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3 pgrep
python3 "$SRC/tests/hostile_mkbig.py" "$WORK/big.metallib" 2 32 || exit 1
# Background jobs of a non-interactive shell start with SIGINT ignored
# (and mtlbx keeps an ignored signal ignored, as under nohup): start them
# with the default disposition, as from a terminal.
dfl() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"; }
rand_ms() { python3 -c "import random; print('%.3f' % (random.uniform($1, $2) / 1000))"; }
leftovers() { find "$1" -name '.mtlbx-tmp-*' | wc -l; }
signum() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; TERM) echo 15 ;; esac; }

n=0
for sig in INT TERM HUP INT TERM HUP INT TERM HUP; do
    n=$((n + 1))
    out=$WORK/out$n
    mkdir "$out"
    (dfl "$BIN" extract "$WORK/big.metallib" -o "$out") >/dev/null 2>"$WORK/err" &
    pid=$!
    sleep "$(rand_ms 20 400)"
    kill -s "$sig" $pid 2>/dev/null
    wait $pid
    rc=$?
    left=$(leftovers "$out")
    if [ "$left" -ne 0 ]; then
        fail "SIG$sig during extract left $left temporary file(s)"
    elif [ $rc -ne 0 ] && [ $rc -ne $((128 + $(signum "$sig"))) ]; then
        fail "SIG$sig during extract: exit $rc, not death by the signal"
        head -2 "$WORK/err"
    else
        ok "SIG$sig during extract: exit $rc, no temporary file"
    fi
done

# An llvm-dis that never ends, with a child of its own.
cat >"$WORK/llvm-dis" <<TOOL
#!/bin/sh
echo \$\$ >"$WORK/dis.pid"
sleep 300 &
cat >/dev/null
wait
TOOL
chmod +x "$WORK/llvm-dis"
for sig in INT TERM; do
    rm -f "$WORK/dis.pid"
    (MTLBX_LLVM_DIS="$WORK/llvm-dis" dfl "$BIN" dis "$WORK/big.metallib" big0) >/dev/null 2>&1 &
    pid=$!
    t=0
    while [ ! -s "$WORK/dis.pid" ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
    group=$(cat "$WORK/dis.pid" 2>/dev/null)
    [ -n "$group" ] || { fail "the fake llvm-dis never started"; kill $pid; wait $pid; continue; }
    sleep 0.2
    kill -s "$sig" $pid
    wait $pid
    rc=$?
    t=0
    while pgrep -g "$group" >/dev/null && [ $t -lt 20 ]; do sleep 0.1; t=$((t + 1)); done
    if pgrep -g "$group" >/dev/null; then
        fail "SIG$sig to dis: llvm-dis's group survives: $(pgrep -g "$group" | tr '\n' ' ')"
        pkill -KILL -g "$group"
    elif [ $rc -ne $((128 + $(signum "$sig"))) ]; then
        fail "SIG$sig to dis: exit $rc, not death by the signal"
    else
        ok "SIG$sig to dis: mtlbx and llvm-dis's whole group are gone"
    fi
done

# Same-size rewrites and truncation under extract. The rewrite puts 8 MiB
# of 0xAA into the middle of the first module in one write.
hashes() { python3 -c 'import hashlib, sys
for p in sys.argv[1:]:
    print(hashlib.sha256(open(p, "rb").read()).hexdigest())' "$@"; }
mod0=$(python3 -c "print($( "$BIN" ls "$WORK/big.metallib" | awk 'NR == 1 { print $5 }'))")
"$BIN" extract "$WORK/big.metallib" -o "$WORK/pristine" -f big0 >/dev/null || fail "extract of the pristine file"
python3 - "$WORK/pristine/big0.air" "$WORK/modified.air" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
mid = len(data) // 2
data[mid:mid + (8 << 20)] = b"\xaa" * (8 << 20)
open(sys.argv[2], "wb").write(data)
PY
good="$(hashes "$WORK/pristine/big0.air" "$WORK/modified.air")"
for n in 1 2 3 4 5 6; do
    cp "$WORK/big.metallib" "$WORK/race.metallib"
    out=$WORK/race$n
    mkdir "$out"
    "$BIN" extract "$WORK/race.metallib" -o "$out" -f big0 >/dev/null 2>"$WORK/err" &
    pid=$!
    sleep "$(rand_ms 0 300)"
    python3 - "$WORK/race.metallib" "$mod0" <<'PY'
import os, sys
with open(sys.argv[1], "r+b") as f:
    size = 32 << 20
    f.seek(int(sys.argv[2]) + size // 2)
    f.write(b"\xaa" * (8 << 20))
PY
    wait $pid
    rc=$?
    if [ "$(leftovers "$out")" -ne 0 ]; then
        fail "rewrite $n: temporary file left"
    elif [ $rc -eq 0 ]; then
        h=$(hashes "$out/big0.air")
        if echo "$good" | grep -qx "$h"; then
            ok "rewrite $n: exit 0 with a consistent copy"
        else
            fail "rewrite $n: exit 0 with a torn copy (sha256 $h)"
        fi
    elif [ $rc -eq 2 ] && grep -q "changed while it was read" "$WORK/err"; then
        ok "rewrite $n: exit 2: $(head -1 "$WORK/err")"
    else
        fail "rewrite $n: exit $rc"; head -2 "$WORK/err"
    fi
done
for n in 1 2 3 4; do
    cp "$WORK/big.metallib" "$WORK/shrink.metallib"
    out=$WORK/shrink$n
    mkdir "$out"
    "$BIN" extract "$WORK/shrink.metallib" -o "$out" >/dev/null 2>"$WORK/err" &
    pid=$!
    sleep "$(rand_ms 0 300)"
    truncate -s 1000 "$WORK/shrink.metallib"
    wait $pid
    rc=$?
    if [ "$(leftovers "$out")" -ne 0 ]; then
        fail "truncation $n: temporary file left"
    elif grep -q "Bad address" "$WORK/err"; then
        fail "truncation $n: $(head -1 "$WORK/err")"
    elif [ $rc -eq 0 ] || { [ $rc -eq 2 ] && grep -q "changed or shrank" "$WORK/err"; }; then
        ok "truncation $n: exit $rc $(head -1 "$WORK/err")"
    elif [ $rc -eq 2 ] && grep -q "^mtlbx: $WORK/shrink.metallib:[0-9]*: .*not written" "$WORK/err" &&
        ! grep -qv "^mtlbx: $WORK/shrink.metallib:[0-9]*: " "$WORK/err"; then
        # Cut before extract read its function list (a sleep of a few
        # ms): a damaged file, each function refused with its offset.
        ok "truncation $n: cut before it was read, exit 2 $(head -1 "$WORK/err")"
    else
        fail "truncation $n: exit $rc"; head -2 "$WORK/err"
    fi
done

# Item 7: the input named like the output of one of its functions.
mkdir "$WORK/self"
first=$("$BIN" ls "$SAMPLE" | awk 'NR == 1 { print $NF }')
cp "$SAMPLE" "$WORK/self/$first.air"
"$BIN" extract "$WORK/self/$first.air" -o "$WORK/self" --force >/dev/null 2>"$WORK/err"
rc=$?
if ! cmp -s "$SAMPLE" "$WORK/self/$first.air"; then
    fail "extract --force replaced its own input"
elif [ $rc -ne 2 ] || ! grep -q "input file" "$WORK/err"; then
    fail "extract --force onto its input: exit $rc"; head -2 "$WORK/err"
else
    ok "extract --force onto its input: refused ($(head -1 "$WORK/err"))"
fi
finish
