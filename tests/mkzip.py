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


def patch_sizes(data, signature, name_len_at, name_at, size_at, raw):
    """Sets to 16 the size field of every header with this signature that
    names raw."""
    pos = data.find(signature)
    while pos >= 0:
        nlen = struct.unpack_from("<H", data, pos + name_len_at)[0]
        if bytes(data[pos + name_at:pos + name_at + nlen]) == raw:
            struct.pack_into("<I", data, pos + size_at, 16)
        pos = data.find(signature, pos + 4)


def lie_about_sizes(path, names):
    """Sets the uncompressed size of the named members to 16 in both the
    local header and the central directory."""
    data = bytearray(open(path, "rb").read())
    for name in names:
        raw = name.encode("utf-8")
        patch_sizes(data, b"PK\x03\x04", 26, 30, 22, raw)
        patch_sizes(data, b"PK\x01\x02", 28, 46, 24, raw)
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
