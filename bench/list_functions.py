#!/usr/bin/env python3
"""list_functions.py LIB [--values]: what `mtlbx ls LIB` prints, through the
Python module (import mtlbx), written as a user would: open the library
and print one line per function with its index, type, AIR and MSL
versions, module offset and size, the first 16 hex digits of its HASH and
its name. With --values the same values are read into a list of tuples
and nothing is printed: the module's own part, without Python's
formatting of 200,000 lines. For bench/run's rows "open and list L200k
through Python against mtlbx ls" (issue 32: within 3x)."""
import sys

import mtlbx

with mtlbx.open(sys.argv[1]) as f:
    if sys.argv[2:] == ["--values"]:
        rows = [(fn.index, fn.type, fn.air_version, fn.msl_version, fn.module_offset, fn.module_size, fn.hash,
                 fn.name) for fn in f.functions]
        print(len(rows))
    else:
        sys.stdout.write("".join(
            f"{fn.index:5d}  {fn.type or '-':<10} {fn.air_version or '-':>5} {fn.msl_version or '-':>5}  "
            f"0x{fn.module_offset or 0:08x} {fn.module_size or 0:10d}  {(fn.hash or '-')[:16]}  {fn.name}\n"
            for fn in f.functions))
