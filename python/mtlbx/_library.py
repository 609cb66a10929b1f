"""Library and Function: one library of an open file (the file itself, or
a slice of a fat file) and its functions. Internal to the mtlbx module:
the names are mtlbx.Library and mtlbx.Function."""

import ctypes
import functools
import gc
from itertools import repeat
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple, Union, cast

from . import _native as _n
from ._errors import c_text, text

if TYPE_CHECKING:  # pragma: no cover
    from ._file import File


def _library_value(key: int, doc: str) -> property:
    def get(self: "Library") -> Optional[str]:
        if key not in self._values:
            self._values[key] = text(self._file._call(_n.lib.mtlbx_library_string, self.index, key))
        return self._values[key]
    return property(get, doc=doc)


class Library:
    """One library of the file (the file itself, or one slice of a fat
    file): its header's values and its functions. A container of its
    functions: len(lib), iter(lib), name in lib, lib[name] (KeyError when
    it has none of that name)."""

    def __init__(self, file: "File", index: int) -> None:
        self._file = file
        self.index: int = index
        """Its place among the file's libraries."""
        self._verified = False
        self._strings: Dict[int, List[Optional[str]]] = {}
        self._ints: Dict[int, List[Optional[int]]] = {}
        self._functions: Optional[List["Function"]] = None
        self._values: Dict[int, Optional[str]] = {}
        call = file._call
        self.offset: int = call(_n.lib.mtlbx_library_int, index, _n.OFFSET)
        """File offset of its MTLB header."""
        self.size: int = call(_n.lib.mtlbx_library_int, index, _n.SIZE)
        """Its bytes in the file (the slice's size in a fat file)."""
        self._count: int = call(_n.lib.mtlbx_function_count, index)

    container_version = _library_value(_n.CONTAINER_VERSION, 'Its container version, "1.2.8".')
    platform = _library_value(_n.PLATFORM, '"macOS" or "iOS" (bit 15 of the version word).')
    file_type = _library_value(_n.FILE_TYPE, '"executable", "coreimage", "dynamic", "symbol-companion", ...')
    target_os = _library_value(_n.TARGET_OS, 'The deployment target\'s OS, "macOS", "iOS", ..., "unknown".')
    os_version = _library_value(_n.OS_VERSION, 'The deployment target\'s version, "14.0.0".')
    uuid = _library_value(_n.UUID, "Its UUID as 32 lower-case hex digits (None without one).")
    requires = _library_value(_n.REQUIRES, 'The first OS version that loads it, "macOS 26.0" (None when not known; '
                                           'reads every function\'s versions).')

    def __repr__(self) -> str:
        if self._file.closed and not self._values:
            return "<mtlbx.Library %d of closed file %r: %d functions>" % (self.index, self._file.path, self._count)
        try:
            head = "%s %s %s" % (self.container_version, self.target_os, self.os_version)
        except ValueError:
            head = "closed file"
        return "<mtlbx.Library %d: %s, %d functions>" % (self.index, head, self._count)

    # -- a container of functions ----------------------------------------------

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator["Function"]:
        return iter(self.functions)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Function):
            return item.library is self
        return self._find(item) is not None

    def __getitem__(self, name: Union[str, bytes]) -> "Function":
        fn = self._find(name)
        if fn is None:
            raise KeyError(_missing(name, self._file.path, self.index))
        return fn

    def _find(self, name: object) -> Optional["Function"]:
        """Its first function named exactly `name`, None when none (a name
        with a NUL is no function's)."""
        if not isinstance(name, (str, bytes)):
            raise TypeError("mtlbx: functions are looked up by name (str), not %s" % type(name).__name__)
        try:
            b = c_text(name, "name")
        except ValueError:
            return None
        i = self._file._call(_n.lib.mtlbx_function_find, self.index, b)
        return self.functions[i] if i >= 0 else None

    @property
    def functions(self) -> List["Function"]:
        """Its functions, in function-list order (a list of Function)."""
        if self._functions is None:
            self._listing(fresh=False)
            n = self._count
            # Hundreds of thousands of new objects would set the cycle
            # collector off many times over; none of them is garbage.
            was = gc.isenabled()
            gc.disable()
            try:
                self._functions = list(map(Function, repeat(self, n), range(n), repeat(_TOKEN, n)))
            finally:
                if was:
                    gc.enable()
        return self._functions

    @property
    def source_members(self) -> List[Tuple[str, Optional[bytes]]]:
        """Every member of its embedded source archives, in order: a list
        of (name, bytes), bytes None for what is not a regular file."""
        out = []
        h = self._file._h
        with h.lock:
            h.check()
            n = _n.lib.mtlbx_source_count(h.ptr, self.index)
            if n < 0:
                raise h.error()
            for i in range(n):
                h.check()
                name = text(_n.lib.mtlbx_source_name(h.ptr, self.index, i))
                size = ctypes.c_size_t()
                p = _n.lib.mtlbx_source_data(h.ptr, self.index, i, ctypes.byref(size))
                # The copy is made under the lock: close() in another thread
                # waits for it.
                out.append((name or "", ctypes.string_at(p, size.value) if p else None))
        return out

    # Columns: one key's values for every function, read in one call
    # (a call per function costs about a microsecond of ctypes each).
    def _column(self, key: int) -> List[Optional[str]]:
        col = self._strings.get(key)
        if col is None:
            col = self._strings[key] = self._read_column(key)
        return col

    def _read_column(self, key: int) -> List[Optional[str]]:
        """A new list of one string key's values (None: absent)."""
        h = self._file._h
        size = ctypes.c_size_t()
        with h.lock:
            h.check()
            if key in _FEW_VALUES and self._count:
                # A few distinct values: one str each, shared by every
                # function that has it (memory and time of one per function).
                codes = ctypes.create_string_buffer(self._count)
                values = (ctypes.c_void_p * 256)()
                n = _n.lib.mtlbx_function_codes(h.ptr, self.index, key, codes, values, 256)
                if n < 0:
                    raise h.error()
                if n <= 256:
                    table = [_decode(v, len(ctypes.string_at(v))) if v else None for v in values[:n]]
                    return list(map(table.__getitem__, codes.raw))
            p = _n.lib.mtlbx_function_column(h.ptr, self.index, key, ctypes.byref(size))
            if not p:
                raise h.error()
            if not self._count:
                return []
            # Decoded straight from libmtlbx's text, under the lock.
            text = _decode(p, size.value - 1)
        col: List[Optional[str]] = text.split("\0")
        if key != _n.NAME and "" in col:
            col = [v or None for v in col]
        return col

    def _int_column(self, key: int) -> List[Optional[int]]:
        col = self._ints.get(key)
        if col is None:
            col = self._ints[key] = self._read_ints(key)
        return col

    def _read_ints(self, key: int) -> List[Optional[int]]:
        """A new list of one int key's values (None for a module's offset
        and size where a function has none)."""
        arr = (ctypes.c_int64 * max(self._count, 1))()
        if self._file._call(_n.lib.mtlbx_function_ints, self.index, 0, self._count, key, arr) < 0:
            self._file._raise()
        values: List[int] = arr[:self._count]
        if key in (_n.MODULE_OFFSET, _n.MODULE_SIZE) and values and min(values) < 0:
            return [None if v < 0 else v for v in values]
        return cast(List[Optional[int]], values)     # a new list: no one else appends to it

    def _listing(self, fresh: bool) -> Tuple[List[Any], ...]:
        """What `mtlbx ls` lists of every function: name, type, AIR and MSL
        versions, hash, module offset and size, one list each; `fresh`:
        new lists (the ones Function reads are copied, others not kept)."""
        strings = (_n.NAME, _n.TYPE, _n.AIR_VERSION, _n.MSL_VERSION, _n.HASH)
        ints = (_n.MODULE_OFFSET, _n.MODULE_SIZE)
        if not fresh:
            return tuple(self._column(k) for k in strings) + tuple(self._int_column(k) for k in ints)
        return tuple(list(self._strings[k]) if k in self._strings else self._read_column(k) for k in strings) + \
            tuple(list(self._ints[k]) if k in self._ints else self._read_ints(k) for k in ints)


def _decoder() -> Any:
    """A C string of n bytes at p as text, decoded from where it lies
    (one copy, not two); a byte that is not UTF-8 becomes a lone
    surrogate, as text() does."""
    try:
        f = ctypes.pythonapi.PyUnicode_DecodeUTF8
    except AttributeError:  # pragma: no cover (a Python without its C API in ctypes)
        return lambda p, n: ctypes.string_at(p, n).decode("utf-8", "surrogateescape")
    f.restype = ctypes.py_object
    f.argtypes = (ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_char_p)
    return lambda p, n: f(p, n, b"surrogateescape")


_decode = _decoder()


_TOKEN = object()   # Function objects are made by Library.functions only


def _missing(name: object, path: Optional[str], library: Optional[int] = None) -> str:
    """What KeyError says: the name, and the file (zipfile's way)."""
    where = path if path is not None else "<memory>"
    if library is not None:
        where = "library %d of %s" % (library, where)
    return "no function named %r in %s" % (name, where)
# The string keys whose values are few (read as codes, mtlbx_function_codes).
_FEW_VALUES = (_n.TYPE, _n.AIR_VERSION, _n.MSL_VERSION)


def _listed(store: str, key: int, doc: str) -> Any:
    """A Function's value from its library's column (Library._strings or
    Library._ints, read for every function when the list was made)."""
    if store == "_strings":
        def get(self: "Function") -> Optional[str]:
            return self.library._strings[key][self.index]
    else:
        def get(self: "Function") -> Optional[int]:  # type: ignore[misc]
            return self.library._ints[key][self.index]
    return property(get, doc=doc)


@functools.total_ordering
class Function:
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
    These are plain values; the properties below them read the file when
    asked. Functions order as they lie in the file.
    """

    __slots__ = ("library", "index")

    def __init__(self, library: Library, index: int, token: object = None) -> None:
        if token is not _TOKEN:
            raise TypeError("mtlbx.Function objects come from File.functions and Library.functions")
        self.library = library
        self.index = index

    if TYPE_CHECKING:  # what type checkers see of the values below
        name: str
        type: Optional[str]
        air_version: Optional[str]
        msl_version: Optional[str]
        hash: Optional[str]
        module_offset: Optional[int]
        module_size: Optional[int]
    else:
        name = _listed("_strings", _n.NAME, "Its NAME, as stored.")
        type = _listed("_strings", _n.TYPE, '"kernel", "vertex", "fragment", ... (None without a TYPE tag).')
        air_version = _listed("_strings", _n.AIR_VERSION, 'Its AIR version, "2.6" (None without VERS).')
        msl_version = _listed("_strings", _n.MSL_VERSION, 'Its MSL version, "3.1": the JSON\'s "language_version" '
                                                          '(None without VERS).')
        hash = _listed("_strings", _n.HASH, "Its HASH: 64 lower-case hex digits (None without one).")
        module_offset = _listed("_ints", _n.MODULE_OFFSET, "File offset of its module, the bytes HASH covers (None "
                                                            "when it has none inside the file).")
        module_size = _listed("_ints", _n.MODULE_SIZE, "Length of its module (None when it has none inside the file).")

    def __repr__(self) -> str:
        return "<mtlbx.Function %r: %s, library %d, #%d>" % (self.name, self.type or "no type",
                                                             self.library.index, self.index)

    # A function is itself, not its values: two functions of two files with
    # the same values are two functions. They order as they lie in the file.
    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return id(self)

    def _place(self, other: object) -> Tuple[int, int]:
        if not isinstance(other, Function) or other.library._file is not self.library._file:
            raise TypeError("mtlbx: only functions of one file are ordered")
        return (other.library.index, other.index)

    def __lt__(self, other: object) -> bool:
        return (self.library.index, self.index) < self._place(other)

    def _call(self, fn: Any, *args: Any) -> Any:
        return self.library._file._call(fn, self.library.index, self.index, *args)

    @property
    def requires(self) -> Optional[str]:
        """The first OS version that loads it, "macOS 26.0" (None when that
        is not known: the JSON's "requires" says why)."""
        return self.library._column(_n.REQUIRES)[self.index]

    @property
    def module(self) -> Optional[bytes]:
        """Its module's bytes, exactly what HASH covers (None when it has
        no module inside the file)."""
        h = self.library._file._h
        size = ctypes.c_size_t()
        with h.lock:
            h.check()
            p = _n.lib.mtlbx_function_module(h.ptr, self.library.index, self.index, ctypes.byref(size))
            # Copied under the lock, from a file checked not to have shrunk.
            return ctypes.string_at(p, size.value) if p else None

    @property
    def hash_ok(self) -> bool:
        """True when the module's SHA-256 is its HASH. Reads the module,
        unless File.verify() has hashed them all."""
        lib = self.library
        if lib._verified:
            return lib._int_column(_n.HASH_OK)[self.index] == 1
        return bool(self._call(_n.lib.mtlbx_function_int, _n.HASH_OK) == 1)

    @property
    def declaration(self) -> str:
        """Its interface as an MSL declaration, the text `mtlbx sig` prints.
        Reads the module; raises mtlbx.Error when it does not decode."""
        s = self._call(_n.lib.mtlbx_function_string, _n.DECLARATION)
        if s is None:
            self.library._file._raise()
        return text(s)  # type: ignore[return-value]

    @property
    def interface(self) -> Optional[Dict[str, Any]]:
        """Its "interface" (CONTRACT.md FUNCTION_INTERFACE) as a dict, as
        `dump --json --interfaces` prints it; None when the module does
        not decode. Reads the module."""
        import json                     # here, as in File.json()
        s = self._call(_n.lib.mtlbx_function_interface_json)
        if s is None:
            self.library._file._raise()
        return json.loads(s)  # type: ignore[no-any-return]
