"""mtlbx.check: the release gate of `mtlbx check` through libmtlbx (its
mtlbx_gate_* calls), never by running the program. Internal to the mtlbx
module; Finding and check are exported from it."""

import ctypes
import errno as _errno
import os
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from . import _native as _n
from ._errors import Error, c_path, c_text, text

__all__ = ["Finding", "check"]

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

#: What the findings call a list of names given as expect=[...].
EXPECT_LIST_NAME = "the expect list"


class Finding:
    """One finding of the gate: what one line of `mtlbx check --json` says.

    .file the library it is about, as check names it (PATH,
    ARCHIVE!MEMBER, HOST!SEGMENT,SECTION); .member the part inside an
    archive or Mach-O host ("" for a file of its own); .offset its byte
    offset; .severity "error" or "warning"; .message the text; .rule what
    made it: "diagnostic" (the bytes themselves), "os" (an os= target),
    "os-declared" (the package's declared minimum), "expect" (a name the
    expect list holds that the operand does not).
    """

    __slots__ = ("file", "offset", "severity", "message", "rule", "member")

    def __init__(self, file: str, offset: int, severity: str, message: str, rule: str, member: str = "") -> None:
        self.file = file
        self.offset = offset
        self.severity = severity
        self.message = message
        self.rule = rule
        self.member = member

    def _key(self) -> tuple:
        return (self.file, self.offset, self.severity, self.message, self.rule)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Finding) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "<mtlbx.Finding %s:%d: %s: %s (%s)>" % (self.file, self.offset, self.severity, self.message, self.rule)


def _error(g: int, what: str) -> Exception:
    """The exception for the gate's last error: MemoryError, OSError (a
    system error, FileNotFoundError for a path that is not there), or
    mtlbx.Error (the file's own problem or a bad argument)."""
    code = _n.lib.mtlbx_gate_errno(g)
    message = text(_n.lib.mtlbx_gate_error_string(g)) or "failed"
    if code == _errno.ENOMEM:
        return MemoryError(message)
    if code and code != _errno.EINVAL:
        return OSError(code, os.strerror(code), what)
    return Error(message, None, code, what)


def _as_list(value: Union[PathArg, Iterable[PathArg]]) -> List[PathArg]:
    if isinstance(value, (str, bytes, os.PathLike)):
        return [value]
    return list(value)


def _findings(g: int) -> List[Finding]:
    found = []
    file = ctypes.c_char_p()
    offset = ctypes.c_int64()
    severity = ctypes.c_int()
    rule = ctypes.c_char_p()
    for i in range(_n.lib.mtlbx_gate_finding_count(g)):
        message = _n.lib.mtlbx_gate_finding(g, i, ctypes.byref(file), ctypes.byref(offset), ctypes.byref(severity),
                                            ctypes.byref(rule))
        found.append(Finding(text(file.value) or "", offset.value, "error" if severity.value == 2 else "warning",
                             text(message) or "", text(rule.value) or "",
                             text(_n.lib.mtlbx_gate_finding_member(g, i)) or ""))
    return found


def _problems(g: int) -> List[Tuple[str, Optional[int], str]]:
    out = []
    path = ctypes.c_char_p()
    offset = ctypes.c_int64()
    for i in range(_n.lib.mtlbx_gate_problem_count(g)):
        message = _n.lib.mtlbx_gate_problem(g, i, ctypes.byref(path), ctypes.byref(offset))
        out.append((text(path.value) or "", None if offset.value < 0 else offset.value, text(message) or ""))
    return out


def _set_expect(g: int, expect: Union[PathArg, Iterable[str]]) -> None:
    if isinstance(expect, (str, bytes, os.PathLike)):
        raw = c_path(expect)
        if _n.lib.mtlbx_gate_expect(g, raw) == _n.FAILED:
            raise _error(g, text(raw) or "")
        return
    names = [c_text(name, "expect name") for name in expect]
    for name in names:
        if b"\n" in name:
            raise ValueError("mtlbx.check: an expect name holds a line break: %r" % name)
    body = b"".join(name + b"\n" for name in names)
    if _n.lib.mtlbx_gate_expect_text(g, EXPECT_LIST_NAME.encode(), body, len(body)) == _n.FAILED:
        raise _error(g, EXPECT_LIST_NAME)


def check(paths: Union[PathArg, Iterable[PathArg]], os: Union[None, str, Iterable[str]] = None,
          expect: Union[None, PathArg, Iterable[str]] = None) -> List[Finding]:
    """The release gate on `paths` (a path or a list of them): the findings
    `mtlbx check --json` prints for the same operands, in its order.

    paths: what `mtlbx check` takes: metallib files (plain or fat),
    folders (walked), archives (wheels, .ipa, .zip, tars), Mach-O hosts,
    ARCHIVE!MEMBER.

    os: "macOS:14.0", "declared" (each library against the minimum its
    package declares: a wheel's platform tags, an app's Info.plist, a
    Mach-O host's build version), or a list of them (one version per
    platform).

    expect: the names every operand must still hold (rule "expect"): a
    path, read as `--expect LIST` reads it (a text file of names or globs,
    a metallib, or a folder, archive or Mach-O host whose every function
    is expected), or a list of names and shell globs.

    What check reports on stderr (a file it cannot open, a damaged archive
    member) is raised once every operand is checked, naming the first:
    mtlbx.Error for a file's own problem, OSError (FileNotFoundError, ...)
    for the system's, MemoryError. The exception's .findings holds the
    findings of the rest, its .problems each (path, offset or None,
    message), as check's exit status 2 would say.
    """
    targets = [] if os is None else [os] if isinstance(os, str) else list(os)
    operands = _as_list(paths)  # type: ignore[arg-type]
    g = _n.lib.mtlbx_gate_new()
    if not g:
        raise MemoryError("mtlbx.check: out of memory")
    try:
        for target in targets:
            if _n.lib.mtlbx_gate_os(g, c_text(target, "os")) == _n.FAILED:
                raise _error(g, target)
        if expect is not None:
            _set_expect(g, expect)
        first: Optional[Exception] = None
        for path in operands:
            raw = c_path(path)
            if _n.lib.mtlbx_gate_add_path(g, raw) == _n.FAILED and first is None:
                first = _error(g, text(raw) or "")
        found = _findings(g)
        if first is not None:
            first.findings = found  # type: ignore[attr-defined]
            first.problems = _problems(g)  # type: ignore[attr-defined]
            raise first
        return found
    finally:
        _n.lib.mtlbx_gate_free(g)
