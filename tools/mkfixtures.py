#!/usr/bin/env python3
"""Write mtlbx's own sample libraries, byte for byte reproducibly:

  data/sample.metallib                  the bundled sample (rich: every
                                        section and most tags)
  tests/fixtures/*.metallib             one format variant each
  tests/fixtures/*.expected.json        what `mtlbx dump --json` must print
                                        for each of the files above

Usage: python3 tools/mkfixtures.py [--output-dir DIR]
       python3 tools/mkfixtures.py --check-llvm

The modules are real LLVM bitcode assembled by llvm-as (from PATH, or
$LLVM_AS) from the hand-written IR in tools/fixtures/*.ll; the embedded
source text comes from tools/fixtures/*.metal and *.h. No byte of any
third-party library is used. DIR defaults to the source tree; the files go
to DIR/data and DIR/tests/fixtures.

Bitcode bytes depend on the LLVM major version, so the committed files can
only be reproduced with the same one: --check-llvm exits 0 when llvm-as is
that version, 77 (automake's "skip") when it is missing or different.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import uuid

# No __pycache__ in the source tree (read-only under make distcheck).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mtlbwriter as W  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "fixtures")
TOP = os.path.dirname(HERE)

# The LLVM major version the committed files were made with (Debian 12).
LLVM_MAJOR = 14

AIR_27 = (2, 7, 3, 2)      # macOS 15: AIR 2.7, MSL 3.2 (FORMAT §2.2)
AIR_28 = (2, 8, 4, 0)      # macOS 26
AIR_23 = (2, 3, 2, 3)      # macOS 11
AIR_20 = (2, 0, 2, 0)      # Xcode 9.3 era iOS

# Where the sample "was compiled": long enough that the .metal member needs
# the ustar prefix field (FORMAT P15).
SAMPLE_DIR = ("/Users/mtlbx/Developer/mtlbx-sample-project/Sources/"
              "SampleShaders/Resources/Shaders/Rendering")
SAMPLE_METAL = SAMPLE_DIR + "/sample_shaders.metal"
SAMPLE_HEADER = SAMPLE_DIR + "/sample_common.h"
SAMPLE_AIR = "/var/folders/mt/lbx0sample/T/sample_shaders-5f3e2a.air"
TOOLCHAIN = ("/Applications/Xcode.app/Contents/Developer/Toolchains/"
             "XcodeDefault.xctoolchain/usr/metal/current/bin")


def fixed_uuid(name):
    """A fixed UUID per file: name-based (v3) like air-lld's (FORMAT §5)."""
    return uuid.uuid3(uuid.NAMESPACE_URL, "mtlbx-fixture:" + name).bytes


def read_text(name):
    with open(os.path.join(SRC, name), "rb") as f:
        return f.read()


def definition_line(text, function):
    """1-based line of the function's name in its definition, for DEBI."""
    for number, line in enumerate(text.decode().splitlines(), 1):
        if re.search(r"\b%s\(" % re.escape(function), line):
            return number
    raise ValueError(function)


class Modules:
    """Assembles each tools/fixtures/NAME.ll once."""

    def __init__(self, llvm_as):
        self.llvm_as = llvm_as
        self.cache = {}

    def __call__(self, name, extra_pad=0):
        if name not in self.cache:
            self.cache[name] = W.assemble(os.path.join(SRC, name + ".ll"),
                                          self.llvm_as)
        return W.wrap_bitcode(self.cache[name], extra_pad)


# --------------------------------------------------------------------------
# The files

def sample(mod):
    """data/sample.metallib: container 1.2.8 for macOS 15 as Xcode 16's
    metal driver writes it, with every section the format has."""
    metal = read_text("sample_shaders.metal")
    header = read_text("sample_common.h")
    options = ("%s/metal -c -target air64-apple-macos15.0 -frecord-sources "
               "-gline-tables-only -o %s %s" % (TOOLCHAIN, SAMPLE_AIR,
                                                SAMPLE_METAL)).encode()
    sources = W.Sources(
        "HSRD",
        "%s/air-lld -arch air64_v27 -platform_version macos 15.0.0 15.0 "
        "-o sample.metallib %s -embed_sources %s"
        % (TOOLCHAIN, SAMPLE_AIR, SAMPLE_HEADER),
        SAMPLE_DIR,
        [W.Archive("0", [("metal-options.txt", options),
                         ("metal-working-dir.txt", SAMPLE_DIR.encode()),
                         ("original-input-filename.txt", SAMPLE_AIR.encode()),
                         (SAMPLE_METAL, metal)],
                   pad_multiple=16384),
         # Archive 1 is referenced by no SOFF, like the runtime archive in
         # real libraries (P14), and is left unpadded like Xcode 26's.
         W.Archive("1", [("original-input-filename.txt", SAMPLE_AIR.encode()),
                         (SAMPLE_HEADER, header)])])

    def fn(name, ftype, **kw):
        private = [("DEBI", W.debi_value(definition_line(metal, name),
                                         SAMPLE_METAL)),
                   ("DEPF", W.cstr(SAMPLE_AIR))]
        return W.Function(name, W.FUNCTION_TYPES[ftype], mod(name), AIR_27,
                          private=private, source="0", reflection=True, **kw)

    functions = [
        fn("vertex_main", "vertex",
           attributes=[W.VertexAttribute("position", "float4", 0),
                       W.VertexAttribute("normal", "float3", 1),
                       W.VertexAttribute("uv", "float2", 2, active=False)],
           extra_tags=[("LAYR", bytes([W.DATA_TYPES["uint"]]))]),
        fn("fragment_main", "fragment"),
        fn("compute_main", "kernel",
           constants=[W.Constant("scale", "float", 0, True),
                      W.Constant("iterations", "int", 1, True),
                      W.Constant("use_fast_path", "bool", 2, False),
                      W.Constant("bias", "float", 3, False)]),
        fn("visible_fn", "visible"),
        fn("mesh_main", "mesh"),
        fn("object_main", "object"),
        fn("intersect_tri", "intersection"),
        fn("patch_vertex", "vertex",
           attributes=[W.VertexAttribute("patch_color", "float4", 0, use=1),
                       W.VertexAttribute("position", "float3", 1, use=2)],
           extra_tags=[("TESS", W.tess_value("quad", 4))]),
    ]
    return W.Library(
        version=(1, 2, 8), macos=True, target_os=0x81, os_version=(15, 0, 0),
        functions=functions, extension=["HSRD", "HDYN", "RLST", "UUID"],
        uuid=fixed_uuid("sample.metallib"), sources=sources,
        dynamic_name="sample.metallib",
        dynamic_linked=["@loader_path/libsample_utils.metallib"])


def legacy_v122_ios(mod):
    """Container 1.2.2 for iOS from the standalone metallib tool: no header
    extension, platform bytes zero, metadata prefixes that exclude
    themselves, tag order NAME TYPE HASH MDSZ OFFT VERS (FORMAT §3.2, §4)."""
    return W.Library(
        version=(1, 2, 2), macos=False, target_os=0, os_version=(0, 0, 0),
        tag_order=W.ORDER_METALLIB_TOOL, md_prefix_counts_itself=False,
        functions=[
            W.Function("legacy_vertex", 0, mod("legacy_vertex"), AIR_20,
                       attributes=[W.VertexAttribute("position", "float2", 0)]),
            W.Function("legacy_fragment", 1, mod("legacy_fragment"), AIR_20),
        ])


def nomdsz_v123(mod):
    """Container 1.2.3 without MDSZ, bare-ENDT header extension, modules
    stored in a different order than the functions, one with 32 extra zero
    bytes that HASH covers: a module's size must be inferred from the next
    larger module offset (FORMAT W2), not from list order or the wrapper."""
    return W.Library(
        version=(1, 2, 3), macos=False, target_os=0, os_version=(0, 0, 0),
        tag_order=("NAME", "TYPE", "HASH", "OFFT", "VERS"), write_mdsz=False,
        extension=[],
        functions=[
            W.Function("legacy_vertex", 0, mod("legacy_vertex"), AIR_20),
            W.Function("legacy_fragment", 1,
                       mod("legacy_fragment", extra_pad=32), AIR_20),
            W.Function("legacy_kernel", 2, mod("legacy_kernel"), AIR_20),
        ],
        module_order=[2, 0, 1])


def hsrc_v125(mod):
    """Container 1.2.5 (macOS 11): UUID and old-style HSRC sources, which
    have no working-directory string (FORMAT P12). Both functions share one
    archive."""
    metal = read_text("filters.metal")
    path = "/Users/mtlbx/src/filters/filters.metal"
    air = "/var/folders/mt/lbx0filters/T/filters-9c1d7b.air"
    sources = W.Sources(
        "HSRC", "%s/air-lld -arch air64 -o filters.metallib %s"
        % (TOOLCHAIN, air), None,
        [W.Archive("0", [("metal-options.txt",
                          b"metal -c -mmacosx-version-min=11.0 "
                          b"-frecord-sources filters.metal"),
                         ("original-input-filename.txt", air.encode()),
                         (path, metal)], pad_multiple=16384)])
    depf = [("DEPF", W.cstr(air))]
    return W.Library(
        version=(1, 2, 5), macos=True, target_os=0, os_version=(0, 0, 0),
        extension=["HSRC", "UUID"], uuid=fixed_uuid("hsrc-v125.metallib"),
        sources=sources,
        functions=[
            W.Function("blur_kernel", 2, mod("mac11_kernel"), AIR_23,
                       private=depf, source="0"),
            W.Function("tint_fragment", 1, mod("mac11_fragment"), AIR_23,
                       private=depf, source="0"),
        ])


def dylib_v129(mod):
    """A 1.2.9 dynamic library: unqualified functions under their C++
    mangled names, a dynamic header with install name and two linked
    libraries, exported-variable and imported-symbol lists, and the HSRP
    header-extension tag seen in real files with offset and size 0 (W6)."""
    names = lambda *n: [[("NAME", W.cstr(x))] for x in n]  # noqa: E731
    return W.Library(
        version=(1, 2, 9), macos=True, file_type="dynamic", target_os=0x81,
        os_version=(26, 0, 0),
        tag_order=("NAME", "TYPE", "HASH", "OFFT", "VERS", "MDSZ"),
        extension=["HSRP", "HDYN", "VLST", "ILST", "UUID"],
        uuid=fixed_uuid("dylib-v129.metallib"),
        dynamic_name="@executable_path/libmtlbx_utils.metallib",
        dynamic_linked=["@loader_path/libmtlbx_math.metallib",
                        "@rpath/libmtlbx_noise.metallib"],
        variables=names("_ZN5utils7epsilonE"),
        imports=names("_Z5noisef", "_ZN4math5clampEfff"),
        functions=[
            W.Function("_Z3addff", 3, mod("dylib_add"), AIR_28),
            W.Function("_ZN5utils5scaleEDv3_ff", 3, mod("dylib_scale"),
                       AIR_28),
        ])


def fat(mod):
    """Two complete libraries in a big-endian fat container (W3): a 1.2.5
    slice (macOS 11) and a 1.2.8 slice (macOS 15)."""
    old = W.Library(
        version=(1, 2, 5), macos=True, target_os=0, os_version=(0, 0, 0),
        extension=["UUID"], uuid=fixed_uuid("fat.metallib#0"),
        functions=[W.Function("blur_kernel", 2, mod("mac11_kernel"), AIR_23)])
    new = W.Library(
        version=(1, 2, 8), macos=True, target_os=0x81, os_version=(15, 0, 0),
        extension=["UUID"], uuid=fixed_uuid("fat.metallib#1"),
        functions=[
            W.Function("compute_main", 2, mod("compute_main"), AIR_27),
            W.Function("visible_fn", 4, mod("visible_fn"), AIR_27)])
    return [(0x01000017, 7, old), (0x01000017, 9, new)]


def empty(mod):
    """No functions at all, just a UUID: 118 bytes (W7)."""
    return W.Library(version=(1, 2, 8), macos=True, target_os=0x81,
                     os_version=(15, 0, 0), extension=["UUID"],
                     uuid=fixed_uuid("empty.metallib"))


def unknown_tags(mod):
    """Tags a parser must show raw and warn about, never reject (W6): an
    unknown function tag, an unknown public-metadata tag and an unknown
    header-extension tag, next to the rarer known TESS and LAYR."""
    return W.Library(
        version=(1, 2, 8), macos=True, target_os=0x81, os_version=(15, 0, 0),
        extension=["UUID", "HXYZ"], uuid=fixed_uuid("unknown-tags.metallib"),
        functions=[
            W.Function("patch_vertex", 0, mod("patch_vertex"), AIR_27,
                       attributes=[W.VertexAttribute("patch_color", "float4",
                                                     0, use=1)],
                       extra_tags=[("TESS", W.tess_value("triangle", 3)),
                                   ("ZZZZ", b"mtlbx\0\x01\x02")],
                       public_extra=[("QQQQ", b"\x2a\x00\x00\x00")]),
            W.Function("vertex_main", 0, mod("vertex_main"), AIR_27,
                       extra_tags=[("LAYR",
                                    bytes([W.DATA_TYPES["ushort"]]))]),
        ])


PLAIN = [("data/sample.metallib", sample),
         ("tests/fixtures/legacy-v122-ios.metallib", legacy_v122_ios),
         ("tests/fixtures/nomdsz-v123.metallib", nomdsz_v123),
         ("tests/fixtures/hsrc-v125.metallib", hsrc_v125),
         ("tests/fixtures/dylib-v129.metallib", dylib_v129),
         ("tests/fixtures/empty.metallib", empty),
         ("tests/fixtures/unknown-tags.metallib", unknown_tags)]
FAT = [("tests/fixtures/fat.metallib", fat)]


def expected_path(path):
    """NAME.expected.json next to NAME, except that the sample's lives with
    the other fixtures so data/ holds only what gets installed."""
    base = os.path.basename(path) + ".expected.json"
    return os.path.join("tests/fixtures", base)


def write(outdir, rel, chunks, doc):
    for target, writer in ((rel, lambda f: f.writelines(chunks)),
                           (expected_path(rel), lambda f: f.write(
                               (json.dumps(doc, indent=1) + "\n").encode()))):
        full = os.path.join(outdir, target)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            writer(f)
        print(target)


def llvm_major(llvm_as):
    try:
        out = subprocess.run([llvm_as, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    m = re.search(rb"LLVM version (\d+)", out)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output-dir", default=TOP,
                    help="write data/ and tests/fixtures/ under DIR "
                    "(default: the source tree)")
    ap.add_argument("--check-llvm", action="store_true",
                    help="exit 0 if llvm-as is LLVM %d, else 77" % LLVM_MAJOR)
    args = ap.parse_args()
    llvm_as = os.environ.get("LLVM_AS", "llvm-as")

    if args.check_llvm:
        major = llvm_major(llvm_as)
        if major != LLVM_MAJOR:
            print("%s is %s; the committed fixtures were made with LLVM %d"
                  % (llvm_as, "missing" if major is None else
                     "LLVM %d" % major, LLVM_MAJOR), file=sys.stderr)
            return 77
        return 0

    mod = Modules(llvm_as)
    for rel, make in PLAIN:
        chunks, lib = W.build(make(mod))
        name = os.path.basename(rel)
        write(args.output_dir, rel, chunks,
              W.document(name, chunks, None, [lib]))
    for rel, make in FAT:
        chunks, fat_obj, libs = W.build_fat(make(mod))
        write(args.output_dir, rel, chunks,
              W.document(os.path.basename(rel), chunks, fat_obj, libs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
