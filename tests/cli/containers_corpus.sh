#!/bin/sh
# `mtlbx find` on the real corpus, rearranged at test time: the libraries
# spread over nested folders, half of them renamed without the extension,
# and the whole corpus again inside an .ipa (stored and deflated members).
# Every library must be found once in each, with the container version and
# function count of the reference parser (expected/FILE.json), and the
# archive members must read exactly like the files.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac

if [ ! -d "$CORPUS/expected" ]; then
    echo "SKIP: no corpus at $CORPUS (set MTLBX_CORPUS)"
    exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-findc.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP

python3 - "$CORPUS" "$W" "$MTLBX_BIN" "$SRC/tests/mkzip.py" <<'EOF'
import json, os, shutil, subprocess, sys
corpus, work, mtlbx, mkzip = sys.argv[1:5]
def expected(n):
    return json.load(open(os.path.join(corpus, "expected", n + ".json")))
# The libraries; a file the reference parser refuses (its magic is wrong)
# must not be listed but reported (its name says .metallib), and goes in too.
names = sorted(n for n in os.listdir(corpus) if n.endswith(".metallib") and "libraries" in expected(n))
refused = sorted(n for n in os.listdir(corpus) if n.endswith(".metallib") and "libraries" not in expected(n))
tree = os.path.join(work, "tree")
specs, where = [], {}
for i, n in enumerate(names):
    sub = os.path.join(tree, "level%d" % (i % 3), "deeper" * (i % 2))
    os.makedirs(sub, exist_ok=True)
    dest = os.path.join(sub, n if i % 2 else "lib%d" % i)      # half without the extension
    shutil.copyfile(os.path.join(corpus, n), dest)
    where[dest] = n
    specs.append("%s:Payload/App.app/%s=%s" % ("sd"[i % 2], n, dest))
for n in refused:
    shutil.copyfile(os.path.join(corpus, n), os.path.join(tree, "level1", n))
with open(os.path.join(tree, "level0", "notes.metallib"), "w") as f:
    f.write("not a library\n")
ipa = os.path.join(work, "Corpus.ipa")
subprocess.run([sys.executable, mkzip, ipa] + specs, check=True)

def find(path, misnamed=()):
    r = subprocess.run([mtlbx, "find", path], capture_output=True)
    assert r.returncode == (1 if misnamed else 0), (path, r.returncode, r.stderr)
    reported = sorted(l.split(": ")[1] for l in r.stderr.decode().splitlines() if ": not a metallib: " in l)
    assert reported == sorted(misnamed), r.stderr
    assert len(r.stderr.decode().splitlines()) == len(misnamed), r.stderr
    return [l.split("\t") for l in r.stdout.decode().splitlines()]

failed = 0
misnamed = [os.path.join(tree, "level1", n) for n in refused] + [os.path.join(tree, "level0", "notes.metallib")]
rows = find(tree, misnamed)
found = [r[0] for r in rows]
if sorted(found) != sorted(where):
    print("FAIL: the tree walk found", len(found), "of", len(where))
    failed = 1
for path, version, target, functions, problems, requires in rows:
    ref = expected(where[path])
    want_v = ",".join(l["container_version"] for l in ref["libraries"])
    want_f = sum(len(l["functions"]) for l in ref["libraries"])
    if version != want_v or int(functions) != want_f:
        print("FAIL:", where[path], (version, functions), "expected", (want_v, want_f))
        failed = 1
if not failed:
    print("ok: %d libraries found in the tree, versions and function counts as expected" % len(rows))

members = {r[0].split("!", 1)[1].rsplit("/", 1)[1]: r[1:] for r in find(ipa)}
files = {where[r[0]]: r[1:] for r in rows}
if members != files:
    print("FAIL: the .ipa members read differently from the files")
    failed = 1
else:
    print("ok: %d members of the .ipa read exactly like the files" % len(members))

r = subprocess.run([mtlbx, "find", "--json", ipa], capture_output=True)
docs = [json.loads(l) for l in r.stdout.decode().splitlines()]
if r.returncode != 0 or len(docs) != len(names):
    print("FAIL: find --json on the .ipa gave", len(docs), "documents, exit", r.returncode)
    failed = 1
for d in docs:
    ref = expected(d["path"].rsplit("/", 1)[1])
    if [len(l["functions"]) for l in d["libraries"]] != [len(l["functions"]) for l in ref["libraries"]]:
        print("FAIL: --json functions of", d["path"])
        failed = 1
if not failed:
    print("ok: find --json on the .ipa")

# A big library's document waits for its turn and goes straight to the
# output (find.c, STREAM_DOCUMENT_FROM); every one does with the threshold
# at 0. The documents must come in the same order, byte for byte, from the
# tree (jobs of one file) and from the .ipa (one job, many members).
for path in (tree, ipa):
    runs = [subprocess.run([mtlbx, "find", "--json", path], capture_output=True,
                           env=dict(os.environ, MTLBX_FIND_STREAM_FROM=v)) for v in ("", "0")]
    if runs[0].stdout != runs[1].stdout or runs[0].returncode != runs[1].returncode or not runs[0].stdout:
        print("FAIL: find --json", path, "differs when every document streams in its turn")
        failed = 1
    else:
        print("ok: find --json %s: the same %d documents when each streams in its turn"
              % (os.path.basename(path), len(runs[0].stdout.splitlines())))
sys.exit(failed)
EOF
