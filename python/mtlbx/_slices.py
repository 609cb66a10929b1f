"""The slices of a fat file and the GPU code of a binary archive
(FORMAT.md §24): mtlbx.Slice and mtlbx.GpuFunction. Internal to the mtlbx
module: import mtlbx, not this."""

import ctypes
from typing import TYPE_CHECKING, Any, List, Optional

from . import _native as _n
from ._errors import text

if TYPE_CHECKING:
    from ._file import File
    from ._library import Function, Library

# Keys of <mtlbx.h> for slices and GPU functions.
CPU, ARCH, CPUTYPE, CPUSUBTYPE, LIBRARY, EMBEDDED_LIBRARY, FILETYPE, SYMBOL, ENTRY, FUNCTION = range(19, 29)


def _or_none(v: int) -> Optional[int]:
    return None if v < 0 else v


class GpuFunction:
    """A function whose compiled GPU code a slice holds."""

    def __init__(self, file: "File", slice: int, i: int) -> None:
        call = file._call
        self.slice: int = slice
        """The fat slice (its index) that holds the code."""
        self.name: Optional[str] = text(call(_n.lib.mtlbx_gpu_function_string, slice, i, _n.NAME))
        """The AIR function's name (the symbol less "__" and "_begin")."""
        self.symbol: Optional[str] = text(call(_n.lib.mtlbx_gpu_function_string, slice, i, SYMBOL))
        """Its `_begin` symbol."""
        self.offset: int = call(_n.lib.mtlbx_gpu_function_int, slice, i, _n.OFFSET)
        """File offset of its code."""
        self.size: int = call(_n.lib.mtlbx_gpu_function_int, slice, i, _n.SIZE)
        """Bytes of code (`_begin` to `_end`)."""
        self.entry: Optional[int] = _or_none(call(_n.lib.mtlbx_gpu_function_int, slice, i, ENTRY))
        """File offset of its `_agc.main` entry, or None."""
        lib = call(_n.lib.mtlbx_gpu_function_int, slice, i, LIBRARY)
        fn = call(_n.lib.mtlbx_gpu_function_int, slice, i, FUNCTION)
        self.function: Optional["Function"] = (file.libraries[lib].functions[fn]
                                               if lib >= 0 and fn >= 0 else None)
        """The AIR Function of its name (in the slice's embedded library first), or None."""
        self._file = file
        self._index = i

    @property
    def code(self) -> bytes:
        """Its machine code (bytes), copied under the file's lock from a
        file checked not to have shrunk."""
        h = self._file._h
        size = ctypes.c_size_t()
        with h.lock:
            h.check()
            p = _n.lib.mtlbx_gpu_function_code(h.ptr, self.slice, self._index, ctypes.byref(size))
            return ctypes.string_at(p, size.value) if p else b""

    def __repr__(self) -> str:
        return "<mtlbx.GpuFunction %s: slice %d, %d bytes at 0x%x>" % (self.name, self.slice, self.size, self.offset)


class Slice:
    """One slice of a fat file: an AIR64 metallib, or a GPU slice of a
    binary archive (compiled code for an Apple, AMD or Intel GPU)."""

    def __init__(self, file: "File", index: int) -> None:
        call = file._call
        self.index: int = index
        self.cpu: Optional[str] = text(call(_n.lib.mtlbx_slice_string, index, CPU))
        """"AIR64", "Apple GPU", "AMD GPU", "Intel GPU", or None for another CPU type."""
        self.arch: Optional[str] = text(call(_n.lib.mtlbx_slice_string, index, ARCH))
        """"air64", "applegpu", "amdgpu", "intelgpu" (what `mtlbx thin` takes), or None."""
        self.cputype: int = call(_n.lib.mtlbx_slice_int, index, CPUTYPE)
        self.cpusubtype: int = call(_n.lib.mtlbx_slice_int, index, CPUSUBTYPE)
        self.offset: int = call(_n.lib.mtlbx_slice_int, index, _n.OFFSET)
        self.size: int = call(_n.lib.mtlbx_slice_int, index, _n.SIZE)
        lib = call(_n.lib.mtlbx_slice_int, index, LIBRARY)
        self.library: Optional["Library"] = file.libraries[lib] if lib >= 0 else None
        """An AIR64 slice's Library, else None."""
        emb = call(_n.lib.mtlbx_slice_int, index, EMBEDDED_LIBRARY)
        self.embedded_library: Optional["Library"] = file.libraries[emb] if emb >= 0 else None
        """A GPU slice's __TEXT,__metallib: the Library its code was compiled from."""
        count = max(0, call(_n.lib.mtlbx_gpu_function_count, index))
        self.gpu_functions: List[GpuFunction] = [GpuFunction(file, index, i) for i in range(count)]
        """The functions whose compiled code it holds (a list of GpuFunction)."""

    def __repr__(self) -> str:
        return "<mtlbx.Slice %d: %s, %d bytes at 0x%x>" % (self.index, self.cpu or hex(self.cputype), self.size,
                                                          self.offset)


def slices_of(file: "File") -> List[Slice]:
    """The slices of a fat file (a list of Slice; [] for a plain file)."""
    return [Slice(file, i) for i in range(max(0, file._call(_n.lib.mtlbx_slice_count)))]
