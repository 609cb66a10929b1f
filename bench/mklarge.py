#!/usr/bin/env python3
"""Write the large libraries of the speed benchmark (issue 5):

  L20k        20,000 functions, about 300 MB
  L20k-small  the same 20,000 functions, each with a tiny module
  L200k       200,000 functions, about 1 GB
  S1k ... S1M 1,000 to 1,000,000 functions with small modules (scaling
              table; S1M is about 2.4 GB)

Usage: python3 bench/mklarge.py [--out DIR] [--force] [NAME...]

DIR defaults to $MTLBX_BENCH_DIR or /tmp/mtlbx-bench (never the source
tree: these files are never committed). Without NAMEs L20k, L20k-small and L200k are
written; existing files are kept unless --force.

They are valid libraries written by the fixture builder's writer
(tools/mtlbwriter.py): a mix of function types, VATT/VATY, CNST, DEBI,
DEPF, SOFF into one embedded source archive, RFLT into a reflection list,
a dynamic header and a UUID, and real LLVM bitcode modules with correct
hashes. Running llvm-as per function would take hours, so a handful of
base modules per function type (differing in the length of the function
body, and each with its AIR stage entry) are assembled
once, and each function gets a copy whose function name is rewritten in
place: names are stored as raw bytes in the bitcode's string table, so a
same-length rename keeps the bitcode valid (llvm-dis reads it back, which
--verify checks on a sample) and gives every function its own module
bytes and hash.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools"))
import mtlbwriter as W  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATALAYOUT = ("e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
              "f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-"
              "v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-"
              "v512:512:512-v1024:1024:1024-n8:16:32")
# The base modules' function name; every copy overwrites it with a name of
# the same length: a 3-letter type code, "_main_", an 8-digit index.
PLACEHOLDER = "zzz_main_00000000"
AIR = (2, 7, 3, 2)

# One slot per function index modulo 10: mostly kernels, every type present.
TYPE_CYCLE = ["vertex", "fragment", "kernel", "kernel", "kernel", "fragment",
              "visible", "mesh", "object", "intersection"]
TYPE_CODES = {"vertex": "vtx", "fragment": "frg", "kernel": "krn",
              "visible": "vis", "mesh": "msh", "object": "obj",
              "intersection": "isc"}

# Body lengths (arithmetic steps) of the base modules: about 15 bytes of
# bitcode per step on top of ~2.3 KB, so these average ~16 KB (L20k) and
# ~5 KB (L200k).
LIBRARIES = {
    "L20k": (20000, [500, 700, 900, 1100, 1300]),
    "L20k-small": (20000, [1]),
    "L200k": (200000, [80, 140, 200, 260, 320]),
    # The scaling table (issue 22): the same small modules as L20k-small
    # (~2.4 KB a function, so 1M functions is ~2.4 GB), 1k to 1M.
    "S1k": (1000, [1]),
    "S10k": (10000, [1]),
    "S100k": (100000, [1]),
    "S200k": (200000, [1]),  # tests/hostile/memory_flat.sh
    "S1M": (1000000, [1]),
}

DEFAULT = ["L20k", "L20k-small", "L200k"]

METAL_PATH = "/Users/mtlbx/bench/Shaders/generated_shaders.metal"
AIR_PATH = "/var/folders/mt/lbx0bench/T/generated_shaders-0b1c2d.air"


def base_ir(entries, kind):
    """LLVM IR of one base module: a kernel-like function whose body is a
    chain of `entries` arithmetic steps on pseudo-random constants (seeded,
    so the bitcode is the same on every run). The bulk of the module is
    function code, as in real libraries: a reader of the interface skips
    it by its block length, while a hash reads every byte."""
    rnd = random.Random(entries)
    ops = ["add", "xor", "mul", "sub"]
    body = []
    prev = "%gid"
    for k in range(entries):
        body.append("  %%v%d = %s i32 %s, %d"
                    % (k, ops[k % 4], prev, rnd.randrange(-2**31, 2**31)))
        prev = "%%v%d" % k
    return """; mtlbx benchmark base module (bench/mklarge.py)
source_filename = "generated_shaders.metal"
target datalayout = "%(dl)s"
target triple = "air64_v27-apple-macosx15.0.0"

define void @%(name)s(i32 addrspace(1)* %%out, i32 %%gid) {
entry:
%(body)s
  %%i = zext i32 %%gid to i64
  %%o = getelementptr inbounds i32, i32 addrspace(1)* %%out, i64 %%i
  store i32 %(last)s, i32 addrspace(1)* %%o
  ret void
}

%(stage)s!air.version = !{!0}
!air.language_version = !{!1}
!air.compile_options = !{!2, !3}
!llvm.ident = !{!4}
!0 = !{i32 2, i32 7, i32 0}
!1 = !{!"Metal", i32 3, i32 2, i32 0}
!2 = !{!"air.compile.denorms_disable"}
!3 = !{!"air.compile.fast_math_enable"}
!4 = !{!"Apple metal version 32023.404 (metalfe-32023.404)"}
%(entry)s""" % {"dl": DATALAYOUT, "body": "\n".join(body), "last": prev, "name": PLACEHOLDER,
                "stage": stage_list(kind), "entry": stage_entry(kind)}


# The AIR interface of each function type (FORMAT.md §21), so that `mtlbx
# sig` has real metadata to decode: the stage list names the function and
# describes both arguments, as the Metal compiler would for
#   kernel void f(device int *out [[buffer(0)]],
#                 uint gid [[thread_position_in_grid]])
# and its vertex, fragment, mesh, object and visible counterparts.
# Intersection functions get no entry (like extern functions).
SECOND_ARGUMENT = {
    "kernel": '!"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"',
    "vertex": '!"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"',
    "fragment": ('!"air.fragment_input", !"user(locn0)", !"air.flat", '
                 '!"air.arg_type_name", !"uint", !"air.arg_name", !"id"'),
    "mesh": '!"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"',
    "object": '!"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"',
    "visible": '!"air.arg_type_name", !"uint", !"air.arg_name", !"i"',
}


def stage_list(kind):
    return "!air.%s = !{!5}\n" % kind if kind in SECOND_ARGUMENT else ""


def stage_entry(kind):
    if kind not in SECOND_ARGUMENT:
        return ""
    attrs = ", !9" if kind == "kernel" else ""
    return ("!5 = !{void (i32 addrspace(1)*, i32)* @%s, !6, !7%s}\n"
            "!6 = !{}\n"
            "!7 = !{!8, !10}\n"
            '!8 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, '
            '!"air.write", !"air.address_space", i32 1, !"air.arg_type_size", '
            'i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", '
            '!"int", !"air.arg_name", !"out"}\n'
            "!9 = !{!\"air.max_work_group_size\", i32 256}\n"
            "!10 = !{i32 1, %s}\n" % (PLACEHOLDER, attrs, SECOND_ARGUMENT[kind]))


def base_modules(sizes, llvm_as):
    """Raw bitcode of each base module, by (function type, size index),
    with where the placeholder name occurs in it (string table; possibly
    more than once)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for key in [(kind, k) for kind in TYPE_CODES for k in range(len(sizes))]:
            entries = sizes[key[1]]
            path = os.path.join(tmp, "base-%s-%d.ll" % key)
            with open(path, "w") as f:
                f.write(base_ir(entries, key[0]))
            bitcode = W.assemble(path, llvm_as)
            spots = []
            at = bitcode.find(PLACEHOLDER.encode())
            while at >= 0:
                spots.append(at)
                at = bitcode.find(PLACEHOLDER.encode(), at + 1)
            assert spots, "placeholder name not stored raw in the bitcode"
            out[key] = (bitcode, spots)
    return out


def renamed(base, name):
    bitcode, spots = base
    data = bytearray(bitcode)
    for at in spots:
        data[at:at + len(PLACEHOLDER)] = name.encode()
    return bytes(data)


def function_name(index):
    return "%s_main_%08d" % (TYPE_CODES[TYPE_CYCLE[index % 10]], index)


def library(count, sizes, llvm_as):
    bases = base_modules(sizes, llvm_as)
    metal = "".join("kernel void %s(device int *out [[buffer(0)]]) {}\n"
                    % function_name(i) for i in range(min(count, 64)))
    sources = W.Sources(
        "HSRD", "air-lld -arch air64_v27 -o bench.metallib " + AIR_PATH,
        os.path.dirname(METAL_PATH),
        [W.Archive("0", [("metal-options.txt",
                          b"metal -c -frecord-sources generated_shaders.metal"),
                         ("original-input-filename.txt", AIR_PATH.encode()),
                         (METAL_PATH, metal.encode())], pad_multiple=16384)])
    private = [("DEPF", W.cstr(AIR_PATH))]
    attrs = [W.VertexAttribute("position", "float4", 0),
             W.VertexAttribute("uv", "float2", 1)]
    consts = [W.Constant("scale", "float", 0, True),
              W.Constant("use_fast_path", "bool", 1, False)]
    functions = []
    for i in range(count):
        kind = TYPE_CYCLE[i % 10]
        name = function_name(i)
        module = W.wrap_bitcode(renamed(bases[(kind, i % len(sizes))], name))
        functions.append(W.Function(
            name, W.FUNCTION_TYPES[kind], module, AIR,
            attributes=attrs if kind == "vertex" else (),
            constants=consts if kind == "kernel" else (),
            private=[("DEBI", W.debi_value(1 + i % 64, METAL_PATH))]
            + private, source="0", reflection=True))
    return W.Library(
        version=(1, 2, 8), macos=True, target_os=0x81, os_version=(15, 0, 0),
        functions=functions, extension=["HSRD", "HDYN", "RLST", "UUID"],
        uuid=bytes(range(16)), sources=sources, dynamic_name="bench.metallib")


def verify_sample(lib, count=20):
    """llvm-dis must accept renamed modules and print the new name."""
    step = max(1, len(lib.functions) // count)
    with tempfile.TemporaryDirectory() as tmp:
        for fn in lib.functions[::step]:
            path = os.path.join(tmp, "m.bc")
            with open(path, "wb") as f:
                f.write(fn.module)
            text = subprocess.run(["llvm-dis", path, "-o", "-"],
                                  stdout=subprocess.PIPE, check=True).stdout
            assert ("@%s(" % fn.name).encode() in text, fn.name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.environ.get("MTLBX_BENCH_DIR",
                                                    "/tmp/mtlbx-bench"))
    ap.add_argument("--force", action="store_true",
                    help="rewrite files that already exist")
    ap.add_argument("--verify", action="store_true",
                    help="run llvm-dis on a sample of the modules")
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help=", ".join(LIBRARIES))
    args = ap.parse_args()
    for name in args.names:
        if name not in LIBRARIES:
            ap.error("unknown library %s (known: %s)"
                     % (name, ", ".join(LIBRARIES)))
    llvm_as = os.environ.get("LLVM_AS", "llvm-as")
    os.makedirs(args.out, exist_ok=True)
    for name in args.names or DEFAULT:
        path = os.path.join(args.out, name + ".metallib")
        if os.path.exists(path) and not args.force:
            print("%s exists" % path)
            continue
        count, sizes = LIBRARIES[name]
        lib = library(count, sizes, llvm_as)
        if args.verify:
            verify_sample(lib)
        chunks, _ = W.build(lib)
        # Write under a temporary name: an interrupted run must not leave
        # a truncated library that bench/run would take as built.
        with open(path + ".part", "wb") as f:
            f.writelines(chunks)
        os.replace(path + ".part", path)
        print("%s: %d functions, %d bytes" % (path, count,
                                              sum(map(len, chunks))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
