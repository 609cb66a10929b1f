#!/usr/bin/env python3
"""Writes the crafted libraries of the load rule's test (tests/cli/load_rule.sh).

Usage: mkloadrule.py OUTDIR [LLVM_AS]

Each library is built by tools/mtlbwriter.py around modules assembled
here with llvm-as, so that its header, its modules' target triples and its
function list say exactly what the test needs (FORMAT.md §23, CONTRACT.md
"Requirements" and "The release gate"). MSL 2.3 / AIR 2.3 throughout:
they need macOS 11.0, below every triple, so the deployment target decides.

  forged-up.metallib     header macOS 15.0 over modules macosx14.0.0
  forged-down.metallib   header macOS 14.0 over modules macosx15.0.0
  mixed.metallib         header 14.0 (stamped from the first module), modules 14.0 and 15.0
  minor.metallib         header 13.0, modules macosx13.2.0 (renderbox's own library)
  ten.metallib           header 10.13, modules macosx10.14.0 (10.x: each a major release)
  lying.metallib         a function list that lies: NAME, TYPE, AIR and MSL versions
  cut.metallib           three modules, the file cut in the second one
  order-a.metallib       functions a b c
  order-b.metallib       the same functions, c a b (same modules, same bytes each)
  honest.metallib        header and triples agree (14.0), list true
  nonmac.metallib        iOS header 17.0, modules ios17.2.0

OUTDIR/expected.tsv: FILE <TAB> the OS version every place must answer.
Nothing here is committed; the test writes to a temporary directory.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mtlbwriter as W  # noqa: E402

DATALAYOUT = ("e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
              "f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-"
              "v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-"
              "v512:512:512-v1024:1024:1024-n8:16:32")


def module_ir(name, triple, stage="kernel", air=(2, 3), msl=(2, 3)):
    return """source_filename = "k.metal"
target datalayout = "%(dl)s"
target triple = "%(triple)s"

define void @%(name)s(i32 addrspace(1)* %%out, i32 %%gid) {
entry:
  store i32 %%gid, i32 addrspace(1)* %%out
  ret void
}

!air.%(stage)s = !{!5}
!air.version = !{!0}
!air.language_version = !{!1}
!0 = !{i32 %(a0)d, i32 %(a1)d, i32 0}
!1 = !{!"Metal", i32 %(m0)d, i32 %(m1)d, i32 0}
!5 = !{void (i32 addrspace(1)*, i32)* @%(name)s, !6, !7}
!6 = !{}
!7 = !{!8, !10}
!8 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out"}
!10 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
""" % {"dl": DATALAYOUT, "triple": triple, "name": name, "stage": stage,
       "a0": air[0], "a1": air[1], "m0": msl[0], "m1": msl[1]}


class Maker:
    def __init__(self, llvm_as):
        self.llvm_as = llvm_as
        self.tmp = tempfile.mkdtemp()
        self.n = 0

    def module(self, name, triple, **kw):
        self.n += 1
        path = os.path.join(self.tmp, "m%d.ll" % self.n)
        with open(path, "w") as f:
            f.write(module_ir(name, triple, **kw))
        return W.wrap_bitcode(W.assemble(path, self.llvm_as))


def fn(mk, name, triple, ftype="kernel", vers=(2, 3, 2, 3), module_name=None, **kw):
    return W.Function(name, W.FUNCTION_TYPES[ftype], mk.module(module_name or name, triple, **kw), vers)


def write(outdir, name, lib, cut=None):
    chunks, _ = W.build(lib)
    data = b"".join(chunks)
    if cut is not None:
        data = data[:cut(lib, data)]
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)
    return data


def mac(os_version, functions, target_os=0x81):
    return W.Library(version=(1, 2, 8), macos=target_os == 0x81, target_os=target_os,
                     os_version=os_version, functions=functions)


def main():
    outdir = sys.argv[1]
    mk = Maker(sys.argv[2] if len(sys.argv) > 2 else "llvm-as")
    os.makedirs(outdir, exist_ok=True)
    expected = []
    t = "air64_v23-apple-macosx%s"

    def lib(name, version, header, fns, target_os=0x81):
        write(outdir, name, mac(header, fns, target_os))
        expected.append((name, version))

    lib("forged-up.metallib", "14.0", (15, 0, 0), [fn(mk, "k", t % "14.0.0")])
    lib("forged-down.metallib", "15.0", (14, 0, 0), [fn(mk, "k", t % "15.0.0")])
    lib("mixed.metallib", "15.0", (14, 0, 0),
        [fn(mk, "a", t % "14.0.0"), fn(mk, "b", t % "15.0.0")])
    lib("minor.metallib", "13.0", (13, 0, 0), [fn(mk, "k", t % "13.2.0")])
    lib("ten.metallib", "10.14", (10, 13, 0), [fn(mk, "k", t % "10.14.0", vers=(2, 0, 2, 0), air=(2, 0), msl=(2, 0))])
    lib("honest.metallib", "14.0", (14, 0, 0), [fn(mk, "k", t % "14.0.0")])
    lib("nonmac.metallib", "17.0", (17, 0, 0),
        [fn(mk, "k", "air64_v23-apple-ios17.2.0")], target_os=0x82)
    # The list lies about each field once, each on a function of its own.
    lib("lying.metallib", "14.0", (14, 0, 0), [
        fn(mk, "named_wrong", t % "14.0.0", module_name="real_name"),
        fn(mk, "typed_wrong", t % "14.0.0", ftype="vertex"),
        fn(mk, "air_wrong", t % "14.0.0", vers=(2, 4, 2, 3)),
        fn(mk, "msl_wrong", t % "14.0.0", vers=(2, 3, 2, 4)),
    ])
    # Cut in the middle of the second module: 2 of 3 modules missing.
    three = [fn(mk, n, t % "14.0.0") for n in ("a", "b", "c")]
    data = write(outdir, "cut-whole.metallib", mac((14, 0, 0), three))
    b_module = data.find(three[1].module)
    with open(os.path.join(outdir, "cut.metallib"), "wb") as f:
        f.write(data[:b_module + len(three[1].module) // 2])
    os.unlink(os.path.join(outdir, "cut-whole.metallib"))
    a, b, c = (fn(mk, n, t % "14.0.0") for n in ("a", "b", "c"))
    write(outdir, "order-a.metallib", mac((14, 0, 0), [a, b, c]))
    write(outdir, "order-b.metallib", mac((14, 0, 0), [c, a, b]))
    with open(os.path.join(outdir, "expected.tsv"), "w") as f:
        for name, version in expected:
            f.write("%s\t%s\n" % (name, version))


if __name__ == "__main__":
    main()
