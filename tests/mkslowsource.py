#!/usr/bin/env python3
"""Writes, at test time, a library whose source search is slow (issue 35,
item 3): one 48 MiB source member of `a`s, and a function whose name is
60,000 `a`s then `b`, so that a search that compares the whole name at
every position takes minutes; a second function, `short_one`, has no
such name. The modules are a module of the bundled sample (its .air,
extracted by mtlbx and given here), so the library is otherwise sound.

    mkslowsource.py TOOLS_DIR MODULE.air OUT.metallib

Nothing built here is committed (tests/ui/explorer_views.sh runs it).
"""
import os
import sys


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    tools, module_path, out = argv
    sys.path.insert(0, tools)
    import mtlbwriter as W
    with open(module_path, "rb") as f:
        module = f.read()
    slow = "a" * 60000 + "b"
    member = b"a" * (48 << 20)
    sources = W.Sources("HSRD", "air-lld -o slow.metallib -embed_sources", "/tmp",
                        [W.Archive("0", [("slow.metal", member)])])
    functions = [W.Function(slow, W.FUNCTION_TYPES["kernel"], module, (2, 7, 3, 2), source="0"),
                 W.Function("short_one", W.FUNCTION_TYPES["kernel"], module, (2, 7, 3, 2), source="0")]
    lib = W.Library(functions=functions, extension=["HSRD", "UUID"], uuid=bytes(16), sources=sources)
    chunks, _ = W.build(lib)
    with open(out + ".tmp", "wb") as f:
        f.writelines(chunks)
    os.rename(out + ".tmp", out)


if __name__ == "__main__":
    main(sys.argv[1:])
