#!/bin/sh
# The README works as written. In a scratch clone of this repository:
#   1. the Quick start line, less its package install (the packages are
#      there already; a test does not run apt-get), builds and runs the
#      explorer's non-interactive form on the bundled sample;
#   2. the README's test command builds every test program and runs one
#      quick test (the whole suite again would double the run);
#   3. `git status --porcelain` is then empty: no build product is left
#      untracked and unignored;
#   4. the README's git textconv recipe, with the Quick start's binary,
#      makes `git show` print a committed metallib's function names.
# The commands are read from README.md itself, so editing them there is
# what this test checks. Skips (77) outside a git checkout (make
# distcheck's tarball) and without git.
SRC=$(cd "${MTLBX_SRCDIR:-${srcdir:-.}}" && pwd)
if ! command -v git >/dev/null 2>&1; then
    echo "SKIP: git is not installed"
    exit 77
fi
# The top of a checkout, not a folder inside one: make distcheck unpacks
# the release tarball inside the checkout it was made from.
top=$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null)
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$SRC" && pwd -P)" ]; then
    echo "SKIP: $SRC is not the top of a git checkout (a release tarball): nothing to clone"
    exit 77
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-readme.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# The first ```sh block after a heading line that starts with $1.
readme_block() {
    awk -v head="$1" '
        index($0, head) == 1 { inside = 1; next }
        inside && /^```sh$/ { code = 1; next }
        code && /^```$/ { exit }
        code { print }' "$SRC/README.md"
}
quick=$(readme_block "## Quick start")
[ -n "$quick" ] || fail "README.md has no sh block under '## Quick start'"
# The install line's steps, minus the package manager's.
build=$(printf '%s\n' "$quick" | head -1 | sed 's/ && /\n/g' | grep -v 'apt-get' | paste -sd '&' | sed 's/&/ \&\& /g')
case $build in
*autoreconf*configure*make*./src/mtlbx*) ;;
*) fail "the Quick start line does not autoreconf, configure, make and run ./src/mtlbx: $build" ;;
esac
tests=$(readme_block "Run the tests:" | head -1)
[ -n "$tests" ] || fail "README.md has no test command after 'Run the tests:'"
case $tests in *"make"*"check"*) ;; *) fail "the README's test command is not make check: $tests" ;; esac

# The inner make is the user's, not a sub-make of the suite's.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
# The clone is of the committed HEAD: what a new user gets.
git clone -q "$SRC" "$WORK/mtlbx" || fail "git clone failed"
cd "$WORK/mtlbx" || exit 1
echo "running: $build </dev/null"
sh -c "$build" </dev/null >"$WORK/quick.out" 2>&1 || {
    tail -30 "$WORK/quick.out"
    fail "the Quick start line failed"
}
# Without a terminal, mtlbx alone prints `info` of the bundled sample.
grep -q 'sample.metallib' "$WORK/quick.out" || {
    tail -20 "$WORK/quick.out"
    fail "the Quick start did not end on the sample's summary"
}
echo "running: $tests TESTS=tests/cli/cli_usage.sh"
sh -c "$tests TESTS=tests/cli/cli_usage.sh" </dev/null >"$WORK/check.out" 2>&1 || {
    tail -30 "$WORK/check.out"
    fail "the README's test command failed in the clone"
}
left=$(git status --porcelain)
[ -z "$left" ] || fail "after the README's two commands git status is not clean:
$left"

# The textconv recipe, in a repository of metallibs.
recipe=$(readme_block "To make \`git diff\`" | grep -v '^#')
[ -n "$recipe" ] || recipe=$(awk '/textconv/ && /git config/' "$SRC/README.md")
printf '%s\n' "$recipe" | grep -q 'diff.metallib.textconv' || fail "no textconv recipe in README.md"
mkdir "$WORK/repo" && cd "$WORK/repo" && git init -q . || fail "git init failed"
git config user.email test@example.invalid && git config user.name test
cp "$SRC/data/sample.metallib" lib.metallib
# The recipe's MTLBX= line names where the user built mtlbx: here, the clone.
printf '%s\n' "$recipe" | sed "s|^MTLBX=.*|MTLBX='$WORK/mtlbx/src/mtlbx'|" >"$WORK/recipe.sh"
sh "$WORK/recipe.sh" || fail "the textconv recipe failed: $(cat "$WORK/recipe.sh")"
git add .gitattributes lib.metallib && git commit -qm lib || fail "git commit failed"
git show HEAD -- lib.metallib >"$WORK/show.out" 2>&1
name=$("$WORK/mtlbx/src/mtlbx" ls --names lib.metallib | head -1)
[ -n "$name" ] || fail "the sample lists no function"
grep -q "$name" "$WORK/show.out" || {
    head -20 "$WORK/show.out"
    fail "git show does not read lib.metallib through mtlbx textconv (no '$name')"
}
echo "ok: the Quick start builds in a clone, leaves git status clean, and the textconv recipe works"
