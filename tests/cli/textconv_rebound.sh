#!/bin/sh
# git diff through `mtlbx textconv` shows a rebound buffer in MSL (issue 21
# item 5): the sample is rebuilt (tests/mkrebound.py) with compute_main's
# `data` argument moved from [[buffer(0)]] to [[buffer(4)]] in its LLVM IR
# (llvm-as assembles it), both versions are committed, and git diff must
# show the old and new sig line of that argument and no other sig line.
set -u
: "${MTLBX_BIN:?}" "${MTLBX_SRCDIR:?}"
for tool in git python3 llvm-as; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-rebound.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

python3 "$MTLBX_SRCDIR/tests/mkrebound.py" "$MTLBX_SRCDIR/tools" "$work" 4 || exit 2

repo=$work/repo
git init -q "$repo" && cd "$repo" || exit 2
git config user.email test@example.invalid
git config user.name test
git config commit.gpgsign false
echo '*.metallib diff=metallib' >.gitattributes
git config diff.metallib.textconv "$MTLBX_BIN textconv"
cp "$work/old.metallib" shaders.metallib
git add .gitattributes shaders.metallib && git commit -qm one || exit 2
cp "$work/new.metallib" shaders.metallib
git commit -qam two || exit 2
git diff HEAD~1 HEAD >"$work/diff.txt" || fail "git diff failed"
cat "$work/diff.txt"
grep -qx -- '-  sig     device float\* data \[\[buffer(0)\]\],' "$work/diff.txt" || fail "no old sig line for data"
grep -qx -- '+  sig     device float\* data \[\[buffer(4)\]\],' "$work/diff.txt" || fail "no new sig line for data"
[ "$(grep -c '^[-+]  sig ' "$work/diff.txt")" = 2 ] || fail "other sig lines changed too"
echo "ok: git diff shows the rebound buffer as MSL"
