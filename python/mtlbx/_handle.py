"""One libmtlbx handle: opening it on a path, a file object or data in
memory, the lock that keeps it to one thread at a time (ctypes lets go of
the GIL during a call), and the guard against a file that shrinks while it
is mapped. Internal to the mtlbx module.

Why a guard: libmtlbx maps the file. When another process truncates it,
reading a page past the new end raises SIGBUS, which kills the
interpreter; Python users expect an exception. So before every call that
may read the file, the handle compares the file's size now (fstat of a
descriptor of the very file mapped) with its size when opened and raises
mtlbx.Error when it is smaller. What is left: a file truncated between
that check and the read, or while it is being opened, still ends the
process (the check and the read are not one step).
"""

import ctypes
import errno as _errno
import io
import mmap
import os
import threading
from typing import Any, Optional

from . import _native as _n
from ._errors import Error, c_path, named, text


class Handle:
    __slots__ = ("ptr", "lock", "name", "fd", "size", "shrank", "keep", "mapping", "json_path")
    ptr: Optional[int]
    lock: threading.Lock

    def __init__(self) -> None:
        self.ptr = _n.lib.mtlbx_new()
        if not self.ptr:
            raise MemoryError("mtlbx: out of memory")
        self.lock = threading.Lock()
        self.name: Optional[str] = None     # what messages call the file
        self.fd: Optional[int] = None       # a descriptor of the mapped file, for the guard
        self.size = 0                       # its size when opened
        self.shrank = False
        self.keep: Any = None               # the buffer libmtlbx reads (it must outlive the handle)
        self.mapping: Optional[mmap.mmap] = None
        self.json_path: Optional[str] = None

    # -- opening ------------------------------------------------------------

    def open_path(self, source: Any) -> None:
        given = os.fspath(source)
        path = c_path(given)
        self.name = os.fsdecode(given)
        try:
            before = os.stat(path)
        except OSError:
            before = None                   # libmtlbx says why, as it says it for the program
        rc = _n.lib.mtlbx_open_filename(self.ptr, path)
        if rc == _n.FATAL:
            raise self.error(filename=given)
        # A descriptor of the file libmtlbx mapped, for the guard: the same
        # file when the path still names the file stat saw before the open.
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return
        st = os.fstat(fd)
        if before is None or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            os.close(fd)
            return
        self.fd, self.size = fd, st.st_size

    def open_fileobj(self, fileobj: Any) -> None:
        name = getattr(fileobj, "name", None)
        if isinstance(name, (str, bytes)) and name:
            self.name = os.fsdecode(name)
            self.json_path = self.name
        else:
            self.name = "<memory>"
        if isinstance(fileobj, io.BytesIO):
            self.open_buffer(fileobj.getvalue(), self.name)
            return
        try:
            fd = fileobj.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            fd = None
        if fd is not None and self.map(fd):
            return
        if hasattr(fileobj, "seek") and getattr(fileobj, "seekable", lambda: False)():
            fileobj.seek(0)
        data = fileobj.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("mtlbx.open: the file object must be binary (open(path, 'rb'))")
        self.open_buffer(data, self.name)

    def map(self, fd: int) -> bool:
        """Maps the whole file fd is open on; False when it cannot be
        mapped (a pipe, an empty file): the caller reads it instead."""
        try:
            st = os.fstat(fd)
            if st.st_size == 0 or not (st.st_mode & 0o170000 == 0o100000):
                return False
            # ACCESS_COPY: a private mapping ctypes can point at (it
            # takes only writable buffers); nothing ever writes to it.
            mapping = mmap.mmap(fd, st.st_size, access=mmap.ACCESS_COPY)
        except (OSError, ValueError, OverflowError):
            return False
        self.fd = os.dup(fd)
        if hasattr(os, "set_inheritable"):
            os.set_inheritable(self.fd, False)
        self.size = st.st_size
        self.mapping = mapping
        self.keep = (ctypes.c_char * st.st_size).from_buffer(mapping)
        self.open_memory(ctypes.addressof(self.keep), st.st_size)
        return True

    def open_buffer(self, data: Any, name: Optional[str]) -> None:
        self.name = name or "<memory>"
        # Bytes cannot change under libmtlbx; anything else is copied once.
        self.keep = data if isinstance(data, bytes) else bytes(data)
        self.open_memory(self.keep, len(self.keep))

    def open_memory(self, buf: Any, size: int) -> None:
        rc = _n.lib.mtlbx_open_memory(self.ptr, buf, size)
        if rc == _n.FATAL:
            raise self.error()

    # -- every call -----------------------------------------------------------

    def check(self) -> None:
        """Under the lock, before a call that reads the file: raises when
        the file is closed, or shrank since it was opened."""
        if self.ptr is None:
            raise ValueError("mtlbx: %s: the file is closed" % (self.name or "<memory>"))
        if self.fd is None:
            return
        if not self.shrank:
            try:
                now = os.fstat(self.fd).st_size
            except OSError:
                now = 0
            if now >= self.size:
                return
            self.shrank = True
        raise Error("%s: the file shrank while open (it was %d bytes when opened): its bytes can no longer be "
                    "read" % (self.name, self.size), None, _errno.EIO, self.name)

    def error(self, filename: Any = None) -> Exception:
        """The handle's last failure as the exception to raise."""
        code = _n.lib.mtlbx_errno(self.ptr)
        message = named(text(_n.lib.mtlbx_error_string(self.ptr)) or "failed", self.name)
        offset = _n.lib.mtlbx_error_offset(self.ptr)
        if code == _errno.ENOMEM:
            return MemoryError(message)
        if code and code != _errno.EINVAL and filename is not None:
            return OSError(code, os.strerror(code), filename)
        return Error(message, None if offset < 0 else offset, code, self.name)

    # -- the end --------------------------------------------------------------

    def free(self) -> None:
        """Frees the handle once no other thread is in a call on it."""
        with self.lock:
            self.release()

    def release(self) -> None:
        if self.ptr:
            _n.lib.mtlbx_free(self.ptr)
            self.ptr = None
        # The mapping goes after the handle that read it.
        self.keep = None
        if self.mapping is not None:
            self.mapping.close()
            self.mapping = None
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
