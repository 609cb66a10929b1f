#!/bin/sh
# unpack and pack on the project's own libraries (issue 33; the corpus is
# tests/cli/pack_corpus.sh):
#   - pack(unpack(X)) == X byte for byte for data/sample.metallib and every
#     fixture, and no manifest holds a layout number (offset, size, MDSZ,
#     OFFT, HASH, SOFF, RFLT values);
#   - each quirk survives the round trip: a HASH that is not the module's
#     digest (quirk_stored_hash), sections after the modules in another
#     order (quirk_section_order), a reflection buffer padded against the
#     rule (RBUF "hex" instead of "aligned"), modules out of first-use order (quirk_module_order,
#     the nomdsz fixture);
#   - a file the rules cannot give back (a byte after the last section) is
#     refused with its offset, and nothing is written;
#   - unpack refuses to replace files without --force, and a function name
#     that is no safe file name is written inside DIR under a safe name,
#     with a warning;
#   - hostile manifests are refused with one line and no output file.
# Every edited copy of the sample's folder is made by one python run.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-pack.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# A manifest holds values only: no key naming a layout number, and a
# computed tag only by its name (never an object carrying its value).
no_layout_numbers() { # MANIFEST...
    python3 - "$@" <<'EOF'
import json, sys
bad = []
def walk(v, path):
    if isinstance(v, dict):
        for k, x in v.items():
            if k.lower() in ("offset", "size", "mdsz", "offt", "hash", "soff", "rflt", "length"):
                bad.append(path + "." + k)
            walk(x, path + "." + k)
        if v.get("tag") in ("HASH", "OFFT", "MDSZ", "SOFF", "RFLT", "HSRC", "HSRD", "HDYN", "VLST", "ILST",
                            "RLST", "SLST") and set(v) & {"hex", "string", "uuid", "aligned"}:
            bad.append(path + " holds a value for " + v["tag"])
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s[%d]" % (path, i))
for p in sys.argv[1:]:
    walk(json.load(open(p)), p)
if bad:
    print("\n".join(bad[:5]))
    sys.exit(1)
EOF
}

roundtrip() { # FILE NAME
    rm -rf "$WORK/$2.d" "$WORK/$2.out"
    if ! "$MTLBX_BIN" unpack "$1" -o "$WORK/$2.d" >/dev/null 2>"$WORK/err"; then
        fail "unpack $2: $(cat "$WORK/err")"
        return 1
    fi
    if ! "$MTLBX_BIN" pack "$WORK/$2.d" -o "$WORK/$2.out" 2>"$WORK/err"; then
        fail "pack $2: $(cat "$WORK/err")"
        return 1
    fi
    cmp -s "$1" "$WORK/$2.out" || { fail "$2: pack(unpack(X)) differs from X"; return 1; }
    return 0
}

n=0
for f in "$SRC/data/sample.metallib" "$SRC"/tests/fixtures/*.metallib; do
    roundtrip "$f" "$(basename "$f")" && n=$((n + 1))
done
ok "$n of the project's libraries give pack(unpack(X)) == X"
grep -q quirk_module_order "$WORK/nomdsz-v123.metallib.d/manifest.json" &&
    ok "modules out of first-use order are the module_order quirk" ||
    fail "nomdsz-v123: no quirk_module_order in its manifest"

# --- quirks -------------------------------------------------------------------
# A HASH that is not its module's digest: one byte of a module changed.
python3 - "$SRC/data/sample.metallib" "$WORK/badhash.metallib" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
mod_off = struct.unpack_from("<Q", d, 0x48)[0]
d[mod_off + 100] ^= 0xFF
open(sys.argv[2], "wb").write(d)
EOF
if roundtrip "$WORK/badhash.metallib" badhash; then
    grep -q quirk_stored_hash "$WORK/badhash.d/manifest.json" &&
        ok "a HASH the module does not match is kept (quirk_stored_hash)" || fail "badhash: no quirk_stored_hash"
fi

# The edited copies: edits.txt holds NAME<TAB>python (m is the manifest).
ln -s /etc/passwd "$WORK/sample.metallib.d/link.air"
mkdir "$WORK/outside" && cp "$WORK/sample.metallib.d/compute_main.air" "$WORK/outside/"
F='m["libraries"][0]["functions"]'
L='m["libraries"][0]'
cat >"$WORK/edits.txt" <<EOF
q-order	$L["quirk_section_order"] = ["RLST", "dynamic_header", "sources"]
q-rbuf	g = $L["reflection_list"][0][0]; g["hex"] = g.pop("aligned")
evil	$F[2]["name"] = "../../escaped\\u202e\\u0007"
h-above	$F[0]["module"] = "../outside/compute_main.air"
h-abs	$F[0]["module"] = "/etc/passwd"
h-link	$F[0]["module"] = "link.air"
h-missing	$F[0]["module"] = "nothere.air"
h-quirk	$L["quirk_modul_order"] = []
h-type	$F[0]["type"] = "kernal"
h-long	$F[0]["name"] = "x" * 70000
h-soff	$F[0].pop("source_archive", None)
h-rflt	$F[0]["reflection"] = 99
h-hex	$F[0]["public_metadata"] = [{"tag": "CNST", "hex": "abc"}]
h-name	$F[0]["tags"] = ["TYPE", "HASH", "OFFT", "VERS", "MDSZ"]
h-two	m["libraries"].append(m["libraries"][0])
h-endt	$F[0]["private_metadata"] = [{"tag": "ENDT", "hex": ""}]
h-version	m["mtlbx_manifest"] = 2
EOF
python3 - "$WORK" <<'EOF'
import json, os, shutil, sys
work = sys.argv[1]
src = os.path.join(work, "sample.metallib.d")
for line in open(os.path.join(work, "edits.txt")):
    name, code = line.rstrip("\n").split("\t", 1)
    d = os.path.join(work, name + ".d")
    shutil.copytree(src, d, symlinks=True)
    p = os.path.join(d, "manifest.json")
    m = json.load(open(p))
    exec(code)
    json.dump(m, open(p, "w"), indent=1)
EOF

# The other quirks, made by editing a manifest: pack writes them, check
# reads them clean (or with only the warning given), unpack finds them
# again and the files are the same.
quirk() { # LABEL NAME KEY [WARNING]
    if ! "$MTLBX_BIN" pack "$WORK/$2.d" -o "$WORK/$2.metallib" 2>"$WORK/err"; then
        fail "$1: pack: $(cat "$WORK/err")"
        return
    fi
    "$MTLBX_BIN" check "$WORK/$2.metallib" >"$WORK/check" 2>&1
    st=$?
    if [ -z "${4:-}" ] && [ $st -ne 0 ] || [ -n "${4:-}" ] && ! { [ $st -eq 1 ] && [ "$(wc -l <"$WORK/check")" -eq 1 ] &&
        grep -q "warning: $4" "$WORK/check"; }; then
        fail "$1: check: $(head -3 "$WORK/check")"
        return
    fi
    roundtrip "$WORK/$2.metallib" "$2-again" || return
    tr -d ' \n' <"$WORK/$2-again.d/manifest.json" | grep -q "$3" && ok "$1 survives unpack and pack, and check reads it $(if [ -n "${4:-}" ]; then echo "with that one warning"; else echo clean; fi)" ||
        fail "$1: unpack did not find $3"
}
quirk "sections after the modules in another order" q-order '"quirk_section_order":\["RLST","dynamic_header","sources"\]'
quirk "a reflection buffer without the padding the rule puts there" q-rbuf '"tag":"RBUF","hex"' \
    "6 bytes of padding (library\[0\]/RLST/group\[0\]/RBUF/padding) hold a non-zero byte"

no_layout_numbers "$WORK"/*.d/manifest.json && ok "no manifest holds a layout number" ||
    fail "a manifest holds layout numbers"

# A byte after the last section: no rule gives it back.
cp "$SRC/tests/fixtures/empty.metallib" "$WORK/trailing.metallib"
printf 'x' >>"$WORK/trailing.metallib"
size=$(wc -c <"$SRC/tests/fixtures/empty.metallib" | tr -d ' ')
"$MTLBX_BIN" unpack "$WORK/trailing.metallib" -o "$WORK/trailing.d" >/dev/null 2>"$WORK/err"
st=$?
if [ $st -eq 2 ] && grep -q "trailing.metallib:$size: cannot unpack byte for byte" "$WORK/err" &&
    [ "$(wc -l <"$WORK/err")" -eq 1 ] && [ ! -e "$WORK/trailing.d" ]; then
    ok "a byte after the last section is refused at its offset, nothing written"
else
    fail "trailing byte: exit $st, $(cat "$WORK/err"), dir $(ls "$WORK/trailing.d" 2>&1)"
fi

# --- overwriting and names ------------------------------------------------------
if "$MTLBX_BIN" unpack "$SRC/data/sample.metallib" -o "$WORK/sample.metallib.d" >/dev/null 2>"$WORK/err"; then
    fail "unpack over an earlier unpack without --force succeeded"
elif grep -q "exists (use --force" "$WORK/err" && "$MTLBX_BIN" unpack --force "$SRC/data/sample.metallib" \
    -o "$WORK/sample.metallib.d" >/dev/null; then
    ok "unpack refuses to replace files without --force, and replaces them with it"
else
    fail "unpack --force: $(cat "$WORK/err")"
fi
if "$MTLBX_BIN" pack "$WORK/sample.metallib.d" -o "$WORK/sample.metallib.out" 2>"$WORK/err"; then
    fail "pack over an existing file without --force succeeded"
else
    grep -q "exists (use --force" "$WORK/err" && ok "pack refuses to replace OUT without --force" ||
        fail "pack over OUT: $(cat "$WORK/err")"
fi

# A function whose name climbs out of the folder and holds a bidi and a
# control character: its module stays inside DIR under a safe name.
mkdir "$WORK/evil-out"
# Its NAME is not its module's entry: packed as given (pack_claims.sh).
if "$MTLBX_BIN" pack --keep-manifest-values "$WORK/evil.d" -o "$WORK/evil.metallib" &&
    "$MTLBX_BIN" unpack "$WORK/evil.metallib" -o "$WORK/evil-out/d" >/dev/null 2>"$WORK/err"; then
    if [ -n "$(find "$WORK" -name 'escaped*' ! -path "$WORK/evil-out/d/*")" ]; then
        fail "a module was written outside DIR"
    elif grep -q "not a safe file name" "$WORK/err" && ls -A "$WORK/evil-out/d" | grep -q '^\.\._\.\._escaped_*\.air$' &&
        ! grep -q "$(printf '\342\200\256')" "$WORK/err"; then
        ok "a hostile function name is written inside DIR under a safe name, with an escaped warning"
    else
        fail "hostile name: $(cat "$WORK/err"); $(ls -A "$WORK/evil-out/d")"
    fi
    "$MTLBX_BIN" pack --keep-manifest-values "$WORK/evil-out/d" -o "$WORK/evil2.metallib" && cmp -s "$WORK/evil.metallib" "$WORK/evil2.metallib" ||
        fail "hostile name: the round trip differs"
else
    fail "hostile name: pack or unpack failed"
fi

# --- hostile manifests: one line, exit 2, no output -----------------------------
hostile() { # LABEL NAME EXPECTED-TEXT
    "$MTLBX_BIN" pack "$WORK/$2.d" -o "$WORK/$2.metallib" >/dev/null 2>"$WORK/err"
    st=$?
    if [ $st -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "$3" "$WORK/err" && [ ! -e "$WORK/$2.metallib" ] &&
        [ -z "$(ls -A "$WORK" | grep mtlbx-tmp)" ]; then
        ok "hostile manifest, $1: $(cat "$WORK/err")"
    else
        fail "hostile manifest, $1: exit $st, $(cat "$WORK/err")"
    fi
}
hostile "a module above the folder" h-above 'empty, "." or ".."'
hostile "an absolute module path" h-abs "not a relative path"
hostile "a module that is a symbolic link" h-link "symbolic link"
hostile "a module that is missing" h-missing "No such file"
hostile "a misspelt quirk" h-quirk 'unknown key "quirk_modul_order"'
hostile "an unknown function type" h-type 'functions\[0\]: type "kernal"'
hostile "a NAME longer than its tag holds" h-long "u16 length field"
hostile "SOFF without an archive" h-soff "SOFF, but no"
hostile "a reflection group that is not there" h-rflt "reflection: 99 is not between"
hostile "odd hex" h-hex "not hex digits"
hostile "a name without NAME in the tags" h-name '"name" is given, but the tag list has no NAME'
hostile "two libraries in a plain file" h-two "fat is null"
hostile "an ENDT item" h-endt "ENDT ends every group"
hostile "another manifest version" h-version "this mtlbx reads version 1"
mkdir "$WORK/dup.d" && printf '{"mtlbx_manifest": 1, "mtlbx_manifest": 1}' >"$WORK/dup.d/manifest.json"
hostile "a key given twice" dup "duplicate"
# Functions are parsed one at a time: an error in one names its line.
cp -R "$WORK/sample.metallib.d" "$WORK/syntax.d" && rm -f "$WORK/syntax.d/link.air"
line=$(grep -n '"name": "fragment_main"' "$WORK/syntax.d/manifest.json" | cut -d: -f1)
sed -i 's/"name": "fragment_main"/"name" "fragment_main"/' "$WORK/syntax.d/manifest.json"
hostile "a syntax error in a function" syntax "functions\[1\]: line $line: ':' expected"

exit $FAILED
