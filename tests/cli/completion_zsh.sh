#!/bin/sh
# The zsh completion function (completion/_mtlbx) in a real interactive
# zsh on a pseudo-terminal (zsh/zpty), with compinit loading it from
# fpath: `mtlbx dis FILE <Tab>` lists exactly the function names of a
# corpus file, and `mtlbx ex<Tab>` completes the command. Skips (77)
# without zsh or without the corpus.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
FILE=$CORPUS/gsm-gaussian-v129-hsrd-63fn.metallib
if ! command -v zsh >/dev/null 2>&1; then
    echo "SKIP: zsh is not installed"
    exit 77
fi
if [ ! -f "$FILE" ]; then
    echo "SKIP: no corpus at $CORPUS"
    exit 77
fi
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-zcompl.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
# So that `mtlbx` on the command line is the binary under test.
mkdir "$WORK/bin" && ln -s "$MTLBX_BIN" "$WORK/bin/mtlbx"

# zsh_complete LINE: what an interactive zsh prints after LINE<Tab>,
# read until it has been quiet for two seconds (zle skips redrawing while
# keys are pending, so nothing more is typed before), with escape
# sequences and carriage returns removed.
zsh_complete() {
    BIN=$WORK/bin COMPDIR=$SRC/completion LINE=$1 HOME=$WORK timeout 90 zsh -f -c '
        zmodload zsh/zpty || exit 3
        zpty z "zsh -f -i"
        zpty -w z "stty rows 2000 cols 100; PS1=\"%% \"; PATH=$BIN:\$PATH; fpath=($COMPDIR \$fpath); autoload -Uz compinit; compinit -u -D; setopt autolist nolistambiguous nobeep; LISTMAX=0; print RE\"\"ADY"
        zpty -r -m z out "*READY*" || exit 4
        zpty -w -n z "$LINE"$'"'"'\t'"'"'
        all= quiet=0
        while (( quiet < 4 )); do
            if zpty -r -t z chunk; then all+=$chunk; quiet=0; else sleep 0.5; (( quiet++ )); fi
        done
        print -r -- "$all"
        zpty -d z
    ' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | tr '\r' '\n'
}

zsh_complete "mtlbx dis $FILE " >"$WORK/raw" || fail "zsh did not run"
"$MTLBX_BIN" ls --names "$FILE" | LC_ALL=C sort -u >"$WORK/want"
# The listing: every word of the output that is a function name.
tr ' ' '\n' <"$WORK/raw" | grep -v '^$' | LC_ALL=C sort -u | LC_ALL=C comm -12 - "$WORK/want" >"$WORK/got"
cmp -s "$WORK/got" "$WORK/want" || { fail "dis FILE <Tab> does not list every function name:"; diff "$WORK/want" "$WORK/got" | head; }

zsh_complete "mtlbx ex" >"$WORK/raw"
grep -q "mtlbx extract " "$WORK/raw" || fail "mtlbx ex<Tab> did not complete to extract: $(tail -3 "$WORK/raw")"

[ $FAILED -eq 0 ] && echo "ok: zsh completion"
exit $FAILED
