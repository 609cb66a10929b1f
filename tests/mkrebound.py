#!/usr/bin/env python3
"""The sample and a rebuild of it in which compute_main's `data` argument
is rebound, for the tests of diff, textconv and the compare view:

    mkrebound.py TOOLS_DIR OUT_DIR LOCATION [TYPE]

Writes OUT_DIR/old.metallib (the sample as tools/mkfixtures.py builds it)
and OUT_DIR/new.metallib, where `data` moved from [[buffer(0)]] to
[[buffer(LOCATION)]] and, with TYPE, its element type name changed from
float to TYPE, in its LLVM IR metadata (llvm-as assembles it; $LLVM_AS
names another one). Nothing built here is committed.
"""
import os
import re
import sys


def main(tools, work, location, type_name=None):
    sys.path.insert(0, tools)
    import mkfixtures as F
    W = F.W
    ll = open(os.path.join(tools, "fixtures", "compute_main.ll")).read()
    new_type = r'!"%s"' % type_name if type_name else r'\g<3>'
    moved, n = re.subn(r'(!\{i32 0, !"air\.buffer", !"air\.location_index", )i32 0(, i32 1,[^\n]*'
                       r'!"air\.arg_type_name", )(!"float")(, !"air\.arg_name", !"data"\})',
                       r"\g<1>i32 %d\g<2>%s\g<4>" % (int(location), new_type), ll)
    assert n == 1, "the data argument's metadata was not found"
    open(os.path.join(work, "compute_main.ll"), "w").write(moved)
    llvm_as = os.environ.get("LLVM_AS", "llvm-as")
    for name, cache in (("old.metallib", {}), ("new.metallib", {
            "compute_main": W.assemble(os.path.join(work, "compute_main.ll"), llvm_as)})):
        mod = F.Modules(llvm_as)
        mod.cache.update(cache)
        chunks, _ = W.build(F.sample(mod))
        with open(os.path.join(work, name), "wb") as f:
            f.writelines(chunks)


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(*sys.argv[1:])
