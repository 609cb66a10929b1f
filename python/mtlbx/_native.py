"""libmtlbx through ctypes: loading the installed library and declaring
the C functions of <mtlbx.h> (man 3 mtlbx). Internal to the mtlbx module.

`make install` writes _paths.py beside this file with the directory the
library went to and its file name, so that the module loads the very
library it was installed with, wherever the prefix is; without it (a copy
of the module on its own) the system's loader looks for that file name.
pip install . bundles the library inside the package, and that copy comes
first (_candidates).
"""

import ctypes
import os
import sys

try:
    from . import _paths
except ImportError:  # not installed by make install
    _paths = None

# Statuses and keys (<mtlbx.h>), one a line so that type checkers know
# each is an int.
OK = 0
WARN = -20
FAILED = -25
FATAL = -30
CONTAINER_VERSION = 1
PLATFORM = 2
FILE_TYPE = 3
TARGET_OS = 4
OS_VERSION = 5
UUID = 6
REQUIRES = 7
OFFSET = 8
SIZE = 9
NAME = 10
TYPE = 11
AIR_VERSION = 12
MSL_VERSION = 13
HASH = 14
DECLARATION = 15
MODULE_OFFSET = 16
MODULE_SIZE = 17
HASH_OK = 18
JSON_INTERFACES = 1
JSON_LAYOUT = 2


def _candidates():
    """The library to load, in order: the copy bundled inside the package
    (pip install . puts it beside this file: setup.py), the one make install
    installed with the module (_paths.py), then the system's, by its file
    name through the loader (Debian's python3-mtlbx)."""
    soname = "libmtlbx.1.dylib" if sys.platform == "darwin" else "libmtlbx.so.1"
    if _paths is not None:
        soname = _paths.SONAME
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), soname)
    if os.path.exists(bundled):
        yield bundled
    if _paths is not None:
        yield os.path.join(_paths.LIBDIR, soname)
    yield soname


def _load():
    errors = []
    for name in _candidates():
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("mtlbx: libmtlbx could not be loaded: " + "; ".join(errors))


lib = _load()

_h = ctypes.c_void_p
_s = ctypes.c_char_p
_i64 = ctypes.c_int64
_int = ctypes.c_int
_size = ctypes.c_size_t

# (name, result, arguments)
_PROTOTYPES = [
    ("mtlbx_version_number", _int, []),
    ("mtlbx_version_string", _s, []),
    ("mtlbx_new", _h, []),
    ("mtlbx_open_filename", _int, [_h, _s]),
    ("mtlbx_open_memory", _int, [_h, ctypes.c_void_p, _size]),
    ("mtlbx_free", None, [_h]),
    ("mtlbx_errno", _int, [_h]),
    ("mtlbx_error_string", _s, [_h]),
    ("mtlbx_error_offset", _i64, [_h]),
    ("mtlbx_library_count", _int, [_h]),
    ("mtlbx_library_string", _s, [_h, _int, _int]),
    ("mtlbx_library_int", _i64, [_h, _int, _int]),
    ("mtlbx_function_count", _i64, [_h, _int]),
    ("mtlbx_function_find", _i64, [_h, _int, _s]),
    ("mtlbx_function_string", _s, [_h, _int, _i64, _int]),
    ("mtlbx_function_int", _i64, [_h, _int, _i64, _int]),
    ("mtlbx_function_module", ctypes.c_void_p, [_h, _int, _i64, ctypes.POINTER(_size)]),
    ("mtlbx_function_column", ctypes.c_void_p, [_h, _int, _int, ctypes.POINTER(_size)]),
    ("mtlbx_function_ints", _i64, [_h, _int, _i64, _i64, _int, ctypes.POINTER(_i64)]),
    ("mtlbx_function_codes", _i64, [_h, _int, _int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), _int]),
    ("mtlbx_source_count", _i64, [_h, _int]),
    ("mtlbx_source_name", _s, [_h, _int, _i64]),
    ("mtlbx_source_data", ctypes.c_void_p, [_h, _int, _i64, ctypes.POINTER(_size)]),
    ("mtlbx_json", _s, [_h, ctypes.c_uint]),
    ("mtlbx_function_interface_json", _s, [_h, _int, _i64]),
    ("mtlbx_verify", _int, [_h]),
    ("mtlbx_check_os", _int, [_h, _s]),
    ("mtlbx_diag_count", _i64, [_h]),
    ("mtlbx_diag", _s, [_h, _i64, ctypes.POINTER(_int), ctypes.POINTER(_i64)]),
    ("mtlbx_writer_new", _h, []),
    ("mtlbx_writer_target", _int, [_h, _s]),
    ("mtlbx_writer_set", _int, [_h, _int, _s]),
    ("mtlbx_writer_add_function", _int, [_h, ctypes.c_void_p, _size]),
    ("mtlbx_writer_add_source", _int, [_h, _s, ctypes.c_void_p, _size]),
    ("mtlbx_writer_write_filename", _int, [_h, _s]),
    ("mtlbx_writer_write_memory", _int, [_h, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_size)]),
    ("mtlbx_writer_error_string", _s, [_h]),
    ("mtlbx_writer_free", None, [_h]),
    ("mtlbx_writer_from", _h, [_h, ctypes.POINTER(_s), _size]),
    ("mtlbx_slice_count", _int, [_h]),
    ("mtlbx_slice_string", _s, [_h, _int, _int]),
    ("mtlbx_slice_int", _i64, [_h, _int, _int]),
    ("mtlbx_gpu_function_count", _i64, [_h, _int]),
    ("mtlbx_gpu_function_string", _s, [_h, _int, _i64, _int]),
    ("mtlbx_gpu_function_int", _i64, [_h, _int, _i64, _int]),
    ("mtlbx_gpu_function_code", ctypes.c_void_p, [_h, _int, _i64, ctypes.POINTER(_size)]),
    ("mtlbx_gate_new", _h, []),
    ("mtlbx_gate_os", _int, [_h, _s]),
    ("mtlbx_gate_add_path", _int, [_h, _s]),
    ("mtlbx_gate_error_string", _s, [_h]),
    ("mtlbx_gate_errno", _int, [_h]),
    ("mtlbx_gate_finding_count", _size, [_h]),
    ("mtlbx_gate_finding", _s, [_h, _size, ctypes.POINTER(_s), ctypes.POINTER(_i64), ctypes.POINTER(_int),
                                ctypes.POINTER(_s)]),
    ("mtlbx_gate_free", None, [_h]),
    ("mtlbx_gate_expect", _int, [_h, _s]),
    ("mtlbx_gate_expect_text", _int, [_h, _s, _s, _size]),
    ("mtlbx_gate_finding_member", _s, [_h, _size]),
    ("mtlbx_gate_problem_count", _size, [_h]),
    ("mtlbx_gate_problem", _s, [_h, _size, ctypes.POINTER(_s), ctypes.POINTER(_i64)]),
]

for _name, _res, _args in _PROTOTYPES:
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
del _name, _res, _args, _f
