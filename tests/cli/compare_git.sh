#!/bin/sh
# git diff on committed metallibs through `mtlbx textconv`, set up exactly
# as the README says (.gitattributes + git config): two commits of the
# sample, the second a rebuild in which one kernel changed (its module
# altered and its HASH rewritten, tests/compare_rebuild.py), must show that
# function by name with its old and new hash, in `git diff` and in
# `git log -p`, and nothing about the functions that did not change.
set -u
: "${MTLBX_BIN:?}" "${MTLBX_SRCDIR:?}"
command -v git >/dev/null 2>&1 || { echo "SKIP: git is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-git.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

repo=$work/repo
git init -q "$repo" || exit 2
cd "$repo" || exit 2
git config user.email test@example.invalid
git config user.name test
git config commit.gpgsign false
# The two lines of the README (the binary by its full path here).
echo '*.metallib diff=metallib' >.gitattributes
git config diff.metallib.textconv "$MTLBX_BIN textconv"

cp "$MTLBX_SRCDIR/data/sample.metallib" shaders.metallib
git add .gitattributes shaders.metallib && git commit -qm one || exit 2

# Rebuild: compute_main's module changes and its HASH is rewritten.
"$MTLBX_BIN" dump --json shaders.metallib >"$work/dump.json" || exit 2
python3 "$MTLBX_SRCDIR/tests/compare_rebuild.py" "$work/dump.json" shaders.metallib "$work/new.metallib" compute_main ||
    exit 2
cp "$work/new.metallib" shaders.metallib || exit 2
git commit -qam two || exit 2

git diff HEAD~1 HEAD >"$work/diff.txt" || fail "git diff failed"
cat "$work/diff.txt"
grep -q '^ function compute_main$' "$work/diff.txt" ||
    grep -q '^@@.*function compute_main' "$work/diff.txt" || fail "compute_main is not named in git diff"
[ "$(grep -c '^-  hash [0-9a-f]\{64\}$' "$work/diff.txt")" = 1 ] || fail "not exactly one old hash line"
[ "$(grep -c '^+  hash [0-9a-f]\{64\}$' "$work/diff.txt")" = 1 ] || fail "not exactly one new hash line"
grep -q 'Binary files' "$work/diff.txt" && fail "git diff did not use the textconv"
# The hunk is about compute_main alone: no other function line changed.
grep '^[-+]function ' "$work/diff.txt" && fail "a function line changed"

git log -p -1 >"$work/log.txt" || fail "git log -p failed"
grep -q 'function compute_main' "$work/log.txt" || fail "git log -p does not name compute_main"
grep -q '^+  hash ' "$work/log.txt" || fail "git log -p shows no hash change"
echo "ok: git diff names compute_main"
