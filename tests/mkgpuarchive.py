#!/usr/bin/env python3
"""Binary archives (fat files with GPU code, FORMAT.md §24) built at test
time from the one public sample, ../shared/gpu-archives/
objectfile-jl-macmetal-dummy (never copied into the repository).

  mkgpuarchive.py SAMPLE OUTDIR            writes the variants below
  mkgpuarchive.py --expect FILE            prints, as JSON, what this
                                           script's own reading of FILE's
                                           GPU slices finds (sections and
                                           functions), for the tests to
                                           compare with mtlbx's

Valid variants (check must be clean, every byte claimed):
  gpu-air.fat        the sample's two slices laid out again
  air-gpu.fat        the AIR64 slice first
  amd-air.fat        the GPU slice as an AMD one (cputype 0x01000014)
  three.fat          AIR64, Apple GPU, AMD GPU
  four.fat           Apple GPU, Intel GPU, AIR64, AMD GPU
Hostile variants (hostile-*.fat): the GPU slice with bad load commands,
huge counts, bad string indices, overlapping sections, cut short.
"""
import json
import os
import struct
import sys

APPLE, AMD, INTEL, AIR64 = 0x01000013, 0x01000014, 0x01000015, 0x01000017


def read_fat(data):
    magic, count = struct.unpack_from(">II", data, 0)
    assert magic == 0xCBFEBABE, "not a fat metallib"
    out = []
    for i in range(count):
        cpu, sub, off, size, align = struct.unpack_from(">5I", data, 8 + 20 * i)
        out.append({"cputype": cpu, "cpusubtype": sub, "offset": off, "size": size,
                    "align": align, "bytes": data[off:off + size]})
    return out


def build_fat(slices):
    """slices: (cputype, cpusubtype, bytes); each aligned to 2^4 as the sample's."""
    head = 8 + 20 * len(slices)
    pos, recs, body = head, [], b""
    for cpu, sub, blob in slices:
        start = (pos + 15) & ~15
        body += b"\0" * (start - pos) + blob
        recs.append(struct.pack(">5I", cpu, sub, start, len(blob), 4))
        pos = start + len(blob)
    return struct.pack(">II", 0xCBFEBABE, len(slices)) + b"".join(recs) + body


def retype(blob, cpu):
    b = bytearray(blob)
    struct.pack_into("<I", b, 4, cpu)
    return bytes(b)


def commands(blob):
    """(offset, cmd, cmdsize) of each load command of a 64-bit Mach-O."""
    ncmds, = struct.unpack_from("<I", blob, 16)
    pos, out = 32, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", blob, pos)
        out.append((pos, cmd, size))
        pos += size
    return out


def sections(blob):
    """(header offset, segment, section, addr, size, offset) in load-command order."""
    out = []
    for at, cmd, _ in commands(blob):
        if cmd != 0x19:
            continue
        nsects, = struct.unpack_from("<I", blob, at + 64)
        for k in range(nsects):
            h = at + 72 + 80 * k
            sect, seg = blob[h:h + 16].rstrip(b"\0"), blob[h + 16:h + 32].rstrip(b"\0")
            addr, size, off = struct.unpack_from("<QQI", blob, h + 32)
            out.append((h, seg.decode(), sect.decode(), addr, size, off))
    return out


def symtab(blob):
    for at, cmd, _ in commands(blob):
        if cmd == 2:
            return at, struct.unpack_from("<4I", blob, at + 8)
    raise SystemExit("no LC_SYMTAB")


def symbols(blob):
    """(nlist offset, name, n_sect, value) of each symbol."""
    _, (symoff, nsyms, stroff, strsize) = symtab(blob)
    out = []
    for i in range(nsyms):
        strx, typ, sect, _, value = struct.unpack_from("<IBBHQ", blob, symoff + 16 * i)
        end = blob.index(b"\0", stroff + strx)
        out.append((symoff + 16 * i, blob[stroff + strx:end].decode(), sect, value))
    return out


def expect(path):
    """This script's own reading of each GPU slice: what dump --json must say."""
    data = open(path, "rb").read()
    out = []
    for i, s in enumerate(read_fat(data)):
        blob = s["bytes"]
        if s["cputype"] == AIR64:
            continue
        secs = sections(blob)
        addr_to_off = lambda sect, v: s["offset"] + secs[sect - 1][5] + (v - secs[sect - 1][3])
        syms = {name: addr_to_off(sect, v) for _, name, sect, v in symbols(blob)}
        fns = []
        for name in sorted(syms):
            if not name.endswith("_begin"):
                continue
            base = name[:-len("_begin")]
            sect = [x for x in symbols(blob) if x[1] == name][0][2]
            if secs[sect - 1][2] in ("__metallib", "__descriptor", "__reflection"):
                continue
            fns.append({"name": base[2:], "symbol": name, "offset": syms[name],
                        "size": syms[base + "_end"] - syms[name], "entry": syms.get(base + "_agc.main")})
        out.append({"slice": i, "sections": [{"segment": seg, "section": sect, "offset": s["offset"] + off,
                                              "size": size} for _, seg, sect, _, size, off in secs],
                    "functions": sorted(fns, key=lambda f: f["offset"])})
    json.dump(out, sys.stdout, indent=1)
    print()


def patch(blob, fmt, at, *values):
    b = bytearray(blob)
    struct.pack_into(fmt, b, at, *values)
    return bytes(b)


def hostile(gpu):
    """Each hostile GPU slice, by name."""
    cmds = commands(gpu)
    secs = sections(gpu)
    sym_at, (symoff, nsyms, stroff, strsize) = symtab(gpu)
    text = [c for c in cmds if c[1] == 0x19 and gpu[c[0] + 8:c[0] + 14] == b"__TEXT"][0]
    note = [c for c in cmds if c[1] == 0x31][0]
    by_name = {s[2]: s for s in secs}
    end_sym = [s for s in symbols(gpu) if s[1].endswith("v_end")][0]
    out = {
        "ncmds-huge": patch(gpu, "<I", 16, 0xFFFFFFFF),
        "sizeofcmds-huge": patch(gpu, "<I", 20, 0xFFFFFFF0),
        "cmdsize-zero": patch(gpu, "<I", cmds[0][0] + 4, 0),
        "cmdsize-past": patch(gpu, "<I", cmds[1][0] + 4, 0x7FFFFFF0),
        "nsects-huge": patch(gpu, "<I", text[0] + 64, 0xFFFFFFFF),
        "nsyms-huge": patch(gpu, "<I", sym_at + 12, 0x7FFFFFFF),
        "symoff-past": patch(gpu, "<I", sym_at + 8, 0xFFFFFF00),
        "stroff-past": patch(gpu, "<I", sym_at + 16, len(gpu) - 4),
        "strx-bad": patch(gpu, "<I", symoff, 0xFFFFFF00),
        "strsize-cut": patch(gpu, "<I", sym_at + 20, 8),
        "sections-overlap": patch(gpu, "<I", by_name["__descriptor"][0] + 48, by_name["__metallib"][5] + 16),
        "section-past": patch(gpu, "<I", by_name["__compute"][0] + 48, 0xFFFFFFF0),
        "note-past": patch(gpu, "<Q", note[0] + 24, 1 << 40),
        "end-missing": patch(gpu, "<B", end_sym[0] + 4, 0),  # n_type 0: not a section symbol
        "sect-bad": patch(gpu, "<B", end_sym[0] + 5, 200),
        "metallib-bad": patch(gpu, "<4s", by_name["__metallib"][5], b"XXXX"),
        "macho-cut": gpu[:0x100],
        "macho-tiny": gpu[:16],  # a Mach-O magic and no header: no piece at all
        "magic-bad": patch(gpu, "<I", 0, 0xFEEDFACE),
    }
    return out


def main():
    if sys.argv[1:2] == ["--expect"]:
        expect(sys.argv[2])
        return
    sample, outdir = sys.argv[1], sys.argv[2]
    data = open(sample, "rb").read()
    slices = read_fat(data)
    gpu = [s for s in slices if s["cputype"] == APPLE][0]
    air = [s for s in slices if s["cputype"] == AIR64][0]
    g, a = gpu["bytes"], air["bytes"]
    sub = gpu["cpusubtype"]
    os.makedirs(outdir, exist_ok=True)

    def write(name, parts):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(build_fat(parts))

    write("gpu-air.fat", [(APPLE, sub, g), (AIR64, air["cpusubtype"], a)])
    write("air-gpu.fat", [(AIR64, air["cpusubtype"], a), (APPLE, sub, g)])
    write("amd-air.fat", [(AMD, 0, retype(g, AMD)), (AIR64, air["cpusubtype"], a)])
    write("three.fat", [(AIR64, air["cpusubtype"], a), (APPLE, sub, g), (AMD, 0, retype(g, AMD))])
    write("four.fat", [(APPLE, sub, g), (INTEL, 0, retype(g, INTEL)), (AIR64, air["cpusubtype"], a),
                       (AMD, 0, retype(g, AMD))])
    for name, blob in hostile(g).items():
        write("hostile-%s.fat" % name, [(APPLE, sub, blob), (AIR64, air["cpusubtype"], a)])
    # The GPU slice and the AIR64 slice alone, as thin writes them.
    with open(os.path.join(outdir, "applegpu.slice"), "wb") as f:
        f.write(g)
    with open(os.path.join(outdir, "air64.slice"), "wb") as f:
        f.write(a)
    with open(os.path.join(outdir, "amdgpu.slice"), "wb") as f:
        f.write(retype(g, AMD))


if __name__ == "__main__":
    main()
