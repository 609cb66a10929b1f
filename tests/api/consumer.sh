#!/bin/sh
# An outside C program over the installed libmtlbx (issue 32, LIBRARY.md):
# tests/api/consumer.c, compiled with nothing but
# `pkg-config --cflags --libs mtlbx` from the scratch prefix make check
# installed, reads every value of the C API from each file, and
# compare_consumer.py holds them against the program (dump --json, sig,
# check --os, and check --json --expect for the gate). It reads the sample
# and the fixtures; consumer_corpus.sh sources it to read every file of
# $MTLBX_CORPUS instead (and skips without it).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
need_python
case ${CONSUMER_FILES:-} in
corpus)
    if [ ! -d "${MTLBX_CORPUS:-}" ] || ! ls "$MTLBX_CORPUS"/*.metallib >/dev/null 2>&1; then
        echo "SKIP: no corpus at ${MTLBX_CORPUS:-\$MTLBX_CORPUS} (see README.md: What ../shared is)"
        exit 77
    fi
    files=$(ls "$MTLBX_CORPUS"/*.metallib)
    ;;
*) files=$FIXTURE_FILES ;;
esac

# shellcheck disable=SC2046
if ! $CC -o "$WORK/consumer" "$SRC/tests/api/consumer.c" $(pkg-config --cflags --libs mtlbx) 2>"$WORK/cc.err"; then
    fail "the consumer does not build with pkg-config's flags alone: $(head -5 "$WORK/cc.err")"
    finish
fi
n=0
for f in $files; do
    out=$WORK/out
    rm -rf "$out" && mkdir "$out"
    with_lib "$WORK/consumer" "$f" "$out" >"$WORK/stdout" 2>"$WORK/stderr"
    st=$?
    case $st in
    0)
        if "$PYTHON" "$SRC/tests/api/compare_consumer.py" "$BIN" "$f" "$out" >"$WORK/cmp"; then
            n=$((n + 1))
        else
            fail "$f: the C API and the program disagree:"
            head -20 "$WORK/cmp"
        fi
        ;;
    2)
        # Not a metallib (the corpus holds one): the program refuses it too,
        # with the same words.
        "$BIN" dump --json "$f" >/dev/null 2>"$WORK/dump.err"
        dst=$?
        want=$(sed 's/^mtlbx: //' "$WORK/dump.err")
        got=$(sed 's/^fatal [0-9-]* [0-9-]* //' "$WORK/stdout")
        if [ "$dst" -eq 2 ] && [ "$got" = "$want" ]; then
            n=$((n + 1))
        else
            fail "$f: the C API refuses it with \"$got\", dump --json (exit $dst) with \"$want\""
        fi
        ;;
    *)
        fail "$f: the consumer exited $st"
        head -20 "$WORK/stderr"
        ;;
    esac
done
ok "$n files: every value of the C API agrees with dump --json, sig, check --os and check --json --expect (the gate)"
finish
