#!/bin/sh
# The Python module over the installed libmtlbx (issue 32, LIBRARY.md):
# pytest (Debian's python3-pytest) runs tests/api/test_mtlbx.py (and
# test_gate.py, mtlbx.check) with the
# module make check installed into the scratch prefix, and the configured
# Python, or the first python3 in PATH with pytest. Skips when none has it.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
need_python
# The module is pure Python over ctypes, so any Python 3.7 or later runs
# it: when the configured one has no pytest (a pyenv or venv python3 first
# in PATH, beside Debian's python3-pytest), the next python3 in PATH that
# has it runs the tests instead, and says so.
has_pytest() { "$1" -c 'import sys, pytest; sys.exit(sys.version_info < (3, 7))' 2>/dev/null; }
if ! has_pytest "$PYTHON"; then
    configured=$PYTHON
    PYTHON=
    saved_ifs=$IFS
    IFS=:
    for dir in $PATH${PATH:+:}/usr/bin; do
        [ -x "${dir:-.}/python3" ] && has_pytest "${dir:-.}/python3" && { PYTHON=${dir:-.}/python3; break; }
    done
    IFS=$saved_ifs
    [ -n "$PYTHON" ] ||
        { echo "SKIP: no python3 with pytest ($configured has none; Debian: apt-get install python3-pytest)"; exit 77; }
    echo "note: $configured has no pytest: the tests run with $PYTHON"
fi
site=$(ls -d "$PREFIX"/lib/python3*/*-packages 2>/dev/null | head -n 1)
[ -f "$site/mtlbx/__init__.py" ] || { fail "the module is not installed under $PREFIX"; finish; }
export PYTHONPATH="$site"
export MTLBX_TEST_BIN="$BIN" MTLBX_TEST_SRCDIR="$SRC" MTLBX_TEST_WORK="$WORK"
export MTLBX_TEST_ASAN="$ASAN_RUNTIME"
# The module must be the installed one, over the installed library.
with_python -c 'import mtlbx, sys; sys.exit(not mtlbx.__file__.startswith(sys.argv[1]))' "$site" ||
    { fail "import mtlbx does not load the installed module"; finish; }
with_python -B -m pytest -q -p no:cacheprovider "$SRC/tests/api/test_mtlbx.py" "$SRC/tests/api/test_gate.py" ||
    FAILED=1
finish
