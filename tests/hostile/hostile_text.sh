#!/bin/sh
# Issue 35, items 1, 3, 4, 7 and 8: small hostile files that made mtlbx
# run for minutes past gigabytes, or answer wrong, each run with its exit
# status, a bound on time (10 s, the issue's) and peak memory, and a check
# of the answer; nothing may be left behind. Before the fixes each of the
# bounded runs went on for minutes (the issue's sizes are written by
# `tests/hostile_mktext.py DIR --full`). Items 5 and 11 are unit tests
# (tests/lib/model/test_names.c, tests/lib/container/test_lib.c,
# tests/hostile/hostile_names.sh).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
python3 "$SRC/tests/hostile_mktext.py" "$WORK" || exit 1

# Item 1: a mangled NAME that doubles 48 times when demangled. An exact
# name is never demangled; globs, prefixes, "did you mean", sig and
# textconv demangle within a bound, past which the name is shown as
# stored and a miss says why.
B=$WORK/bomb.metallib
for args in "sig $B foo" "dis $B fo" "extract $B -o $WORK/x -f f*"; do
    # shellcheck disable=SC2086
    bounded "$(echo "$args" | cut -d' ' -f1) NAME on the demangler bomb" 1 10 200 "$BIN" $args &&
        { grep -q "too long to demangle" "$WORK/err" || fail "$args: the miss does not say why: $(cat "$WORK/err")"; }
done
[ -e "$WORK/x" ] && [ -n "$(ls -A "$WORK/x")" ] && fail "extract wrote $(ls "$WORK/x")"
bounded "sig on the demangler bomb" 0 10 200 "$BIN" sig "$B" &&
    { grep -q '^kernel void _Z1fSt4pairI1aS0_ES_IS1_S1_E' "$WORK/out" || fail "sig: $(head -c 300 "$WORK/out")"; }
bounded "sig f: its encoding names f" 0 10 200 "$BIN" sig "$B" f &&
    { grep -q '^kernel void _Z1f' "$WORK/out" || fail "sig f: $(head -c 300 "$WORK/out")"; }
bounded "textconv on the demangler bomb" 0 10 200 "$BIN" textconv "$B" &&
    { [ "$(wc -c <"$WORK/out")" -lt 100000 ] || fail "textconv printed $(wc -c <"$WORK/out") bytes"; }

# Items 3 and 8: src's search. A 16 MiB member of 'a' and a name of 40,000
# 'a' then 'b'; 4 MiB of "x f(" for f; "ab_" x 3,000 over 900 KB of "ab_".
for lib in memcmp calls cuts; do
    case $lib in memcmp) name=aa ;; calls) name=f ;; cuts) name=ab_ ;; esac
    bounded "src on src-$lib" 1 10 300 "$BIN" src "$WORK/src-$lib.metallib" "$name" &&
        { grep -q "no embedded source member defines it" "$WORK/err" || fail "src-$lib: $(head -c 200 "$WORK/err")"; }
done
# GNU style (the name starts its line), and the real definition after a
# commented-out one.
S=$WORK/src-styles.metallib
if bounded "src, a GNU-style definition" 0 10 200 "$BIN" src "$S" foo; then
    if [ "$(head -1 "$WORK/out")" = "// styles.metal:4" ] && grep -q '^foo(device float \*out' "$WORK/out" &&
        grep -q 'out\[id\] = 1.0f;' "$WORK/out" && [ "$(tail -1 "$WORK/out")" = "}" ]; then
        ok "src foo: from 'kernel void' to its closing brace"
    else
        fail "src foo printed: $(cat "$WORK/out")"
    fi
fi
if bounded "src, after a commented-out definition" 0 10 200 "$BIN" src "$S" bar; then
    if grep -q '= 3.0f' "$WORK/out" && ! grep -q '= [02].0f' "$WORK/out"; then
        ok "src bar: the real definition ($(head -1 "$WORK/out"))"
    else
        fail "src bar printed: $(cat "$WORK/out")"
    fi
fi

# Item 4: output names. 20,000 functions named x, then foo: only foo is
# written, under its own name.
mkdir "$WORK/same"
if bounded "extract -f foo after 20,000 functions named x" 0 10 200 \
    "$BIN" extract "$WORK/same-names.metallib" -o "$WORK/same" -f foo; then
    [ "$(ls -A "$WORK/same")" = "foo.air" ] || fail "extract -f foo wrote: $(ls -A "$WORK/same" | head -3)"
fi
mkdir "$WORK/ids"
if bounded "sources -o, 1,000 archives with the id 0" 0 20 300 \
    "$BIN" sources "$WORK/same-ids.metallib" -o "$WORK/ids"; then
    [ -f "$WORK/ids/0/a.metal" ] && [ -f "$WORK/ids/0~2/a.metal" ] && [ -f "$WORK/ids/0~1000/a.metal" ] &&
        [ "$(ls "$WORK/ids" | wc -l)" -eq 1000 ] || fail "sources -o wrote $(ls "$WORK/ids" | wc -l) directories"
fi

# Item 7: a repeated name. A: kernel foo and vertex foo; B: kernel foo.
A=$WORK/dup-a.metallib
D=$WORK/dup-b.metallib
for verify in "" --verify; do
    # shellcheck disable=SC2086
    bounded "diff A B $verify, foo twice in A" 1 10 200 "$BIN" diff $verify "$A" "$D" &&
        { grep -q '^- vertex    foo (2nd of that name)$' "$WORK/out" || fail "diff A B: $(cat "$WORK/out")"; }
    # shellcheck disable=SC2086
    bounded "diff B A $verify, foo twice in B" 1 10 200 "$BIN" diff $verify "$D" "$A" &&
        { grep -q '^+ vertex    foo (2nd of that name)$' "$WORK/out" || fail "diff B A: $(cat "$WORK/out")"; }
done
if bounded "diff --json A B" 1 10 200 "$BIN" diff --json "$A" "$D"; then
    python3 - "$WORK/out" <<'PY' || fail "diff --json A B: $(cat "$WORK/out")"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["libraries"][0]["functions"]
assert d["identical"] is False
assert f["removed"] == ["foo"] and f["removed_occurrences"] == [2] and f["added"] == [], f
PY
fi
# Wheels whose library holds 3,000 and 2,999 functions without a NAME.
if bounded "diff of two wheels, 3,000 and 2,999 nameless functions" 1 10 200 \
    "$BIN" diff --json "$WORK/nameless-a.whl" "$WORK/nameless-b.whl"; then
    python3 - "$WORK/out" <<'PY' || fail "diff --json nameless: $(head -c 600 "$WORK/out")"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["changed"][0]["diff"]["libraries"][0]["functions"]
assert d["identical"] is False
assert f["removed"] == [""] and f["removed_occurrences"] == [3000], f
PY
fi

left=$(find "$WORK" -name '.mtlbx-tmp*' | head -3)
[ -z "$left" ] || fail "temporary files left behind: $left"
finish
