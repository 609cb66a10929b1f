#!/bin/sh
# The explorer's d (llvm-dis) when the chosen llvm-dis rejects the module
# as LLVM 14 rejects newer bitcode ("Invalid record"): a newer llvm-dis
# installed reads it, and the view's title says which one and that the
# chosen one rejected it (issue 23, item 11). Skips (77) without tmux or
# without a versioned llvm-dis (llvm-dis-N, /usr/lib/llvm-N/bin/llvm-dis).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

have=
for c in /usr/lib/llvm-*/bin/llvm-dis $(IFS=:; for d in $PATH; do ls "$d"/llvm-dis-[0-9]* 2>/dev/null; done); do
    [ -x "$c" ] && have=$c && break
done
if [ -z "$have" ]; then
    echo "SKIP: no versioned llvm-dis (install llvm-19)"
    exit 77
fi
printf '#!/bin/sh\ncat >/dev/null\necho "llvm-dis: error: Invalid record" >&2\nexit 1\n' >"$WORK/as14"
chmod +x "$WORK/as14"

start 200 30 xterm-256color MTLBX_LLVM_DIS="$WORK/as14" -- "$SAMPLE"
to_bytes && wait_for "Functions (8)"
keys d
wait_for "as14 rejected it)" 30
expect "(read by "
expect "define "
keys q
wait_for "Functions (8)" 10
quit_and_check 0
finish
