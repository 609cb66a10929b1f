#!/bin/sh
# Binary archives (issue 45, FORMAT.md §24): fat files whose slices hold
# compiled GPU code beside the AIR64 metallib. Built at test time by
# tests/mkgpuarchive.py from the one public sample in
# ../shared/gpu-archives (skips without it): other slice orders, several
# GPU slices, AMD and Intel slices, hostile load commands.
#   check      clean on valid archives, every byte claimed; findings with
#              offsets on hostile ones, each in under a second, no crash
#   dump       GPU_BINARY's sections and functions as the script's own
#              reading of the Mach-O finds them; the embedded library read
#   info, ls, find  the GPU family, its functions and sections
#   thin       AIR64 and AMD slices cut byte for byte; absent ones refused
#   unpack     refuses a binary archive saying so (the GPU slices and where,
#              and thin to air64 first), writes nothing; the thinned AIR
#              unpacks and packs back byte for byte
#   diff       a change of GPU code (or of where it stands) is never identical
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
SAMPLE=${MTLBX_GPU_ARCHIVES:-$SRC/../shared/gpu-archives}/objectfile-jl-macmetal-dummy
[ -f "$SAMPLE" ] || { echo "SKIP: no GPU archive sample at $SAMPLE"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
M=$MTLBX_BIN
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-gpu.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
. "$SRC/tests/expect_lib.sh"
cd "$W" || exit 1
python3 "$SRC/tests/mkgpuarchive.py" "$SAMPLE" v || exit 1
VALID="gpu-air air-gpu amd-air three four"

# ---- check and the layout ---------------------------------------------------
cp "$SAMPLE" v/sample.fat
for v in sample $VALID; do
    expect 0 "check is clean on $v" -- "$M" check "v/$v.fat"
    [ -s out ] && fail "$v: findings on a valid archive: $(head -3 out)"
    "$M" info "v/$v.fat" >info
    grep -q '(every byte explained)' info && ok "$v: every byte claimed" || fail "$v: $(grep Claimed info)"
done

# ---- dump --json against the script's own reading ---------------------------
for v in sample $VALID; do
    python3 "$SRC/tests/mkgpuarchive.py" --expect "v/$v.fat" >want.json || { fail "$v: script"; continue; }
    expect 0 "dump --json $v" -- "$M" dump --json "v/$v.fat"
    python3 - want.json out "$v" <<'EOF' && ok "$v: GPU_BINARY as the Mach-O says" || fail "$v: GPU_BINARY differs"
import json, sys
want = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2])); name = sys.argv[3]
bad = []
slices = doc["fat"]["slices"]
gpu = [i for i, s in enumerate(slices) if s["gpu_binary"]]
if gpu != [w["slice"] for w in want]:
    bad.append("GPU slices %s, wanted %s" % (gpu, [w["slice"] for w in want]))
for w in want:
    g = slices[w["slice"]]["gpu_binary"]
    if g["sections"] != w["sections"]:
        bad.append("slice %d sections %s" % (w["slice"], g["sections"]))
    got = [{k: f[k] for k in ("name", "symbol", "offset", "size", "entry")} for f in g["functions"]]
    if got != w["functions"]:
        bad.append("slice %d functions %s, wanted %s" % (w["slice"], got, w["functions"]))
    lib = g["embedded_library"]
    meta = [s for s in w["sections"] if s["section"] == "__metallib"][0]
    if lib is None or doc["libraries"][lib]["offset"] != meta["offset"]:
        bad.append("slice %d: embedded library %s not at __metallib %d" % (w["slice"], lib, meta["offset"]))
    elif [f["name"] for f in doc["libraries"][lib]["functions"]] != [f["name"] for f in w["functions"]]:
        bad.append("slice %d: the embedded library's functions are not the GPU code's" % w["slice"])
    if slices[w["slice"]]["library"] is not None:
        bad.append("a GPU slice names a library of its own")
for i, s in enumerate(slices):
    if s["cpu"] == "AIR64" and (s["library"] is None or doc["libraries"][s["library"]]["offset"] != s["offset"]):
        bad.append("AIR64 slice %d: library %s" % (i, s["library"]))
if doc["diagnostics"]:
    bad.append("diagnostics %s" % doc["diagnostics"])
for b in bad:
    print("  " + name + ": " + b)
sys.exit(1 if bad else 0)
EOF
done

# ---- info, ls, find ---------------------------------------------------------
expect 0 "info on four slices" -- "$M" info v/four.fat
for want in "Apple GPU" "AMD GPU" "Intel GPU" "_Z18julia_identity_613v" "__compute" "__metallib"; do
    grep -q -- "$want" out && ok "info names $want" || fail "info does not name $want"
done
expect 0 "ls on four slices" -- "$M" ls v/four.fat
grep -q 'applegpu.*_Z18julia_identity_613v' out && grep -q 'amdgpu.*_Z18julia_identity_613v' out &&
    ok "ls lists the GPU code of each slice" || fail "ls: $(cat out)"
expect 0 "find on an archive" -- "$M" find v/three.fat
grep -q 'applegpu' out && grep -q 'amdgpu' out && ok "find names the GPUs with code" || fail "find: $(cat out)"

# ---- the C API, through Python (the build's libmtlbx) -----------------------
BUILD=${MTLBX_BUILDDIR:-$(dirname "$(dirname "$M")")}
SO=$BUILD/src/lib/.libs/libmtlbx.so.1
if [ -f "$SO" ]; then
    "$M" dump --json v/four.fat >four.json
    # A sanitizer build's library needs the ASan runtime first in python
    # (as tests/api/api_lib.sh does it), and no leak check of python.
    ASAN_RUNTIME=$(ldd "$SO" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
    if PYTHONPATH=$SRC/python LD_LIBRARY_PATH=$BUILD/src/lib/.libs \
        LD_PRELOAD="$ASAN_RUNTIME${LD_PRELOAD:+${ASAN_RUNTIME:+:}$LD_PRELOAD}" \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        python3 - v/four.fat four.json >py.out 2>&1 <<'EOF2'
import json, sys, mtlbx
doc = json.load(open(sys.argv[2]))
data = open(sys.argv[1], "rb").read()
with mtlbx.open(sys.argv[1]) as f:
    got = [(s.offset, s.size, s.library.index if s.library else None,
            s.embedded_library.index if s.embedded_library else None,
            [(g.name, g.symbol, g.offset, g.size, g.entry) for g in s.gpu_functions]) for s in f.slices]
    arches = [s.arch for s in f.slices]
    codes = all(g.code == data[g.offset:g.offset + g.size] and g.function is not None and g.function.name == g.name
                for s in f.slices for g in s.gpu_functions)
want = [(s["offset"], s["size"], s["library"], s["gpu_binary"]["embedded_library"] if s["gpu_binary"] else None,
         [(g["name"], g["symbol"], g["offset"], g["size"], g["entry"])
          for g in (s["gpu_binary"] or {}).get("functions", [])]) for s in doc["fat"]["slices"]]
ok = got == want and codes and arches == ["applegpu", "intelgpu", "air64", "amdgpu"]
print(got if not ok else "ok")
sys.exit(0 if ok else 1)
EOF2
    then ok "Python's slices and GPU functions (the C API) are dump's"
    else fail "Python's slices: $(cat py.out)"
    fi
else
    echo "note: no build libmtlbx.so.1 beside $M: the API part is not run"
fi

# ---- thin -------------------------------------------------------------------
expect 0 "thin air64" -- "$M" thin v/four.fat air64 -o air
cmp -s air v/air64.slice && ok "the AIR64 slice byte for byte" || fail "thin air64 is not the slice"
expect 0 "thin amdgpu" -- "$M" thin v/three.fat amdgpu -o amd
cmp -s amd v/amdgpu.slice && ok "the AMD slice byte for byte" || fail "thin amdgpu is not the slice"
expect 0 "thin applegpu air64 (by name)" -- "$M" thin v/four.fat applegpu air64 -o two
cmp -s two "$SAMPLE" && ok "two slices as a fat file: the sample again" || fail "thin of two slices"
expect 0 "thin 0 2 (by index)" -- "$M" thin v/four.fat 0 2 -o two-idx
cmp -s two two-idx && ok "by index as by name" || fail "thin by index differs"
expect 0 "the thinned fat file checks clean" -- "$M" check two
expect 2 "thin of an absent slice" -- "$M" thin v/gpu-air.fat amdgpu -o none
[ ! -e none ] && grep -q 'applegpu (slice 0), air64 (slice 1)' err && ok "refused naming what the file holds" ||
    fail "absent slice: $(cat err)"
expect 2 "thin over an existing file" -- "$M" thin v/four.fat air64 -o air
expect 2 "thin of a plain metallib" -- "$M" thin air air64 -o plain
ls -a | grep -q '^\.mtlbx' && fail "a temporary was left behind" || ok "no temporary left"

# ---- unpack: refused plainly, with the way round ------------------------------
expect 2 "unpack of a binary archive" -- "$M" unpack v/four.fat -o up
grep -Fq "v/four.fat:96: cannot unpack: it holds GPU slices (applegpu at 96, intelgpu at 6752, amdgpu at 16496)" err &&
    ok "the refusal names the GPU slices and where" || fail "unpack: $(cat err)"
grep -Fq '`mtlbx thin v/four.fat air64 -o OUT`' err && ok "and says to thin to air64 first" || fail "unpack: $(cat err)"
grep -q "bytes differ" err && fail "unpack still says the bytes differ: $(cat err)"
[ -e up ] && fail "unpack of an archive wrote up/" || ok "nothing written"
expect 0 "thin applegpu amdgpu (no AIR64 left)" -- "$M" thin v/three.fat applegpu amdgpu -o gpu-only
expect 2 "unpack of GPU slices alone" -- "$M" unpack gpu-only -o up
grep -Fq "(applegpu at 48, amdgpu at 6704) and no air64 slice" err && ok "no air64 slice to thin to: said" ||
    fail "unpack: $(cat err)"
grep -q "thin" err && fail "a way round that does not exist: $(cat err)"
expect 0 "the way round: unpack of the thinned AIR" -- "$M" unpack air -o up
expect 0 "pack of it" -- "$M" pack up -o air-again
cmp -s air air-again && ok "the AIR slice back byte for byte" || fail "pack of the unpacked AIR differs"

# ---- diff: GPU code is compared too ------------------------------------------
expect 0 "diff of an archive with itself" -- "$M" diff v/gpu-air.fat "$SAMPLE"
grep -q ': identical' out && ok "the same bytes are identical" || fail "diff: $(cat out)"
expect 1 "diff of an Apple slice and an AMD one (the same AIR)" -- "$M" diff v/gpu-air.fat v/amd-air.fat
grep -q '1 GPU slice changed' out && ok "the GPU code's change is named" || fail "diff: $(cat out)"
expect 1 "diff of two slice orders" -- "$M" diff v/gpu-air.fat v/air-gpu.fat
grep -q 'GPU slices changed' out && ok "moved GPU slices are a change" || fail "diff: $(cat out)"
"$M" diff --json v/gpu-air.fat v/amd-air.fat | grep -q '"gpu_slices_changed": 1' && ok "diff --json counts it" ||
    fail "diff --json has no gpu_slices_changed"

# ---- hostile GPU slices -----------------------------------------------------
for f in v/hostile-*.fat; do
    n=$(basename "$f" .fat)
    start=$(date +%s%N)
    timeout 20 "$M" check "$f" >out 2>err
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ "$rc" -eq 1 ] || { fail "$n: check exit $rc"; continue; }
    grep -Eq "^$f:[0-9]+: (error|warning): " out && ok "$n: findings with offsets (${ms} ms)" ||
        fail "$n: $(head -2 out)"
    [ "$ms" -lt 1000 ] || fail "$n: $ms ms"
    timeout 20 "$M" dump --json "$f" >/dev/null 2>&1
    [ $? -le 1 ] || fail "$n: dump --json crashed"
    timeout 20 "$M" info "$f" >/dev/null 2>&1
    [ $? -le 1 ] || fail "$n: info crashed"
done
exit $FAILED
