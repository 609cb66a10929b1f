#!/bin/sh
# Issue 40, cause 6: a 128 KB wheel whose WHEEL file sits under a
# 60,000-byte folder name and declares 80,000 platform tags peaked at
# 4.7 GB (each tag copied the member path) and, under a 2 GB limit, gave
# no verdict. find --os declared must give its verdict (exit 1: the
# sample needs macOS 15, the file name declares 11.0) within a time and a
# memory bound; a WHEEL with twice the tags must not take twice the memory.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
MB=200
asan_build && MB=3000
whl=$WORK/evil-1.0-cp312-cp312-macosx_11_0_x86_64.whl
python3 "$SRC/tests/hostile_mkquoted.py" wheel "$whl" "$SAMPLE" 60000 80000 || exit 1
if bounded "80,000 tags under a 60,000-byte name" 1 10 "$MB" "$BIN" find --os declared "$whl"; then
    grep -q "more than the macOS 11.0 its package declares (wheel tag macosx_11_0_x86_64 in the file name" "$WORK/out" &&
        ok "the verdict names the lowest tag" || fail "no verdict: $(head -c 400 "$WORK/out")"
fi
kb1=$(tail -1 "$WORK/rss")
python3 "$SRC/tests/hostile_mkquoted.py" wheel "$whl" "$SAMPLE" 60000 160000 || exit 1
if bounded "160,000 tags under a 60,000-byte name" 1 10 "$MB" "$BIN" find --os declared "$whl"; then
    kb2=$(tail -1 "$WORK/rss")
    case $kb1$kb2 in *[!0-9]* | '') ;; *)
        [ "$kb2" -le $((kb1 + 8192)) ] && ok "twice the tags: $((kb2 / 1024)) MB against $((kb1 / 1024)) MB" ||
            fail "twice the tags took $((kb2 / 1024)) MB against $((kb1 / 1024)) MB" ;;
    esac
fi
finish
