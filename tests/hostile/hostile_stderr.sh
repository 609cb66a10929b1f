#!/bin/sh
# Issue 40, cause 1: no byte a message quotes from input reaches stderr
# raw. Each manifest value a message quotes (tests/hostile_mkquoted.py
# manifests: container_version, platform, file_type, target_os,
# os_version, a function type, tag and section names, an unknown key), a
# --target and a --format value, and Mach-O segment and section names
# hold ESC, BEL, CR and a newline followed by a GitHub workflow command
# (`::error::`, `::add-mask::`, `::stop-commands::`, which the runner obeys
# on stderr too). Each command must exit 2 (1 for find's finding) within a
# time and memory bound, write no output, and print only lines that start
# with "mtlbx: " (or usage's "Try"), holding no control byte.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
MB=400
asan_build && MB=4000

# clean FILE: every line starts as mtlbx's own, and no control byte but
# the newlines that end them.
clean() {
    if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1"; then
        echo "a control byte reached stderr: $(od -c "$1" | head -3)"
        return 1
    fi
    if grep -v -e '^mtlbx: ' -e '^Try ' "$1" | grep -q .; then
        echo "a line that is not mtlbx's own: $(grep -v -e '^mtlbx: ' -e '^Try ' "$1" | head -2)"
        return 1
    fi
    [ -s "$1" ] || { echo "no message at all"; return 1; }
    return 0
}

"$BIN" unpack "$SAMPLE" -o "$WORK/s.d" >/dev/null || { fail "unpack of the sample"; finish; }
python3 "$SRC/tests/hostile_mkquoted.py" manifests "$WORK/s.d/manifest.json" "$WORK/q" || exit 1
for m in "$WORK"/q/*.json; do
    name=$(basename "$m" .json)
    rm -rf "$WORK/t.d" "$WORK/t.metallib"
    cp -r "$WORK/s.d" "$WORK/t.d" && cp "$m" "$WORK/t.d/manifest.json"
    if bounded "manifest $name" 2 10 "$MB" "$BIN" pack "$WORK/t.d" -o "$WORK/t.metallib"; then
        why=$(clean "$WORK/err") && [ ! -e "$WORK/t.metallib" ] && ok "manifest $name: one clean line" ||
            fail "manifest $name: $why"
    fi
done

"$BIN" extract "$SAMPLE" -o "$WORK/air" >/dev/null 2>&1 || { fail "extract of the sample"; finish; }
nl='
'
esc=$(printf '\033')
for target in "macOS${nl}::error::x${esc}[31m:14.0" "macOS:14${nl}::add-mask::s" "${esc}]0;t$(printf '\007')${nl}::stop-commands::x"; do
    if bounded "--target with a newline and ESC" 2 10 "$MB" "$BIN" pack "$WORK"/air/*.air --target "$target" \
        -o "$WORK/t.metallib"; then
        why=$(clean "$WORK/err") && [ ! -e "$WORK/t.metallib" ] && ok "--target: one clean line" ||
            fail "--target: $why"
    fi
done
if bounded "--format with a newline" 2 10 "$MB" "$BIN" check --format "x${nl}::error::y" "$SAMPLE"; then
    why=$(clean "$WORK/err") && ok "--format: one clean line" || fail "--format: $why"
fi

python3 "$SRC/tests/hostile_mkquoted.py" macho "$WORK/names.o" || exit 1
for cmd in find ls; do
    timeout 20 "$BIN" $cmd "$WORK/names.o" >/dev/null 2>"$WORK/err"
    if [ -s "$WORK/err" ]; then
        why=$(clean "$WORK/err") && ok "$cmd on Mach-O section names with a newline and ESC: clean" ||
            fail "$cmd on the Mach-O: $why"
    fi
done
grep -q 'overlaps' "$WORK/err" || {
    "$BIN" find "$WORK/names.o" >/dev/null 2>"$WORK/err"
    grep -q 'overlaps' "$WORK/err" || fail "no command said the Mach-O's sections overlap: $(cat "$WORK/err")"
}
finish
