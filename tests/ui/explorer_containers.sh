#!/bin/sh
# The explorer on folders and archives (`mtlbx DIR`, `mtlbx App.ipa`):
# the scan lists the metallibs by magic under each root, a library opens
# on Enter (an archive member is decompressed then) and everything works
# on it (here: extract a module), F goes back to the folder list, Esc
# stops a scan, ? lists the keys. First on a folder built from the
# project's fixtures (always runs), then on a folder of the corpus.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

# ---- a folder and an .ipa built from the fixtures ---------------------------
D=$WORK/tree
mkdir -p "$D/App.app/Frameworks" "$D/dist" "$WORK/out"
cp "$FIXTURES/legacy-v122-ios.metallib" "$D/App.app/default.metallib"
cp "$FIXTURES/dylib-v129.metallib" "$D/App.app/Frameworks/shaders"
printf 'not a library\n' >"$D/App.app/fake.metallib"
ln -s .. "$D/App.app/loop"
python3 "$SRC/tests/mkzip.py" "$D/dist/Game.ipa" \
    "d:Payload/Game.app/default.metallib=$SAMPLE" \
    "s:Payload/Game.app/other.metallib=$FIXTURES/nomdsz-v123.metallib" || exit 1

start 100 30 xterm-256color -- "$D"
wait_for "scanned 4 files, 4 metallibs"
expect "App.app/default.metallib"
expect "App.app/Frameworks/shaders"
expect "dist/Game.ipa!Payload/Game.app/default.metallib"
expect "dist/Game.ipa!Payload/Game.app/other.metallib"
expect "App.app/fake.metallib"      # listed (by its name), so that opening it says what it is not

# Open the archive member: the sample's tree, then extract a module.
keys /
wait_for "Search paths"
type_text "Game.app/default"
keys Enter
keys Enter
# A library opens on its function table; b shows the bytes.
wait_for " Functions  8"
to_bytes
wait_for "Functions (8)"
expect "vertex_main"
keys e
wait_for "Write module to: vertex_main.air"
keys C-u
type_text "$WORK/out/vertex_main.air"
keys Enter
# The module's size as ls reports it (the sample is regenerated now and then).
vsize=$("$MTLBX_BIN" ls "$SAMPLE" | awk '$NF == "vertex_main" { print $6; exit }')
wait_for "wrote $vsize bytes"
"$MTLBX_BIN" extract "$SAMPLE" -o "$WORK/cli" -f vertex_main >/dev/null 2>&1
cmp -s "$WORK/out/vertex_main.air" "$WORK/cli/vertex_main.air" || fail "the member's module differs from the sample's"

# Back to the folder list: the member now shows its function count.
keys F
wait_for "Folders and archives"
screen | grep -q " 8  dist/Game.ipa!Payload/Game.app/default.metallib" || fail "no function count after opening"
# Another library, then back again.
keys g j
keys Enter
to_bytes
wait_for "Functions ("
keys F
wait_for "Folders and archives"
keys '?'
wait_for "mtlbx explorer keys"
keys G
wait_for "stop the scan (what was found stays)"
keys q
wait_for "Folders and archives"
keys Escape
wait_for "the scan is over"
quit_and_check

# ---- an .ipa named directly, with a member over the limit --------------------
start 100 30 xterm-256color MTLBX_MEMBER_LIMIT=4000 -- "$D/dist/Game.ipa"
wait_for "2 metallibs"
expect "  Payload/Game.app/default.metallib"
expect_not "Game.ipa!Payload"
keys g j Enter
wait_for "over the limit of 4000 bytes"
quit_and_check

# ---- Esc while a big folder is still being scanned ---------------------------
python3 -c '
import os, sys
for d in range(200):
    p = os.path.join(sys.argv[1], "d%03d" % d)
    os.makedirs(p)
    for f in range(150):
        open(os.path.join(p, "f%03d" % f), "w").close()
' "$WORK/big"
cp "$FIXTURES/fat.metallib" "$WORK/big/d000/"
start 100 30 xterm-256color -- "$WORK/big"
wait_for "Folders and archives"
keys Escape
# Either the scan stopped, or (a fast machine) it had already ended.
wait_for "scan" 5
i=0
while [ $i -lt 50 ]; do
    if screen | grep -q "scan stopped; what was found stays listed"; then
        wait_for "Folders and archives: scan stopped: " 10   # the title says so (the walker may still be winding down)
        expect_not " 1 metallibs"    # one fat.metallib in 30,000 files: counted in words
        break
    fi
    if screen | grep -q "the scan is over"; then
        echo "note: the scan of 30,000 files ended before Esc arrived"
        break
    fi
    sleep 0.1
    i=$((i + 1))
done
[ $i -lt 50 ] || fail "Esc did nothing"
keys j
quit_and_check

# ---- a folder of the corpus ------------------------------------------------
if [ -d "$CORPUS/expected" ]; then
    mkdir -p "$WORK/corpus/sub/deeper"
    for f in "$CORPUS"/*.metallib; do
        n=$(basename "$f")
        case $n in
            ggml*) cp "$f" "$WORK/corpus/sub/deeper/${n%.metallib}" ;;   # no extension
            *) cp "$f" "$WORK/corpus/sub/$n" ;;
        esac
    done
    start 120 40 xterm-256color -- "$WORK/corpus"
    wait_for "scanned" 30
    keys /
    wait_for "Search paths"
    type_text "deeper/ggml-acorn-llama-default"
    keys Enter Enter
    wait_for " Functions  179" 20
    to_bytes
    wait_for "Functions (179)" 20
    keys e
    wait_for "Write module to:"
    keys C-u
    type_text "$WORK/out/first.air"
    keys Enter
    wait_for "wrote "
    [ -s "$WORK/out/first.air" ] || fail "no module extracted from the corpus library"
    keys F
    wait_for "Folders and archives"
    keys g
    wait_for "$WORK/corpus"
    quit_and_check
else
    echo "note: no corpus at $CORPUS; its part is skipped"
fi

finish
