#!/bin/sh
# Hostile GPU slices (issue 45): the GPU slice reader's harness
# (tests/fuzz/fuzz_gpu_slice.c, built with replay.c's main) on the
# binary-archive variants tests/mkgpuarchive.py builds from
# ../shared/gpu-archives, on seeded mutations of their GPU slice (load
# commands, section and symbol records, the string table), and on
# tests/fuzz/regress/gpu_slice/ once it has files; then `mtlbx check` on
# each mutation: findings or none, never a crash, each in under a second.
# Under ASan and UBSan in CI. Skips (77) without the sample.
: "${MTLBX_SRCDIR:?}" "${MTLBX_BUILDDIR:?}"
M=${MTLBX_BIN:-$MTLBX_BUILDDIR/src/mtlbx}
SAMPLE=${MTLBX_GPU_ARCHIVES:-$MTLBX_SRCDIR/../shared/gpu-archives}/objectfile-jl-macmetal-dummy
[ -f "$SAMPLE" ] || { echo "SKIP: no GPU archive sample at $SAMPLE"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-gpuh.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
python3 "$MTLBX_SRCDIR/tests/mkgpuarchive.py" "$SAMPLE" "$W/v" || exit 1
cp "$SAMPLE" "$W/v/sample.fat"
# Mutations: bytes of the GPU slice's first 0x320 (header and load
# commands) and of its symbol and string tables set to values that
# stretch bounds (0, 0xff.., counts and offsets near 2^32), a few at a time.
mkdir "$W/m"
python3 - "$W/v/sample.fat" "$W/m" <<'PY' || exit 1
import random, struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
base = struct.unpack_from(">I", data, 16)[0]          # slice 0's offset
size = struct.unpack_from(">I", data, 20)[0]
rng = random.Random(45)
areas = [(base, base + 0x320), (base + 0x1850, base + size)]
words = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF0, size, size - 1, size + 1, 16, 0x550]
for n in range(300):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        lo, hi = rng.choice(areas)
        at = rng.randrange(lo, hi - 4) & ~3
        if rng.random() < 0.7:
            struct.pack_into("<I", b, at, rng.choice(words))
        else:
            b[at] = rng.randrange(256)
    open("%s/mut-%03d.fat" % (sys.argv[2], n), "wb").write(bytes(b))
PY
regress=
[ -d "$MTLBX_SRCDIR/tests/fuzz/regress/gpu_slice" ] && regress="$MTLBX_SRCDIR/tests/fuzz/regress/gpu_slice"
"$MTLBX_BUILDDIR/tests/fuzz_replay_gpu_slice" "$W/v" "$W/m" $regress >"$W/replay" 2>&1 ||
    { fail "the harness broke a promise"; tail -5 "$W/replay"; }
# A sanitizer build that recovers from undefined behaviour only says so.
grep -q 'runtime error' "$W/replay" && { fail "undefined behaviour:"; grep -m3 'runtime error' "$W/replay"; }
[ $FAILED -eq 0 ] && echo "ok: $(ls "$W/v" "$W/m" | wc -l) inputs through the GPU slice harness"
slow=0
for f in "$W"/m/*.fat; do
    start=$(date +%s%N)
    timeout 20 "$M" check "$f" >"$W/out" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ $rc -le 1 ] || fail "$(basename "$f"): check exit $rc: $(tail -2 "$W/out")"
    [ $ms -lt 1000 ] || { slow=$((slow + 1)); fail "$(basename "$f"): $ms ms"; }
    if [ $rc -eq 1 ] && grep -v -E ':[0-9]+: (error|warning): ' "$W/out" | grep -q .; then
        fail "$(basename "$f"): a finding without an offset: $(grep -v -E ':[0-9]+: ' "$W/out" | head -1)"
    fi
done
[ $FAILED -eq 0 ] && echo "ok: check on 300 mutated GPU slices, each under a second, every finding with an offset"
exit $FAILED
