#!/bin/sh
# Issue 40, cause 4: unpack is the old folder or the new one, never a mix.
# It used to write into DIR file by file: SIGINT or SIGTERM part way left
# 130-200 modules and no manifest, `--force` failing part way (ulimit -f)
# deleted the user's files it had replaced, and a failed unpack into new
# folders left them. Now (src/program/dir_swap.c) it fills a temporary folder
# beside DIR and renames it into place:
#  - SIGINT/SIGTERM at random moments of `unpack --force` of a library with
#    two 32 MiB modules over an earlier unpack of the sample: afterwards DIR
#    is byte for byte the old folder or the whole new one, and no
#    .mtlbx-tmp-* folder or file is left beside it;
#  - the same under a file-size limit: exit 2, DIR exactly as it was;
#  - a failed unpack into missing folders a/b/c leaves no folder;
#  - DIR with files: refused without --force, and with --force unless it
#    holds manifest.json (an earlier unpack) and not FILE itself.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3 sha256sum
listing() { (cd "$1" && find . -type f -exec sha256sum {} + | sort) 2>/dev/null; }
leftovers() { find "$1" -name '.mtlbx-tmp-*' | wc -l; }
dfl() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"; }
rand_ms() { python3 -c "import random; print('%.3f' % (random.uniform($1, $2) / 1000))"; }

python3 "$SRC/tests/hostile_mkbig.py" "$WORK/big.metallib" 2 32 || exit 1
"$BIN" unpack "$WORK/big.metallib" -o "$WORK/new-ref" >/dev/null || { fail "unpack of the big library"; finish; }
"$BIN" unpack "$SAMPLE" -o "$WORK/old-ref" >/dev/null || { fail "unpack of the sample"; finish; }
listing "$WORK/old-ref" >"$WORK/old.list"
listing "$WORK/new-ref" >"$WORK/new.list"

# --- signals ---------------------------------------------------------------------------
n=0 olds=0 news=0
for sig in INT TERM INT TERM INT TERM; do
    n=$((n + 1))
    rm -rf "$WORK/sig" && mkdir "$WORK/sig" && cp -r "$WORK/old-ref" "$WORK/sig/d"
    (dfl "$BIN" unpack --force "$WORK/big.metallib" -o "$WORK/sig/d") >/dev/null 2>"$WORK/err" &
    pid=$!
    sleep "$(rand_ms 10 400)"
    kill -s "$sig" $pid 2>/dev/null
    wait $pid
    rc=$?
    listing "$WORK/sig/d" >"$WORK/now.list"
    if cmp -s "$WORK/now.list" "$WORK/old.list"; then
        state=old olds=$((olds + 1))
    elif cmp -s "$WORK/now.list" "$WORK/new.list"; then
        state=new news=$((news + 1))
    else
        state=mixed
    fi
    if [ $state = mixed ]; then
        fail "SIG$sig during unpack --force (exit $rc): the folder is neither the old one nor the new: $(ls -A "$WORK/sig/d" | head -5)"
    elif [ "$(leftovers "$WORK/sig")" -ne 0 ] || [ "$(ls -A "$WORK/sig")" != d ]; then
        fail "SIG$sig during unpack --force (exit $rc): left beside it: $(ls -A "$WORK/sig")"
    else
        ok "SIG$sig during unpack --force: exit $rc, the $state folder, nothing beside it"
    fi
done
echo "note: $olds signals found the old folder, $news the new one"

# --- a file-size limit -----------------------------------------------------------------
rm -rf "$WORK/fsz" && mkdir "$WORK/fsz" && cp -r "$WORK/old-ref" "$WORK/fsz/d"
(
    trap '' XFSZ
    ulimit -f 2048 # 1 or 2 MiB: the 32 MiB modules do not fit
    exec "$BIN" unpack --force "$WORK/big.metallib" -o "$WORK/fsz/d" 2>"$WORK/err" >/dev/null
)
rc=$?
listing "$WORK/fsz/d" >"$WORK/now.list"
if [ $rc -eq 2 ] && cmp -s "$WORK/now.list" "$WORK/old.list" && [ "$(ls -A "$WORK/fsz")" = d ]; then
    ok "unpack --force under ulimit -f: exit 2, the old folder whole ($(head -1 "$WORK/err"))"
else
    fail "unpack --force under ulimit -f: exit $rc, $(cat "$WORK/err"); beside it: $(ls -A "$WORK/fsz")"
fi
mkdir "$WORK/n"
(
    trap '' XFSZ
    ulimit -f 2048
    exec "$BIN" unpack "$WORK/big.metallib" -o "$WORK/n/a/b/c" 2>"$WORK/err" >/dev/null
)
rc=$?
[ $rc -eq 2 ] && [ -z "$(ls -A "$WORK/n")" ] && ok "a failed unpack into new folders a/b/c leaves none" ||
    fail "a failed unpack into new folders: exit $rc, left $(find "$WORK/n" | head -5)"

# --- what DIR may be -------------------------------------------------------------------
mkdir "$WORK/mine" && echo "my notes" >"$WORK/mine/notes.txt"
"$BIN" unpack "$SAMPLE" -o "$WORK/mine" >/dev/null 2>"$WORK/err"
rc1=$?
"$BIN" unpack --force "$SAMPLE" -o "$WORK/mine" >/dev/null 2>>"$WORK/err"
rc2=$?
[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ "$(ls -A "$WORK/mine")" = notes.txt ] &&
    ok "a folder of the user's (no manifest.json) is never replaced, with or without --force" ||
    fail "a folder of the user's: exit $rc1/$rc2, $(cat "$WORK/err"); now $(ls -A "$WORK/mine")"
cp -r "$WORK/old-ref" "$WORK/in" && cp "$SAMPLE" "$WORK/in/input.metallib"
"$BIN" unpack --force "$WORK/in/input.metallib" -o "$WORK/in" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && [ -f "$WORK/in/input.metallib" ] && ok "--force over the folder holding FILE: refused" ||
    fail "--force over the folder holding FILE: exit $rc, $(cat "$WORK/err")"
mkdir "$WORK/empty"
"$BIN" unpack "$SAMPLE" -o "$WORK/empty" >/dev/null 2>"$WORK/err" && listing "$WORK/empty" >"$WORK/now.list" &&
    cmp -s "$WORK/now.list" "$WORK/old.list" && ok "an empty folder is filled without --force" ||
    fail "into an empty folder: $(cat "$WORK/err")"
finish
