#!/bin/sh
# The sample library and the test fixtures are generated files that are
# also committed (so building and testing need no LLVM). This test makes
# sure they are still exactly what tools/mkfixtures.py writes: it
# regenerates everything into a temporary directory and compares byte for
# byte. Skips (77) when python3 or llvm-as of the right version is missing,
# because bitcode bytes depend on the LLVM version.

# Source tree: the tests' environment, else automake's $srcdir (the test
# driver runs us from the build directory), else where this script lives.
top=${MTLBX_SRCDIR:-${srcdir:-$(dirname "$0")/../../..}}
gen=$top/tools/mkfixtures.py
if [ -n "${MTLBX_LLVM_AS:-}" ]; then
	LLVM_AS=$MTLBX_LLVM_AS
	export LLVM_AS
fi
# The source tree is read-only under distcheck; keep Python from trying.
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not found"
	exit 77
fi
python3 "$gen" --check-llvm
status=$?
if [ $status -eq 77 ]; then
	echo "SKIP: cannot reproduce the committed bitcode with this llvm-as"
	exit 77
elif [ $status -ne 0 ]; then
	echo "FAIL: $gen --check-llvm exited $status"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-fixtures.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! python3 "$gen" --output-dir "$tmp/out" >"$tmp/written"; then
	echo "FAIL: $gen did not run"
	exit 1
fi

fail=0
count=0
while read -r rel; do
	count=$((count + 1))
	if ! cmp "$tmp/out/$rel" "$top/$rel"; then
		echo "FAIL: $rel differs from what tools/mkfixtures.py writes"
		fail=1
	fi
done <"$tmp/written"
# Every committed fixture must come from the generator, so none can go stale.
for f in "$top"/tests/fixtures/*.metallib "$top"/tests/fixtures/*.json; do
	rel=tests/fixtures/${f##*/}
	grep -qx "$rel" "$tmp/written" || {
		echo "FAIL: $rel is committed but not generated"
		fail=1
	}
done
if [ $count -lt 2 ]; then
	echo "FAIL: the generator wrote only $count files"
	fail=1
fi
[ $fail -eq 0 ] && echo "PASS: $count generated files match the committed ones"
exit $fail
