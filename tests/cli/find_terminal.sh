#!/bin/sh
# `mtlbx find` on a terminal: its progress line (on standard error) and
# its results (on standard output) share the screen, and no result may
# end up glued to the progress text. The run is recorded with script(1)
# (util-linux), which keeps every byte, and replayed line by line the way
# a terminal would (a carriage return starts the line over, ESC [ K erases
# the rest). The tree is the corpus, copied once into a temporary folder
# and hard-linked 300 times (about 16,000 libraries), so that the progress
# line is drawn many times over the run.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac

if [ ! -d "$CORPUS/expected" ]; then
    echo "SKIP: no corpus at $CORPUS (set MTLBX_CORPUS)"
    exit 77
fi
for tool in python3 script; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-findt.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP

python3 - "$CORPUS" "$W/tree" <<'EOF' || exit 1
import os, shutil, sys
corpus, tree = sys.argv[1:3]
one = os.path.join(tree, "copy0")
os.makedirs(one)
for n in sorted(os.listdir(corpus)):
    if n.endswith(".metallib"):
        shutil.copyfile(os.path.join(corpus, n), os.path.join(one, n))
for k in range(1, 300):
    d = os.path.join(tree, "copy%d" % k)
    os.makedirs(d)
    for n in os.listdir(one):
        os.link(os.path.join(one, n), os.path.join(d, n))
EOF

script -qec "'$MTLBX_BIN' find '$W/tree'" "$W/typescript" >/dev/null </dev/null
status=$?
python3 - "$W/typescript" "$W/tree" "$CORPUS" "$status" <<'EOF'
import json, os, sys
typescript, tree, corpus, status = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# The corpus holds a file that is not a metallib: refused (exit 1), no line.
want = 300 * sum(1 for n in os.listdir(os.path.join(tree, "copy0"))
                 if "libraries" in json.load(open(os.path.join(corpus, "expected", n + ".json"))))
raw = open(typescript, "rb").read().decode("utf-8", "replace")
draws = raw.count(" parsed; ")
results = glued = 0
for line in raw.split("\n"):
    # What the terminal shows of this line: the pty ends it with CR LF;
    # any other CR went back to its start, and ESC [ K cleared the rest.
    shown = line.rstrip("\r").split("\r")[-1].replace("\x1b[K", "")
    if " parsed; " in shown:
        glued += 1
        if glued <= 3:
            print("FAIL: a result glued to the progress line: %r" % shown[:200])
    if shown.startswith(tree):
        results += 1
fail = False
if status not in (0, 1):
    print("FAIL: find exited %d" % status)
    fail = True
if draws == 0:
    print("FAIL: no progress line was drawn: the run was too short to test anything")
    fail = True
if glued:
    print("FAIL: %d of %d progress lines were left on screen with a result after them" % (glued, draws))
    fail = True
if results != want:
    print("FAIL: %d result lines on screen, wanted %d" % (results, want))
    fail = True
if not fail:
    print("ok: %d results, progress drawn %d times, none left on a result's line" % (results, draws))
sys.exit(1 if fail else 0)
EOF
