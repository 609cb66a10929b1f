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
reason; anything else fails the same way.

hostile_worker.py --close-race FILE ROUNDS: threads read FILE's modules,
sources, columns, declarations and JSON, and a writer's bytes, while the
main thread closes the file (and the writer) under them, ROUNDS times:
each read gives its answer or ValueError (closed), never a crash.

hostile_worker.py --shrink FILE COPY: copies FILE to COPY, opens COPY by
path and as a file object, truncates it, then asks for everything that
reads the file: each must raise mtlbx.Error, never SIGBUS."""
import os
import shutil
import sys
import threading
import time

import mtlbx

EXPECTED = (mtlbx.Error, OSError, MemoryError)


def walk(path):
    try:
        f = mtlbx.open(path)
    except EXPECTED:
        return
    with f:
        cols = f.columns()
        assert all(len(v) == len(f) for v in cols.values())
        for fn in f:
            assert fn.name in f or "\0" in fn.name
            break
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
    with mtlbx.open(memoryview(data)) as g:
        g.verify()
        [fn.name for fn in g.functions]


def close_race(path, rounds):
    failures = []
    with open(path, "rb") as f:
        modules = [fn.module for fn in mtlbx.open(f) if fn.module][:1]

    def read(what):
        try:
            for _ in range(200):
                what()
        except ValueError as e:         # closed (mtlbx.Error is one too: a decode failure)
            if not isinstance(e, mtlbx.Error) and "closed" not in str(e):
                failures.append(repr(e))
        except Exception as e:  # pragma: no cover
            failures.append(repr(e))
    for r in range(rounds):
        f = mtlbx.open(path)
        fns = f.functions
        w = mtlbx.Writer(target="macOS:15.0")
        for m in modules:
            try:
                w.add_function(m)
            except mtlbx.Error:
                pass
        jobs = [lambda: [fn.module for fn in fns], lambda: [lib.source_members for lib in f.libraries],
                lambda: f.columns(), lambda: f.json(), lambda: f.sources, lambda: f.diagnostics,
                lambda: [fn.interface for fn in fns[:3]], lambda: w.to_bytes()]
        threads = [threading.Thread(target=read, args=(job,)) for job in jobs]
        for t in threads:
            t.start()
        time.sleep(0.0005 * (r % 20))
        f.close()
        w.close()
        for t in threads:
            t.join()
    if failures:
        raise AssertionError("reads ended otherwise than with an answer or ValueError: %s" % failures[:5])


def shrink(path, copy):
    def every_read(f, writer):
        asks = [lambda: [fn.module for fn in f], lambda: [lib.source_members for lib in f.libraries],
                lambda: f.json(), lambda: f.verify(), lambda: f.check_os("macOS:14.0"),
                lambda: [fn.declaration for fn in f], lambda: f.diagnostics, lambda: writer.to_bytes()]
        for ask in asks:
            try:
                ask()
            except mtlbx.Error as e:
                assert "shrank" in str(e) and str(e).startswith(copy), str(e)
            else:
                raise AssertionError("a read of the truncated file gave an answer")
    for how in ("path", "file object"):
        shutil.copyfile(path, copy)
        raw = open(copy, "rb")
        f = mtlbx.open(copy if how == "path" else raw)
        w = mtlbx.Writer.from_library(copy, functions=["*"])
        [fn.name for fn in f]           # the listing is read while whole
        os.truncate(copy, 64)
        every_read(f, w)
        f.close()
        w.close()
        raw.close()
    print("shrink: every read raised", flush=True)


def main():
    if sys.argv[1] == "--close-race":
        close_race(sys.argv[2], int(sys.argv[3]))
        print("done 1", flush=True)
        return
    if sys.argv[1] == "--shrink":
        shrink(sys.argv[2], sys.argv[3])
        print("done 1", flush=True)
        return
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
