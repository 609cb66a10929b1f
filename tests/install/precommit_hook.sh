#!/bin/sh
# The pre-commit hook (.pre-commit-hooks.yaml, README.md "In CI") through
# Debian's pre-commit, offline (language: system runs the mtlbx on PATH,
# here the one just built): pre-commit try-repo passes a good library,
# fails a cut one with its findings, and leaves other files alone; a
# .pre-commit-config.yaml with args (--os declared) passes a wheel whose
# tag declares what its library needs and fails one that declares less.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
command -v pre-commit >/dev/null 2>&1 || { echo "SKIP: pre-commit is not installed (Debian: apt-get install pre-commit)"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-precommit.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# Nothing of the caller's git or pre-commit set-up leaks in; nothing is
# fetched (the hook repository is a local one, its hook needs no download).
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE PRE_COMMIT_CONFIG
export PRE_COMMIT_HOME="$W/cache" GIT_CONFIG_NOSYSTEM=1 HOME="$W/home"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
mkdir -p "$W/bin" "$W/home" && ln -s "$MTLBX_BIN" "$W/bin/mtlbx" && PATH="$W/bin:$PATH"

# The hook repository: the manifest alone, committed (the source tree may
# be a release tarball's, not a git checkout).
mkdir "$W/hooks" && cp "$SRC/.pre-commit-hooks.yaml" "$W/hooks/" &&
    git -C "$W/hooks" init -q && git -C "$W/hooks" add . && git -C "$W/hooks" commit -qm hooks || exit 1
rev=$(git -C "$W/hooks" rev-parse HEAD)

P=$W/project
mkdir "$P" && git -C "$P" init -q || exit 1
cp "$SRC/data/sample.metallib" "$P/good.metallib"
head -c 20000 "$SRC/data/sample.metallib" >"$P/cut.metallib"
echo notes >"$P/notes.txt"
# The sample needs macOS 15 (its target triple): a wheel tagged 15.0 keeps
# that promise, one tagged 14.0 does not.
python3 "$SRC/tests/mkrelease.py" "$P/demo-1.0-py3-none-macosx_15_0_arm64.whl" "demo/k.metallib=$SRC/data/sample.metallib" &&
python3 "$SRC/tests/mkrelease.py" "$P/demo-1.0-py3-none-macosx_14_0_arm64.whl" "demo/k.metallib=$SRC/data/sample.metallib" || exit 1
git -C "$P" add . || exit 1

try() { # try FILE...: pre-commit try-repo on these files; output in $W/out
    (cd "$P" && pre-commit try-repo "$W/hooks" mtlbx-check --files "$@") >"$W/out" 2>&1
}
if try good.metallib; then
    grep -q "^mtlbx check.*Passed" "$W/out" && ok "try-repo passes the sample" ||
        { fail "try-repo: no Passed line"; cat "$W/out"; }
else
    fail "try-repo fails the sample"; cat "$W/out"
fi
if try good.metallib cut.metallib; then
    fail "try-repo passes a cut library"; cat "$W/out"
else
    grep -q "^mtlbx check.*Failed" "$W/out" && grep -q "^cut.metallib:16: error: " "$W/out" &&
        ok "try-repo fails the cut library with its findings" ||
        { fail "try-repo failed without the cut library's findings"; cat "$W/out"; }
fi
if try notes.txt; then
    grep -q "no files to check" "$W/out" && ok "a text file is not the hook's" ||
        { fail "the hook ran on a text file"; cat "$W/out"; }
else
    fail "try-repo on a text file failed"; cat "$W/out"
fi

# As users write it: the repository at a rev, with args.
cat >"$P/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $W/hooks
    rev: $rev
    hooks:
      - id: mtlbx-check
        args: [--os, declared]
YAML
run() { (cd "$P" && pre-commit run mtlbx-check --files "$@") >"$W/out" 2>&1; }
if run demo-1.0-py3-none-macosx_15_0_arm64.whl; then
    ok "with args --os declared: the wheel that declares macOS 15 passes"
else
    fail "--os declared fails a wheel that declares enough"; cat "$W/out"
fi
if run demo-1.0-py3-none-macosx_14_0_arm64.whl; then
    fail "--os declared passes a wheel that declares macOS 14"; cat "$W/out"
else
    grep -q "needs macOS 15.0, more than the macOS 14.0 its package declares" "$W/out" &&
        ok "with args --os declared: the wheel that declares macOS 14 fails" ||
        { fail "no finding about the declared macOS"; cat "$W/out"; }
fi
exit $FAILED
