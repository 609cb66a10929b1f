#!/bin/sh
# Issue 40, causes 2, 3 and 7: what a write may do to the target it is
# given, to the process, and how large it may be.
#  - `pack -o T --force` with T a FIFO, a folder, a socket or (as root,
#    where mknod works) a character device: exit 2, one line, T still what
#    it was, no temporary file; the same through the library
#    (tests/hostile/hostile_lib_write.c: mtlbx_writer_write_filename);
#  - the library's write under `ulimit -f`, SIGXFSZ at its default action:
#    the host process lives, no .mtlbx-tmp-*, its signal mask as it was;
#  - a 2.5 KB manifest of three slices aligned to 2^30 (3 GB of zeros
#    before): refused in a moment under a memory bound, nothing written;
#    aligned to 2^15 it is written, no larger than its slices and 32 KiB
#    of zeros each.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
MB=400
asan_build && MB=4000
LIBWRITE=${HOSTILE_LIB_WRITE:-$(pwd)/tests/hostile/hostile_lib_write}
leftovers() { find "$1" -name '.mtlbx-tmp-*' | wc -l; }

"$BIN" unpack "$SAMPLE" -o "$WORK/s.d" >/dev/null || { fail "unpack of the sample"; finish; }

# --- -o at what is no regular file ---------------------------------------------------
mkdir "$WORK/t"
mkfifo "$WORK/t/fifo"
mkdir "$WORK/t/folder"
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$WORK/t/sock"
kinds="fifo:p folder:d sock:s"
if mknod "$WORK/t/device" c 1 7 2>/dev/null; then
    kinds="$kinds device:c"
else
    echo "note: mknod is not allowed here: the device case is not run"
fi
for k in $kinds; do
    name=${k%%:*} type=${k#*:}
    if bounded "pack -o a $name --force" 2 10 "$MB" "$BIN" pack "$WORK/s.d" -o "$WORK/t/$name" --force; then
        now=$(stat -c %F "$WORK/t/$name" 2>/dev/null)
        case $type:$now in
        p:fifo | d:directory | s:socket | c:"character special file") still=yes ;;
        *) still=no ;;
        esac
        if [ $still = yes ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && [ "$(leftovers "$WORK/t")" -eq 0 ]; then
            ok "pack -o a $name --force: refused ($(cat "$WORK/err")), still a $now"
        else
            fail "pack -o a $name --force: now a $now; $(cat "$WORK/err"); $(ls -A "$WORK/t")"
        fi
    fi
done

# --- the library: special targets and the file-size limit ------------------------------
if [ -x "$LIBWRITE" ]; then
    mkdir "$WORK/lib"
    # A sanitizer build cannot start under ulimit -v (hostile_lib.sh).
    VLIMIT=$((MB * 1024))
    asan_build && VLIMIT=unlimited
    (ulimit -v $VLIMIT 2>/dev/null || :; exec timeout 60 "$LIBWRITE" "$SAMPLE" "$WORK/lib") >"$WORK/out" 2>"$WORK/err"
    st=$?
    case $st in
    0) ok "mtlbx_writer_write_filename: special files refused, and under ulimit -f the host lives with nothing left behind" ;;
    153) fail "mtlbx_writer_write_filename under ulimit -f killed the host with SIGXFSZ" ;;
    *) fail "hostile_lib_write: exit $st: $(head -5 "$WORK/err")" ;;
    esac
else
    fail "no $LIBWRITE (make check builds it)"
fi

# --- fat alignment ---------------------------------------------------------------------
python3 "$SRC/tests/hostile_mkquoted.py" align "$WORK/s.d/manifest.json" "$WORK/fat30.json" 30 || exit 1
python3 "$SRC/tests/hostile_mkquoted.py" align "$WORK/s.d/manifest.json" "$WORK/fat15.json" 15 || exit 1
cp -r "$WORK/s.d" "$WORK/f.d"
cp "$WORK/fat30.json" "$WORK/f.d/manifest.json"
if bounded "three slices aligned to 2^30" 2 10 "$MB" sh -c "ulimit -f 1048576 2>/dev/null; exec \"\$0\" \"\$@\"" \
    "$BIN" pack "$WORK/f.d" -o "$WORK/fat30.metallib"; then
    [ ! -e "$WORK/fat30.metallib" ] && grep -q "align" "$WORK/err" && [ "$(leftovers "$WORK")" -eq 0 ] &&
        ok "2^30: refused ($(cat "$WORK/err"))" || fail "2^30: $(cat "$WORK/err"); $(ls -la "$WORK/fat30.metallib" 2>&1)"
fi
cp "$WORK/fat15.json" "$WORK/f.d/manifest.json"
if bounded "three slices aligned to 2^15" 0 10 "$MB" "$BIN" pack "$WORK/f.d" -o "$WORK/fat15.metallib"; then
    one=$(stat -c %s "$SAMPLE") got=$(stat -c %s "$WORK/fat15.metallib")
    [ "$got" -le $((3 * one + 3 * 32768 + 68)) ] && ok "2^15: $got bytes, within its slices and 32 KiB of zeros each" ||
        fail "2^15: $got bytes for three slices of $one"
fi
finish
