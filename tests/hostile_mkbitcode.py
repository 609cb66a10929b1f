#!/usr/bin/env python3
"""Write a metallib of one function whose module is LLVM bitcode written
bit by bit here (no llvm-as), for tests of the interface decoder and of
what prints it. Usage: hostile_mkbitcode.py OUT KIND [ARG]

  expr        a fragment whose bindings the compiler computes from function
              constants: an output [[color(...)]] and a texture's
              air.location_index name a global, not an int; two arguments
              are guarded by air.function_constant !{@pred, "bool", NAME}
  dag DEPTH   a kernel whose argument's air.struct_type_info is a node
              holding the same child twice, DEPTH levels deep: a few
              hundred bytes that stand for 2**DEPTH values written out
              [LEAF]  the leaf string (default "leaf"), so that two files
              differ only deep inside the DAG

Written into a temporary directory by the tests, never committed. The
container is tools/mtlbwriter.py's."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mtlbwriter as W  # noqa: E402


class Bits:
    """An LLVM bitstream, as tests/bitwriter.c writes it."""

    def __init__(self):
        self.bits = []
        self.width = 2
        self.stack = []
        for byte in b"BC\xc0\xde":
            self.fixed(byte, 8)

    def fixed(self, v, n):
        self.bits.extend((v >> i) & 1 for i in range(n))

    def vbr(self, v, n):
        more = 1 << (n - 1)
        while v >= more:
            self.fixed((v & (more - 1)) | more, n)
            v >>= n - 1
        self.fixed(v, n)

    def align32(self):
        self.bits.extend([0] * (-len(self.bits) % 32))

    def enter(self, block_id, width):
        self.fixed(1, self.width)
        self.vbr(block_id, 8)
        self.vbr(width, 4)
        self.align32()
        self.stack.append((len(self.bits), self.width))
        self.fixed(0, 32)
        self.width = width

    def end(self):
        self.fixed(0, self.width)
        self.align32()
        at, self.width = self.stack.pop()
        words = (len(self.bits) - at - 32) // 32
        self.bits[at:at + 32] = [(words >> i) & 1 for i in range(32)]

    def record(self, code, ops):
        self.fixed(3, self.width)
        self.vbr(code, 6)
        self.vbr(len(ops), 6)
        for op in ops:
            self.vbr(op, 6)

    def blob_abbrev_record(self, blob):
        """DEFINE_ABBREV [literal 1, blob] as abbreviation 4, then one record."""
        self.fixed(2, self.width)
        self.vbr(2, 5)
        self.fixed(1, 1)
        self.vbr(1, 8)
        self.fixed(0, 1)
        self.fixed(5, 3)
        self.fixed(4, self.width)
        self.vbr(len(blob), 6)
        self.align32()
        for byte in blob:
            self.fixed(byte, 8)
        self.align32()

    def bytes(self):
        self.align32()
        out = bytearray(len(self.bits) // 8)
        for i, b in enumerate(self.bits):
            out[i // 8] |= b << (i % 8)
        return bytes(out)


class Metadata:
    """Metadata ids in the order they are defined (strings, values, nodes)."""

    def __init__(self, w):
        self.w = w
        self.n = 0
        self.strings = {}

    def string(self, s):
        if s not in self.strings:
            self.w.record(1, list(s.encode()))   # METADATA_STRING_OLD
            self.strings[s] = self.n
            self.n += 1
        return self.strings[s]

    def value(self, type_id, value_id):
        self.w.record(2, [type_id, value_id])     # METADATA_VALUE
        self.n += 1
        return self.n - 1

    def node(self, ids):
        self.w.record(3, [i + 1 for i in ids])    # METADATA_NODE (0 is null)
        self.n += 1
        return self.n - 1

    def named(self, name, ids):
        self.w.record(4, list(name.encode()))     # METADATA_NAME
        self.w.record(10, ids)                    # METADATA_NAMED_NODE


GLOBALS = ["F", "_ZL32__metal_implicit_attr_int_expr_0.96.126", "_ZL26__metal_implicit_fc_pred_0"]
INTS = [0, 1, 2, 4, 6, 8]                 # constants: value ids len(GLOBALS) + k
I32, PTR, FN_PTR = 0, 1, 5               # type ids


def module(kind, arg, leaf):
    w = Bits()
    w.enter(13, 5)                        # IDENTIFICATION
    w.record(1, list(b"LLVM"))
    w.end()
    w.enter(8, 3)                         # MODULE
    w.record(1, [2])                      # VERSION 2: names from STRTAB
    w.enter(17, 4)                        # TYPE: i32, i32*, metadata, void, void(), void()*
    w.record(1, [6])
    w.record(7, [32])
    w.record(8, [I32, 0])
    w.record(16, [])
    w.record(2, [])
    w.record(21, [0, 3])
    w.record(8, [4, 0])
    w.end()
    at = 0
    for k, name in enumerate(GLOBALS):    # FUNCTION F, then two GLOBALVARs
        w.record(8, [at, len(name), 4, 0, 1, 0, 0, 0, 0, 0]) if k == 0 else \
            w.record(7, [at, len(name), PTR, 0, 0, 0, 0, 0])
        at += len(name)
    w.enter(11, 4)                        # CONSTANTS
    w.record(1, [I32])                    # SETTYPE i32
    for v in INTS:
        w.record(4, [v * 2])              # INTEGER (signed VBR)
    w.end()
    w.enter(15, 4)                        # METADATA
    md = Metadata(w)
    s = md.string
    ints = {v: md.value(I32, len(GLOBALS) + k) for k, v in enumerate(INTS)}
    fn, expr, pred = md.value(FN_PTR, 0), md.value(PTR, 1), md.value(PTR, 2)
    if kind == "expr":
        guard = md.node([pred, s("bool"), s("kUseColor1")])
        out0 = md.node([s("air.render_target"), expr, ints[0], s("air.arg_type_name"), s("float4"),
                        s("air.arg_name"), s("color0")])
        out1 = md.node([s("air.function_constant"), guard, s("air.render_target"), ints[1], ints[0],
                        s("air.arg_type_name"), s("float4"), s("air.arg_name"), s("color1")])
        tex = md.node([ints[0], s("air.function_constant"), guard, s("air.texture"), s("air.location_index"),
                       expr, ints[1], s("air.sample"), s("air.arg_type_name"), s("texture2d<float, sample>"),
                       s("air.arg_name"), s("tex")])
        members = md.node([ints[0], ints[4], ints[0], s("float"), s("gain"),
                           ints[4], ints[4], ints[0], s("uint"), s("count")])
        params = md.node([ints[1], s("air.buffer"), s("air.buffer_size"), ints[8], s("air.location_index"),
                          ints[1], ints[1], s("air.read"), s("air.address_space"), ints[2],
                          s("air.struct_type_info"), members, s("air.arg_type_name"), s("Params"),
                          s("air.arg_name"), s("params")])
        entry = md.node([fn, md.node([out0, out1]), md.node([tex, params])])
        stage = "air.fragment"
    else:
        shared = md.node([s(leaf)])
        for _ in range(int(arg)):
            shared = md.node([shared, shared])
        x = md.node([ints[0], s("air.buffer"), s("air.location_index"), ints[0], ints[1], s("air.read"),
                     s("air.address_space"), ints[1], s("air.struct_type_info"), shared,
                     s("air.arg_type_name"), s("float"), s("air.arg_name"), s("x")])
        entry = md.node([fn, md.node([]), md.node([x])])
        stage = "air.kernel"
    version = md.node([ints[2], ints[6], ints[0]])
    md.named(stage, [entry])
    md.named("air.version", [version])
    w.end()
    w.end()                               # MODULE
    w.enter(23, 3)                        # STRTAB
    w.blob_abbrev_record("".join(GLOBALS).encode())
    w.end()
    return w.bytes()


def main():
    out, kind = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else "0"
    leaf = sys.argv[4] if len(sys.argv) > 4 else "leaf"
    if kind not in ("expr", "dag"):
        sys.exit("hostile_mkbitcode.py: KIND is expr or dag")
    ftype = 1 if kind == "expr" else 2
    fn = W.Function("F", ftype, W.wrap_bitcode(module(kind, arg, leaf)), (2, 6, 3, 1))
    chunks, _ = W.build(W.Library(functions=[fn]))
    with open(out, "wb") as f:
        f.writelines(chunks)


if __name__ == "__main__":
    main()
