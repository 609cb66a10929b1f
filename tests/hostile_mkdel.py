#!/usr/bin/env python3
"""Write two libraries whose names carry raw DEL bytes (0x7F) where
`textconv` and the text of `diff` print fields as JSON: a function
constant (CNST), a vertex attribute (VATT) and the dynamic header's name
and linked library. JSON allows DEL unescaped, so the JSON of those fields
once reached the terminal with it raw (issue 35 item 12).

  del-a.metallib   vertex function "v": constant "c\\x7fA", attribute
                   "p\\x7fA"; dynamic library "lib\\x7fA.dylib" linking
                   "dep\\x7fA.dylib"
  del-b.metallib   the same with B for A (so `diff` shows every field)

Usage: hostile_mkdel.py DIR. Written into a temporary directory by the
tests, never committed (one copy is a fuzz seed: tests/fuzz/README.md)."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mtlbwriter as W  # noqa: E402


def library(mark):
    fn = W.Function("v", W.FUNCTION_TYPES["vertex"], W.wrap_bitcode(bytes(64)), (2, 6, 3, 2),
                    constants=[W.Constant("c\x7f" + mark, "float", 0, True)],
                    attributes=[W.VertexAttribute("p\x7f" + mark, "float4", 0)])
    return W.Library(version=(1, 2, 8), file_type="dynamic", functions=[fn], extension=["HDYN", "UUID"],
                     uuid=bytes(16), dynamic_name="lib\x7f%s.dylib" % mark,
                     dynamic_linked=["dep\x7f%s.dylib" % mark])


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    for mark in ("a", "b"):
        chunks, _ = W.build(library(mark.upper()))
        with open(os.path.join(argv[0], "del-%s.metallib" % mark), "wb") as f:
            f.writelines(chunks)


if __name__ == "__main__":
    main(sys.argv[1:])
