#!/usr/bin/env python3
"""Writes damaged metallibs for the check test (tests/lib/checks/crafted.sh).

Usage: mkcrafted.py OUTDIR SRCDIR [CORPUS]

Each file is a copy of one of the project's own fixtures (SRCDIR/data,
SRCDIR/tests/fixtures), or of a corpus file when CORPUS is given, with one
thing wrong. The files live only in OUTDIR (a temporary directory): nothing
here is committed. OUTDIR/manifest.tsv lists, per file, the finding that
`mtlbx check` must print:

    FILE <TAB> OFFSET <TAB> error|warning <TAB> words of the message

The offsets come from this script's own reading of the container, not from
mtlbx.
"""
import hashlib
import os
import struct
import sys


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def u64(b, at):
    return struct.unpack_from("<Q", b, at)[0]


def tags(b, at, end):
    """(fourcc, offset, value_offset, value_len) up to ENDT; SARC/RBUF are wide."""
    while at + 4 <= end:
        fourcc = bytes(b[at:at + 4]).decode("latin-1")
        if fourcc == "ENDT":
            return
        if fourcc in ("SARC", "RBUF", "SBUF", "RBUZ"):
            n, head = u32(b, at + 4), 8
        else:
            n, head = struct.unpack_from("<H", b, at + 4)[0], 6
        yield fourcc, at, at + head, n
        at += head + n


def functions(b, base=0):
    """Per function: its tags by name, and the absolute module span."""
    fl = base + u64(b, base + 0x18)
    mods = base + u64(b, base + 0x48)
    pub = base + u64(b, base + 0x28)
    out = []
    at = fl + 4
    for _ in range(u32(b, fl)):
        size = u32(b, at)
        t = {name: (off, voff, n) for name, off, voff, n in tags(b, at + 4, at + size)}
        offt = struct.unpack_from("<3Q", b, t["OFFT"][1])
        mdsz = u64(b, t["MDSZ"][1])
        out.append({"tags": t, "module": (mods + offt[2], mdsz), "public": pub + offt[0]})
        at += size
    return out


def rehash(b, fn):
    off, size = fn["module"]
    b[fn["tags"]["HASH"][1]:fn["tags"]["HASH"][1] + 32] = hashlib.sha256(bytes(b[off:off + size])).digest()


def read(path):
    with open(path, "rb") as f:
        return bytearray(f.read())


def main():
    out, src = sys.argv[1], sys.argv[2]
    corpus = sys.argv[3] if len(sys.argv) > 3 else None
    rows = []

    def write(name, data, offset, severity, words):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        rows.append("%s\t%d\t%s\t%s" % (name, offset, severity, words))

    # Junk in the alignment padding between two fat slices.
    fat = read(os.path.join(src, "tests/fixtures/fat.metallib"))
    count = struct.unpack_from(">I", fat, 4)[0]
    slices = [struct.unpack_from(">5I", fat, 8 + 20 * i) for i in range(count)]
    gap_start = slices[0][2] + slices[0][3]
    gap_end = slices[1][2]
    assert gap_end > gap_start, "the fixture has no padding between its slices"
    junk = bytearray(fat)
    junk[gap_start:gap_end] = b"\xa5" * (gap_end - gap_start)
    write("fat-padding-junk.metallib", junk, gap_start, "warning", "zero padding")

    # The same gap when the next slice asks for no alignment: no structure
    # explains it at all.
    loose = bytearray(fat)
    struct.pack_into(">I", loose, 8 + 20 + 16, 0)
    write("fat-gap-unclaimed.metallib", loose, gap_start, "warning", "no structure claims")

    # A module that is not bitcode, with a HASH that matches it.
    sample = read(os.path.join(src, "data/sample.metallib"))
    fn = functions(sample)[0]
    not_bc = bytearray(sample)
    not_bc[fn["module"][0]:fn["module"][0] + 4] = b"JUNK"
    rehash(not_bc, fn)
    write("not-bitcode.metallib", not_bc, fn["module"][0], "error", "does not start with the bitcode wrapper magic")

    # A module byte changed after its HASH was written: the finding is at
    # the HASH value, as for any mismatch.
    changed = bytearray(sample)
    fn1 = functions(sample)[1]
    changed[fn1["module"][0] + fn1["module"][1] - 1] ^= 0xFF
    write("hash-mismatch.metallib", changed, fn1["tags"]["HASH"][1], "error",
          "HASH of function 1 does not match its module")

    # A wrapper whose bitcode offset + size pass the end of the module.
    big = bytearray(sample)
    m_off, m_size = fn["module"]
    bc_off = u32(big, m_off + 8)
    struct.pack_into("<I", big, m_off + 12, m_size - bc_off + 1)
    rehash(big, fn)
    write("oversized-wrapper.metallib", big, m_off, "error", "passes the end of the module")

    # An ARGR count one too high (a real Core Image library from the corpus).
    if corpus:
        ci = read(os.path.join(corpus, "gainmap-ci-chemharuka.metallib"))
        fn = functions(ci)[0]
        group = fn["public"]
        argr = [t for t in tags(ci, group + 4, group + u32(ci, group)) if t[0] == "ARGR"][0]
        ci[argr[2]] += 1
        write("argr-count.metallib", ci, argr[2] + argr[3], "error", "ARGR declares")

    # A non-zero byte in the zeros that align an RBUF's FlatBuffer to 16
    # bytes (FORMAT.md section 12); the finding names the padding's path.
    if corpus:
        mfa = read(os.path.join(corpus, "ccv-mfa-ios16.metallib"))
        fl, fl_size, pub = u64(mfa, 0x18), u64(mfa, 0x20), u64(mfa, 0x28)
        ext = {name: voff for name, _, voff, _ in tags(mfa, fl + 4 + fl_size, pub)}
        rlst = u64(mfa, ext["RLST"])
        group = rlst + 4
        name, _, value, _ = next(tags(mfa, group + 4, group + u32(mfa, group)))
        assert name == "RBUF" and value % 16, "the first RBUF of ccv-mfa-ios16 has no padding"
        mfa[value] = 0x5A
        write("rbuf-padding-junk.metallib", mfa, value, "warning",
              "(library[0]/RLST/group[0]/RBUF/padding) hold a non-zero byte")

    with open(os.path.join(out, "manifest.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
