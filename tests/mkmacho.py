#!/usr/bin/env python3
"""Builds Mach-O files that carry a metallib in a section, at test time
(nothing built here is committed, except the fuzz seeds it writes with
--seeds): a header, load commands (one segment with its sections, an
LC_BUILD_VERSION or an LC_VERSION_MIN_*), then the sections' bytes, the
way `ld -sectcreate __TEXT metal_basic lib.metallib` lays them out.

    mkmacho.py OUT [options]     (python3 tests/mkmacho.py --help)

    --section SEG,SECT=FILE   a section holding FILE's bytes (repeatable;
                              default: none besides __TEXT,__text)
    --minos PLATFORM:X.Y      LC_BUILD_VERSION (macos ios tvos watchos
                              maccatalyst visionos); omitted: no minimum OS
    --version-min             write the minimum OS as LC_VERSION_MIN_* instead
    --arch arm64|x86_64|i386|armv7|ppc   (default arm64; i386, armv7 and
                              ppc are 32-bit, ppc big-endian)
    --universal ARCH,ARCH...  a universal file with one slice per ARCH, each
                              the same thin file for that ARCH (--fat64: the
                              64-bit universal records)
    --hostile KIND            damage it (see HOSTILE below)
    --seeds DIR               write the fuzz seeds of tests/fuzz/seeds/macho
                              (OUT is ignored)
"""
import argparse
import os
import struct
import sys

PLATFORMS = {"macos": 1, "ios": 2, "tvos": 3, "watchos": 4, "maccatalyst": 6, "visionos": 11}
VERSION_MIN = {"macos": 0x24, "ios": 0x25, "tvos": 0x2F, "watchos": 0x30}
ARCHS = {  # cputype, cpusubtype, 64-bit, big-endian
    "arm64": (0x0100000C, 0, True, False),
    "x86_64": (0x01000007, 3, True, False),
    "i386": (7, 3, False, False),
    "armv7": (12, 9, False, False),
    "ppc": (18, 0, False, True),
}
MH_DYLIB = 6
LC_SEGMENT, LC_SEGMENT_64, LC_BUILD_VERSION, LC_ID_DYLIB = 0x1, 0x19, 0x32, 0xD
HOSTILE = {
    "ncmds": "ncmds 0x7fffffff in a few bytes of commands",
    "cmdsize0": "a load command of size 0",
    "cmdsize-past": "a load command that runs past sizeofcmds",
    "sizeofcmds-past": "sizeofcmds past the end of the file",
    "nsects": "a segment that declares 100000 sections",
    "section-past": "the metallib section's offset past the end of the file",
    "section-overlap": "two sections over the same bytes",
    "fat-count": "a universal header with 30 slices, all outside the file",
    "fat-overlap": "two universal slices over the same bytes",
    "truncated": "the file cut inside its load commands",
}


def version(text):
    major, _, minor = text.partition(".")
    return (int(major) << 16) | (int(minor or 0) << 8)


def thin(arch, sections, minos, version_min, hostile=None):
    cputype, cpusubtype, is64, big = ARCHS[arch]
    e = ">" if big else "<"
    hsize = 32 if is64 else 28
    seg_head, sect_size = (72, 80) if is64 else (56, 68)
    sections = [("__TEXT", "__text", b"\xc3" * 64)] + sections
    cmds = []
    seg_cmdsize = seg_head + sect_size * len(sections)
    minos_cmd = b""
    if minos:
        plat, ver = minos.split(":")
        if version_min:
            minos_cmd = struct.pack(e + "IIII", VERSION_MIN[plat], 16, version(ver), version(ver))
        else:
            minos_cmd = struct.pack(e + "IIIIII", LC_BUILD_VERSION, 24, PLATFORMS[plat], version(ver), version(ver), 0)
    # A dylib names itself (LC_ID_DYLIB), as LLVM's readers insist.
    name = b"@rpath/libkernels.dylib\0"
    name += b"\0" * (-(24 + len(name)) % 8)
    id_cmd = struct.pack(e + "IIIIII", LC_ID_DYLIB, 24 + len(name), 24, 2, 0x10000, 0x10000) + name
    sizeofcmds = seg_cmdsize + len(minos_cmd) + len(id_cmd)
    data_start = (hsize + sizeofcmds + 15) & ~15
    offsets, body, pos = [], b"", data_start
    for _, _, content in sections:
        pos = (pos + 15) & ~15
        body += b"\0" * (pos - data_start - len(body))
        offsets.append(pos)
        body += content
        pos += len(content)
    if hostile == "section-overlap":
        offsets[-1] = offsets[0]
    seg = b""
    nsects = len(sections)
    for (segname, sectname, content), off in zip(sections, offsets):
        if hostile == "section-past" and (segname, sectname) != ("__TEXT", "__text"):
            off = 0x7FFFFF00
        names = sectname.encode().ljust(16, b"\0")[:16] + segname.encode().ljust(16, b"\0")[:16]
        if is64:
            seg += names + struct.pack(e + "QQIIIIIIII", off, len(content), off, 4, 0, 0, 0, 0, 0, 0)
        else:
            seg += names + struct.pack(e + "IIIIIIIII", off, len(content), off, 4, 0, 0, 0, 0, 0)
    if hostile == "nsects":
        nsects = 100000
    total = data_start + len(body)
    if is64:
        seg = struct.pack(e + "II16sQQQQIIII", LC_SEGMENT_64, seg_cmdsize, b"__TEXT", 0, total, 0, total, 5, 5,
                          nsects, 0) + seg
    else:
        seg = struct.pack(e + "II16sIIIIIIII", LC_SEGMENT, seg_cmdsize, b"__TEXT", 0, total, 0, total, 5, 5,
                          nsects, 0) + seg
    cmds = seg + minos_cmd + id_cmd
    ncmds = 3 if minos_cmd else 2
    if hostile == "ncmds":
        ncmds = 0x7FFFFFFF
    if hostile == "cmdsize0":
        cmds = cmds[:4] + struct.pack(e + "I", 0) + cmds[8:]
    if hostile == "cmdsize-past":
        cmds = cmds[:4] + struct.pack(e + "I", sizeofcmds + 64) + cmds[8:]
    if hostile == "sizeofcmds-past":
        sizeofcmds = 0x7FFFFFF0
    magic = 0xFEEDFACF if is64 else 0xFEEDFACE
    header = struct.pack(e + "IiiIIII", magic, cputype, cpusubtype, MH_DYLIB, ncmds, sizeofcmds, 0)
    if is64:
        header += b"\0" * 4
    out = header + cmds
    out += b"\0" * (data_start - len(out)) + body
    if hostile == "truncated":
        out = out[: hsize + 20]
    return out


def universal(slices, wide, hostile=None):
    count = len(slices)
    rec = 32 if wide else 20
    pos = (8 + rec * count + 0xFFF) & ~0xFFF
    placed = []
    for arch, data in slices:
        cputype, cpusubtype = ARCHS[arch][:2]
        placed.append((cputype, cpusubtype, pos, len(data)))
        pos = (pos + len(data) + 0xFFF) & ~0xFFF
    if hostile == "fat-overlap" and len(placed) > 1:
        placed[1] = (placed[1][0], placed[1][1], placed[0][2], placed[1][3])
    records = b""
    for cputype, cpusubtype, off, size in placed:
        if wide:
            records += struct.pack(">IIQQII", cputype, cpusubtype, off, size, 12, 0)
        else:
            records += struct.pack(">IIIII", cputype, cpusubtype, off, size, 12)
    n = count
    if hostile == "fat-count":
        n = 30
        records = b"".join(struct.pack(">IIIII", 0x0100000C, 0, 0x7FFF0000 + i, 0x1000, 12) for i in range(n))
    out = bytearray(struct.pack(">II", 0xCAFEBABF if wide else 0xCAFEBABE, n) + records)
    for (arch, data), (_, _, off, _) in zip(slices, placed):
        if len(out) < off + len(data):
            out += b"\0" * (off + len(data) - len(out))
        out[off:off + len(data)] = data
    return bytes(out)


def seeds(directory):
    """Small inputs for tests/fuzz/fuzz_macho.c: every shape and every
    damage above, around a 96-byte stand-in for a metallib (MTLB and
    zeros: the harness recognises it by its magic, as find does)."""
    os.makedirs(directory, exist_ok=True)
    lib = b"MTLB" + b"\0" * 92
    shapes = {
        "thin-arm64": thin("arm64", [("__TEXT", "metal_basic", lib)], "macos:14.0", False),
        "thin-i386-version-min": thin("i386", [("__TEXT", "metal_basic", lib)], "macos:10.13", True),
        "thin-ppc-big-endian": thin("ppc", [("__DATA", "metallib", lib)], None, False),
        "thin-ios": thin("arm64", [("__TEXT", "metal_basic", lib)], "ios:16.0", False),
        "universal": universal([(a, thin(a, [("__TEXT", "metal_basic", lib)], "macos:14.0", False))
                                for a in ("arm64", "x86_64")], False),
        "universal64": universal([(a, thin(a, [("__TEXT", "metal_basic", lib)], "macos:14.0", False))
                                  for a in ("arm64", "x86_64")], True),
    }
    for kind in HOSTILE:
        if kind.startswith("fat-"):
            shapes["hostile-" + kind] = universal(
                [(a, thin(a, [("__TEXT", "metal_basic", lib)], "macos:14.0", False)) for a in ("arm64", "x86_64")],
                False, kind)
        else:
            shapes["hostile-" + kind] = thin("arm64", [("__TEXT", "metal_basic", lib)], "macos:14.0", False, kind)
    for name, data in shapes.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)


def main(argv):
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("out")
    ap.add_argument("--section", action="append", default=[])
    ap.add_argument("--minos")
    ap.add_argument("--version-min", action="store_true")
    ap.add_argument("--arch", default="arm64", choices=ARCHS)
    ap.add_argument("--universal")
    ap.add_argument("--fat64", action="store_true")
    ap.add_argument("--hostile", choices=HOSTILE)
    ap.add_argument("--seeds")
    a = ap.parse_args(argv)
    if a.seeds:
        seeds(a.seeds)
        return
    sections = []
    for spec in a.section:
        names, path = spec.split("=", 1)
        seg, sect = names.split(",", 1)
        with open(path, "rb") as f:
            sections.append((seg, sect, f.read()))
    fat_damage = a.hostile and a.hostile.startswith("fat-")
    if a.universal:
        data = universal([(arch, thin(arch, sections, a.minos, a.version_min, None if fat_damage else a.hostile))
                          for arch in a.universal.split(",")], a.fat64, a.hostile)
    else:
        data = thin(a.arch, sections, a.minos, a.version_min, a.hostile)
    with open(a.out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv[1:])
