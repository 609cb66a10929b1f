#!/usr/bin/env python3
"""Write a valid library of K functions whose modules are SIZE MiB of
pseudo-random bytes each (correct SHA-256 in HASH), with the fixture
writer (tools/mtlbwriter.py): an extraction long enough to be interrupted
at a random moment. Usage: hostile_mkbig.py OUT K SIZE_MIB. Written into a
temporary directory by the tests, never committed."""
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mtlbwriter as W  # noqa: E402

out, k, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(12)
functions = []
for i in range(k):
    payload = rng.randbytes(mib << 20)
    functions.append(W.Function("big%d" % i, W.FUNCTION_TYPES["kernel"], W.wrap_bitcode(payload), (2, 6, 3, 2)))
lib = W.Library(version=(1, 2, 8), functions=functions, extension=["UUID"], uuid=bytes(16))
chunks, _ = W.build(lib)
with open(out, "wb") as f:
    f.writelines(chunks)
