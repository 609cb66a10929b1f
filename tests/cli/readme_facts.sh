#!/bin/sh
# What the README states as fact, held against the tree and the program:
# the layout table names each path once; the corpus count is the number of
# its files that open as metallibs; the sig text it quotes for a varying is
# what sig prints. (The command table and the keys are tests/cli/cli_doc.sh
# and test_ui_keys; the C and Python examples tests/api/readme_examples.sh.)
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
README=$SRC/README.md
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

# The layout table: one row a path, and every path it names exists.
rows=$(sed -n '/^## Layout$/,/^## /p' "$README" | sed -n 's/^| `\([^`]*\)` |.*/\1/p')
[ -n "$rows" ] || fail "no layout table"
dup=$(printf '%s\n' "$rows" | sort | uniq -d)
[ -z "$dup" ] || fail "the layout table has several rows for: $dup"
for p in $rows; do
    [ -e "$SRC/$p" ] || fail "the layout table names $p, which is not in the tree"
done

# Where each question lives: every file the table names is in the tree
# (a name without a folder is beside the last one named in its row).
where=$(sed -n '/^### Where each question lives$/,/^## /p' "$README")
[ -n "$where" ] || fail "no 'Where each question lives' table"
printf '%s\n' "$where" | grep '^| ' | grep -v '^| the question\|^|---' | while IFS= read -r row; do
    dir=
    for p in $(printf '%s\n' "$row" | grep -o '`[^`]*\.[ch]`' | tr -d '`'); do
        case $p in
        src/*) dir=$(dirname "$p"); path=$p ;;
        */*) path=src/lib/$p; [ -e "$SRC/$path" ] || path=src/$p; dir=$(dirname "$path") ;;
        *) path=$dir/$p ;;
        esac
        [ -e "$SRC/$path" ] || echo "FAIL: the 'Where each question lives' table names $p ($path), which is not in the tree"
    done
done | grep FAIL && FAILED=1

if [ ! -d "$CORPUS" ]; then
    echo "SKIP: no corpus at $CORPUS (the rest needs it)"
    [ $FAILED -eq 0 ] && exit 77
    exit 1
fi
said=$(sed -n 's/.*`shared\/corpus\/` holds \([0-9]*\) real$/\1/p' "$README")
real=0
for f in "$CORPUS"/*; do
    case $f in *.tsv | *.md) continue ;; esac
    [ -f "$f" ] || continue
    "$BIN" info "$f" >/dev/null 2>&1 && real=$((real + 1))
done
[ "$said" = "$real" ] || fail "README says the corpus holds '$said' real metallibs; $real open"
quoted=$(sed -n 's/^(`\(half2 relativePosition [^`]*\)`);$/\1/p' "$README")
[ -n "$quoted" ] || fail "the sig text about varyings is not in the README"
"$BIN" sig "$CORPUS/gsm-hardware-mesh-object-hsrd.metallib" | grep -qF "$quoted" ||
    fail "sig does not print what the README quotes: $quoted"
# An implicit function constant is declared, in a comment, before its use.
"$BIN" sig "$CORPUS/angle-mac-msl21-debug-hsrc.metallib" |
    grep -q '^// constant bool kColorOutputAvailable0 = \.\.\.;  // implicit' ||
    fail "sig does not declare the implicit constant kColorOutputAvailable0 as the README says"
# An attribute MSL has no word for is never printed as one.
"$BIN" sig "$CORPUS/gsm-hardware-mesh-object-hsrd.metallib" | grep -q '\[\[generated(' &&
    fail "sig prints [[generated(...)]], which is not MSL"
[ $FAILED -eq 0 ] && echo "ok: the README's facts hold"
exit $FAILED
