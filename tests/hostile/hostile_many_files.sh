#!/bin/sh
# More files than descriptors (issue 12, item 9): with `ulimit -n 32`,
# `mtlbx ls` and the explorer open 40 copies of the sample. A mapped file
# keeps no descriptor (hashing opens it again for a moment), so the
# explorer shows all 40, the 40th at the bottom of its tree, with every
# hash checked.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
N=40
i=1
while [ $i -le $N ]; do
    cp "$SAMPLE" "$WORK/copy$(printf %02d $i).metallib" || exit 1
    i=$((i + 1))
done

(ulimit -n 32 && cd "$WORK" && "$MTLBX_BIN" ls copy*.metallib) >"$WORK/ls.out" 2>"$WORK/ls.err"
rc=$?
lines=$(grep -c 'vertex_main' "$WORK/ls.out")
if [ $rc -ne 0 ] || [ "$lines" -ne $N ] || [ -s "$WORK/ls.err" ]; then
    echo "FAIL: ls of $N files under ulimit -n 32: exit $rc, $lines of $N listed, stderr: $(head -c 300 "$WORK/ls.err")"
    FAILED=1
fi

# The explorer, through a wrapper that lowers the limit first (start
# runs $MTLBX_BIN in the pane).
REAL_BIN=$MTLBX_BIN
cat > "$WORK/limited.sh" <<SCRIPT
#!/bin/sh
ulimit -n 32 || exit 99
cd '$WORK' && exec '$REAL_BIN' copy*.metallib
SCRIPT
chmod +x "$WORK/limited.sh"
MTLBX_BIN=$WORK/limited.sh
start 120 40 xterm --
if wait_for "$((N * 8)) functions, hashes checked" 20 && to_bytes; then
    keys G
    wait_for "copy$N.metallib" 5
    expect_not "EXITED"
    quit_and_check
fi
finish
