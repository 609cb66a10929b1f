#!/bin/sh
# Bytes that reached the terminal raw (issue 35 items 12 and 13):
# - DEL (0x7F) in names that `textconv` and the text of `diff` print as
#   JSON (a constant, a vertex attribute, the dynamic header's name and
#   linked library): JSON allows it unescaped, so it went out as it was;
#   now it is \u007F, still the same JSON value;
# - the value of --os, echoed as typed in its error (an OSC sequence that
#   retitles the terminal): now escaped as paths are.
# The libraries come from tests/hostile_mkdel.py.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
python3 "$SRC/tests/hostile_mkdel.py" "$WORK" || exit 1
A=$WORK/del-a.metallib B=$WORK/del-b.metallib
DEL=$(printf '\177')

# no_raw LABEL FILE: FILE holds no DEL and no ESC.
no_raw() {
    if grep -q "[$DEL$(printf '\033')]" "$2"; then
        fail "$1: a raw DEL or ESC: $(grep "[$DEL$(printf '\033')]" "$2" | od -c | head -3)"
        return 1
    fi
    ok "$1: no raw DEL or ESC"
}

"$BIN" textconv "$A" >"$WORK/out" 2>"$WORK/err"
no_raw textconv "$WORK/out" &&
    grep -qF '  dynamic_header {"name":"lib\u007FA.dylib","linked":["dep\u007FA.dylib"]}' "$WORK/out" &&
    grep -qF '  constants [{"name":"c\u007FA",' "$WORK/out" &&
    grep -qF '  vertex_attributes [{"name":"p\u007FA",' "$WORK/out" &&
    ok "textconv: each DEL as \\u007F" || fail "textconv: $(cat "$WORK/out")"
# The text is still the JSON of the value: it reads back to the name.
grep '^  constants ' "$WORK/out" | sed 's/^  constants //' |
    python3 -c 'import json, sys; assert json.load(sys.stdin)[0]["name"] == "c\x7fA"' &&
    ok "textconv: the field reads back as JSON" || fail "textconv: the field is not the JSON of the name"

"$BIN" diff "$A" "$B" >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] || fail "diff of the two: not exit 1"
no_raw "diff" "$WORK/out" &&
    grep -qF 'dynamic_header {"name":"lib\u007FA.dylib","linked":["dep\u007FA.dylib"]} -> {"name":"lib\u007FB.dylib"' \
        "$WORK/out" && ok "diff: the dynamic header with \\u007F" || fail "diff: $(cat "$WORK/out")"
no_raw "diff stderr" "$WORK/err"

for value in "$(printf 'macos:\033]0;pwned\007')" "$(printf 'macos:1\177')" "$(printf 'mac\033[2Jos:1')"; do
    "$BIN" check --os "$value" "$A" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q -- '--os .*\\x1b\|--os .*\\x7f' "$WORK/err"; then
        no_raw "check --os $(head -1 "$WORK/err" | cut -c1-40)..." "$WORK/err"
    else
        fail "check --os with a control byte: exit $rc: $(od -c "$WORK/err" | head -3)"
    fi
done
"$BIN" find --os "$(printf 'ios:\033]0;x\007')" "$A" >"$WORK/out" 2>"$WORK/err"
[ $? -eq 2 ] && no_raw "find --os" "$WORK/err"
finish
