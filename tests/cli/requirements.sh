#!/bin/sh
# Requirements (CONTRACT.md "Requirements"), the --os gate and --slice:
#   - `requires` of every function and library of every corpus file and
#     fixture, against values this test computes itself from dump --json's
#     target_os and VERS fields, the target triples llvm-dis prints for the
#     library's first, middle and last modules (the deployment target: the
#     highest, at the release level; the header's os_version only when no
#     module reads), and the rows of data/requirements.tsv, which it reads
#     on its own; where the header has no target OS, the platform comes
#     from the first module's triple (not from mtlbx's own reader);
#   - the same against ../shared/corpus/expected-more/*.json wherever those
#     hold a `requires` key;
#   - info prints "Loads on" for each library;
#   - check --os macos:13.0 on a macOS 14 corpus file exits 1 naming a
#     function, --os macos:14.0 exits 0; a platform no --os names is one
#     warning per library; a bad --os is a usage error (2);
#   - find --os: the verdict per library, exit 1 / 0;
#   - --slice N on the fat fixture: sig, dis and extract -f see slice N only,
#     a slice that is not there exits 2.
# The corpus parts skip (with a message) when ../shared/corpus is absent;
# the triple comparisons when llvm-dis is.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
FAT=$SRC/tests/fixtures/fat.metallib
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-req.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

HAVE_DIS=
"$MTLBX_BIN" dis "$FAT" blur_kernel >/dev/null 2>&1 && HAVE_DIS=1
[ -n "$HAVE_DIS" ] || echo "note: llvm-dis is not available: libraries without a target OS are not checked"

# --- requires, computed here ----------------------------------------------------
files="$SRC/tests/fixtures/fat.metallib $SRC/tests/fixtures/legacy-v122-ios.metallib $SRC/data/sample.metallib"
if [ -d "$CORPUS" ]; then
    files="$files $(ls "$CORPUS"/*.metallib "$CORPUS"/*.metallibsym 2>/dev/null)"
else
    echo "note: no corpus at $CORPUS: only the fixtures are checked"
fi
python3 - "$MTLBX_BIN" "$SRC/data/requirements.tsv" "$CORPUS" "$HAVE_DIS" $files <<'PYEOF' || FAILED=1
import json, os, re, subprocess, sys

prog, table_path, corpus, have_dis = sys.argv[1:5]
files = sys.argv[5:]

def ver(s):
    a, b = s.split(".")
    return (int(a), int(b))

# The tables, read from the data file itself.
COLS = ["macOS", "iOS", "tvOS", "macCatalyst", "visionOS"]
msl, air = {}, {}
for line in open(table_path, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    if f[0] == "msl":
        msl[ver(f[1])] = dict(zip(COLS, (ver(x) for x in f[2:7])))
    elif f[0] == "air":
        air[ver(f[1])] = ver(f[2])
    else:
        sys.exit("bad row in the table: " + line)
assert len(msl) >= 12 and len(air) >= 6, "the table lost rows"

HEADER_OS = {"macOS": "macOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
             "macCatalyst": "macCatalyst", "iOS-simulator": "iOS", "tvOS-simulator": "tvOS",
             "watchOS-simulator": "watchOS", "visionOS": "visionOS", "visionOS-simulator": "visionOS"}

def triple_os(t):
    parts = t.split("-")
    if len(parts) < 3:
        return None
    osp, env = parts[2], parts[3] if len(parts) > 3 else ""
    if env.startswith("macabi"):
        return "macCatalyst"
    for p, name in (("macos", "macOS"), ("ios", "iOS"), ("tvos", "tvOS"), ("watchos", "watchOS"),
                    ("xros", "visionOS"), ("visionos", "visionOS")):
        if osp.startswith(p):
            return name
    return None

def first_triple(path, lib_index, fn_name):
    r = subprocess.run([prog, "dis", "--slice", str(lib_index), path, fn_name], capture_output=True)
    m = re.search(rb'^target triple = "([^"]*)"', r.stdout, re.M)
    return m.group(1).decode() if m else None

def vs(v):
    return "%d.%d" % v

def triple_version(t):
    m = re.match(r"[^-]*-[^-]*-[a-z]*([0-9]+)(?:\.([0-9]+))?", t or "")
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None

def release(os_name, v):
    # the level Metal compares at (FORMAT.md §23); macOS 10.x were majors
    return v if os_name == "macOS" and v[0] == 10 else (v[0], 0)

def sampled_triples(path, li, names):
    got = []
    for name in sorted(set([names[0], names[len(names) // 2], names[-1]])) if names else []:
        v = triple_version(first_triple(path, li, name))
        if v:
            got.append(v)
    return got

def deployment_reason(os_name, dep):
    asks, needs, header = dep
    if header:
        return "deployment target %s %s in the header (no module's target triple could be read)" % (os_name, vs(asks))
    if asks != needs:
        return ("deployment target %s %s (Metal loads it on %s %s, a newer minor of the same release)"
                % (os_name, vs(asks), os_name, vs(needs)))
    return "deployment target %s %s" % (os_name, vs(asks))

def function_requires(os_name, dep, fn):
    reasons, unknown, top = [], [], None
    if dep is not None:
        reasons.append((deployment_reason(os_name, dep), dep[1]))
    if fn["language_version"] is not None:
        m, a = ver(fn["language_version"]), ver(fn["air_version"])
        if m in msl:
            if os_name in COLS:
                reasons.append(("MSL %s needs %s %s" % (vs(m), os_name, vs(msl[m][os_name])), msl[m][os_name]))
        elif m > min(msl):
            unknown.append("MSL " + vs(m))
        if a in air:
            if os_name in COLS:
                need = msl[air[a]][os_name]
                reasons.append(("AIR %s needs %s %s" % (vs(a), os_name, vs(need)), need))
        elif a > min(air):
            unknown.append("AIR " + vs(a))
    if reasons:
        top = max(r[1] for r in reasons)
    return reasons, unknown, top

def as_json(os_name, reasons, unknown, top):
    return {"os": os_name, "version": vs(top) if top else None,
            "reasons": [r[0] for r in reasons], "unknown": unknown}

bad = checked = skipped = 0
def check(what, got, want):
    global bad
    if got != want:
        print("FAIL: %s: requires %s, expected %s" % (what, json.dumps(got), json.dumps(want)))
        bad += 1

for path in files:
    r = subprocess.run([prog, "dump", "--json", path], capture_output=True)
    if r.returncode == 2:
        continue  # not a metallib (yuao-failure)
    doc = json.loads(r.stdout)
    more = None
    mp = os.path.join(corpus, "expected-more", os.path.basename(path) + ".json")
    if os.path.exists(mp):
        more = json.load(open(mp))
    for li, lib in enumerate(doc["libraries"]):
        os_name = HEADER_OS.get(lib["target_os"])
        header_dep = ver(".".join(lib["os_version"].split(".")[:2])) if os_name else None
        if not have_dis:
            skipped += 1
            continue
        triples = sampled_triples(path, li, [f["name"] for f in lib["functions"]])
        if triples:
            dep = (max(triples), None, False)
        elif header_dep is not None:
            dep = (header_dep, None, True)
        else:
            dep = None
        if os_name is None and lib["target_os"] in ("unknown", "bridgeOS", "DriverKit") or \
           lib["target_os"].startswith("unknown-"):
            if lib["functions"]:
                if not have_dis:
                    skipped += 1
                    continue
                t = first_triple(path, li, lib["functions"][0]["name"])
                os_name = triple_os(t) if t else None
        if dep is not None:
            dep = (dep[0], release(os_name, dep[0]), dep[2])
        deployment = dep[1] if dep else None
        what = "%s library %d" % (os.path.basename(path), li)
        best, lib_unknown, per_fn = None, [], []
        for fn in lib["functions"]:
            reasons, unknown, top = function_requires(os_name, dep, fn)
            check("%s function %s" % (what, fn["name"]), fn.get("requires"), as_json(os_name, reasons, unknown, top))
            per_fn.append((reasons, top))
            for u in unknown:
                if u not in lib_unknown:
                    lib_unknown.append(u)
            if top and (best is None or top > best):
                best = top
            checked += 1
        if deployment is not None and (best is None or deployment > best):
            best = deployment
        # The library: the reasons that give its highest version, deployment
        # first, then MSL and AIR each by version; unknown sorted the same way.
        lib_reasons = []
        if deployment is not None and deployment == best:
            lib_reasons.append((deployment_reason(os_name, dep), deployment))
        for reasons, top in per_fn:
            for text, need in reasons:
                if not text.startswith("deployment") and need == best and top == best and \
                   text not in [x[0] for x in lib_reasons]:
                    lib_reasons.append((text, need))
        key = lambda t: (0 if t[0].startswith("deployment") else 1 if t[0].startswith("MSL") else 2,
                         ver(t[0].split(" ")[1]) if not t[0].startswith("deployment") else (0, 0))
        lib_reasons.sort(key=key)
        lib_unknown.sort(key=lambda u: (u.split()[0] == "AIR", ver(u.split()[1])))
        check(what, lib.get("requires"), as_json(os_name, lib_reasons, lib_unknown, best))
        if more and "libraries" in more and li < len(more["libraries"]):
            ml = more["libraries"][li]
            if "requires" in ml:
                check(what + " (expected-more)", lib.get("requires"), ml["requires"])
            for k, mf in enumerate(ml.get("functions", [])):
                if isinstance(mf, dict) and "requires" in mf:
                    check("%s function %d (expected-more)" % (what, k), lib["functions"][k].get("requires"),
                          mf["requires"])
print("ok: requires of %d functions computed from the table%s" %
      (checked, ", %d libraries without llvm-dis skipped" % skipped if skipped else ""))
if checked == 0 and not skipped:
    print("FAIL: no function was checked")
    bad += 1
sys.exit(1 if bad else 0)
PYEOF

# --- info --------------------------------------------------------------------------
"$MTLBX_BIN" info "$FAT" >"$WORK/info" 2>&1
[ "$(grep -c '^Loads on  macOS ' "$WORK/info")" = 2 ] && ok "info: a Loads on line per slice" ||
    { fail "info of the fat fixture:"; cat "$WORK/info"; }
grep -q '^Loads on  macOS 15.0 or later (MSL 3.2, AIR 2.7: 2 functions)$' "$WORK/info" &&
    ok "info: Loads on as CONTRACT.md words it" || fail "info: no 'Loads on  macOS 15.0 or later (...)' line"

# --- the gate on a macOS 14 corpus file ----------------------------------------------
K=$CORPUS/kml-ee8228a.metallib
if [ -f "$K" ]; then
    "$MTLBX_BIN" check --os macos:13.0 "$K" >"$WORK/gate13" 2>&1
    st=$?
    [ $st -eq 1 ] && ok "check --os macos:13.0 exits 1" || fail "check --os macos:13.0 exited $st"
    grep -q ": error: function fragment_function needs macOS 14.0 (MSL 3.1, AIR 2.6), more than macOS 13.0$" \
        "$WORK/gate13" && ok "the finding names the function, the version and why" ||
        { fail "check --os macos:13.0 said:"; cat "$WORK/gate13"; }
    "$MTLBX_BIN" check --os macos:14.0 "$K" >"$WORK/gate14" 2>&1
    st=$?
    [ $st -eq 0 ] && [ ! -s "$WORK/gate14" ] && ok "check --os macos:14.0 exits 0 silently" ||
        { fail "check --os macos:14.0 exited $st:"; cat "$WORK/gate14"; }
    "$MTLBX_BIN" check --os ios:17.0 "$K" >"$WORK/gateios" 2>&1
    st=$?
    [ $st -eq 1 ] && [ "$(grep -c 'warning: library for macOS: no --os names macOS' "$WORK/gateios")" = 1 ] &&
        ok "a platform not named: one warning, exit 1" || { fail "check --os ios:17.0 ($st):"; cat "$WORK/gateios"; }
    "$MTLBX_BIN" find --os macos:13.0 "$K" >"$WORK/find13" 2>&1
    st=$?
    [ $st -eq 1 ] && grep -q "error: library needs macOS 14.0 (MSL 3.1, AIR 2.6), more than macOS 13.0" \
        "$WORK/find13" && ok "find --os: the library's verdict, exit 1" ||
        { fail "find --os macos:13.0 ($st):"; cat "$WORK/find13"; }
    "$MTLBX_BIN" find --os macos:14.0 --os ios:17.0 "$K" >"$WORK/find14" 2>&1
    st=$?
    [ $st -eq 0 ] && [ "$(wc -l <"$WORK/find14")" = 1 ] && ok "find --os macos:14.0: exit 0, one line" ||
        { fail "find --os macos:14.0 ($st):"; cat "$WORK/find14"; }
    [ "$(cut -f6 "$WORK/find14")" = "macOS 14.0" ] && ok "find: the requires column" ||
        fail "find's requires column: $(cat "$WORK/find14")"
else
    echo "note: $K is absent: the gate is checked on the fixtures only"
fi
"$MTLBX_BIN" check --os macos:14.0 "$FAT" >"$WORK/gatefat" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "^[^:]*:2320: error: library needs macOS 15.0" "$WORK/gatefat" &&
    grep -q "error: function compute_main needs macOS 15.0" "$WORK/gatefat" &&
    ! grep -q blur_kernel "$WORK/gatefat" && ok "check --os on a fat file: the slice that needs more" ||
    { fail "check --os macos:14.0 on the fat fixture ($st):"; cat "$WORK/gatefat"; }
for bad in macos 15.0 plan9:1.0 macos:x macos:15.0.1.2 ""; do
    "$MTLBX_BIN" check --os "$bad" "$FAT" >/dev/null 2>"$WORK/usage"
    st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$WORK/usage")" = 1 ] || fail "check --os '$bad' exited $st: $(cat "$WORK/usage")"
done

# --- diff: the requirement as a header change, listed first ---------------------------
A13=$CORPUS/metaljl-kernel.13.metallib A26=$CORPUS/metaljl-kernel.26.metallib
if [ -f "$A13" ] && [ -f "$A26" ]; then
    "$MTLBX_BIN" diff --no-color "$A13" "$A26" >"$WORK/diff" 2>&1
    [ "$(sed -n 2p "$WORK/diff")" = "~ header    requires macOS 13.0 (MSL 3.0, AIR 2.5) -> macOS 26.0 (MSL 4.0, AIR 2.8)" ] &&
        ok "diff: requires is the first header change" || { fail "diff of metaljl-kernel 13 and 26:"; cat "$WORK/diff"; }
    "$MTLBX_BIN" find --json --os macos:13.0 "$A13" "$A26" >"$WORK/fj" 2>"$WORK/fj.err"
    st=$?
    [ $st -eq 1 ] && python3 -c 'import json, sys
[json.loads(l) for l in open(sys.argv[1])]' "$WORK/fj" && [ "$(wc -l <"$WORK/fj")" = 2 ] &&
        grep -q "metaljl-kernel.26.metallib:0: error: library needs macOS 26.0" "$WORK/fj.err" &&
        ok "find --json --os: JSON Lines on stdout, the verdict on stderr" ||
        { fail "find --json --os ($st):"; cat "$WORK/fj.err"; }
fi

# --- --slice on the fat fixture -------------------------------------------------------
"$MTLBX_BIN" sig --slice 1 "$FAT" >"$WORK/sig1" 2>&1 || fail "sig --slice 1 failed: $(cat "$WORK/sig1")"
grep -q compute_main "$WORK/sig1" && ! grep -q blur_kernel "$WORK/sig1" && ok "sig --slice 1: slice 1 only" ||
    { fail "sig --slice 1:"; cat "$WORK/sig1"; }
grep -q '^// requires macOS 15.0: deployment target macOS 15.0, MSL 3.2 needs macOS 15.0, AIR 2.7 needs macOS 15.0$' \
    "$WORK/sig1" && ok "sig: the requirement as a comment line" || fail "sig has no requires comment"
"$MTLBX_BIN" sig --slice 0 "$FAT" compute_main >/dev/null 2>&1
[ $? -eq 1 ] && ok "sig --slice 0 NAME: a function of another slice is not found" ||
    fail "sig --slice 0 compute_main did not exit 1"
"$MTLBX_BIN" sig --slice 2 "$FAT" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -q "slice 2" "$WORK/err" && ok "--slice 2 of a 2-slice file: exit 2" ||
    fail "sig --slice 2: $(cat "$WORK/err")"
"$MTLBX_BIN" sig --slice -1 "$FAT" >/dev/null 2>&1
[ $? -eq 2 ] || fail "sig --slice -1 did not exit 2"
mkdir "$WORK/x"
"$MTLBX_BIN" extract --slice 1 -f visible_fn -o "$WORK/x" "$FAT" >/dev/null 2>&1 &&
    [ -f "$WORK/x/visible_fn.air" ] && [ "$(ls "$WORK/x" | wc -l)" = 1 ] &&
    ok "extract --slice 1 -f NAME writes that module to DIR" || fail "extract --slice 1: $(ls -R "$WORK/x")"
"$MTLBX_BIN" extract --slice 0 -f visible_fn -o "$WORK/x" "$FAT" >/dev/null 2>&1
[ $? -eq 1 ] && ok "extract --slice 0 -f NAME of slice 1: nothing matched" || fail "extract --slice 0 -f visible_fn"
if [ -n "$HAVE_DIS" ]; then
    "$MTLBX_BIN" dis --slice 1 "$FAT" compute_main >"$WORK/dis1" 2>&1 && grep -q "compute_main" "$WORK/dis1" &&
        ok "dis --slice 1 NAME" || fail "dis --slice 1: $(head -3 "$WORK/dis1")"
    "$MTLBX_BIN" dis --slice 0 "$FAT" compute_main >/dev/null 2>&1
    [ $? -eq 1 ] && ok "dis --slice 0 NAME of slice 1: no such function" || fail "dis --slice 0 compute_main"
fi
exit $FAILED
