#!/bin/sh
# Start-up (issue 22): every command loaded and initialised 23 shared
# libraries, half of them for libarchive and libstdc++, which only the
# commands that read an archive or demangle a C++ name use. Now the binary
# does not link them (readelf: no NEEDED entry) and loads them with dlopen
# on first use; a libarchive that cannot be loaded gives one line naming
# the file and why, and exit 2, never a crash or a silent "nothing found".
# MTLBX_LIBARCHIVE names the library to load instead of configure's soname.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need readelf python3

needed=$(readelf -d "$BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for lib in libarchive libstdc++; do
    if printf '%s\n' "$needed" | grep -q "^$lib\."; then
        fail "the binary links $lib at start-up: $(printf '%s ' $needed)"
    else
        ok "$lib is not linked at start-up"
    fi
done

# Loaded on first use: the sample's embedded source archives list.
if "$BIN" sources "$SAMPLE" --list >"$WORK/out" 2>"$WORK/err" && grep -q 'metal-options.txt' "$WORK/out"; then
    ok "sources lists the sample's archive through the loaded libarchive"
else
    fail "sources --list on the sample: $(cat "$WORK/err")"
fi

# A .zip holding the sample, for find.
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.write(sys.argv[2], "Payload/sample.metallib")' "$WORK/app.zip" "$SAMPLE" || exit 1
"$BIN" find "$WORK/app.zip" >"$WORK/out" 2>"$WORK/err"
st=$?
if [ $st -eq 0 ] && grep -q 'app.zip!Payload/sample.metallib' "$WORK/out"; then
    ok "find reads into the zip"
else
    fail "find on the zip: exit $st, $(cat "$WORK/out" "$WORK/err")"
fi

# Without libarchive: one line per problem, naming the file and the
# reason, and a failing exit status.
MISSING=$WORK/missing/libarchive.so.13
MTLBX_LIBARCHIVE=$MISSING "$BIN" sources "$SAMPLE" --list >"$WORK/out" 2>"$WORK/err"
st=$?
if [ $st -eq 2 ] && [ ! -s "$WORK/out" ] && [ -s "$WORK/err" ] &&
    ! grep -v "^mtlbx: $SAMPLE:[0-9]*: .*libarchive could not be loaded: $MISSING: " "$WORK/err" >/dev/null; then
    ok "sources without libarchive: exit 2, $(head -1 "$WORK/err")"
else
    fail "sources without libarchive: exit $st, stdout $(wc -c <"$WORK/out") bytes, stderr: $(cat "$WORK/err")"
fi
MTLBX_LIBARCHIVE=$MISSING "$BIN" find "$WORK/app.zip" >"$WORK/out" 2>"$WORK/err"
st=$?
if [ $st -ne 0 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
    grep -q "^mtlbx: $WORK/app.zip: libarchive could not be loaded: $MISSING: " "$WORK/err"; then
    ok "find without libarchive: exit $st, $(cat "$WORK/err")"
else
    fail "find without libarchive: exit $st, stderr: $(cat "$WORK/err")"
fi
# check names the archives it could not list, and does not call the
# library clean.
MTLBX_LIBARCHIVE=$MISSING "$BIN" check "$SAMPLE" >"$WORK/out" 2>"$WORK/err"
st=$?
if [ $st -eq 1 ] && grep -q "^$SAMPLE:[0-9]*: error: source archive not listed: libarchive could not be loaded" "$WORK/out"; then
    ok "check without libarchive: exit 1, $(head -1 "$WORK/out")"
else
    fail "check without libarchive: exit $st, $(cat "$WORK/out" "$WORK/err")"
fi
finish
