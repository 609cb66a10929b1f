#!/bin/sh
# Slow work runs as a job the screen does not wait for (issue 35, items 2
# and 3): s on a function whose source search took minutes (a 48 MiB
# member, a name of 60,000 letters: tests/mkslowsource.py) and D on two
# releases whose pairs are compared one by one (200 libraries in a
# .tar.gz) leave the screen answering keys, Esc cancels them, and Q ends
# the explorer within a second while they work (a worker stuck in the
# library is left behind, not waited for). Once the library's search and
# pairing are fast, the jobs may end before the keys come: the keys must
# work either way.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

# selected NAME: the selected function's whole name, the line above the
# status line, starts with NAME (the status line itself is the job's).
selected() {
    _i=0
    while [ $_i -lt 100 ]; do
        screen | sed -n 22p | grep -q "^$1" && return 0
        sleep 0.1
        _i=$((_i + 1))
    done
    fail "the selection did not move to $1"
}

# quits_within_a_second: Q, then the exit must show within a second.
quits_within_a_second() {
    keys Q
    wait_for "EXITED:0" 1 || return 1
    wait_for "STTY:same" 5
}

"$MTLBX_BIN" extract "$SAMPLE" -f compute_main -o "$WORK/air" >/dev/null || { echo "FAIL: extract"; exit 1; }
python3 "$SRC/tests/mkslowsource.py" "$SRC/tools" "$WORK/air/compute_main.air" "$WORK/slow.metallib" ||
    { echo "FAIL: mkslowsource.py"; exit 1; }

# ---- s: the screen answers, Esc cancels, Q quits ---------------------------
start 80 24 xterm-256color -- "$WORK/slow.metallib"
wait_for " Functions  2"
keys s j
selected short_one
if screen | grep -q "searching the sources"; then
    keys Escape
    wait_for "cancel"
    keys k
    selected aaaaaaaa
fi
quits_within_a_second

start 80 24 xterm-256color -- "$WORK/slow.metallib"
wait_for " Functions  2"
keys Enter
wait_for " Interface  "
keys s
quits_within_a_second

# ---- D on two releases: the same ---------------------------------------------
set --
for i in $(seq 1 200); do set -- "$@" "lib/m$i.metallib=$SAMPLE"; done
python3 "$SRC/tests/mkrelease.py" "$WORK/old.tar.gz" "$@" || { echo "FAIL: mkrelease.py"; exit 1; }
cp "$WORK/old.tar.gz" "$WORK/new.tar.gz"
start 80 24 xterm-256color -- "$WORK/old.tar.gz" "$WORK/new.tar.gz"
wait_for "Folders and archives"
keys D j
quits_within_a_second
finish
