#!/usr/bin/env python3
"""Write a library of N minimal function entries (a size prefix and ENDT,
8 bytes each, no name, no module) for the hostile tests: the cheapest file
that makes a parser allocate per function. Usage: hostile_mklib.py OUT N.
Written into a temporary directory by the tests, never committed."""
import struct
import sys

out, n = sys.argv[1], int(sys.argv[2])
entries = struct.pack("<I", n) + (struct.pack("<I", 8) + b"ENDT") * n
end = 88 + len(entries)
# Container 1.2.2 (no header extension), macOS 15, executable; the
# metadata and module sections are empty and sit at the end.
head = struct.pack("<4sHHHBBHBBQ", b"MTLB", 0x8001, 2, 0, 0, 0x81, 15, 0, 0, end)
# The list size leaves out the u32 count (FORMAT §2).
head += struct.pack("<8Q", 88, len(entries) - 4, end, 0, end, 0, end, 0)
with open(out, "wb") as f:
    f.write(head)
    f.write(entries)
