#!/usr/bin/env python3
"""Write two releases of N libraries each into DIR (the tests make a
temporary one; nothing here is committed), as a compressed tar and as a
wheel (a deflated zip):

  old.tar.gz  old.whl   lib/00000.metallib ... lib/N-1.metallib, member K
                        a copy of LIB[K % len(LIB)], in name order
  new.tar.gz  new.whl   the same libraries in a shuffled order (a fixed
                        seed), except lib/00000 is LIB[1] (changed),
                        lib/N-1 is gone (removed) and lib/extra.metallib
                        is new (added)

so `mtlbx diff old.X new.X` says "1 library changed, 1 added, 1 removed,
N-2 the same". Comparing such releases used to reopen the archive and
decompress it from the start for every pair (issue 35 item 2: 104 s for
two .tar.gz of 6,000 libraries, over 300 s for two zips); the shuffled
order makes the new side's members come in an order the pairs do not.

Usage: hostile_mkreleases.py DIR N LIB LIB... (two libraries at least, the
first two different). Python 3 standard library only."""
import io
import os
import random
import sys
import tarfile
import zipfile


def members(n, libs, new):
    """[(name, bytes)] of one side, in archive order."""
    out = [("lib/%05d.metallib" % k, libs[k % len(libs)]) for k in range(n)]
    if not new:
        return out
    out[0] = (out[0][0], libs[1])
    out = out[:-1] + [("lib/extra.metallib", libs[0])]
    random.Random(35).shuffle(out)
    return out


def write_tar(path, items):
    with tarfile.open(path, "w:gz", format=tarfile.USTAR_FORMAT, compresslevel=1) as t:
        for name, data in items:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def write_zip(path, items):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, data in items:
            z.writestr(name, data)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    out, n = argv[0], int(argv[1])
    libs = [open(p, "rb").read() for p in argv[2:]]
    if n < 2 or libs[0] == libs[1]:
        sys.exit("hostile_mkreleases.py: N >= 2 and two different libraries, please")
    for side in ("old", "new"):
        items = members(n, libs, side == "new")
        write_tar(os.path.join(out, side + ".tar.gz"), items)
        write_zip(os.path.join(out, side + ".whl"), items)


if __name__ == "__main__":
    main(sys.argv[1:])
