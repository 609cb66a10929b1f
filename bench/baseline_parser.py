#!/usr/bin/env python3
"""The benchmark's baseline: a straightforward Python metallib lister.

Usage: python3 bench/baseline_parser.py FILE

Reads the whole file into memory, walks the function list tag by tag and
prints one line per function with what `mtlbx ls` shows: index, type,
name, AIR and MSL versions, module offset and size, first 16 hex digits of
HASH. bench/run times `mtlbx ls` against this (goal: at least 50x faster).
It is deliberately the obvious way to do it, not a tuned one; it handles
plain and fat files and a missing MDSZ (FORMAT.md §4, §20).
"""

import struct
import sys

TYPES = ["vertex", "fragment", "kernel", "unqualified", "visible", "extern",
         "intersection", "mesh", "object"]
WIDE = {b"SARC", b"RBUF", b"SBUF", b"RBUZ"}


def read_tags(data, pos):
    """Tags of one group starting at pos, as a dict, up to ENDT."""
    tags = {}
    while True:
        fourcc = data[pos:pos + 4]
        if fourcc == b"ENDT":
            return tags
        if len(fourcc) < 4:
            raise ValueError("missing ENDT at %d" % pos)
        if fourcc in WIDE:
            (length,) = struct.unpack_from("<I", data, pos + 4)
            pos += 8
        else:
            (length,) = struct.unpack_from("<H", data, pos + 4)
            pos += 6
        tags[fourcc.decode("latin-1")] = data[pos:pos + length]
        pos += length


def list_library(data, base, out):
    fields = struct.unpack_from("<4sHHHBBHBBQ8Q", data, base)
    if fields[0] != b"MTLB":
        raise ValueError("not a metallib at %d" % base)
    list_off, _, _, _, _, _, mod_off, mod_size = fields[10:]
    (count,) = struct.unpack_from("<I", data, base + list_off)
    pos = base + list_off + 4
    functions = []
    for _ in range(count):
        (size,) = struct.unpack_from("<I", data, pos)
        functions.append(read_tags(data, pos + 4))
        pos += size
    starts = sorted(struct.unpack("<3Q", f["OFFT"])[2] for f in functions)
    for index, f in enumerate(functions):
        module = struct.unpack("<3Q", f["OFFT"])[2]
        if "MDSZ" in f:
            (size,) = struct.unpack("<Q", f["MDSZ"])
        else:
            later = [s for s in starts if s > module]
            size = (later[0] if later else mod_size) - module
        ftype = f["TYPE"][0] if "TYPE" in f else None
        if ftype is None:
            type_name = "-"
        elif ftype < len(TYPES):
            type_name = TYPES[ftype]
        else:
            type_name = "unknown-%d" % ftype
        air_major, air_minor, msl_major, msl_minor = struct.unpack(
            "<4H", f["VERS"])
        name = f["NAME"].split(b"\0")[0].decode("utf-8", "replace")
        out.append("%5d  %-12s %-40s AIR %d.%d  MSL %d.%d  %10d %9d  %s\n" % (
            index, type_name, name, air_major, air_minor, msl_major,
            msl_minor, base + mod_off + module, size, f["HASH"][:8].hex()))


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    out = []
    if data[:4] == b"\xcb\xfe\xba\xbe":
        (slices,) = struct.unpack_from(">I", data, 4)
        for i in range(slices):
            _, _, offset, _, _ = struct.unpack_from(">5I", data, 8 + 20 * i)
            list_library(data, offset, out)
    else:
        list_library(data, 0, out)
    sys.stdout.writelines(out)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: baseline_parser.py FILE")
    sys.exit(main(sys.argv[1]))
