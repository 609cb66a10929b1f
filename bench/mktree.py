#!/usr/bin/env python3
"""Builds the folder tree of the `mtlbx find` and `mtlbx DIR` benchmarks:
20,000 files, the corpus copied 100 times (each copy laid out like app
bundles and frameworks) among other files (text and binary, 100 bytes to
16 KB, none a metallib) in nested folders. Deterministic: the same tree
every time. Never commit it.

    mktree.py CORPUS_DIR OUT_DIR [--files N] [--copies K]
"""
import argparse
import os
import random
import shutil
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--copies", type=int, default=100)
    args = ap.parse_args()
    corpus = sorted(n for n in os.listdir(args.corpus) if os.path.isfile(os.path.join(args.corpus, n)))
    others = args.files - args.copies * len(corpus)
    if others < 0:
        sys.exit("mktree.py: fewer files than corpus copies")
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    rng = random.Random(10)
    layouts = ["App%d.app", "App%d.app/Frameworks/Kit.framework", "SDK/lib%d/Resources", "Data/%d/shaders"]
    placed = 0
    for c in range(args.copies):
        base = os.path.join(args.out, "copy%03d" % c)
        for i, name in enumerate(corpus):
            sub = os.path.join(base, layouts[i % len(layouts)] % (i % 7))
            os.makedirs(sub, exist_ok=True)
            shutil.copyfile(os.path.join(args.corpus, name), os.path.join(sub, name))
        share = others // args.copies + (1 if c < others % args.copies else 0)
        for k in range(share):
            sub = os.path.join(base, "assets", "set%d" % (k % 9), "part%d" % (k % 4))
            os.makedirs(sub, exist_ok=True)
            size = rng.randint(100, 16384)
            ext = rng.choice([".png", ".txt", ".json", ".plist", ".car", ".dat", ".metallib.txt"])
            data = rng.randbytes(size) if ext in (".png", ".car", ".dat") else \
                ("line %d of some text\n" % k * (size // 20 + 1)).encode()[:size]
            with open(os.path.join(sub, "file%05d%s" % (k, ext)), "wb") as f:
                f.write(data)
            placed += 1
    print("mktree.py: %d corpus files x %d copies + %d other files in %s"
          % (len(corpus), args.copies, placed, args.out))


if __name__ == "__main__":
    main()
