"""mtlbx.check: the release gate of `mtlbx check` through libmtlbx (its
mtlbx_gate_* calls), never by running the program. Internal to the mtlbx
module; Finding and check are exported from it."""

import ctypes
import errno as _errno
import os
from typing import Iterable, List, Optional, Sequence, Union

from . import _native as _n
from ._errors import Error, c_path, c_text, text

__all__ = ["Finding", "check"]

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class Finding:
    """One finding of the gate: what one line of `mtlbx check --json` says.

    .file the library it is about (the path as given), .offset its byte
    offset, .severity "error" or "warning", .message the text, .rule what
    made it ("diagnostic": the bytes themselves; "os": an --os target).
    """

    __slots__ = ("file", "offset", "severity", "message", "rule")

    def __init__(self, file: str, offset: int, severity: str, message: str, rule: str) -> None:
        self.file = file
        self.offset = offset
        self.severity = severity
        self.message = message
        self.rule = rule

    def _key(self) -> tuple:
        return (self.file, self.offset, self.severity, self.message, self.rule)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Finding) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "<mtlbx.Finding %s:%d: %s: %s (%s)>" % (self.file, self.offset, self.severity, self.message, self.rule)


def _raise(g: int, what: str) -> None:
    code = _n.lib.mtlbx_gate_errno(g)
    message = text(_n.lib.mtlbx_gate_error_string(g)) or "failed"
    if code == _errno.ENOTSUP:
        raise NotImplementedError("mtlbx.check: " + message)
    if code == _errno.ENOMEM:
        raise MemoryError(message)
    if code and code != _errno.EINVAL:
        raise OSError(code, os.strerror(code), what)
    raise Error(message, None, code, what)


def _as_list(value: Union[PathArg, Sequence[PathArg]]) -> List[PathArg]:
    if isinstance(value, (str, bytes, os.PathLike)):
        return [value]
    return list(value)


def check(paths: Union[PathArg, Iterable[PathArg]], os: Union[None, str, Iterable[str]] = None,
          expect: Union[None, PathArg, Iterable[str]] = None) -> List[Finding]:
    """The release gate on `paths` (a path or a list of them): the findings
    `mtlbx check --json` prints for the same operands, in its order.

    os: "macOS:14.0" or a list of such targets (one version per platform).
    A file that cannot be opened raises what mtlbx.open would (mtlbx.Error,
    FileNotFoundError, ...), naming it.

    This version checks metallib files (plain or fat) against
    PLATFORM:VERSION targets. Folders, archives (wheels, .ipa, .zip),
    Mach-O hosts, os="declared" and expect are not yet through the library:
    they raise NotImplementedError rather than pass with no finding.
    """
    if expect is not None:
        raise NotImplementedError("mtlbx.check: expect is not yet checked through the library")
    targets = [] if os is None else [os] if isinstance(os, str) else list(os)
    operands = _as_list(paths)  # type: ignore[arg-type]
    g = _n.lib.mtlbx_gate_new()
    if not g:
        raise MemoryError("mtlbx.check: out of memory")
    try:
        for target in targets:
            if _n.lib.mtlbx_gate_os(g, c_text(target, "os")) == _n.FAILED:
                _raise(g, target)
        for path in operands:
            raw = c_path(path)
            if _n.lib.mtlbx_gate_add_path(g, raw) == _n.FAILED:
                _raise(g, text(raw) or "")
        found = []
        file = ctypes.c_char_p()
        offset = ctypes.c_int64()
        severity = ctypes.c_int()
        rule = ctypes.c_char_p()
        for i in range(_n.lib.mtlbx_gate_finding_count(g)):
            message = _n.lib.mtlbx_gate_finding(g, i, ctypes.byref(file), ctypes.byref(offset),
                                                ctypes.byref(severity), ctypes.byref(rule))
            found.append(Finding(text(file.value) or "", offset.value,
                                 "error" if severity.value == 2 else "warning", text(message) or "",
                                 text(rule.value) or ""))
        return found
    finally:
        _n.lib.mtlbx_gate_free(g)
