#!/usr/bin/env python3
"""Builds a release the way it ships, at test time (nothing built here is
committed): a folder, a wheel or app archive (zip), or a tar, compressed
or not, holding the files named.

    mkrelease.py OUT MEMBER=FILE...

OUT's name decides the kind: .whl .zip .ipa .jar -> zip (deflated);
.tar .tar.gz .tgz .tar.xz .tar.bz2 -> tar; anything else -> a folder
(created; it must not exist). FILE may be an archive built before (a
.ipa inside a .zip). Members are written in the order given.
"""
import os
import shutil
import sys
import tarfile
import zipfile

ZIPS = (".whl", ".zip", ".ipa", ".jar")
TARS = {".tar": "w", ".tar.gz": "w:gz", ".tgz": "w:gz", ".tar.xz": "w:xz", ".tar.bz2": "w:bz2"}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out, specs = argv[0], [a.split("=", 1) for a in argv[1:]]
    lower = out.lower()
    if lower.endswith(ZIPS):
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for member, path in specs:
                z.write(path, member)
        return
    for ext, mode in TARS.items():
        if lower.endswith(ext):
            with tarfile.open(out, mode, format=tarfile.USTAR_FORMAT) as t:
                for member, path in specs:
                    t.add(path, member)
            return
    os.makedirs(out)
    for member, path in specs:
        dest = os.path.join(out, member)
        os.makedirs(os.path.dirname(dest) or out, exist_ok=True)
        shutil.copyfile(path, dest)


if __name__ == "__main__":
    main(sys.argv[1:])
