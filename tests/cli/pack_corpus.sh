#!/bin/sh
# The writer on the real libraries of the corpus (issue 33):
#   - pack(unpack(X)) == X byte for byte for every corpus library, fat files
#     and the symbol companion included; no manifest holds a layout number;
#     the quirks each needs are counted (README, "Packing libraries");
#   - every Apple-built executable library whose header names its target:
#     its modules (`mtlbx extract`) packed with that target give a library
#     that check reads without a finding, of the container version Apple
#     wrote, whose functions have the original's name, type, AIR and MSL
#     versions, HASH, function constants (CNST) and vertex attributes
#     (VATT/VATY).
# Skips (exit 77) when the corpus is absent.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-packc.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# --- round trip -----------------------------------------------------------------
n=0
total=0
for f in "$CORPUS"/*.metallib "$CORPUS"/*.metallibsym; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    # Not a metallib at all (yuao-failure): unpack says so, exit 2.
    if [ "$(head -c 4 "$f")" != MTLB ] && [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' ')" != cbfebabe ]; then
        "$MTLBX_BIN" unpack "$f" -o "$WORK/$b.d" >/dev/null 2>&1
        [ $? -eq 2 ] && [ ! -e "$WORK/$b.d" ] || fail "$b is not a metallib, but unpack did not refuse it"
        continue
    fi
    total=$((total + 1))
    if ! "$MTLBX_BIN" unpack "$f" -o "$WORK/$b.d" >/dev/null 2>"$WORK/err"; then
        fail "unpack $b: $(cat "$WORK/err")"
    elif ! "$MTLBX_BIN" pack "$WORK/$b.d" -o "$WORK/$b.out" 2>"$WORK/err"; then
        fail "pack $b: $(cat "$WORK/err")"
    elif ! cmp -s "$f" "$WORK/$b.out"; then
        fail "$b: pack(unpack(X)) differs from X"
    else
        n=$((n + 1))
    fi
    rm -f "$WORK/$b.out"
done
[ $n -eq $total ] && ok "pack(unpack(X)) == X for all $total corpus libraries"

# No layout number in any manifest; the quirks counted.
python3 - "$WORK" <<'EOF' || fail "a manifest holds layout numbers"
import glob, json, os, sys
bad, quirks = [], {}
def walk(v, path, name):
    if isinstance(v, dict):
        for k, x in v.items():
            if k.lower() in ("offset", "size", "mdsz", "offt", "hash", "soff", "rflt", "length"):
                bad.append(path + "." + k)
            if k.startswith("quirk_"):
                quirks.setdefault(k, set()).add(name)
            walk(x, path + "." + k, name)
        if v.get("tag") in ("HASH", "OFFT", "MDSZ", "SOFF", "RFLT", "HSRC", "HSRD", "HDYN", "VLST", "ILST",
                            "RLST", "SLST") and set(v) & {"hex", "string", "uuid", "aligned"}:
            bad.append(path + " holds a value for " + v["tag"])
        if v.get("metadata_prefix") == "excludes-itself":
            quirks.setdefault("metadata_prefix excludes-itself", set()).add(name)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s[%d]" % (path, i), name)
manifests = glob.glob(os.path.join(sys.argv[1], "*.d", "manifest.json"))
for p in manifests:
    name = os.path.basename(os.path.dirname(p))[:-2]
    walk(json.load(open(p)), name, name)
for k in sorted(quirks):
    print("note: %s: %d of %d files" % (k, len(quirks[k]), len(manifests)))
if bad:
    print("\n".join(bad[:5]))
    sys.exit(1)
print("ok: no manifest of the %d holds a layout number" % len(manifests))
EOF

# --- modules packed for their own target -----------------------------------------
# The executable libraries whose header names a target: TARGET<TAB>FILE.
for f in "$CORPUS"/*.metallib; do
    "$MTLBX_BIN" info "$f" 2>/dev/null | awk -v f="$f" '
        /^Fat container/ { fat = 1 }
        $1 == "file" && $2 == "type" { type = $3 }
        $1 == "target" && $2 != "unknown" { target = $2 ":" $3 }
        END { if (!fat && type == "executable" && target != "") print target "\t" f }'
done >"$WORK/targets"
packed=0
while IFS="$(printf '\t')" read -r target f; do
    b=$(basename "$f" .metallib)
    mkdir -p "$WORK/m/$b"
    "$MTLBX_BIN" extract "$f" -o "$WORK/m/$b" >/dev/null 2>&1 || continue # a library with no function
    if ! "$MTLBX_BIN" pack "$WORK/m/$b"/*.air --target "$target" -o "$WORK/m/$b.metallib" 2>"$WORK/err"; then
        fail "pack --target $target of $b's modules: $(cat "$WORK/err")"
        continue
    fi
    "$MTLBX_BIN" check "$WORK/m/$b.metallib" >"$WORK/check" 2>&1 ||
        fail "$b packed for $target: check: $(head -3 "$WORK/check")"
    echo "$f	$WORK/m/$b.metallib" >>"$WORK/pairs"
    packed=$((packed + 1))
done <"$WORK/targets"
[ $packed -ge 20 ] || fail "only $packed corpus libraries were packed from their modules"
python3 - "$MTLBX_BIN" "$WORK/pairs" <<'EOF' || FAILED=1
import json, subprocess, sys
mtlbx, pairs = sys.argv[1], sys.argv[2]
def lib(path):
    return json.loads(subprocess.run([mtlbx, "dump", "--json", path], capture_output=True, check=True).stdout)["libraries"][0]
keys = ("type", "air_version", "language_version", "hash", "constants", "vertex_attributes")
bad = 0
n = 0
for line in open(pairs):
    orig, packed = line.rstrip("\n").split("\t")
    a, b = lib(orig), lib(packed)
    fa = {f["name"]: f for f in a["functions"]}
    fb = {f["name"]: f for f in b["functions"]}
    problems = []
    if sorted(fa) != sorted(fb):
        problems.append("function names differ")
    if a["container_version"] != b["container_version"]:
        problems.append("container %s, Apple's %s" % (b["container_version"], a["container_version"]))
    for name, f in fa.items():
        for k in keys:
            if name in fb and fb[name][k] != f[k]:
                problems.append("%s: %s %r, the original's %r" % (name, k, fb[name][k], f[k]))
    if problems:
        bad += 1
        print("FAIL: %s: %s" % (orig.split("/")[-1], "; ".join(problems[:3])))
    n += 1
if not bad:
    print("ok: %d libraries packed from their modules for their own target: the same functions (name, type, "
          "AIR and MSL versions, HASH, CNST, VATT/VATY) and the container version Apple wrote" % n)
sys.exit(1 if bad else 0)
EOF

exit $FAILED
