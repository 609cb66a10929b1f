"""hostile_worker.py LIST: reads every file named in LIST (one a line)
through the mtlbx module as a program would, asking for everything: each
library's values, every function's values and module, the declarations
and interfaces of the first functions, the sources, the findings, verify,
check_os and the JSON documents. Each file must give answers or raise
mtlbx.Error, an OSError or MemoryError; anything else (another exception)
fails, and a crash kills the process: test_mtlbx.py sees the exit status
and the file named last. Prints "file N PATH" before each file and
"done N" at the end.

hostile_worker.py --air TARGET LIST: gives every file named in LIST to
mtlbx.Writer(target=TARGET).add_function as an AIR module: it is taken
(and the library written and read back) or refused with mtlbx.Error and a
reason; anything else fails the same way."""
import sys

import mtlbx

EXPECTED = (mtlbx.Error, OSError, MemoryError)


def walk(path):
    try:
        f = mtlbx.open(path)
    except EXPECTED:
        return
    with f:
        for lib in f.libraries:
            (lib.container_version, lib.platform, lib.file_type, lib.target_os, lib.os_version, lib.uuid,
             lib.requires, lib.offset, lib.size)
            fns = lib.functions
            for fn in fns:
                (fn.name, fn.type, fn.air_version, fn.msl_version, fn.hash, fn.module_offset, fn.module_size)
            for fn in fns[:40]:
                fn.requires, fn.module, fn.hash_ok
                try:
                    fn.declaration
                except mtlbx.Error:
                    pass
                fn.interface
            for fn in fns[:1]:
                f.function(fn.name)
                f.find(fn.name[:3] + "*")
            try:
                lib.source_members
            except EXPECTED:
                pass
        f.verify()
        f.diagnostics
        f.check_os("macOS:14.0")
        f.check_os("iOS:17.0")
        if sum(len(lib.functions) for lib in f.libraries) <= 5000:
            f.json()
            f.json(interfaces=True, layout=True)


def pack(target, path):
    with open(path, "rb") as f:
        air = f.read()
    with mtlbx.Writer(target=target) as w:
        try:
            w.add_function(air)
            data = w.to_bytes()
        except mtlbx.Error as e:
            if not str(e) or "\n" in str(e):
                raise AssertionError("refused without a one-line reason: %r" % str(e))
            return
    with mtlbx.open(data) as g:
        g.verify()
        [fn.name for fn in g.functions]


def main():
    air = sys.argv[1] == "--air"
    with open(sys.argv[3 if air else 1]) as listing:
        files = [line.rstrip("\n") for line in listing if line.strip()]
    for n, path in enumerate(files, 1):
        print("file %d %s" % (n, path), flush=True)
        try:
            if air:
                pack(sys.argv[2], path)
            else:
                walk(path)
        except EXPECTED:
            if air:
                raise
    print("done %d" % len(files), flush=True)


main()
