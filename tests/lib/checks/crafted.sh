#!/bin/sh
# Crafted damage, most of it what a HASH does not catch: tools/mkcrafted.py copies the
# project's fixtures (and one corpus file) into a temporary directory with
# one thing wrong each, and lists the finding `mtlbx check` must print for
# it, at the offset the script itself computed. Every file must give that
# finding (and exit 1). Nothing crafted is ever written into the tree.

top=${MTLBX_SRCDIR:-${srcdir:-$(dirname "$0")/../../..}}
bin=${MTLBX_BIN:-./src/mtlbx}
corpus=${MTLBX_CORPUS:-}
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not found"
	exit 77
fi
if [ ! -f "$corpus/gainmap-ci-chemharuka.metallib" ]; then
	echo "SKIP: no corpus at '$corpus' (the ARGR case needs gainmap-ci-chemharuka.metallib)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-crafted.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! python3 "$top/tools/mkcrafted.py" "$tmp" "$top" "$corpus"; then
	echo "FAIL: tools/mkcrafted.py did not run"
	exit 1
fi

fail=0
n=0
tab=$(printf '\t')
while IFS="$tab" read -r name offset severity words; do
	[ -n "$name" ] || continue
	n=$((n + 1))
	"$bin" check "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ $status -ne 1 ]; then
		echo "FAIL: $name: check exited $status, expected 1"
		cat "$tmp/out" "$tmp/err"
		fail=1
	elif ! grep -F "$tmp/$name:$offset: $severity: " "$tmp/out" | grep -qF "$words"; then
		echo "FAIL: $name: no '$severity' with '$words' at offset $offset; check printed:"
		cat "$tmp/out"
		fail=1
	else
		echo "ok: $name: $severity at $offset"
	fi
done <"$tmp/manifest.tsv"
# ls --verify reports the module that is not bitcode too (on stderr, with
# its offset) and exits 1, although its HASH matches.
offset=$(awk -F '\t' '$1 == "not-bitcode.metallib" { print $2 }' "$tmp/manifest.tsv")
"$bin" ls --verify "$tmp/not-bitcode.metallib" >"$tmp/out" 2>"$tmp/err"
status=$?
if [ $status -ne 1 ] || ! grep -qF "not-bitcode.metallib:$offset: function 0: module is not LLVM bitcode" "$tmp/err"; then
	echo "FAIL: ls --verify on not-bitcode.metallib exited $status; stderr:"
	cat "$tmp/err"
	fail=1
else
	echo "ok: ls --verify names the module that is not bitcode"
fi
# ls --names --verify has no column for a mismatch: both findings go to
# standard error with their offsets, and the status is 1.
for name in not-bitcode hash-mismatch; do
	line=$(awk -F '\t' -v f="$name.metallib" '$1 == f { print $2 }' "$tmp/manifest.tsv")
	case $name in
	not-bitcode) words="function 0: module is not LLVM bitcode" ;;
	hash-mismatch) words="function 1: HASH does not match its module" ;;
	esac
	"$bin" ls --names --verify "$tmp/$name.metallib" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ $status -ne 1 ] || ! grep -qF "$name.metallib:$line: $words" "$tmp/err" ||
		[ "$(wc -l <"$tmp/out")" -ne 8 ]; then
		echo "FAIL: ls --names --verify on $name.metallib exited $status; stdout, stderr:"
		cat "$tmp/out" "$tmp/err"
		fail=1
	else
		echo "ok: ls --names --verify names $name.metallib's finding at $line"
	fi
done
if [ $n -lt 5 ]; then
	echo "FAIL: only $n crafted files"
	fail=1
fi
exit $fail
