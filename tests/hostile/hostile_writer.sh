#!/bin/sh
# The writer's writes (issue 33) leave nothing behind on a failure, a full
# disk or a signal:
#  - pack and unpack under a file-size limit (RLIMIT_FSIZE, SIGXFSZ
#    ignored: writes fail with EFBIG as on a full filesystem): exit 2 and a
#    message, no output file, no temporary file, and unpack takes back the
#    files it had written (no manifest.json, no module);
#  - SIGINT, SIGTERM and SIGHUP at random moments of pack and unpack of a
#    library with two 32 MiB modules: death by the signal (or done), no
#    .mtlbx-tmp-* file, and an output that exists is whole (pack's is the
#    library byte for byte; unpack's manifest.json comes last).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
leftovers() { find "$1" -name '.mtlbx-tmp-*' | wc -l; }

# --- a full disk ------------------------------------------------------------------
"$BIN" unpack "$SAMPLE" -o "$WORK/sample.d" >/dev/null || fail "unpack of the sample"
mkdir "$WORK/full"
(
    trap '' XFSZ
    ulimit -f 24 # 12 or 24 KiB (512- or 1024-byte blocks): less than the 40 KB sample
    exec "$BIN" pack "$WORK/sample.d" -o "$WORK/full/out.metallib" 2>"$WORK/err"
)
rc=$?
if [ $rc -eq 2 ] && grep -q "write failed" "$WORK/err" && [ ! -e "$WORK/full/out.metallib" ] &&
    [ "$(leftovers "$WORK/full")" -eq 0 ]; then
    ok "pack on a full disk: exit 2, no output, no temporary file ($(cat "$WORK/err"))"
else
    fail "pack on a full disk: exit $rc, $(cat "$WORK/err"); $(ls -A "$WORK/full")"
fi
(
    trap '' XFSZ
    ulimit -f 24 # the sample's 16 KB source archive does not fit
    exec "$BIN" unpack "$SAMPLE" -o "$WORK/full/d" 2>"$WORK/err" >/dev/null
)
rc=$?
if [ $rc -eq 2 ] && [ -z "$(find "$WORK/full/d" -type f 2>/dev/null)" ]; then
    ok "unpack on a full disk: exit 2, what it wrote taken back ($(cat "$WORK/err"))"
else
    fail "unpack on a full disk: exit $rc, $(cat "$WORK/err"); $(find "$WORK/full/d" -type f | head -3)"
fi

# SIGXFSZ not ignored, standard output a terminal (so nothing at start-up
# has blocked the signal for a redirected stdout): pack's streamed write
# must still fail with a message, not die with its temporary file left.
if command -v script >/dev/null 2>&1; then
    mkdir "$WORK/fsz"
    script -qec "sh -c 'ulimit -f 24; exec \"$BIN\" pack \"$WORK/sample.d\" -o \"$WORK/fsz/out.metallib\"; '" /dev/null \
        >"$WORK/err" 2>&1 </dev/null
    if grep -q "write failed" "$WORK/err" && [ ! -e "$WORK/fsz/out.metallib" ] && [ "$(leftovers "$WORK/fsz")" -eq 0 ]; then
        ok "pack under ulimit -f on a terminal, SIGXFSZ not ignored: a message, no output, no temporary file"
    else
        fail "pack under ulimit -f on a terminal: $(tr -d '\r' <"$WORK/err" | head -c 300); $(ls -A "$WORK/fsz")"
    fi
else
    echo "note: no script(1): the terminal case of the file-size limit is not run"
fi

# --- signals ------------------------------------------------------------------------
dfl() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"; }
rand_ms() { python3 -c "import random; print('%.3f' % (random.uniform($1, $2) / 1000))"; }
signum() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; TERM) echo 15 ;; esac; }
python3 "$SRC/tests/hostile_mkbig.py" "$WORK/big.metallib" 2 32 || exit 1
"$BIN" unpack "$WORK/big.metallib" -o "$WORK/big.d" >/dev/null || fail "unpack of the big library"

n=0
for sig in INT TERM HUP INT TERM HUP; do
    n=$((n + 1))
    out=$WORK/sig$n
    mkdir "$out"
    case $n in
    [135]) what=pack; (dfl "$BIN" pack "$WORK/big.d" -o "$out/big.metallib") >/dev/null 2>"$WORK/err" & ;;
    *) what=unpack; (dfl "$BIN" unpack "$WORK/big.metallib" -o "$out/d") >/dev/null 2>"$WORK/err" & ;;
    esac
    pid=$!
    sleep "$(rand_ms 20 300)"
    kill -s "$sig" $pid 2>/dev/null
    wait $pid
    rc=$?
    whole=yes
    if [ "$what" = pack ] && [ -e "$out/big.metallib" ] && ! cmp -s "$out/big.metallib" "$WORK/big.metallib"; then
        whole=no
    fi
    # The signal can arrive after unpack has committed its folder and before the
    # process is gone (a sanitizer's exit-time leak check takes long enough):
    # then the folder is there and exit is death by the signal. What matters is
    # that a folder that is there is whole: it packs back to the same bytes.
    if [ "$what" = unpack ] && [ -e "$out/d/manifest.json" ] &&
        ! { "$BIN" pack "$out/d" -o "$WORK/repack$n.metallib" 2>/dev/null &&
            cmp -s "$WORK/repack$n.metallib" "$WORK/big.metallib"; }; then
        whole=no
    fi
    if [ "$(leftovers "$out")" -ne 0 ]; then
        fail "SIG$sig during $what left a temporary file"
    elif [ $rc -ne 0 ] && [ $rc -ne $((128 + $(signum "$sig"))) ]; then
        fail "SIG$sig during $what: exit $rc, not death by the signal: $(head -2 "$WORK/err")"
    elif [ $whole = no ]; then
        fail "SIG$sig during $what: an output that is not whole"
    else
        ok "SIG$sig during $what: exit $rc, no temporary file, no torn output"
    fi
done
finish
