"""pytest of the Python module `mtlbx` over the installed libmtlbx (issue
32, LIBRARY.md), run by tests/api/python.sh with the module and library
make check installed into a scratch prefix. Every value is held against
what the mtlbx program prints for the same file (dump --json, sig,
check --os), on the sample, the fixtures and, when $MTLBX_CORPUS is set,
every file of the corpus; hostile files must end in an exception or an
answer, never a crash, within bounds of time and memory."""

import glob
import hashlib
import json
import os
import pydoc
import resource
import subprocess
import sys
import threading
import time

import pytest

import mtlbx

BIN = os.environ["MTLBX_TEST_BIN"]
SRC = os.environ["MTLBX_TEST_SRCDIR"]
WORK = os.environ["MTLBX_TEST_WORK"]
CORPUS = os.environ.get("MTLBX_CORPUS", "")
SAMPLE = os.path.join(SRC, "data", "sample.metallib")
FIXTURES = [SAMPLE] + sorted(glob.glob(os.path.join(SRC, "tests", "fixtures", "*.metallib")))
CORPUS_FILES = sorted(glob.glob(os.path.join(CORPUS, "*.metallib"))) if CORPUS else []


def program(*args, check=True):
    p = subprocess.run([BIN, *args], capture_output=True)
    if check and p.returncode not in (0, 1):
        raise AssertionError("mtlbx %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[:300]))
    return p


def dump(path, *more):
    return json.loads(program("dump", "--json", *more, path).stdout)


def requires_text(r):
    return "%s %s" % (r["os"], r["version"]) if r["os"] and r["version"] else None


def metallib(path):
    with open(path, "rb") as f:
        return f.read(4) in (b"MTLB", b"\xcb\xfe\xba\xbe")


# --------------------------------------------------------------- the module --

def test_help_reads_well():
    text = pydoc.render_doc(mtlbx, renderer=pydoc.plaintext)
    for words in ("Read Apple .metallib files", "every kernel loads on macOS 14", "class Error", "class File",
                  "check_os", "class Function", "class Library", "class Writer", "FileNotFoundError"):
        assert words in text, words
    for cls in (mtlbx.File, mtlbx.Library, mtlbx.Function, mtlbx.Writer, mtlbx.Error):
        assert cls.__doc__ and len(cls.__doc__) > 40
    for name in ("functions", "function", "find", "sources", "diagnostics", "check_os", "json", "verify"):
        assert getattr(mtlbx.File, name).__doc__, name
    for name in ("module", "hash_ok", "declaration", "interface", "requires", "name", "hash"):
        assert getattr(mtlbx.Function, name).__doc__, name


def test_version_is_the_programs():
    assert mtlbx.version == program("--version").stdout.decode().split("\n")[0].strip() or \
        mtlbx.__version__ in program("--version").stdout.decode()


def test_missing_path_is_file_not_found():
    missing = os.path.join(WORK, "no-such.metallib")
    with pytest.raises(FileNotFoundError) as e:
        mtlbx.open(missing)
    assert e.value.filename == missing


def test_directory_is_an_os_error():
    with pytest.raises(IsADirectoryError):
        mtlbx.open(WORK)


def test_not_a_metallib_is_mtlbx_error():
    path = os.path.join(SRC, "README.md")
    with pytest.raises(mtlbx.Error) as e:
        mtlbx.open(path)
    assert isinstance(e.value, ValueError)
    assert e.value.offset == 0 and e.value.errno == 0
    assert "not a metallib" in str(e.value)
    with pytest.raises(mtlbx.Error):
        mtlbx.open(memoryview(b""))
    with pytest.raises(mtlbx.Error) as e:
        mtlbx.open(bytearray(b"\x7fELF" + bytes(200)))
    assert str(e.value).startswith("<memory>")


# ----------------------------------------------- agreement with the program --

def check_file(path):
    """Every value of the module against the program's, for one file."""
    want = dump(path, "--interfaces")
    with mtlbx.open(path) as f:
        assert f.json() == dump(path)
        assert f.json(interfaces=True) == want
        assert len(f.libraries) == len(want["libraries"])
        mismatches = set()
        for lib, w in zip(f.libraries, want["libraries"]):
            for key in ("container_version", "platform", "file_type", "target_os", "os_version", "uuid"):
                assert getattr(lib, key) == w[key], key
            assert lib.requires == requires_text(w["requires"])
            assert lib.offset == w["offset"]
            assert len(lib.functions) == len(w["functions"])
            for fn, wf in zip(lib.functions, w["functions"]):
                if "\\x" not in wf["name"]:
                    assert fn.name == wf["name"]
                assert (fn.type, fn.air_version, fn.msl_version, fn.hash) == \
                    (wf["type"], wf["air_version"], wf["language_version"], wf["hash"])
                assert fn.requires == requires_text(wf["requires"])
                assert fn.interface == wf["interface"]
                module = fn.module
                if wf["module"] is None:
                    assert module is None and fn.module_offset is None
                else:
                    assert (fn.module_offset, fn.module_size) == (wf["module"]["offset"], wf["module"]["size"])
                    assert len(module) == wf["module"]["size"]
                    with open(path, "rb") as raw:
                        raw.seek(fn.module_offset)
                        assert raw.read(fn.module_size) == module
                    # The HASH is the module's SHA-256, by Python's own hash.
                    if fn.hash:
                        assert (hashlib.sha256(module).hexdigest() == fn.hash) == wf["hash_ok"]
                assert fn.hash_ok == wf["hash_ok"]
                if wf["hash"] and wf["module"] and not wf["hash_ok"]:
                    mismatches.add((lib.index, fn.index))
                if "\\x" not in wf["name"]:
                    assert f.function(fn.name).name == fn.name
            members = [m for a in ((w["sources"] or {}).get("archives") or []) if a["decoded"] for m in a["members"]]
            assert [name for name, _ in lib.source_members] == [m["name"] for m in members]
            for (name, data), m in zip(lib.source_members, members):
                if data is not None:
                    assert len(data) == m["size"]
        assert {(fn.library.index, fn.index) for fn in f.verify()} == mismatches
        # Declarations: what sig prints, but its comment lines ("// requires",
        # and a fat file's "// library N").
        decls = []
        for fn in f.functions:
            try:
                d = fn.declaration
            except mtlbx.Error as e:
                assert e.offset is not None
                continue
            decls.append(d + ("\n\n" if "\n" in d else "\n"))
        sig = program("sig", path).stdout.decode("utf-8", "surrogateescape")
        assert "".join(decls) == "".join(l for l in sig.splitlines(True)
                                         if not l.startswith(("// requires ", "// library ")))
        # The gate, as check words it.
        gate = f.check_os("macOS:14.0")
        plain = set(program("check", path).stdout.decode("utf-8", "surrogateescape").splitlines())
        gated = [l for l in program("check", "--os", "macos:14.0", path).stdout.decode(
            "utf-8", "surrogateescape").splitlines() if l not in plain]
        assert sorted("%s:%d: %s: %s" % (path, off, sev, msg) for sev, off, msg in gate) == sorted(gated)
        diags = [(d["severity"], d["offset"], d["message"]) for d in
                 dump(path)["diagnostics"] + [x for lib in dump(path)["libraries"] for x in lib["diagnostics"]]]
        found = f.diagnostics
        assert sorted(found) == sorted(diags)
        assert f.check_os("macOS:14.0") == gate and f.diagnostics == found


@pytest.mark.parametrize("path", FIXTURES, ids=os.path.basename)
def test_fixture_agrees_with_the_program(path):
    check_file(path)


# ids: an empty list is given to ids as one "not set" value (pytest).
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: os.path.basename(p) if isinstance(p, str) else str(p))
def test_corpus_file_agrees_with_the_program(path):
    if not metallib(path):
        with pytest.raises(mtlbx.Error) as e:
            mtlbx.open(path)
        p = program("dump", "--json", path, check=False)
        assert p.returncode == 2 and p.stderr.decode().strip() == "mtlbx: " + str(e.value)
        return
    check_file(path)


def test_corpus_is_there_when_named():
    if not CORPUS:
        pytest.skip("no $MTLBX_CORPUS: only the fixtures were read")
    assert CORPUS_FILES, "MTLBX_CORPUS=%s holds no .metallib" % CORPUS


def test_bytes_read_as_the_file():
    with open(SAMPLE, "rb") as raw:
        data = raw.read()
    with mtlbx.open(SAMPLE) as a, mtlbx.open(memoryview(data)) as b, mtlbx.open(bytearray(data)) as c:
        doc = a.json()
        for other in (b, c):
            d = other.json()
            assert d["path"] == "<memory>"
            d["path"] = doc["path"]
            assert d == doc
            assert [fn.module for fn in other.functions] == [fn.module for fn in a.functions]


# ------------------------------------------------------------ the rest of it --

def test_function_and_find():
    with mtlbx.open(SAMPLE) as f:
        names = [fn.name for fn in f.functions]
        assert f.function("compute_main").name == "compute_main"
        with pytest.raises(KeyError):
            f.function("no_such_function")
        assert [fn.name for fn in f.find("compute_main")] == ["compute_main"]
        assert [fn.name for fn in f.find("*_main")] == [n for n in names if n.endswith("_main")]
        assert [fn.name for fn in f.find("frag")] == [n for n in names if n.startswith("frag")]
        assert f.find("zzz") == []


def test_check_os_verdicts():
    with mtlbx.open(SAMPLE) as f:
        assert f.check_os("macOS:15.0") == []
        assert f.check_os("macos:26.0") == []
        errors = [x for x in f.check_os("macOS:14.0") if x[0] == "error"]
        assert errors and all("more than macOS 14.0" in m for _, _, m in errors)
        for bad in ("macOS", "amigaOS:1.0", "macOS:x"):
            with pytest.raises(mtlbx.Error):
                f.check_os(bad)


def test_sources_and_closing():
    with mtlbx.open(SAMPLE) as f:
        sources = f.sources
        fns = f.functions
        name = fns[0].name
    assert any(n.endswith(".metal") for n in sources)
    assert all(isinstance(v, bytes) for v in sources.values())
    assert fns[0].name == name and f.closed
    with pytest.raises(ValueError):
        fns[0].module
    with pytest.raises(ValueError):
        f.json()


def test_threads_each_with_its_file():
    results, errors = [], []

    def work():
        try:
            with mtlbx.open(SAMPLE) as f:
                results.append(json.dumps(f.json(interfaces=True), sort_keys=True))
        except Exception as e:  # pragma: no cover
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(results)) == 1


# ----------------------------------------------------------------- writer --

def own_target(path):
    """"macOS:15.0.0" for a plain executable library whose header names its
    target, else None."""
    with mtlbx.open(path) as f:
        lib = f.libraries[0]
        if len(f.libraries) != 1 or lib.offset != 0 or lib.file_type != "executable" or \
                lib.target_os in (None, "unknown") or not lib.functions:
            return None
        return "%s:%s" % (lib.target_os, lib.os_version)


def writable_modules(path, target):
    """path's modules the writer takes for target, each tried alone:
    [(name, bytes)]. A module it refuses must be one `mtlbx pack` refuses
    for the same reason."""
    out = []
    with mtlbx.open(path) as f:
        for k, fn in enumerate(f.functions):
            with mtlbx.Writer(target=target) as w:
                try:
                    w.add_function(fn.module)
                except mtlbx.Error as e:
                    reason = str(e).split(": ", 1)[1]
                    air = os.path.join(WORK, "refused%d.air" % k)
                    with open(air, "wb") as a:
                        a.write(fn.module)
                    p = program("pack", air, "--target", target, "-o", os.path.join(WORK, "never.metallib"),
                                check=False)
                    assert p.returncode == 2 and reason in p.stderr.decode(), (fn.name, str(e), p.stderr)
                    assert not os.path.exists(os.path.join(WORK, "never.metallib"))
                    continue
            out.append((fn.name, fn.module))
    return out


def check_writer(path, target, modules):
    """A library of the modules through mtlbx.Writer is the library `mtlbx
    pack MODULE.air... --target` writes, byte for byte, and reads back with
    the same functions, values and modules as path's."""
    airs = []
    for k, (name, module) in enumerate(modules):
        p = os.path.join(WORK, "m%05d.air" % k)
        with open(p, "wb") as out:
            out.write(module)
        airs.append(p)
    packed = os.path.join(WORK, "packed.metallib")
    program("pack", "--target", target, "-o", packed, "--force", *airs)
    with open(packed, "rb") as raw:
        want = raw.read()
    with mtlbx.Writer(target=target) as w:
        for _, module in modules:
            w.add_function(module)
        data = w.to_bytes()
        written = os.path.join(WORK, "written.metallib")
        w.write(written)
    assert data == want
    with open(written, "rb") as raw:
        assert raw.read() == want
    names = {name for name, _ in modules}
    with mtlbx.open(path) as f, mtlbx.open(memoryview(data)) as g:
        assert [(fn.name, fn.module) for fn in g.functions] == modules
        assert g.verify() == [] and g.diagnostics == []
        a, b = f.libraries[0], g.libraries[0]
        for key in ("container_version", "platform", "file_type", "target_os", "os_version"):
            assert getattr(a, key) == getattr(b, key), key
        for fn in f.functions:
            if fn.name in names:
                gn = g.function(fn.name)
                assert (fn.type, fn.air_version, fn.msl_version, fn.hash) == \
                    (gn.type, gn.air_version, gn.msl_version, gn.hash)
    for p in airs:
        os.unlink(p)


def test_writer_writes_what_pack_writes():
    target = own_target(SAMPLE)
    assert target == "macOS:15.0.0"
    modules = writable_modules(SAMPLE, target)
    assert len(modules) >= 3
    check_writer(SAMPLE, target, modules)


@pytest.mark.skipif(not CORPUS_FILES, reason="no corpus ($MTLBX_CORPUS)")
def test_writer_on_the_corpus():
    """Every Apple-built executable library of the corpus: its modules
    packed for its own target through mtlbx.Writer (the writer must take
    each)."""
    n = 0
    for path in CORPUS_FILES:
        if not metallib(path):
            continue
        target = own_target(path)
        if target is None:
            continue
        with mtlbx.open(path) as f:
            modules = [(fn.name, fn.module) for fn in f.functions]
        check_writer(path, target, modules)
        n += 1
    assert n >= 20


def test_writer_refuses_and_writes_nothing():
    name, module = writable_modules(SAMPLE, "macOS:15.0")[0]
    with pytest.raises(mtlbx.Error):
        mtlbx.Writer(target="amigaOS:1.0")
    w = mtlbx.Writer()
    with pytest.raises(mtlbx.Error):
        w.add_function(b"not a module at all")
    w.add_function(module)
    with pytest.raises(mtlbx.Error):
        w.add_function(module)              # two functions of one name
    target = os.path.join(WORK, "never.metallib")
    with pytest.raises(mtlbx.Error):
        w.write(target)                     # no target yet
    assert not os.path.exists(target)
    with pytest.raises(mtlbx.Error):
        w.target("macOS:11.0")              # the module needs macOS 15
    w.target("macOS:15.0")
    w.set("name", "@rpath/one.metallib")
    with pytest.raises(KeyError):
        w.set("colour", "blue")
    with pytest.raises(mtlbx.Error):
        w.set("platform", "Amiga")
    with pytest.raises(mtlbx.Error):
        w.write(os.path.join(WORK, "no-such-folder", "x.metallib"))
    assert not os.path.exists(os.path.join(WORK, "no-such-folder"))
    w.add_source("one.metal", b"kernel void k() {}\n")
    one = os.path.join(WORK, "one.metallib")
    w.write(one)
    with open(one, "rb") as f:
        assert f.read() == w.to_bytes()
    assert not [n for n in os.listdir(WORK) if n.startswith(".mtlbx-tmp")]
    with mtlbx.open(memoryview(w.to_bytes())) as g:
        assert [fn.name for fn in g.functions] == [name]
        assert g.sources == {"one.metal": b"kernel void k() {}\n"}
        assert g.json()["libraries"][0]["dynamic_header"]["name"] == "@rpath/one.metallib"
    w.close()
    with pytest.raises(ValueError):
        w.to_bytes()


# ---------------------------------------------------------------- hostile --

def hostile_files():
    """Files made to hurt a parser: the fuzzers' seeds and regressions, the
    runaway libraries of issue 23, and every cut and a few hundred seeded
    mutations of the sample and two fixtures."""
    out = os.path.join(WORK, "hostile")
    os.makedirs(out, exist_ok=True)
    files = sorted(glob.glob(os.path.join(SRC, "tests", "fuzz", "seeds", "parser", "*")))
    files += sorted(glob.glob(os.path.join(SRC, "tests", "fuzz", "regress", "parser", "*")))
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "hostile_mkrunaway.py"), out, "300"], check=True,
                   capture_output=True)
    files += sorted(glob.glob(os.path.join(out, "*.metallib")))
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "hostile_mklib.py"), os.path.join(out, "many.metallib"),
                    "20000"], check=True)
    files.append(os.path.join(out, "many.metallib"))
    import random
    rng = random.Random(32)
    for base in (SAMPLE, os.path.join(SRC, "tests", "fixtures", "fat.metallib"),
                 os.path.join(SRC, "tests", "fixtures", "hsrc-v125.metallib")):
        with open(base, "rb") as f:
            data = f.read()
        stem = os.path.basename(base)
        cuts = sorted({0, 3, 4, 87, 88, 89} | {rng.randrange(len(data)) for _ in range(40)})
        for n in cuts:
            p = os.path.join(out, "%s.cut%d" % (stem, n))
            with open(p, "wb") as f:
                f.write(data[:n])
            files.append(p)
        for k in range(80):
            b = bytearray(data)
            for _ in range(rng.choice((1, 2, 8, 64))):
                i = rng.randrange(len(b))
                b[i] = rng.choice((0, 0xFF, rng.randrange(256), b[i] ^ (1 << rng.randrange(8))))
            p = os.path.join(out, "%s.mut%d" % (stem, k))
            with open(p, "wb") as f:
                f.write(b)
            files.append(p)
    return files


def run_worker(args, n):
    """hostile_worker.py with args, over n files, in a process of its own
    (a crash is its exit status, not pytest's) within bounds of time and
    memory."""
    worker = os.path.join(SRC, "tests", "api", "hostile_worker.py")
    asan = bool(os.environ.get("MTLBX_TEST_ASAN"))
    # Bounds: generous for a loaded 2-core CI machine running ASan; what
    # they catch is a runaway, many times over them.
    seconds = 600 if asan else 180
    limit_mb = 1500

    def limits():
        if not asan:  # ASan reserves terabytes of address space
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, worker, *args], capture_output=True, timeout=seconds,
                       preexec_fn=limits)
    took = time.monotonic() - t0
    out = p.stdout.decode("utf-8", "replace")
    last = out.splitlines()[-1] if out else "(nothing)"
    assert p.returncode == 0, "the worker ended with %d after %s\n%s" % (
        p.returncode, last, p.stderr.decode("utf-8", "replace")[-2000:])
    assert "done %d" % n in out
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if not asan:
        assert peak_mb < limit_mb
    print("%d hostile files in %.1f s, worker peak %d MB" % (n, took, peak_mb))


def test_hostile_files_end_in_an_answer_or_an_exception():
    files = hostile_files()
    listing = os.path.join(WORK, "hostile.list")
    with open(listing, "w") as f:
        f.write("\n".join(files) + "\n")
    run_worker([listing], len(files))


def test_hostile_modules_end_in_a_library_or_mtlbx_error():
    """mtlbx.Writer.add_function on every cut and a few hundred seeded
    mutations of two of the sample's modules, and on files that are not
    modules at all: a library that reads back, or mtlbx.Error with a
    reason."""
    import random
    rng = random.Random(33)
    out = os.path.join(WORK, "hostile-air")
    os.makedirs(out, exist_ok=True)
    files = [os.path.join(SRC, "README.md"), SAMPLE]
    for k, (name, module) in enumerate(writable_modules(SAMPLE, "macOS:15.0")[:2]):
        variants = [module[:n] for n in range(0, len(module), 7)]
        for _ in range(150):
            b = bytearray(module)
            for _ in range(rng.choice((1, 2, 8))):
                i = rng.randrange(len(b))
                b[i] = rng.choice((0, 0xFF, rng.randrange(256), b[i] ^ (1 << rng.randrange(8))))
            variants.append(bytes(b))
        for v, data in enumerate(variants):
            p = os.path.join(out, "%d.%d.air" % (k, v))
            with open(p, "wb") as f:
                f.write(data)
            files.append(p)
    listing = os.path.join(WORK, "hostile-air.list")
    with open(listing, "w") as f:
        f.write("\n".join(files) + "\n")
    run_worker(["--air", "macOS:15.0", listing], len(files))


def test_close_while_threads_read():
    """close() while other threads read modules, sources, columns and a
    writer's bytes: each read ends in its answer or ValueError, the
    process never crashes (issue 40, cause 9)."""
    path = os.path.join(SRC, "tests", "fixtures", "hsrc-v125.metallib")
    run_worker(["--close-race", path, "60"], 1)


def test_a_file_that_shrinks_raises():
    """A file truncated under an open handle: every read raises
    mtlbx.Error naming it, never SIGBUS (issue 40, cause 10)."""
    run_worker(["--shrink", SAMPLE, os.path.join(WORK, "shrinking.metallib")], 1)


# ------------------------------------------------- Python, as users expect --

def test_nul_in_any_argument_is_a_value_error(tmp_path):
    """A C string ends at its first NUL: every argument with one raises
    ValueError as Python's open() does, and nothing is opened or written
    under the truncated name (issue 40, cause 8)."""
    import pathlib
    a = tmp_path / "a.metallib"
    with open(SAMPLE, "rb") as src:
        a.write_bytes(src.read())
    for bad in (str(a) + "\0.txt", os.fsencode(str(a)) + b"\0.txt", pathlib.Path(str(a) + "\0.txt")):
        with pytest.raises(ValueError) as e:
            mtlbx.open(bad)
        assert not isinstance(e.value, mtlbx.Error) and "null" in str(e.value)
    with mtlbx.open(a) as f:
        for call in (lambda: f.function("compute_main\0evil"), lambda: f.check_os("macOS:14.0\0x")):
            with pytest.raises(ValueError):
                call()
        with pytest.raises(KeyError):
            f["compute_main\0evil"]
        assert "compute_main\0evil" not in f and "compute_main" in f
    module = writable_modules(SAMPLE, "macOS:15.0")[0][1]
    w = mtlbx.Writer()
    for call in (lambda: w.target("macOS:15.0\0junk"), lambda: w.set("name", "x\0y"),
                 lambda: w.add_source("a.metal\0b", b""), lambda: mtlbx.Writer(target="macOS:15.0\0")):
        with pytest.raises(ValueError):
            call()
    w.target("macOS:15.0")
    w.add_function(module)
    with pytest.raises(ValueError):
        w.write(str(tmp_path / "out.metallib") + "\0.txt")
    assert not (tmp_path / "out.metallib").exists()
    with pytest.raises(ValueError):
        mtlbx.Writer.from_library(str(a), functions=["compute\0"])
    with pytest.raises(ValueError):
        mtlbx.Writer.from_library(str(a) + "\0", functions=["compute_main"])


def test_files_and_libraries_are_containers():
    for path in FIXTURES:
        want = dump(path)
        with mtlbx.open(path) as f:
            names = [fn["name"] for lib in want["libraries"] for fn in lib["functions"]]
            assert len(f) == len(names) == len(f.functions)
            assert list(f) == f.functions
            for lib, w in zip(f.libraries, want["libraries"]):
                assert len(lib) == len(w["functions"]) and list(lib) == lib.functions
                for fn in lib:
                    if "\\x" in fn.name:
                        continue
                    assert fn.name in lib and fn.name in f and fn in f and fn in lib
                    assert lib[fn.name].name == fn.name and f[fn.name].name == fn.name
            with pytest.raises(KeyError) as e:
                f["no such function, surely"]
            assert "no such function, surely" in str(e.value) and path in str(e.value)
            with pytest.raises(KeyError):
                f.libraries[0]["no such function, surely"]
            assert "no such function, surely" not in f
            assert sorted(reversed(f.functions)) == f.functions
            fn = f.functions[0] if f.functions else None
            if fn is not None:
                assert not isinstance(fn, tuple)
                assert repr(fn.name) in repr(fn) and str(fn.type or "no type") in repr(fn)
                with pytest.raises(TypeError):
                    mtlbx.Function(fn.library, 0)
        assert "closed" in repr(f) and os.path.basename(path) in repr(f)


def test_every_way_to_open_reads_the_same_library(tmp_path):
    import io
    import pathlib
    with open(SAMPLE, "rb") as raw:
        data = raw.read()
    want = dump(SAMPLE)
    sources = [SAMPLE, os.fsencode(SAMPLE), pathlib.Path(SAMPLE), memoryview(data), bytearray(data),
               io.BytesIO(data)]
    with open(SAMPLE, "rb") as fileobj:
        sources.append(fileobj)
        for source in sources:
            with mtlbx.open(source) as f:
                doc = f.json()
                if doc["path"] != SAMPLE:
                    assert doc["path"] == "<memory>"
                    doc["path"] = SAMPLE
                assert doc == want, type(source)
                assert [fn.module for fn in f] == [fn.module for fn in mtlbx.open(SAMPLE)]
    with pytest.raises(TypeError):
        mtlbx.open(12.5)
    with pytest.raises(FileNotFoundError):
        mtlbx.open(b"/no/such/file.metallib")
    with open(os.path.join(SRC, "README.md"), "rb") as readme:
        with pytest.raises(mtlbx.Error) as e:
            mtlbx.open(readme)
    assert str(e.value).startswith(os.path.join(SRC, "README.md")) and e.value.filename


def test_check_os_returns_its_own_findings_only():
    with mtlbx.open(SAMPLE) as f:
        before = f.diagnostics
        first = f.check_os("macOS:14.0")
        assert first and f.check_os("macOS:14.0") == first
        assert f.check_os("macOS:15.0") == []
        assert f.diagnostics == before


def test_columns_are_the_listing_values():
    for path in FIXTURES:
        want = dump(path)
        with mtlbx.open(path) as f:
            cols = f.columns()
        assert list(cols) == ["library", "name", "type", "air_version", "msl_version", "module_offset",
                              "module_size", "hash"]
        rows = [(l, fn) for l, lib in enumerate(want["libraries"]) for fn in lib["functions"]]
        assert all(len(v) == len(rows) for v in cols.values())
        for k, (l, fn) in enumerate(rows):
            assert cols["library"][k] == l
            if "\\x" not in fn["name"]:
                assert cols["name"][k] == fn["name"]
            assert (cols["type"][k], cols["air_version"][k], cols["msl_version"][k], cols["hash"][k]) == \
                (fn["type"], fn["air_version"], fn["language_version"], fn["hash"])
            module = fn["module"] or {"offset": None, "size": None}
            assert (cols["module_offset"][k], cols["module_size"][k]) == (module["offset"], module["size"])


def test_reprs_types_and_help():
    text = pydoc.render_doc(mtlbx, renderer=pydoc.plaintext)
    assert "PACKAGE CONTENTS" not in text and "SUBMODULES" not in text and "_native" not in text
    assert [n for n in dir(mtlbx) if not n.startswith("__")] == sorted(
        n for n in mtlbx.__all__ if not n.startswith("__"))
    assert os.path.isfile(os.path.join(os.path.dirname(mtlbx.__file__), "py.typed"))
    import typing
    assert typing.get_type_hints(mtlbx.File.columns)["return"] is not None
    assert typing.get_type_hints(mtlbx.open)
    w = mtlbx.Writer(target="macOS:15.0")
    assert "macOS:15.0" in repr(w) and "0 functions" in repr(w)
    w.add_source("a.metal", b"x")
    assert "1 source" in repr(w)
    w.close()
    assert "closed" in repr(w)


def test_errors_name_their_file():
    with mtlbx.open(SAMPLE) as f:
        fns = f.functions
        with pytest.raises(mtlbx.Error) as e:
            f.check_os("amigaOS:1.0")
        assert str(e.value).startswith(SAMPLE) and e.value.filename == SAMPLE
    with pytest.raises(ValueError) as e:
        fns[0].module
    assert SAMPLE in str(e.value)
    w = mtlbx.Writer(target="macOS:15.0")
    target = os.path.join(WORK, "no-such-folder", "x.metallib")
    w.add_function(writable_modules(SAMPLE, "macOS:15.0")[0][1])
    with pytest.raises(mtlbx.Error) as e:
        w.write(target)
    assert target in str(e.value)


def pack_from_bytes(path, names):
    out = os.path.join(WORK, "from.metallib")
    args = ["pack", "--from", path, "-o", out, "--force"]
    for n in names:
        args += ["-f", n]
    p = program(*args, check=False)
    if p.returncode != 0:
        return None
    with open(out, "rb") as f:
        return f.read()


def check_from_library(path, names):
    want = pack_from_bytes(path, names)
    try:
        w = mtlbx.Writer.from_library(path, functions=names)
    except (KeyError, mtlbx.Error):
        assert want is None or program("pack", "--from", path, "-f", names[0], "-o", os.devnull,
                                       check=False).returncode != 0
        return False
    with w:
        data = w.to_bytes()
        assert data == want
        out = os.path.join(WORK, "from-python.metallib")
        w.write(out)
        with open(out, "rb") as f:
            assert f.read() == want
    return True


def test_writer_errors_quote_no_control_bytes():
    # Issue 40: a message quoting a value the caller gave (a set value, a
    # source member's name, a target) carries no byte that acts on a
    # terminal or starts a CI log line: \x1b, \x07 and newlines are \xNN.
    w = mtlbx.Writer()
    hostile = "\x1b]0;owned\x07\n::error::x"
    for call in (lambda: w.set("platform", hostile), lambda: w.set("uuid", hostile),
                 lambda: w.set("os_version", hostile), lambda: w.target(hostile)):
        with pytest.raises(mtlbx.Error) as e:
            call()
        text = str(e.value)
        assert not any(ord(c) < 0x20 or ord(c) == 0x7f for c in text), repr(text)


def test_writer_from_library_writes_pack_from_bytes():
    assert check_from_library(SAMPLE, ["compute_main"])
    assert check_from_library(SAMPLE, ["*_main", "frag"])
    fat = os.path.join(SRC, "tests", "fixtures", "fat.metallib")
    with mtlbx.open(fat) as f:
        first = f.functions[0].name
    assert check_from_library(fat, [first])
    with pytest.raises(KeyError):
        mtlbx.Writer.from_library(SAMPLE, functions=["no_such_function_at_all"])
    w = mtlbx.Writer.from_library(SAMPLE, functions="compute_main")
    with pytest.raises(mtlbx.Error):
        w.target("macOS:15.0")          # a copy takes nothing more
    w.close()


@pytest.mark.skipif(not CORPUS_FILES, reason="no corpus ($MTLBX_CORPUS)")
def test_writer_from_library_on_the_corpus():
    n = 0
    for path in CORPUS_FILES:
        if not metallib(path):
            continue
        with mtlbx.open(path) as f:
            names = [fn.name for fn in f.functions]
        if not names or any("\\" in x or not x.isprintable() for x in names[:2]):
            continue
        n += check_from_library(path, names[:2])
    assert n >= 20


def test_function_codes_give_the_column():
    """mtlbx_function_codes (what File.columns reads the type and versions
    with) against the column itself, for every string key that has codes,
    and more distinct values than fit: the count says so."""
    import ctypes
    import mtlbx._native as n
    many = os.path.join(WORK, "codes-many.metallib")
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "hostile_mklib.py"), many, "600"], check=True)
    for path in FIXTURES + [many]:
        with mtlbx.open(path) as f:
            h = f._h
            for lib in f.libraries:
                count = len(lib)
                for key in (n.NAME, n.TYPE, n.AIR_VERSION, n.MSL_VERSION, n.HASH):
                    size = ctypes.c_size_t()
                    p = n.lib.mtlbx_function_column(h.ptr, lib.index, key, ctypes.byref(size))
                    text = ctypes.string_at(p, size.value - 1).decode("utf-8", "surrogateescape") if count else ""
                    want = text.split("\0") if count else []
                    for room in (256, 3):
                        codes = ctypes.create_string_buffer(max(count, 1))
                        values = (ctypes.c_void_p * 256)()
                        got = n.lib.mtlbx_function_codes(h.ptr, lib.index, key, codes, values, room)
                        distinct = len(set(want))
                        assert got == (distinct if distinct <= room else room + 1)
                        if got <= room:
                            table = [ctypes.string_at(v).decode("utf-8", "surrogateescape") if v else ""
                                     for v in values[:got]]
                            assert [table[c] for c in codes.raw[:count]] == want
                assert n.lib.mtlbx_function_codes(h.ptr, lib.index, n.DECLARATION, None, None, 0) == -1
