#!/bin/sh
# consumer.sh on every file of $MTLBX_CORPUS (skips without it).
CONSUMER_FILES=corpus
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/consumer.sh"
