#!/bin/sh
# dis falls back on a newer llvm-dis (issue 23, item 11). Debian 12's
# llvm-dis (LLVM 14) rejects some newer Xcode modules with "Invalid
# record"; the llvm-dis of Debian's llvm-19 reads them. Here the chosen
# llvm-dis (--llvm-dis, then MTLBX_LLVM_DIS) is a stand-in that fails the
# way LLVM 14 does; the real newest llvm-dis installed must then read the
# module, dis must exit 0 with exactly that llvm-dis's output, and say on
# stderr which one read it. A stand-in that fails otherwise (not bitcode)
# gets no fallback. Skips (77) only when no versioned llvm-dis is installed
# (llvm-dis-N on PATH or /usr/lib/llvm-N/bin/llvm-dis).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"

newest=
for c in /usr/lib/llvm-*/bin/llvm-dis $(IFS=:; for d in $PATH; do ls "$d"/llvm-dis-[0-9]* 2>/dev/null; done); do
    [ -x "$c" ] && newest=$c && break
done
if [ -z "$newest" ]; then
    echo "SKIP: no versioned llvm-dis (install llvm-19: /usr/lib/llvm-19/bin/llvm-dis)"
    exit 77
fi

printf '#!/bin/sh\ncat >/dev/null\necho "llvm-dis: error: Invalid record" >&2\nexit 1\n' >"$WORK/llvm-dis-as-14"
printf '#!/bin/sh\ncat >/dev/null\necho "llvm-dis: error: Invalid bitcode signature" >&2\nexit 1\n' >"$WORK/not-bitcode"
chmod +x "$WORK/llvm-dis-as-14" "$WORK/not-bitcode"

for how in option env; do
    if [ $how = option ]; then
        "$BIN" --llvm-dis "$WORK/llvm-dis-as-14" dis "$SAMPLE" compute_main >"$WORK/out" 2>"$WORK/err"
    else
        MTLBX_LLVM_DIS="$WORK/llvm-dis-as-14" "$BIN" dis "$SAMPLE" compute_main >"$WORK/out" 2>"$WORK/err"
    fi
    st=$?
    if [ $st -ne 0 ]; then
        fail "$how: the stand-in rejected the module and no newer llvm-dis read it (exit $st): $(cat "$WORK/err")"
        continue
    fi
    used=$(sed -n 's/.*; read by \(.*\)$/\1/p' "$WORK/err")
    if [ -z "$used" ] || ! grep -q "llvm-dis-as-14 rejected the module (.*Invalid record)" "$WORK/err"; then
        fail "$how: stderr does not say which llvm-dis read it: $(cat "$WORK/err")"
        continue
    fi
    # What it printed is that llvm-dis's own reading of the module.
    "$BIN" --llvm-dis "$used" dis "$SAMPLE" compute_main >"$WORK/direct" 2>/dev/null
    if cmp -s "$WORK/out" "$WORK/direct" && grep -q '^define ' "$WORK/out"; then
        ok "$how: rejected by the stand-in, read by $used"
    else
        fail "$how: the output is not $used's disassembly"
    fi
done

"$BIN" --llvm-dis "$WORK/not-bitcode" dis "$SAMPLE" compute_main >"$WORK/out" 2>"$WORK/err"
st=$?
if [ $st -eq 2 ] && grep -q "Invalid bitcode signature" "$WORK/err" && [ ! -s "$WORK/out" ]; then
    ok "a failure that is not a rejection of newer bitcode is reported, no fallback"
else
    fail "not-bitcode stand-in: exit $st, stderr: $(cat "$WORK/err")"
fi
finish
