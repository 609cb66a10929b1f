"""Writer: a new metallib from AIR modules, or a copy of some functions of
a library (`pack --from`). Internal to the mtlbx module: the name is
mtlbx.Writer."""

import ctypes
import os
import threading
from typing import Any, Iterable, Optional, Union

from . import _native as _n
from ._errors import Error, c_path, c_text, named, text
from ._file import File

# Keys of Writer.set, as dump --json names the values.
_KEYS = {"container_version": _n.CONTAINER_VERSION, "platform": _n.PLATFORM, "file_type": _n.FILE_TYPE,
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

    Or some functions of a library, as `mtlbx pack --from LIB -f NAME...`
    writes them (the same bytes):

        w = mtlbx.Writer.from_library("big.metallib", functions=["gemm_*"])

    A module that is not AIR bitcode, two functions with one name, a target
    the writer does not know or a module that would not load on it raise
    mtlbx.Error, and nothing is added or written.
    """

    def __init__(self, target: Optional[str] = None) -> None:
        self._init(_n.lib.mtlbx_writer_new())
        if target is not None:
            self.target(target)

    def _init(self, ptr: Any) -> None:
        self._ptr = ptr
        if not self._ptr:
            raise MemoryError("mtlbx: out of memory")
        self._lock = threading.Lock()
        self._target: Optional[str] = None
        self._functions = 0                 # what repr tells
        self._sources = 0
        self._from: Any = None              # from_library: the File the writer copies from

    @classmethod
    def from_library(cls, path: Any, functions: Iterable[str]) -> "Writer":
        """A writer of just the named functions of the library at `path`
        (anything mtlbx.open takes), each a name, a prefix or a glob as
        `mtlbx pack --from LIB -f NAME` reads it: the library keeps
        everything else those functions use (header, modules, reflection,
        sources), and to_bytes()/write() give pack --from's bytes.
        KeyError naming the patterns that select no function."""
        patterns = [c_text(p, "function name") for p in ([functions] if isinstance(functions, str) else functions)]
        if not patterns:
            raise ValueError("mtlbx.Writer.from_library: no function named")
        f = File(path)                      # the writer's own: the copy reads its mapping
        arr = (ctypes.c_char_p * len(patterns))(*patterns)
        h = f._h
        with h.lock:
            h.check()
            ptr = _n.lib.mtlbx_writer_from(h.ptr, arr, len(patterns))
            if not ptr:
                e = h.error()
        if not ptr:
            f.close()
            if isinstance(e, Error) and str(e).startswith("%s: no function matches" % h.name):
                raise KeyError(str(e))
            raise e
        w = cls.__new__(cls)
        w._init(ptr)
        w._from = f
        return w

    def _call(self, fn: Any, *args: Any, about: Optional[str] = None) -> None:
        with self._lock:
            self._check()
            self._source_whole()
            rc = fn(self._ptr, *args)
            if rc == _n.OK:
                return
            message = text(_n.lib.mtlbx_writer_error_string(self._ptr)) or "out of memory"
        if rc == _n.FATAL:
            raise MemoryError(named(message, about))
        raise Error(named(message, about), filename=about)

    def _check(self) -> None:
        if not self._ptr:
            raise ValueError("mtlbx: the writer is closed")

    def _source_whole(self) -> None:
        """A copy reads the bytes of the library it copies: raises when that
        file shrank (File's guard)."""
        if self._from is not None:
            with self._from._h.lock:
                self._from._h.check()

    def target(self, os: str) -> None:
        """The target, "PLATFORM:VERSION" ("macOS:14.0", "iOS:17.0",
        "iOS-simulator:17.0", "visionOS:1.0", ...): the container version,
        header stamps and sections Apple's tools write for it."""
        self._call(_n.lib.mtlbx_writer_target, c_text(os, "target"))
        self._target = os

    def set(self, key: str, value: str) -> None:
        """Overrides one header value as dump --json spells it: key is
        "container_version", "platform", "file_type", "target_os",
        "os_version", "uuid" ("" removes it) or "name" (the dynamic
        header's library name; "" removes it)."""
        if key not in _KEYS:
            raise KeyError(key)
        self._call(_n.lib.mtlbx_writer_set, _KEYS[key], c_text(value, key))

    def add_function(self, air: Union[bytes, bytearray, memoryview]) -> None:
        """One AIR module (bytes: a .air file, as `mtlbx extract` or
        Function.module gives it); its name, type and versions come from
        its own AIR metadata."""
        air = bytes(air)
        self._call(_n.lib.mtlbx_writer_add_function, air, len(air))
        self._functions += 1

    def add_source(self, name: str, data: Union[bytes, bytearray, memoryview]) -> None:
        """One file of the embedded source archive."""
        b = c_text(name, "source name")
        data = bytes(data)
        self._call(_n.lib.mtlbx_writer_add_source, b, data, len(data))
        self._sources += 1

    def write(self, path: Any) -> None:
        """Writes the library to `path`, atomically: a temporary file
        beside it, renamed over `path` when whole (a file there is
        replaced), or nothing and no temporary file left when the write
        fails (mtlbx.Error naming `path`)."""
        b = c_path(path)
        self._call(_n.lib.mtlbx_writer_write_filename, b, about=os.fsdecode(b))

    def to_bytes(self) -> bytes:
        """The library's bytes."""
        out = ctypes.c_void_p()
        size = ctypes.c_size_t()
        with self._lock:
            self._check()
            self._source_whole()
            rc = _n.lib.mtlbx_writer_write_memory(self._ptr, ctypes.byref(out), ctypes.byref(size))
            if rc == _n.OK:
                # Copied under the lock: close() in another thread waits.
                return ctypes.string_at(out.value or 0, size.value)
            message = text(_n.lib.mtlbx_writer_error_string(self._ptr)) or "out of memory"
        if rc == _n.FATAL:
            raise MemoryError(message)
        raise Error(message)

    def __repr__(self) -> str:
        if not self._ptr:
            return "<mtlbx.Writer closed>"
        if self._from is not None:
            return "<mtlbx.Writer: functions of %r>" % (self._from.path or "<memory>")
        n = self._functions
        return "<mtlbx.Writer %s: %d function%s, %d source%s>" % (
            self._target or "(no target)", n, "" if n == 1 else "s", self._sources, "" if self._sources == 1 else "s")

    def close(self) -> None:
        """Frees what libmtlbx holds for the writer (after any call another
        thread is in)."""
        with self._lock:
            if self._ptr:
                _n.lib.mtlbx_writer_free(self._ptr)
                self._ptr = None
            self._from = None

    def __enter__(self) -> "Writer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_ptr", None):
            _n.lib.mtlbx_writer_free(self._ptr)
            self._ptr = None
