#!/bin/sh
# The Python module over the installed libmtlbx (issue 32, LIBRARY.md):
# pytest (Debian's python3-pytest) runs tests/api/test_mtlbx.py with the
# module make check installed into the scratch prefix, and the configured
# Python (CI has only the system's). Skips when that Python has no pytest.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
need_python
"$PYTHON" -c 'import pytest' 2>/dev/null ||
    { echo "SKIP: $PYTHON has no pytest (Debian: apt-get install python3-pytest)"; exit 77; }
site=$(ls -d "$PREFIX"/lib/python3*/*-packages 2>/dev/null | head -n 1)
[ -f "$site/mtlbx/__init__.py" ] || { fail "the module is not installed under $PREFIX"; finish; }
export PYTHONPATH="$site"
export MTLBX_TEST_BIN="$BIN" MTLBX_TEST_SRCDIR="$SRC" MTLBX_TEST_WORK="$WORK"
export MTLBX_TEST_ASAN="$ASAN_RUNTIME"
# The module must be the installed one, over the installed library.
with_python -c 'import mtlbx, sys; sys.exit(not mtlbx.__file__.startswith(sys.argv[1]))' "$site" ||
    { fail "import mtlbx does not load the installed module"; finish; }
with_python -B -m pytest -q -p no:cacheprovider "$SRC/tests/api/test_mtlbx.py" || FAILED=1
finish
