#!/usr/bin/env python3
"""Write a rebuilt copy of a benchmark library for the `diff` case:

  python3 bench/mkchanged.py IN OUT [PERCENT]

OUT is IN with PERCENT (default 1) of its functions' modules changed, as a
rebuild that changed those kernels would: one byte of each such module is
altered and its HASH rewritten to the module's new SHA-256, so the copy is
a valid library whose stored hashes differ exactly for those functions.
Plain (non-fat) libraries only, which is what bench/mklarge.py writes.
The functions changed are every (100 / PERCENT)-th, starting at the first.
"""

import hashlib
import struct
import sys

WIDE = {b"SARC", b"RBUF", b"SBUF", b"RBUZ"}


def tags(data, pos):
    """(fourcc, value offset, length) of one entry's tags up to ENDT."""
    while data[pos:pos + 4] != b"ENDT":
        fourcc = bytes(data[pos:pos + 4])
        if fourcc in WIDE:
            (length,) = struct.unpack_from("<I", data, pos + 4)
            pos += 8
        else:
            (length,) = struct.unpack_from("<H", data, pos + 4)
            pos += 6
        yield fourcc, pos, length
        pos += length


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    percent = float(argv[3]) if len(argv) == 4 else 1.0
    step = max(1, round(100 / percent))
    with open(argv[1], "rb") as f:
        data = bytearray(f.read())
    if data[:4] != b"MTLB":
        sys.exit("mkchanged.py: %s is not a plain metallib" % argv[1])
    list_off, _, _, _, _, _, mod_off, _ = struct.unpack_from("<8Q", data, 0x18)
    (count,) = struct.unpack_from("<I", data, list_off)
    pos = list_off + 4
    changed = 0
    for index in range(count):
        (size,) = struct.unpack_from("<I", data, pos)
        if index % step == 0:
            found = {t: (at, n) for t, at, n in tags(data, pos + 4)}
            module = mod_off + struct.unpack_from("<3Q", data, found[b"OFFT"][0])[2]
            (length,) = struct.unpack_from("<Q", data, found[b"MDSZ"][0])
            data[module + length // 2] ^= 0x5A
            digest = hashlib.sha256(data[module:module + length]).digest()
            data[found[b"HASH"][0]:found[b"HASH"][0] + 32] = digest
            changed += 1
        pos += size
    with open(argv[2], "wb") as f:
        f.write(data)
    print("%s: %d of %d functions changed" % (argv[2], changed, count))


if __name__ == "__main__":
    main(sys.argv)
