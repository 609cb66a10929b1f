#!/usr/bin/env python3
"""list_functions.py LIB --columns | --functions: every function's listing
values of LIB through the Python module (import mtlbx), as a user's
script reads them: --columns with File.columns() (one list per value,
no object per function), --functions by iterating every Function and
reading its name and hash. Prints the number of functions. For bench/run's
rows against `mtlbx ls LIB` (issue 44: CPU within 3x and 6x)."""
import sys

import mtlbx

with mtlbx.open(sys.argv[1]) as f:
    if sys.argv[2:] == ["--columns"]:
        print(len(f.columns()["name"]))
    elif sys.argv[2:] == ["--functions"]:
        n = 0
        for fn in f:
            fn.name, fn.hash
            n += 1
        print(n)
    else:
        sys.exit("usage: list_functions.py LIB --columns | --functions")
