#!/usr/bin/env python3
"""Builds the zip archives the container tests need, at test time (nothing
built here is committed).

    mkzip.py OUT.zip SPEC...

Each SPEC adds one member:
    s:NAME=FILE    FILE's bytes, stored
    d:NAME=FILE    FILE's bytes, deflated
    bomb:NAME=N    'MTLB' then N zero bytes, deflated (a zip bomb)
    lie:NAME=N     the same, but both headers claim 16 bytes
NAME takes Python escapes (\\x1b), and keeps '..' and a leading '/': the
archive is hostile on purpose.
"""
import struct
import sys
import zipfile


def add_bomb(z, name, size):
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    with z.open(info, "w", force_zip64=size > 0x7FFFFFFF) as w:
        w.write(b"MTLB")
        chunk = bytes(1 << 20)
        left = size
        while left > 0:
            n = min(left, len(chunk))
            w.write(chunk[:n])
            left -= n


def lie_about_sizes(path, names):
    """Sets the uncompressed size of the named members to 16 in both the
    local header and the central directory."""
    data = bytearray(open(path, "rb").read())
    for name in names:
        raw = name.encode("utf-8")
        pos = 0
        while True:
            pos = data.find(b"PK\x03\x04", pos)
            if pos < 0:
                break
            nlen = struct.unpack_from("<H", data, pos + 26)[0]
            if bytes(data[pos + 30:pos + 30 + nlen]) == raw:
                struct.pack_into("<I", data, pos + 22, 16)
            pos += 4
        pos = 0
        while True:
            pos = data.find(b"PK\x01\x02", pos)
            if pos < 0:
                break
            nlen = struct.unpack_from("<H", data, pos + 28)[0]
            if bytes(data[pos + 46:pos + 46 + nlen]) == raw:
                struct.pack_into("<I", data, pos + 24, 16)
            pos += 4
    open(path, "wb").write(bytes(data))


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    liars = []
    with zipfile.ZipFile(out, "w") as z:
        for spec in specs:
            kind, rest = spec.split(":", 1)
            name, value = rest.rsplit("=", 1)
            name = name.encode("utf-8").decode("unicode_escape")
            if kind in ("s", "d"):
                info = zipfile.ZipInfo(name)
                info.compress_type = zipfile.ZIP_STORED if kind == "s" else zipfile.ZIP_DEFLATED
                z.writestr(info, open(value, "rb").read())
            elif kind in ("bomb", "lie"):
                add_bomb(z, name, int(value))
                if kind == "lie":
                    liars.append(name)
            else:
                sys.exit("mkzip.py: unknown member kind " + kind)
    lie_about_sizes(out, liars)


if __name__ == "__main__":
    main()
