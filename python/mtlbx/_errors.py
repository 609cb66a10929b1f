"""Errors of the mtlbx module and the checks every argument passes before
it reaches libmtlbx (a C string ends at its first NUL: "a.metallib\\0.txt"
would open a.metallib). Internal to the mtlbx module."""

import os
from typing import Optional, Union

__all__ = ["Error"]


class Error(ValueError):
    """A file libmtlbx cannot read, or a request it cannot answer.

    str(error) names the file it is about. .offset is the byte offset the
    problem is at (None when there is none); .errno the system's errno
    when the system reported it (0 for a problem of the file's format);
    .filename the file (None for a writer's modules in memory).
    """

    def __init__(self, message: str, offset: Optional[int] = None, errno: int = 0,
                 filename: Optional[str] = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.errno = errno
        self.filename = filename


def text(b: Optional[bytes]) -> Optional[str]:
    """A C string as Python text: a byte that is not UTF-8 becomes a lone
    surrogate, so that it goes back to the same byte (c_text)."""
    return None if b is None else b.decode("utf-8", "surrogateescape")


def c_text(value: Union[str, bytes], what: str) -> bytes:
    """value as the bytes of a C string; ValueError for a NUL in it, as
    Python's own open() says for a path."""
    if isinstance(value, str):
        b = value.encode("utf-8", "surrogateescape")
    elif isinstance(value, (bytes, bytearray)):
        b = bytes(value)
    else:
        raise TypeError("mtlbx: %s must be str or bytes, not %s" % (what, type(value).__name__))
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def c_path(path: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]) -> bytes:
    """A path as the bytes the system takes (os.fsencode); ValueError for a
    NUL in it, as open() says."""
    b = os.fsencode(os.fspath(path))
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def named(message: str, name: Optional[str]) -> str:
    """message, beginning with the name of the file it is about. libmtlbx
    names a file in memory "<memory>": a file object's own name replaces
    that."""
    if not name:
        return message
    if message.startswith("<memory>") and name != "<memory>":
        return name + message[len("<memory>"):]
    if message.startswith(name):
        return message
    return "%s: %s" % (name, message)
