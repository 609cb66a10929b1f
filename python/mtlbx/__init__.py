"""Read Apple .metallib files (compiled Metal shader libraries).

The Python face of libmtlbx, the parser of the mtlbx program, through
ctypes (no compiler is needed). Every value is the one `mtlbx dump --json`
prints for the same file.

    import mtlbx
    with mtlbx.open("default.metallib") as f:       # a path, a binary file object or a buffer
        lib = f.libraries[0]                          # one library; a fat file has one a slice
        print(lib.container_version, lib.target_os, lib.os_version, lib.requires)
        for fn in f:                                  # every library's functions, in order
            print(fn.name, fn.type, fn.msl_version, fn.hash, fn.requires)
        len(f), "gemm_f32" in f                       # a container of functions, as tarfile is
        f["gemm_f32"].declaration                     # by exact name (KeyError, naming the file, when none)
        f.columns()["name"]                           # every function's listing values, one list a key
        f.check_os("macOS:14.0")                      # [] when it loads there

    w = mtlbx.Writer(target="macOS:14.0")             # a new library from AIR modules
    w.add_function(open("a.air", "rb").read())
    w.write("out.metallib")                           # or w.to_bytes()
    mtlbx.Writer.from_library("big.metallib", functions=["gemm_*"])   # pack --from's bytes

A CI check that every kernel loads on macOS 14:

    import sys, mtlbx
    with mtlbx.open(sys.argv[1]) as f:
        findings = f.check_os("macOS:14.0")
    for severity, offset, message in findings:
        print(f"{sys.argv[1]}:{offset}: {severity}: {message}")
    sys.exit(1 if findings else 0)

The release gate of `mtlbx check`, through the library (the same findings
as `mtlbx check --json`, on what check takes: files, folders, wheels,
.ipa/.zip, Mach-O hosts; os="declared" and expect= among its options):

    for f in mtlbx.check(["dist/pkg.whl", "a.metallib"], os=["macOS:14.0", "declared"],
                         expect="ci/kernels.txt"):
        print(f"{f.file}:{f.offset}: {f.severity}: {f.message} ({f.rule})")

Failures raise mtlbx.Error (a ValueError) with .offset, .errno and
.filename, its message naming the file; a missing file raises
FileNotFoundError (and other system failures the matching OSError), and a
path or name with a NUL in it ValueError, as Python users expect. A
damaged file still opens: what was found wrong is in File.diagnostics.

Names are given as stored: a byte that is not UTF-8 becomes a lone
surrogate (the 'surrogateescape' error handler), so File.function(name)
finds it again; the JSON document spells such a byte as the text \\xNN.
"""

from . import _native
from ._errors import Error
from ._file import File, open
from ._gate import Finding, check
from ._library import Function, Library
from ._slices import GpuFunction, Slice
from ._writer import Writer

__all__ = ["open", "check", "Finding", "File", "Library", "Function", "Slice", "GpuFunction", "Writer", "Error", "version", "__version__"]

version: str = _native.lib.mtlbx_version_string().decode()
"""The running libmtlbx's version, "mtlbx a.b.c"."""
__version__: str = version.split()[-1]

for _cls in (Error, File, Finding, Function, GpuFunction, Library, Slice, Writer):
    _cls.__module__ = __name__
open.__module__ = __name__
check.__module__ = __name__
del _cls

# help(mtlbx) lists a package's modules ("PACKAGE CONTENTS", from
# __path__) and the modules bound in it ("SUBMODULES"): every one here is
# internal and loaded by now (sys.modules keeps them), so neither name is
# needed any more and help shows the public names alone.
for _name in [_n for _n, _v in globals().items() if _n.startswith("_") and type(_v) is type(_native)]:
    del globals()[_name]
del __path__, _name
