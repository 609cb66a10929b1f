#!/bin/sh
# The bash completion script (completion/mtlbx.bash) run under bash, as
# bash would call it (complete -F with COMP_WORDS and COMP_CWORD set):
# `mtlbx dis FILE <Tab>` offers exactly the function names of a corpus
# file, and commands, options, -o directories and metallib files come out
# as they should. Skips (77) without bash or without the corpus.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
FILE=$CORPUS/gsm-gaussian-v129-hsrd-63fn.metallib
if ! command -v bash >/dev/null 2>&1; then
    echo "SKIP: bash is not installed"
    exit 77
fi
if [ ! -f "$FILE" ]; then
    echo "SKIP: no corpus at $CORPUS"
    exit 77
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-compl.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

# complete WORD...: the completions bash's complete -F would offer for the
# command line WORD... (the last word is the one being completed), sorted.
complete_words() {
    (cd "$WORK" && bash --norc --noprofile -c '
        . "$0" || exit 3
        spec=$(complete -p mtlbx) || exit 4
        fn=${spec#*-F }
        fn=${fn%% *}
        shift 0
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        COMPREPLY=()
        "$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}"
    ' "$SRC/completion/mtlbx.bash" "$@") | LC_ALL=C sort -u
}

# dis FILE <Tab>: the names `mtlbx ls --names` prints, all of them.
complete_words "$MTLBX_BIN" dis "$FILE" "" >"$WORK/got"
"$MTLBX_BIN" ls --names "$FILE" | LC_ALL=C sort -u >"$WORK/want"
[ "$(wc -l <"$WORK/want")" -gt 10 ] || fail "the corpus file lists too few functions"
cmp -s "$WORK/got" "$WORK/want" || { fail "dis FILE <Tab> is not the function names:"; diff "$WORK/want" "$WORK/got" | head; }
# With a prefix, and with a global option before the command.
first=$(head -1 "$WORK/want")
prefix=$(printf '%s' "$first" | cut -c1-6)
complete_words "$MTLBX_BIN" --no-color dis "$FILE" "$prefix" >"$WORK/got"
grep -qx "$first" "$WORK/got" || fail "dis FILE $prefix<Tab> lacks $first"
grep -v "^$prefix" "$WORK/got" && fail "dis FILE $prefix<Tab> offers names without the prefix"
# extract FILE -f <Tab>: the names again.
complete_words "$MTLBX_BIN" extract "$FILE" -f "" >"$WORK/got"
cmp -s "$WORK/got" "$WORK/want" || fail "extract FILE -f <Tab> is not the function names"
# src FILE <Tab> and sig FILE NAME <Tab>: function names too.
complete_words "$MTLBX_BIN" src "$FILE" "" | cmp -s - "$WORK/want" || fail "src FILE <Tab> is not the function names"
complete_words "$MTLBX_BIN" sig "$FILE" "$first" "" | cmp -s - "$WORK/want" || fail "sig FILE NAME <Tab> is not the function names"
# After dis FILE NAME nothing more.
[ -z "$(complete_words "$MTLBX_BIN" dis "$FILE" "$first" "")" ] || fail "dis FILE NAME <Tab> offers more"

# Commands, from the usage.
complete_words "$MTLBX_BIN" "" >"$WORK/got"
for c in info ls dump check extract sources dis; do
    grep -qx "$c" "$WORK/got" || fail "mtlbx <Tab> lacks the command $c"
done
[ "$(complete_words "$MTLBX_BIN" ex | tr '\n' ' ')" = "extract " ] || fail "mtlbx ex<Tab> is not extract"
# thin FILE <Tab>: the architectures it keeps.
[ "$(complete_words "$MTLBX_BIN" thin "$FILE" a | tr '\n' ' ')" = "air64 amdgpu applegpu " ] ||
    fail "thin FILE a<Tab>: $(complete_words "$MTLBX_BIN" thin "$FILE" a | tr '\n' ' ')"
# A command's options, from its --help.
complete_words "$MTLBX_BIN" extract "$FILE" --f >"$WORK/got"
[ "$(tr '\n' ' ' <"$WORK/got")" = "--force --function " ] || fail "extract --f<Tab>: $(tr '\n' ' ' <"$WORK/got")"
complete_words "$MTLBX_BIN" ls "$FILE" --n >"$WORK/got"
grep -qx -- --names "$WORK/got" || fail "ls --n<Tab> lacks --names"
# Files: metallibs and directories only; -o: directories only.
mkdir "$WORK/dir"
: >"$WORK/a.metallib"
: >"$WORK/notes.txt"
complete_words "$MTLBX_BIN" info "" >"$WORK/got"
grep -qx a.metallib "$WORK/got" || fail "info <Tab> lacks a.metallib"
grep -qx dir "$WORK/got" || fail "info <Tab> lacks the directory"
grep -qx notes.txt "$WORK/got" && fail "info <Tab> offers notes.txt"
[ "$(complete_words "$MTLBX_BIN" extract a.metallib -o "" | tr '\n' ' ')" = "dir " ] || fail "-o <Tab> is not the directory"
# find and diff: archives too (wheels, tars), still no text file.
: >"$WORK/mlx-0.1.whl"
: >"$WORK/rel.tar.gz"
complete_words "$MTLBX_BIN" find "" >"$WORK/got"
grep -qx mlx-0.1.whl "$WORK/got" && grep -qx rel.tar.gz "$WORK/got" || fail "find <Tab> lacks the archives"
grep -qx notes.txt "$WORK/got" && fail "find <Tab> offers notes.txt"
complete_words "$MTLBX_BIN" diff a.metallib "" >"$WORK/got"
grep -qx mlx-0.1.whl "$WORK/got" || fail "diff A <Tab> lacks the wheel"
complete_words "$MTLBX_BIN" info "" | grep -qx mlx-0.1.whl && fail "info <Tab> offers the wheel"
# check takes what find takes (issue 34), Mach-O hosts too; its gate's values.
: >"$WORK/libtorch.dylib"
complete_words "$MTLBX_BIN" check "" >"$WORK/got"
grep -qx mlx-0.1.whl "$WORK/got" && grep -qx libtorch.dylib "$WORK/got" || fail "check <Tab> lacks the wheel or the dylib"
complete_words "$MTLBX_BIN" check --os d | grep -qx declared || fail "check --os d<Tab> is not declared"
[ "$(complete_words "$MTLBX_BIN" check --format g | tr '\n' ' ')" = "github " ] || fail "check --format g<Tab>"
complete_words "$MTLBX_BIN" check a.metallib --ex | grep -qx -- --expect || fail "check --ex<Tab> lacks --expect"

[ $FAILED -eq 0 ] && echo "ok: bash completion"
exit $FAILED
