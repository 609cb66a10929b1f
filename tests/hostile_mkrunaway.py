#!/usr/bin/env python3
"""Write the regression libraries of issue 23 into DIR (the tests make a
temporary one; nothing here is committed):

  shared.metallib     N functions (default 2,000) whose entries all point
                      at one module of about 1.5 MB, the AIR entry of every
                      function inside it: `sig` used to read that module
                      once per function (4 to 19 s)
  truncated.metallib  a valid library of two functions, then the same
                      library whose second module's bitcode is cut in its
                      METADATA block (the wrapper says the shorter size, so
                      only reading the bitstream finds it)
  nested.metallib     two functions, the second module's blocks nested
                      100 deep (the reader's limit is 64)
  valid.metallib      the two-function library without the damage

Usage: hostile_mkrunaway.py DIR [N]. Python 3 standard library only; the
bitstream is written bit by bit here (the same encoding as
tests/bitwriter.c), the container with tools/mtlbwriter.py's helpers."""
import hashlib
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mtlbwriter as W  # noqa: E402


class Bits:
    """An LLVM bitstream: bits from the least significant of each byte."""

    def __init__(self):
        self.out = bytearray(b"BC\xc0\xde")
        self.acc = 0
        self.n = 0
        self.width = 2
        self.stack = []

    def fixed(self, v, n):
        self.acc |= v << self.n
        self.n += n
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def vbr(self, v, n):
        more = 1 << (n - 1)
        while v >= more:
            self.fixed((v & (more - 1)) | more, n)
            v >>= n - 1
        self.fixed(v, n)

    def align32(self):
        if self.n:
            self.fixed(0, 8 - self.n)
        while len(self.out) % 4:
            self.out.append(0)

    def enter(self, block_id, width):
        self.fixed(1, self.width)
        self.vbr(block_id, 8)
        self.vbr(width, 4)
        self.align32()
        self.stack.append((len(self.out), self.width))
        self.out += b"\0\0\0\0"
        self.width = width

    def end(self):
        self.fixed(0, self.width)
        self.align32()
        at, self.width = self.stack.pop()
        struct.pack_into("<I", self.out, at, (len(self.out) - at - 4) // 4)

    def record(self, code, ops):
        self.fixed(3, self.width)
        self.vbr(code, 6)
        self.vbr(len(ops), 6)
        for op in ops:
            self.vbr(op, 6)

    def record_str(self, code, s):
        self.record(code, list(s.encode()))

    def bytes(self):
        assert not self.stack and self.n == 0
        return bytes(self.out)


def module(names, args_per_entry=1, name_len=1, nest=0, metadata_end=None):
    """A module whose functions `names` are each the kernel of one air.kernel
    entry taking `args_per_entry` buffers (i32 3, "air.buffer",
    "air.arg_name", a distinct name `name_len` characters long). Types: 0
    i32, 1 pointer, 2 metadata; values: the functions, then i32 3. With
    `nest`, the MODULE block starts with blocks nested that deep. With
    `metadata_end` a list, the byte offset of the METADATA block's end is
    appended to it."""
    n = len(names)
    b = Bits()
    b.enter(13, 5)  # IDENTIFICATION
    b.record_str(1, "LLVM")
    b.end()
    b.enter(8, 3)  # MODULE
    b.record(1, [2])  # VERSION 2: names in STRTAB
    for _ in range(nest):
        b.enter(8, 3)
    for _ in range(nest):
        b.end()
    b.enter(17, 4)  # TYPE: i32, ptr, metadata
    b.record(7, [32])
    b.record(8, [0, 0])
    b.record(16, [])
    b.end()
    strtab = bytearray()
    for name in names:  # FUNCTION [strtab offset, size, type, cc, proto]
        b.record(8, [len(strtab), len(name), 1, 0, 0])
        strtab += name.encode()
    b.enter(11, 4)  # CONSTANTS: SETTYPE i32, INTEGER 3
    b.record(1, [0])
    b.record(4, [6])
    b.end()
    b.enter(15, 4)  # METADATA
    b.record_str(1, "air.buffer")      # !0
    b.record_str(1, "air.arg_name")    # !1
    b.record(2, [0, n])                # !2 = i32 3
    next_id = 3
    entries = []
    for i in range(n):
        args = []
        for k in range(args_per_entry):
            b.record_str(1, ("a%d_%d_" % (i, k)).ljust(name_len, "x"))
            b.record(3, [2 + 1, 0 + 1, 1 + 1, next_id + 1])  # {i32 3, buffer, arg_name, name}
            args.append(next_id + 2)
            next_id += 2
        b.record(3, args)                  # the argument list
        b.record(3, [])                    # no outputs
        b.record(2, [1, i])                # the function
        b.record(3, [next_id + 2 + 1, next_id + 1 + 1, next_id + 1])  # {fn, !{}, args}
        entries.append(next_id + 3)
        next_id += 4
    b.record_str(4, "air.kernel")
    b.record(10, entries)
    b.end()
    if metadata_end is not None:
        metadata_end.append(len(b.out))
    b.end()  # MODULE
    b.enter(23, 3)  # STRTAB: DEFINE_ABBREV [literal 1, blob], then the blob
    b.fixed(2, 3)
    b.vbr(2, 5)
    b.fixed(1, 1)
    b.vbr(1, 8)
    b.fixed(0, 1)
    b.fixed(5, 3)
    b.fixed(4, 3)
    b.vbr(len(strtab), 6)
    b.align32()
    b.out += strtab
    b.align32()
    b.end()
    return b.bytes()


def library(path, functions):
    """A 1.2.2 library (no header extension) of `functions`, (name, module)
    pairs or (name, module, type) triples (the type a W.FUNCTION_TYPES
    value; kernel without one); functions with the same module object
    share its bytes (one offset, one size, one HASH), and a name of None
    writes no NAME tag. Written to path, or returned when path is None."""
    placed, modules, size, hashes = {}, [], 0, {}
    for f in functions:
        mod = f[1]
        if id(mod) not in placed:
            placed[id(mod)] = size
            modules.append(mod)
            size += len(mod)
            hashes[id(mod)] = hashlib.sha256(mod).digest()
    empty = W.group(W.ENDT)
    entries = bytearray(struct.pack("<I", len(functions)))
    for i, f in enumerate(functions):
        name, mod = f[0], f[1]
        tl = W.TagList()
        if name is not None:
            tl.add("NAME", W.cstr(name))
        tl.add("TYPE", bytes([f[2] if len(f) > 2 else W.FUNCTION_TYPES["kernel"]]))
        tl.add("HASH", hashes[id(mod)])
        tl.add("OFFT", struct.pack("<3Q", i * len(empty), i * len(empty), placed[id(mod)]))
        tl.add("VERS", struct.pack("<4H", 2, 6, 3, 2))
        tl.add("MDSZ", W.u64(len(mod)))
        entries += W.group(tl.end())
    md = empty * len(functions)
    fl_off = W.HEADER_SIZE
    pub_off = fl_off + len(entries)
    priv_off = pub_off + len(md)
    mod_off = priv_off + len(md)
    total = mod_off + size
    lib = W.Library(version=(1, 2, 2), extension=None)
    head = W._header(lib, total, fl_off, len(entries) - 4, pub_off, len(md), priv_off, len(md), mod_off, size)
    data = head + bytes(entries) + md + md + b"".join(modules)
    if path is None:
        return data
    with open(path, "wb") as out:
        out.write(data)
    return data


def rewrap(bitcode):
    return W.wrap_bitcode(bitcode)


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    names = ["kernel_%05d" % i for i in range(n)]
    # About 1.5 MB: eight arguments a function, each named by 40 characters.
    shared = rewrap(module(names, args_per_entry=8, name_len=40))
    library(os.path.join(out, "shared.metallib"), [(name, shared) for name in names])

    good = [rewrap(module(["first"])), rewrap(module(["second"], args_per_entry=3, name_len=20))]
    library(os.path.join(out, "valid.metallib"), [("first", good[0]), ("second", good[1])])
    ends = []
    whole = module(["second"], args_per_entry=3, name_len=20, metadata_end=ends)
    cut = whole[:ends[0] - 24]  # inside the METADATA block, on a word boundary
    assert len(cut) % 4 == 0
    library(os.path.join(out, "truncated.metallib"), [("first", good[0]), ("second", rewrap(cut))])
    library(os.path.join(out, "nested.metallib"),
            [("first", good[0]), ("second", rewrap(module(["second"], nest=100)))])


if __name__ == "__main__":
    main()
