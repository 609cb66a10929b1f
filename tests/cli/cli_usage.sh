#!/bin/sh
# The command line as a new user meets it (issue 15, items 1 to 5):
#   - every command answers -h and --help with its own usage (exit 0);
#   - options may come after the command and its operands, "--" ends them;
#   - extract and sources -o create missing parents, never overwrite;
#   - ls takes several files, each under "==> FILE <==", worst status wins;
#   - check on a library with 60 hash mismatches prints one sorted output
#     on five runs.
# The corpus parts skip (the rest still runs) without ../shared/corpus.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
SAMPLE=$SRC/data/sample.metallib
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-cli.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
M() { "$MTLBX_BIN" "$@"; }

# expect STATUS CMD...: runs CMD, output in $WORK/out and $WORK/err.
expect() {
    _want=$1
    shift
    "$@" >"$WORK/out" 2>"$WORK/err"
    _got=$?
    if [ "$_got" -ne "$_want" ]; then
        fail "$* exited $_got, not $_want: $(head -c 300 "$WORK/err")"
        return 1
    fi
    return 0
}

# 1. Help everywhere.
for opt in -h --help; do
    expect 0 M $opt && grep -q '^Usage: mtlbx' "$WORK/out" && grep -q '^  extract FILE' "$WORK/out" \
        || fail "mtlbx $opt: no usage"
    for cmd in info ls dump check extract sources dis; do
        if expect 0 M $cmd $opt; then
            head -1 "$WORK/out" | grep -q "^Usage: mtlbx $cmd " || fail "$cmd $opt: $(head -1 "$WORK/out")"
            grep -q -- '-h, --help' "$WORK/out" || fail "$cmd $opt lists no -h"
            [ -s "$WORK/err" ] && fail "$cmd $opt wrote to stderr"
        fi
    done
done
# --help anywhere among the arguments, even after a file.
expect 0 M check "$SAMPLE" --help && grep -q '^Usage: mtlbx check' "$WORK/out" || fail "check FILE --help"
expect 0 M extract --output=x -h && grep -q -- '--output DIR' "$WORK/out" || fail "extract -h lists -o"
# Each command's options are in its help, with argument names.
expect 0 M extract --help
for want in '-o, --output DIR' '-f, --function NAME' '--force'; do
    grep -q -- "$want" "$WORK/out" || fail "extract --help lacks $want"
done
expect 0 M ls --help && grep -q -- '--names' "$WORK/out" || fail "ls --help lacks --names"
# An unknown option names the command and where help is.
expect 2 M dis --bogus && grep -q "Try 'mtlbx dis --help'" "$WORK/err" || fail "dis --bogus: $(cat "$WORK/err")"
expect 2 M dis "$SAMPLE" && grep -q "missing NAME" "$WORK/err" || fail "dis FILE: $(cat "$WORK/err")"
expect 2 M dump "$SAMPLE" && grep -q -- "--json" "$WORK/err" || fail "dump without --json"
expect 2 M extract "$SAMPLE" -o || fail "-o without its argument"
grep -q "needs an argument" "$WORK/err" || fail "-o alone: $(cat "$WORK/err")"
expect 2 M info "$SAMPLE" --verify || fail "ls's option given to info"
expect 0 M --version && grep -q '^mtlbx ' "$WORK/out" || fail "--version"
ok "help"

# 2. Options anywhere; "--" ends them.
expect 0 M ls "$SAMPLE" --verify && grep -q ' ok ' "$WORK/out" || fail "ls FILE --verify"
expect 0 M --no-color ls "$SAMPLE" || fail "global option before the command"
expect 0 M ls "$SAMPLE" --ascii || fail "global option after the command"
# The same missing llvm-dis is named wherever --llvm-dis stands.
for order in before after; do
    if [ $order = before ]; then
        expect 2 M --llvm-dis "$WORK/no-llvm-dis" dis "$SAMPLE" vertex_main
    else
        expect 2 M dis "$SAMPLE" vertex_main --llvm-dis "$WORK/no-llvm-dis"
    fi
    grep -q "no-llvm-dis is not an executable" "$WORK/err" || fail "--llvm-dis $order dis: $(cat "$WORK/err")"
done
expect 2 M dis "$SAMPLE" vertex_main --llvm-dis="$WORK/no-llvm-dis" || fail "--llvm-dis=PATH"
cp "$SAMPLE" "$WORK/-v.metallib"
(cd "$WORK" && M ls -- -v.metallib >out 2>err) && grep -q vertex_main "$WORK/out" \
    || fail "-- before a file name starting with '-': $(cat "$WORK/err")"
(cd "$WORK" && M ls -- --verify 2>err >/dev/null; [ $? -eq 2 ] && grep -q -- "--verify:" err) \
    || fail "after --, --verify is a file name"
expect 0 M extract -o "$WORK/ex0" "$SAMPLE" -f vertex_main --force && [ -f "$WORK/ex0/vertex_main.air" ] \
    || fail "extract options on both sides of FILE"
ok "options anywhere"

# 3. -o creates missing parents; never over a file without --force.
expect 0 M extract "$SAMPLE" -o "$WORK/a/b/c" && [ -f "$WORK/a/b/c/vertex_main.air" ] \
    || fail "extract -o a/b/c"
expect 2 M extract "$SAMPLE" -o "$WORK/a/b/c" -f vertex_main && grep -q "exists" "$WORK/err" \
    || fail "second extract without --force: $(cat "$WORK/err")"
expect 0 M extract "$SAMPLE" -o "$WORK/a/b/c" -f vertex_main --force || fail "--force"
: >"$WORK/plain"
expect 2 M extract "$SAMPLE" -o "$WORK/plain/sub" && [ -f "$WORK/plain" ] || fail "-o under a file"
if [ -d "$CORPUS" ]; then
    src=$CORPUS/metaljl-sources.13.metallib
    expect 0 M sources "$src" -o "$WORK/s/t/u" && [ -n "$(find "$WORK/s/t/u" -type f)" ] \
        || fail "sources -o s/t/u"
    outside=$(find "$WORK/s" -type f ! -path "$WORK/s/t/u/*")
    [ -z "$outside" ] || fail "sources wrote outside DIR: $outside"
fi
ok "-o DIR with parents"

# 4. ls FILE...
expect 0 M ls "$SAMPLE" "$SAMPLE" || fail "ls on two files"
[ "$(grep -c '^==> .* <==$' "$WORK/out")" -eq 2 ] || fail "ls: two headers expected"
[ "$(head -1 "$WORK/out")" = "==> $SAMPLE <==" ] || fail "ls: first line $(head -1 "$WORK/out")"
[ "$(grep -c 'vertex_main' "$WORK/out")" -eq 2 ] || fail "ls: both files listed"
grep -qx '' "$WORK/out" || fail "ls: a blank line between files"
expect 2 M ls "$SAMPLE" "$WORK/missing" "$SAMPLE" || fail "ls: the worst status wins"
[ "$(grep -c 'vertex_main' "$WORK/out")" -eq 2 ] || fail "ls: the files around a missing one are listed"
expect 0 M ls --names "$SAMPLE" && [ "$(wc -l <"$WORK/out")" -eq 8 ] && [ "$(head -1 "$WORK/out")" = vertex_main ] \
    || fail "ls --names"
ok "ls FILE..."

# 5. check: 60 hash mismatches, five runs, one sorted output.
big=$CORPUS/mmbeauty-ios-default-v122-177fn.metallib
if [ -f "$big" ]; then
    cp "$big" "$WORK/bad.metallib"
    n=$(M ls --names "$big" | wc -l)
    # 60 functions spread over the whole list, so that several hashing
    # threads find mismatches at once.
    M ls "$big" | awk -v n="$n" 'k < 60 && NR - 1 == int(k * n / 60) { print; k++ }' |
    while read -r _i _t _a _m off size _rest; do
        # Four bytes in the middle of each chosen module.
        printf 'BAD!' | dd of="$WORK/bad.metallib" bs=1 seek=$((off + size / 2)) conv=notrunc 2>/dev/null
    done
    for run in 1 2 3 4 5; do
        M check "$WORK/bad.metallib" >"$WORK/check$run" 2>&1
        [ $? -eq 1 ] || fail "check run $run: status not 1"
    done
    [ "$(grep -c 'HASH of function .* does not match' "$WORK/check1")" -eq 60 ] || fail "check: $(grep -c 'does not match' "$WORK/check1") mismatches, not 60"
    for run in 2 3 4 5; do
        cmp -s "$WORK/check1" "$WORK/check$run" || fail "check run $run differs from run 1"
    done
    sed 's/^[^:]*:\([0-9]*\):.*/\1/' "$WORK/check1" | sort -n -c || fail "check output not sorted by offset"
    ok "check is sorted and deterministic"
else
    echo "SKIP (part): no corpus at $CORPUS for the 60-mismatch check"
fi

exit $FAILED
