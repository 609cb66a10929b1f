#!/bin/sh
# diff of two large files (16 MiB or more) compares their bytes on a
# thread of its own while it walks the function lists (compare_scan.c),
# and answers for a module at the same offset on both sides from the
# 4 KiB granules that thread found different. A module whose bytes differ
# behind an equal HASH must still be a change (hash_ok), and a module
# that only shares a granule with a changed neighbour must not be.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3

python3 "$SRC/tests/hostile_mkbig.py" "$WORK/big.metallib" 5 4 || exit 1
# patch OUT WHICH: a copy with one byte of function WHICH's module
# flipped, its HASH left as it was; "mid" flips the middle of big2,
# "first" the first byte of big3 (in a granule that big2 ends in).
patch() {
    python3 - "$WORK/big.metallib" "$1" "$2" <<'PY' || exit 1
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
list_off = struct.unpack_from("<Q", data, 0x18)[0]
mod_off = struct.unpack_from("<Q", data, 0x48)[0]
pos, spans = list_off + 4, []
for _ in range(struct.unpack_from("<I", data, list_off)[0]):
    size, at, tags = struct.unpack_from("<I", data, pos)[0], pos + 4, {}
    while data[at:at + 4] != b"ENDT":
        n = struct.unpack_from("<H", data, at + 4)[0]
        tags[bytes(data[at:at + 4])] = (at + 6, n)
        at += 6 + n
    rel = struct.unpack_from("<3Q", data, tags[b"OFFT"][0])[2]
    spans.append((mod_off + rel, struct.unpack_from("<Q", data, tags[b"MDSZ"][0])[0]))
    pos += size
start, length = spans[2]
at = start + length // 2 if sys.argv[3] == "mid" else spans[3][0]
assert sys.argv[3] == "mid" or (start + length - 1) // 4096 == at // 4096, "big2 and big3 share no granule"
data[at] ^= 0x5A
open(sys.argv[2], "wb").write(data)
PY
}
changed() { # A B: the names diff --json reports changed, and their fields
    "$BIN" diff --json "$1" "$2" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["libraries"][0]["functions"]["changed"]:
    print(f["name"], ",".join(x["field"] for x in f["fields"]))'
}

patch "$WORK/mid.metallib" mid
got=$(changed "$WORK/big.metallib" "$WORK/mid.metallib")
if [ "$got" = "big2 hash_ok" ]; then ok "a byte changed behind big2's HASH is a hash_ok change"; else fail "mid: got '$got'"; fi

patch "$WORK/first.metallib" first
got=$(changed "$WORK/big.metallib" "$WORK/first.metallib")
if [ "$got" = "big3 hash_ok" ]; then ok "big3's first byte changed: big3 only, not big2 in the same granule"; else fail "first: got '$got'"; fi

cp "$WORK/big.metallib" "$WORK/copy.metallib"
if "$BIN" diff "$WORK/big.metallib" "$WORK/copy.metallib" | grep -q ': identical'; then ok "a copy is identical"; else fail "a copy is not identical"; fi
finish
