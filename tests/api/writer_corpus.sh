#!/bin/sh
# writer.sh on every Apple-built executable library of $MTLBX_CORPUS (skips without it).
WRITER_FILES=corpus
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/writer.sh"
