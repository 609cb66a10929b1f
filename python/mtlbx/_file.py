"""File: an open metallib, plain or fat, and mtlbx.open. Internal to the
mtlbx module: the names are mtlbx.File and mtlbx.open."""

import ctypes
import os
from itertools import chain
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from . import _native as _n
from ._errors import c_text, text
from ._handle import Handle
from ._library import Function, Library, _missing
from ._slices import Slice, slices_of

Diagnostic = Tuple[str, int, str]

PathType = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class File:
    """An open metallib: plain (one library) or fat (one library a slice).

    A container of every library's functions, as tarfile is of members:
    len(f), iter(f), name in f, f[name] (KeyError when none). Also a
    context manager (closed at the end of the with block). Values are read
    lazily, every function's at once the first time one is asked for.

    A file opened by path or file object is mapped, not read: when another
    process truncates it while it is open, the next call that reads it
    raises mtlbx.Error instead (a truncation in the instant between that
    check and the read, or while the file is being opened, still ends the
    process with SIGBUS, as it does for any mapped file).
    """

    def __init__(self, source: Any) -> None:
        h = Handle()
        try:
            if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
                h.open_path(source)
            elif hasattr(source, "read"):
                h.open_fileobj(source)
            else:
                try:
                    view = memoryview(source)
                except TypeError:
                    raise TypeError("mtlbx.open takes a path (str, bytes, os.PathLike), a binary file object or a "
                                    "buffer, not %s" % type(source).__name__) from None
                h.open_buffer(view, None)
        except BaseException:
            h.release()
            raise
        self._h = h
        self._hidden: List[Tuple[int, int]] = []    # check_os's findings, kept out of diagnostics
        self.path: Optional[str] = h.name if h.name != "<memory>" else None
        """The path given (a file object's name), or None for data in memory."""
        self.libraries: List[Library] = [Library(self, i) for i in range(_n.lib.mtlbx_library_count(h.ptr))]
        """The libraries: one for a plain file, one per slice of a fat file."""

    # -- life -----------------------------------------------------------------

    def close(self) -> None:
        """Free what libmtlbx holds for the file (after any call another
        thread is in). Values read so far stay."""
        self._h.free()

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return self._h.ptr is None

    def __enter__(self) -> "File":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        h = getattr(self, "_h", None)
        if h is not None:
            h.release()

    def __repr__(self) -> str:
        name = self.path if self.path is not None else "<memory>"
        if self.closed:
            return "<mtlbx.File %r closed>" % name
        n = len(self.libraries)
        return "<mtlbx.File %r: %d %s, %d functions>" % (name, n, "library" if n == 1 else "libraries", len(self))

    def _call(self, fn: Any, *args: Any) -> Any:
        """fn(handle, *args) on the one thread the handle allows, once the
        file is known to be open and whole."""
        h = self._h
        with h.lock:
            h.check()
            return fn(h.ptr, *args)

    def _raise(self) -> None:
        with self._h.lock:
            raise self._h.error()

    # -- a container of functions ------------------------------------------------

    def __len__(self) -> int:
        return sum(lib._count for lib in self.libraries)

    def __iter__(self) -> Iterator[Function]:
        return chain.from_iterable(lib.functions for lib in self.libraries)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Function):
            return item.library._file is self
        return any(lib._find(item) is not None for lib in self.libraries)

    def __getitem__(self, name: Union[str, bytes]) -> Function:
        for lib in self.libraries:
            fn = lib._find(name)
            if fn is not None:
                return fn
        raise KeyError(_missing(name, self.path))

    @property
    def functions(self) -> List[Function]:
        """Every library's functions, in order (a list of Function)."""
        out: List[Function] = []
        for lib in self.libraries:
            out.extend(lib.functions)
        return out

    def function(self, name: Union[str, bytes]) -> Function:
        """The first function named exactly `name`; KeyError when none,
        ValueError for a name with a NUL (no C string holds one)."""
        c_text(name, "name")
        return self[name]

    def find(self, pattern: str) -> List[Function]:
        """Functions by name: every one named exactly `pattern`; else, when
        it holds * ? or [, those the shell glob matches; else those whose
        name begins with it. A list, in file order ([] when none)."""
        import fnmatch                  # here: re costs every import of mtlbx a few ms
        fns = self.functions
        hits = [fn for fn in fns if fn.name == pattern]
        if hits:
            return hits
        if any(c in pattern for c in "*?["):
            return [fn for fn in fns if fnmatch.fnmatchcase(fn.name, pattern)]
        return [fn for fn in fns if fn.name.startswith(pattern)]

    def columns(self) -> Dict[str, List[Any]]:
        """Every function's listing values (what `mtlbx ls` lists), one
        list per key, in file order: "library" (its library's index),
        "name", "type", "air_version", "msl_version", "module_offset",
        "module_size", "hash" (None where a function has no such value).
        Makes no Function object: the fast way through a large library."""
        keys = ("name", "type", "air_version", "msl_version", "hash", "module_offset", "module_size")
        out: Dict[str, List[Any]] = {"library": []}
        for lib in self.libraries:
            out["library"] += [lib.index] * lib._count
            for k, col in zip(keys, lib._listing(fresh=True)):
                if k in out:
                    out[k] += col
                else:
                    out[k] = col        # a new list: the first library's is the start
        for k in keys:
            out.setdefault(k, [])
        return {k: out[k] for k in ("library", "name", "type", "air_version", "msl_version", "module_offset",
                                    "module_size", "hash")}

    # -- the rest of the file ---------------------------------------------------

    @property
    def sources(self) -> Dict[str, bytes]:
        """The embedded source files, {member name: bytes}, every library's
        (a name stored twice keeps its first member; Library.source_members
        lists them all)."""
        out: Dict[str, bytes] = {}
        for lib in self.libraries:
            for name, data in lib.source_members:
                if data is not None and name not in out:
                    out[name] = data
        return out

    @property
    def slices(self) -> List[Slice]:
        """The slices of a fat file (a list of Slice; [] for a plain file):
        AIR64 metallibs and the GPU slices of a binary archive."""
        if getattr(self, "_slice_list", None) is None:
            self._slice_list: Optional[List[Slice]] = slices_of(self)
        return self._slice_list  # type: ignore[return-value]

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """What was found wrong with the file so far, in the order found:
        parsing and verify() (check_os() returns its own findings and adds
        none here). A list of (severity, offset, message), severity "error"
        or "warning" as in the JSON document."""
        with self._h.lock:
            self._h.check()
            n = _n.lib.mtlbx_diag_count(self._h.ptr)
            hidden = {i for start, end in self._hidden for i in range(start, end)}
            return [self._diag(i) for i in range(max(n, 0)) if i not in hidden]

    def _diag(self, i: int) -> Diagnostic:
        sev = ctypes.c_int()
        off = ctypes.c_int64()
        msg = _n.lib.mtlbx_diag(self._h.ptr, i, ctypes.byref(sev), ctypes.byref(off))
        return ("error" if sev.value == 2 else "warning", off.value, text(msg))  # type: ignore[return-value]

    def verify(self) -> List[Function]:
        """Hash every module (on every CPU) and return the functions whose
        module does not match its HASH ([] when all do). Afterwards each
        Function.hash_ok is known without reading the module again."""
        rc = self._call(_n.lib.mtlbx_verify)
        if rc in (_n.FATAL, _n.FAILED):
            self._raise()
        for lib in self.libraries:
            lib._verified = True
        return [fn for fn in self.functions if not fn.hash_ok]

    def check_os(self, os: str) -> List[Diagnostic]:
        """Would the file load on `os`, "PLATFORM:VERSION" ("macOS:14.0",
        "iOS:17.0"; macOS, iOS, tvOS, visionOS, macCatalyst, watchOS)?
        [] when every library loads there, else the findings of this call
        that say why, as `mtlbx check --os` words them: (severity, offset,
        message); they are not added to diagnostics. Raises mtlbx.Error
        when `os` is not understood."""
        want = c_text(os, "os")
        h = self._h
        with h.lock:
            h.check()
            before = _n.lib.mtlbx_diag_count(h.ptr)
            rc = _n.lib.mtlbx_check_os(h.ptr, want)
            if rc in (_n.FAILED, _n.FATAL):
                raise h.error()
            after = _n.lib.mtlbx_diag_count(h.ptr)
            if after > before:
                self._hidden.append((before, after))
            return [self._diag(i) for i in range(before, after)]

    def json(self, interfaces: bool = False, layout: bool = False) -> Dict[str, Any]:
        """The `mtlbx dump --json` document (CONTRACT.md) as a dict, with
        every function's "interface" when `interfaces`, and the byte
        "layout" when `layout`. Its "path" is the path given, a file
        object's name, or "<memory>"."""
        import json                     # here, as fnmatch in find()
        flags = (_n.JSON_INTERFACES if interfaces else 0) | (_n.JSON_LAYOUT if layout else 0)
        doc_text = self._call(_n.lib.mtlbx_json, flags)
        if doc_text is None:
            self._raise()
        doc: Dict[str, Any] = json.loads(doc_text)
        if self._h.json_path is not None and doc.get("path") == "<memory>":
            doc["path"] = self._h.json_path
        return doc


def open(source: Union[PathType, Any]) -> File:
    """Open a metallib, as tarfile.open and zipfile.ZipFile do:

        mtlbx.open("default.metallib")       # a path: str, bytes or os.PathLike
        mtlbx.open(fileobj)                  # a binary file object: mapped when it has fileno(),
                                             # else read (io.BytesIO, a socket's makefile...)
        mtlbx.open(memoryview(data))         # data in memory: bytearray, memoryview, array, mmap

    Returns a File, which is also a context manager (closed at the end of
    the with block). Raises FileNotFoundError (or another OSError) when the
    path cannot be read, mtlbx.Error when it is not a metallib, ValueError
    for a path with a NUL in it.
    """
    return File(source)
