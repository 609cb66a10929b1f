#!/bin/sh
# Replays the fuzzers' committed inputs through the harnesses built
# without libFuzzer: the seed corpus, and every input that once crashed a
# harness (tests/fuzz/regress/<harness>/, one file per finding, named
# after it). Each harness aborts on any broken promise, so a regression
# fails this test; in CI it runs under ASan and UBSan.
set -eu
: "${MTLBX_SRCDIR:?}" "${MTLBX_BUILDDIR:?}"
fz="$MTLBX_SRCDIR/tests/fuzz"
"$MTLBX_BUILDDIR/tests/fuzz_replay_parser" "$fz/seeds/parser" "$fz/regress/parser" \
    "$MTLBX_SRCDIR/data/sample.metallib" "$MTLBX_SRCDIR"/tests/fixtures/*.metallib
"$MTLBX_BUILDDIR/tests/fuzz_replay_format" "$fz/seeds/format" "$fz/regress/format"
# regress/bitcode exists once the bitcode harness has had a finding
bitcode_regress=
[ -d "$fz/regress/bitcode" ] && bitcode_regress="$fz/regress/bitcode"
"$MTLBX_BUILDDIR/tests/fuzz_replay_bitcode" "$fz/seeds/bitcode" $bitcode_regress
# the writer's inputs: manifests and AIR modules (regress/writer once it has had a finding)
writer_regress=
[ -d "$fz/regress/writer" ] && writer_regress="$fz/regress/writer"
"$MTLBX_BUILDDIR/tests/fuzz_replay_writer" "$fz/seeds/writer" $writer_regress
# The Mach-O reader (seeds written by tests/mkmacho.py --seeds)
macho_regress=
[ -d "$fz/regress/macho" ] && macho_regress="$fz/regress/macho"
"$MTLBX_BUILDDIR/tests/fuzz_replay_macho" "$fz/seeds/macho" $macho_regress
