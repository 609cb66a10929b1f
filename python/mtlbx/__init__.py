"""Read Apple .metallib files (compiled Metal shader libraries).

The Python face of libmtlbx, the parser of the mtlbx program, through
ctypes (no compiler is needed). Every value is the one `mtlbx dump --json`
prints for the same file.

    import mtlbx
    with mtlbx.open("default.metallib") as f:       # a path, or the bytes of a file
        lib = f.libraries[0]                          # one library; a fat file has one a slice
        print(lib.container_version, lib.target_os, lib.os_version, lib.requires)
        for fn in f.functions:                        # every library's functions, in order
            print(fn.name, fn.type, fn.msl_version, fn.hash, fn.requires)
        f.function("gemm_f32").declaration            # by exact name (KeyError when none)
        f.check_os("macOS:14.0")                      # [] when it loads there

    w = mtlbx.Writer(target="macOS:14.0")             # a new library from AIR modules
    w.add_function(open("a.air", "rb").read())
    w.write("out.metallib")                           # or w.to_bytes()

A CI check that every kernel loads on macOS 14:

    import sys, mtlbx
    with mtlbx.open(sys.argv[1]) as f:
        findings = f.check_os("macOS:14.0")
    for severity, offset, message in findings:
        print(f"{sys.argv[1]}:{offset}: {severity}: {message}")
    sys.exit(1 if findings else 0)

Failures raise mtlbx.Error (a ValueError) with .offset and .errno; a
missing file raises FileNotFoundError (and other system failures the
matching OSError), as Python users expect. A damaged file still opens:
what was found wrong is in File.diagnostics.

Names are given as stored: a byte that is not UTF-8 becomes a lone
surrogate (the 'surrogateescape' error handler), so File.function(name)
finds it again; the JSON document spells such a byte as the text \\xNN.
"""

import errno as _errno
import fnmatch as _fnmatch
import gc as _gc
import json as _json
import os as _os
import threading as _threading
import ctypes as _ctypes
from collections import namedtuple as _namedtuple
from itertools import repeat as _repeat

from . import _native as _n

__all__ = ["open", "File", "Library", "Function", "Writer", "Error", "version", "__version__"]

version = _n.lib.mtlbx_version_string().decode()
"""The running libmtlbx's version, "mtlbx a.b.c"."""
__version__ = version.split()[-1]


class Error(ValueError):
    """A file libmtlbx cannot read, or a request it cannot answer.

    .offset is the byte offset the problem is at (None when there is
    none); .errno the system's errno when the system reported it (0 for a
    problem of the file's format).
    """

    def __init__(self, message, offset=None, errno=0):
        super().__init__(message)
        self.offset = offset
        self.errno = errno


def _text(b):
    return None if b is None else b.decode("utf-8", "surrogateescape")


def _closed():
    return ValueError("mtlbx: the file is closed")


class _Handle:
    """One libmtlbx handle and the lock that keeps it to one thread at a
    time (ctypes lets go of the GIL during a call)."""

    __slots__ = ("ptr", "lock", "buf")

    def __init__(self):
        self.ptr = _n.lib.mtlbx_new()
        if not self.ptr:
            raise MemoryError("mtlbx: out of memory")
        self.lock = _threading.Lock()
        self.buf = None

    def error(self, filename=None):
        """The handle's last failure as the exception to raise."""
        code = _n.lib.mtlbx_errno(self.ptr)
        message = _text(_n.lib.mtlbx_error_string(self.ptr)) or "mtlbx: failed"
        offset = _n.lib.mtlbx_error_offset(self.ptr)
        if code == _errno.ENOMEM:
            return MemoryError(message)
        if code and code != _errno.EINVAL and filename is not None:
            return OSError(code, _os.strerror(code), filename)
        return Error(message, None if offset < 0 else offset, code)

    def free(self):
        if self.ptr:
            _n.lib.mtlbx_free(self.ptr)
            self.ptr = None


def open(source):
    """Open a metallib: a path (str or os.PathLike) or the file's bytes.

    Returns a File, which is also a context manager (closed at the end of
    the with block). Raises FileNotFoundError (or another OSError) when the
    path cannot be read, mtlbx.Error when it is not a metallib.
    """
    return File(source)


class File:
    """An open metallib: plain (one library) or fat (one library a slice).

    Attributes and methods read the file lazily; values are read from the
    library in bulk the first time a function's value is asked for.
    """

    def __init__(self, source):
        h = _Handle()
        if isinstance(source, (bytes, bytearray, memoryview)):
            h.buf = bytes(source)
            name = None
            rc = _n.lib.mtlbx_open_memory(h.ptr, h.buf, len(h.buf))
        else:
            name = _os.fspath(source)
            rc = _n.lib.mtlbx_open_filename(h.ptr, _os.fsencode(name))
        if rc == _n.FATAL:
            e = h.error(filename=name)
            h.free()
            raise e
        self._h = h
        self.path = name
        """The path given, or None for bytes."""
        self.libraries = [Library(self, i) for i in range(_n.lib.mtlbx_library_count(h.ptr))]
        """The libraries: one for a plain file, one per slice of a fat file."""

    # -- life -----------------------------------------------------------------

    def close(self):
        """Free what libmtlbx holds for the file. Values read so far stay."""
        self._h.free()

    @property
    def closed(self):
        return self._h.ptr is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None:
            h.free()

    def __repr__(self):
        return "<mtlbx.File %r: %d %s>" % (self.path if self.path is not None else "<bytes>", len(self.libraries),
                                            "library" if len(self.libraries) == 1 else "libraries")

    def _call(self, fn, *args):
        """fn(handle, *args) on the one thread the handle allows."""
        with self._h.lock:
            if self._h.ptr is None:
                raise _closed()
            return fn(self._h.ptr, *args)

    def _raise(self):
        with self._h.lock:
            raise self._h.error()

    # -- functions --------------------------------------------------------------

    @property
    def functions(self):
        """Every library's functions, in order (a list of Function)."""
        out = []
        for lib in self.libraries:
            out.extend(lib.functions)
        return out

    def function(self, name):
        """The first function named exactly `name`; KeyError when none."""
        b = name.encode("utf-8", "surrogateescape") if isinstance(name, str) else bytes(name)
        for lib in self.libraries:
            i = self._call(_n.lib.mtlbx_function_find, lib.index, b)
            if i >= 0:
                return lib.functions[i]
        raise KeyError(name)

    def find(self, pattern):
        """Functions by name: every one named exactly `pattern`; else, when
        it holds * ? or [, those the shell glob matches; else those whose
        name begins with it. A list, in file order ([] when none)."""
        fns = self.functions
        hits = [fn for fn in fns if fn.name == pattern]
        if hits:
            return hits
        if any(c in pattern for c in "*?["):
            return [fn for fn in fns if _fnmatch.fnmatchcase(fn.name, pattern)]
        return [fn for fn in fns if fn.name.startswith(pattern)]

    # -- the rest of the file ---------------------------------------------------

    @property
    def sources(self):
        """The embedded source files, {member name: bytes}, every library's
        (a name stored twice keeps its first member; Library.source_members
        lists them all)."""
        out = {}
        for lib in self.libraries:
            for name, data in lib.source_members:
                if data is not None and name not in out:
                    out[name] = data
        return out

    @property
    def diagnostics(self):
        """What was found wrong so far, in the order found: parsing,
        verify() and check_os(). A list of (severity, offset, message),
        severity "error" or "warning" as in the JSON document."""
        with self._h.lock:
            if self._h.ptr is None:
                raise _closed()
            n = _n.lib.mtlbx_diag_count(self._h.ptr)
            return [self._diag(i) for i in range(max(n, 0))]

    def _diag(self, i):
        sev = _ctypes.c_int()
        off = _ctypes.c_int64()
        msg = _n.lib.mtlbx_diag(self._h.ptr, i, _ctypes.byref(sev), _ctypes.byref(off))
        return ("error" if sev.value == 2 else "warning", off.value, _text(msg))

    def verify(self):
        """Hash every module (on every CPU) and return the functions whose
        module does not match its HASH ([] when all do). Afterwards each
        Function.hash_ok is known without reading the module again."""
        rc = self._call(_n.lib.mtlbx_verify)
        if rc in (_n.FATAL, _n.FAILED):
            self._raise()
        for lib in self.libraries:
            lib._verified = True
        return [fn for fn in self.functions if not fn.hash_ok]

    def check_os(self, os):
        """Would the file load on `os`, "PLATFORM:VERSION" ("macOS:14.0",
        "iOS:17.0"; macOS, iOS, tvOS, visionOS, macCatalyst, watchOS)?
        [] when every library loads there, else the findings that say why,
        as `mtlbx check --os` words them: (severity, offset, message).
        Raises mtlbx.Error when `os` is not understood."""
        with self._h.lock:
            if self._h.ptr is None:
                raise _closed()
            before = _n.lib.mtlbx_diag_count(self._h.ptr)
            rc = _n.lib.mtlbx_check_os(self._h.ptr, os.encode())
            if rc in (_n.FAILED, _n.FATAL):
                raise self._h.error()
            after = _n.lib.mtlbx_diag_count(self._h.ptr)
            return [self._diag(i) for i in range(before, after)]

    def json(self, interfaces=False, layout=False):
        """The `mtlbx dump --json` document (CONTRACT.md) as a dict, with
        every function's "interface" when `interfaces`, and the byte
        "layout" when `layout`."""
        flags = (_n.JSON_INTERFACES if interfaces else 0) | (_n.JSON_LAYOUT if layout else 0)
        text = self._call(_n.lib.mtlbx_json, flags)
        if text is None:
            self._raise()
        return _json.loads(text)


def _library_value(key, doc):
    def get(self):
        if key not in self._values:
            self._values[key] = _text(self._file._call(_n.lib.mtlbx_library_string, self.index, key))
        return self._values[key]
    return property(get, doc=doc)


class Library:
    """One library of the file (the file itself, or one slice of a fat
    file): its header's values and its functions."""

    def __init__(self, file, index):
        self._file = file
        self.index = index
        """Its place among the file's libraries."""
        self._verified = False
        self._strings = {}
        self._ints = {}
        self._functions = None
        self._values = {}
        call = file._call
        self.offset = call(_n.lib.mtlbx_library_int, index, _n.OFFSET)
        """File offset of its MTLB header."""
        self.size = call(_n.lib.mtlbx_library_int, index, _n.SIZE)
        """Its bytes in the file (the slice's size in a fat file)."""
        self._count = call(_n.lib.mtlbx_function_count, index)

    container_version = _library_value(_n.CONTAINER_VERSION, 'Its container version, "1.2.8".')
    platform = _library_value(_n.PLATFORM, '"macOS" or "iOS" (bit 15 of the version word).')
    file_type = _library_value(_n.FILE_TYPE, '"executable", "coreimage", "dynamic", "symbol-companion", ...')
    target_os = _library_value(_n.TARGET_OS, 'The deployment target\'s OS, "macOS", "iOS", ..., "unknown".')
    os_version = _library_value(_n.OS_VERSION, 'The deployment target\'s version, "14.0.0".')
    uuid = _library_value(_n.UUID, "Its UUID as 32 lower-case hex digits (None without one).")
    requires = _library_value(_n.REQUIRES, 'The first OS version that loads it, "macOS 26.0" (None when not known; '
                                           'reads every function\'s versions).')

    def __repr__(self):
        return "<mtlbx.Library %d: %s %s %s, %d functions>" % (self.index, self.container_version, self.target_os,
                                                                self.os_version, self._count)

    @property
    def functions(self):
        """Its functions, in function-list order (a list of Function)."""
        if self._functions is None:
            n = self._count
            offsets = self._int_column(_n.MODULE_OFFSET)
            sizes = self._int_column(_n.MODULE_SIZE)
            if n and min(offsets) < 0:
                offsets = [None if v < 0 else v for v in offsets]
                sizes = [None if v < 0 else v for v in sizes]
            columns = [self._column(k) for k in (_n.NAME, _n.TYPE, _n.AIR_VERSION, _n.MSL_VERSION, _n.HASH)]
            # Hundreds of thousands of new tuples would set the cycle
            # collector off many times over; none of them is garbage.
            was = _gc.isenabled()
            _gc.disable()
            try:
                self._functions = list(map(Function._make, zip(_repeat(self, n), range(n), *columns, offsets, sizes)))
            finally:
                if was:
                    _gc.enable()
        return self._functions

    @property
    def source_members(self):
        """Every member of its embedded source archives, in order: a list
        of (name, bytes), bytes None for what is not a regular file."""
        out = []
        call = self._file._call
        n = call(_n.lib.mtlbx_source_count, self.index)
        if n < 0:
            self._file._raise()
        for i in range(n):
            name = _text(call(_n.lib.mtlbx_source_name, self.index, i))
            size = _ctypes.c_size_t()
            p = call(_n.lib.mtlbx_source_data, self.index, i, _ctypes.byref(size))
            out.append((name, _ctypes.string_at(p, size.value) if p else None))
        return out

    # Columns: one key's values for every function, read in one call
    # (a call per function costs about a microsecond of ctypes each).
    def _column(self, key):
        col = self._strings.get(key)
        if col is None:
            size = _ctypes.c_size_t()
            p = self._file._call(_n.lib.mtlbx_function_column, self.index, key, _ctypes.byref(size))
            if not p:
                self._file._raise()
            if self._count == 0:
                col = []
            else:
                text = _ctypes.string_at(p, size.value - 1).decode("utf-8", "surrogateescape")
                col = text.split("\0")
                if key != _n.NAME and "" in col:
                    col = [v or None for v in col]
            self._strings[key] = col
        return col

    def _int_column(self, key):
        col = self._ints.get(key)
        if col is None:
            arr = (_ctypes.c_int64 * max(self._count, 1))()
            if self._file._call(_n.lib.mtlbx_function_ints, self.index, 0, self._count, key, arr) < 0:
                self._file._raise()
            col = arr[:self._count]
            self._ints[key] = col
        return col


_FunctionValues = _namedtuple("_FunctionValues", "library index name type air_version msl_version hash "
                                                 "module_offset module_size")
for _field, _doc in (("library", "The Library it belongs to."),
                     ("index", "Its place in the library's function list."),
                     ("name", "Its NAME, as stored."),
                     ("type", '"kernel", "vertex", "fragment", ... (None without a TYPE tag).'),
                     ("air_version", 'Its AIR version, "2.6" (None without VERS).'),
                     ("msl_version", 'Its MSL version, "3.1": the JSON\'s "language_version" (None without VERS).'),
                     ("hash", "Its HASH: 64 lower-case hex digits (None without one)."),
                     ("module_offset", "File offset of its module, the bytes HASH covers (None when it has none "
                                       "inside the file)."),
                     ("module_size", "Length of its module (None when it has none inside the file).")):
    getattr(_FunctionValues, _field).__doc__ = _doc
del _field, _doc


class Function(_FunctionValues):
    """One function of a library: its values from the function list, read
    for all the library's functions at once, and what reading its module
    gives (module, hash_ok, declaration, interface, requires).

    .library   the Library it belongs to
    .index     its place in the library's function list
    .name      its NAME, as stored
    .type      "kernel", "vertex", "fragment", ... (None without a TYPE tag)
    .air_version, .msl_version   "2.6", "3.1" (None without VERS; MSL is
               the JSON's "language_version")
    .hash      its HASH, 64 lower-case hex digits (None without one)
    .module_offset, .module_size   where its module lies (None when it has
               none inside the file)
    These are plain values; the properties below read the file when asked.
    """

    __slots__ = ()
    _make = classmethod(tuple.__new__)

    def __new__(cls, *args):
        raise TypeError("mtlbx.Function objects come from File.functions and Library.functions")

    def __repr__(self):
        return "<mtlbx.Function %s %r>" % (self.type, self.name)

    # A function is itself, not its values: two functions of two files with
    # the same values are two functions.
    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return id(self)

    def _call(self, fn, *args):
        lib = self[0]
        return lib._file._call(fn, lib.index, self[1], *args)

    @property
    def requires(self):
        """The first OS version that loads it, "macOS 26.0" (None when that
        is not known: the JSON's "requires" says why)."""
        return self[0]._column(_n.REQUIRES)[self[1]]

    @property
    def module(self):
        """Its module's bytes, exactly what HASH covers (None when it has
        no module inside the file)."""
        size = _ctypes.c_size_t()
        p = self._call(_n.lib.mtlbx_function_module, _ctypes.byref(size))
        return _ctypes.string_at(p, size.value) if p else None

    @property
    def hash_ok(self):
        """True when the module's SHA-256 is its HASH. Reads the module,
        unless File.verify() has hashed them all."""
        lib = self[0]
        if lib._verified:
            return lib._int_column(_n.HASH_OK)[self[1]] == 1
        return self._call(_n.lib.mtlbx_function_int, _n.HASH_OK) == 1

    @property
    def declaration(self):
        """Its interface as an MSL declaration, the text `mtlbx sig` prints.
        Reads the module; raises mtlbx.Error when it does not decode."""
        s = self._call(_n.lib.mtlbx_function_string, _n.DECLARATION)
        if s is None:
            self[0]._file._raise()
        return _text(s)

    @property
    def interface(self):
        """Its "interface" (CONTRACT.md FUNCTION_INTERFACE) as a dict, as
        `dump --json --interfaces` prints it; None when the module does
        not decode. Reads the module."""
        s = self._call(_n.lib.mtlbx_function_interface_json)
        if s is None:
            self[0]._file._raise()
        return _json.loads(s)


# Keys of Writer.set, as dump --json names the values.
_WRITER_KEYS = {"container_version": _n.CONTAINER_VERSION, "platform": _n.PLATFORM, "file_type": _n.FILE_TYPE,
                "target_os": _n.TARGET_OS, "os_version": _n.OS_VERSION, "uuid": _n.UUID, "name": _n.NAME}


class Writer:
    """A new metallib from AIR modules, as Apple's standalone `metallib`
    tool lays one out for a target.

        w = mtlbx.Writer(target="macOS:14.0")
        for path in ("a.air", "b.air"):
            with open(path, "rb") as air:
                w.add_function(air.read())
        w.write("out.metallib")          # atomic: the whole file or none
        data = w.to_bytes()              # or the bytes

    A module that is not AIR bitcode, two functions with one name, a target
    the writer does not know or a module that would not load on it raise
    mtlbx.Error, and nothing is added or written.
    """

    def __init__(self, target=None):
        self._ptr = _n.lib.mtlbx_writer_new()
        if not self._ptr:
            raise MemoryError("mtlbx: out of memory")
        self._lock = _threading.Lock()
        if target is not None:
            self.target(target)

    def _call(self, fn, *args):
        with self._lock:
            if not self._ptr:
                raise ValueError("mtlbx: the writer is closed")
            rc = fn(self._ptr, *args)
            if rc == _n.FATAL:
                raise MemoryError(_text(_n.lib.mtlbx_writer_error_string(self._ptr)) or "mtlbx: out of memory")
            if rc != _n.OK:
                raise Error(_text(_n.lib.mtlbx_writer_error_string(self._ptr)))

    def target(self, os):
        """The target, "PLATFORM:VERSION" ("macOS:14.0", "iOS:17.0",
        "iOS-simulator:17.0", "visionOS:1.0", ...): the container version,
        header stamps and sections Apple's tools write for it."""
        self._call(_n.lib.mtlbx_writer_target, os.encode())

    def set(self, key, value):
        """Overrides one header value as dump --json spells it: key is
        "container_version", "platform", "file_type", "target_os",
        "os_version", "uuid" ("" removes it) or "name" (the dynamic
        header's library name; "" removes it)."""
        if key not in _WRITER_KEYS:
            raise KeyError(key)
        self._call(_n.lib.mtlbx_writer_set, _WRITER_KEYS[key], value.encode("utf-8", "surrogateescape"))

    def add_function(self, air):
        """One AIR module (bytes: a .air file, as `mtlbx extract` or
        Function.module gives it); its name, type and versions come from
        its own AIR metadata."""
        air = bytes(air)
        self._call(_n.lib.mtlbx_writer_add_function, air, len(air))

    def add_source(self, name, data):
        """One file of the embedded source archive."""
        data = bytes(data)
        self._call(_n.lib.mtlbx_writer_add_source, name.encode("utf-8", "surrogateescape"), data, len(data))

    def write(self, path):
        """Writes the library to `path`, atomically: a temporary file
        beside it, renamed over `path` when whole (a file there is
        replaced), or nothing and no temporary file left when the write
        fails (mtlbx.Error)."""
        self._call(_n.lib.mtlbx_writer_write_filename, _os.fsencode(_os.fspath(path)))

    def to_bytes(self):
        """The library's bytes."""
        out = _ctypes.c_void_p()
        size = _ctypes.c_size_t()
        self._call(_n.lib.mtlbx_writer_write_memory, _ctypes.byref(out), _ctypes.byref(size))
        return _ctypes.string_at(out.value, size.value)

    def close(self):
        """Frees what libmtlbx holds for the writer."""
        with self._lock:
            if self._ptr:
                _n.lib.mtlbx_writer_free(self._ptr)
                self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_ptr", None):
            _n.lib.mtlbx_writer_free(self._ptr)
            self._ptr = None


# -- fat slices and GPU code (binary archives, FORMAT.md §24) ----------------------

for _name, _res, _args in (
        ("mtlbx_slice_count", _ctypes.c_int, [_ctypes.c_void_p]),
        ("mtlbx_slice_string", _ctypes.c_char_p, [_ctypes.c_void_p, _ctypes.c_int, _ctypes.c_int]),
        ("mtlbx_slice_int", _ctypes.c_int64, [_ctypes.c_void_p, _ctypes.c_int, _ctypes.c_int]),
        ("mtlbx_gpu_function_count", _ctypes.c_int64, [_ctypes.c_void_p, _ctypes.c_int]),
        ("mtlbx_gpu_function_string", _ctypes.c_char_p,
         [_ctypes.c_void_p, _ctypes.c_int, _ctypes.c_int64, _ctypes.c_int]),
        ("mtlbx_gpu_function_int", _ctypes.c_int64, [_ctypes.c_void_p, _ctypes.c_int, _ctypes.c_int64, _ctypes.c_int]),
        ("mtlbx_gpu_function_code", _ctypes.c_void_p,
         [_ctypes.c_void_p, _ctypes.c_int, _ctypes.c_int64, _ctypes.POINTER(_ctypes.c_size_t)])):
    _f = getattr(_n.lib, _name)
    _f.restype, _f.argtypes = _res, _args
del _name, _res, _args, _f

# Keys (<mtlbx.h>)
_CPU, _ARCH, _CPUTYPE, _CPUSUBTYPE, _LIBRARY, _EMBEDDED_LIBRARY, _FILETYPE, _SYMBOL, _ENTRY, _FUNCTION = range(19, 29)


def _or_none(v):
    return None if v < 0 else v


class GpuFunction:
    """A function whose compiled GPU code a slice holds."""

    def __init__(self, file, slice, i):
        call = file._call
        self.slice = slice
        """The fat slice (its index) that holds the code."""
        self.name = _text(call(_n.lib.mtlbx_gpu_function_string, slice, i, _n.NAME))
        """The AIR function's name (the symbol less "__" and "_begin")."""
        self.symbol = _text(call(_n.lib.mtlbx_gpu_function_string, slice, i, _SYMBOL))
        """Its `_begin` symbol."""
        self.offset = call(_n.lib.mtlbx_gpu_function_int, slice, i, _n.OFFSET)
        """File offset of its code."""
        self.size = call(_n.lib.mtlbx_gpu_function_int, slice, i, _n.SIZE)
        """Bytes of code (`_begin` to `_end`)."""
        self.entry = _or_none(call(_n.lib.mtlbx_gpu_function_int, slice, i, _ENTRY))
        """File offset of its `_agc.main` entry, or None."""
        lib = call(_n.lib.mtlbx_gpu_function_int, slice, i, _LIBRARY)
        fn = call(_n.lib.mtlbx_gpu_function_int, slice, i, _FUNCTION)
        self.function = file.libraries[lib].functions[fn] if lib >= 0 and fn >= 0 else None
        """The AIR Function of its name (in the slice's embedded library first), or None."""
        size = _ctypes.c_size_t()
        p = call(_n.lib.mtlbx_gpu_function_code, slice, i, _ctypes.byref(size))
        self.code = _ctypes.string_at(p, size.value) if p else b""
        """Its machine code (bytes)."""

    def __repr__(self):
        return "<mtlbx.GpuFunction %s: slice %d, %d bytes at 0x%x>" % (self.name, self.slice, self.size, self.offset)


class Slice:
    """One slice of a fat file: an AIR64 metallib, or a GPU slice of a
    binary archive (compiled code for an Apple, AMD or Intel GPU)."""

    def __init__(self, file, index):
        call = file._call
        self.index = index
        self.cpu = _text(call(_n.lib.mtlbx_slice_string, index, _CPU))
        """"AIR64", "Apple GPU", "AMD GPU", "Intel GPU", or None for another CPU type."""
        self.arch = _text(call(_n.lib.mtlbx_slice_string, index, _ARCH))
        """"air64", "applegpu", "amdgpu", "intelgpu" (what `mtlbx thin` takes), or None."""
        self.cputype = call(_n.lib.mtlbx_slice_int, index, _CPUTYPE)
        self.cpusubtype = call(_n.lib.mtlbx_slice_int, index, _CPUSUBTYPE)
        self.offset = call(_n.lib.mtlbx_slice_int, index, _n.OFFSET)
        self.size = call(_n.lib.mtlbx_slice_int, index, _n.SIZE)
        lib = call(_n.lib.mtlbx_slice_int, index, _LIBRARY)
        self.library = file.libraries[lib] if lib >= 0 else None
        """An AIR64 slice's Library, else None."""
        emb = call(_n.lib.mtlbx_slice_int, index, _EMBEDDED_LIBRARY)
        self.embedded_library = file.libraries[emb] if emb >= 0 else None
        """A GPU slice's __TEXT,__metallib: the Library its code was compiled from."""
        self.gpu_functions = [GpuFunction(file, index, i)
                              for i in range(max(0, call(_n.lib.mtlbx_gpu_function_count, index)))]
        """The functions whose compiled code it holds (a list of GpuFunction)."""

    def __repr__(self):
        return "<mtlbx.Slice %d: %s, %d bytes at 0x%x>" % (self.index, self.cpu or hex(self.cputype), self.size,
                                                          self.offset)


def _slices(self):
    """The slices of a fat file (a list of Slice; [] for a plain file)."""
    if getattr(self, "_slice_list", None) is None:
        self._slice_list = [Slice(self, i) for i in range(max(0, self._call(_n.lib.mtlbx_slice_count)))]
    return self._slice_list


File.slices = property(_slices)
__all__ += ["Slice", "GpuFunction"]
