#!/usr/bin/env python3
"""A rebuild of a library in which one function changed, for the compare
tests: python3 compare_rebuild.py DUMP_JSON IN OUT NAME

DUMP_JSON is `mtlbx dump --json IN`. The function NAME's module gets its
symbol renamed in the bitcode's string table (the last byte of the name
replaced, same length, so the bitcode stays valid and llvm-dis reads both),
and its HASH is rewritten to the new module's SHA-256, as a compiler would.
Prints the old and new first 16 hex digits of the hash.
"""
import hashlib
import json
import sys


def main(dump, src, dst, name):
    doc = json.load(open(dump))
    fn = [f for f in doc["libraries"][0]["functions"] if f["name"] == name][0]
    data = bytearray(open(src, "rb").read())
    start, size = fn["module"]["offset"], fn["module"]["size"]
    module = data[start:start + size]
    at = module.rfind(name.encode())
    if at < 0:
        sys.exit("compare_rebuild.py: %s not found in its module" % name)
    last = start + at + len(name) - 1
    data[last] = ord("2") if data[last] != ord("2") else ord("3")
    old = bytes.fromhex(fn["hash"])
    entry = fn["entry"]
    h = data.index(old, entry["offset"], entry["offset"] + entry["size"])
    data[h:h + 32] = hashlib.sha256(data[start:start + size]).digest()
    open(dst, "wb").write(data)
    print(fn["hash"][:16], data[h:h + 32].hex()[:16])


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
