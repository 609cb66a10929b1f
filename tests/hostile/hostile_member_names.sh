#!/bin/sh
# Members named outside ASCII. A zip records a UTF-8 name with a flag and a
# pax tar in a path= record; libarchive converts such a name to the
# current locale's charset, and in the C locale (where mtlbx runs: it
# never calls setlocale) the conversion failed, so `find` printed
# "WHEEL!" with an empty member name, two such members had the same name
# ("" in diff --json), and ARCHIVE!MEMBER could not reach them. Each must
# keep its own name, escaped where it would act on a terminal, whatever
# the locale.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
whl=$WORK/names-1.0-py3-none-any.whl
tgz=$WORK/names.tar.gz
python3 - "$SAMPLE" "$whl" "$tgz" <<'PY' || exit 1
import io, sys, tarfile, zipfile
sample, whl, tgz = sys.argv[1:4]
data = open(sample, "rb").read()
names = ["pkg/r\u00e9sum\u00e9.metallib", "pkg/e\x1b[2Jvil\u202e.metallib", "pkg/\u65e5\u672c.metallib",
         "pkg/ok.metallib"]
with zipfile.ZipFile(whl, "w") as z:  # zipfile sets the UTF-8 flag on a name outside ASCII
    for n in names:
        z.writestr(n, data)
with tarfile.open(tgz, "w:gz", format=tarfile.PAX_FORMAT) as t:  # path= records
    for n in names:
        info = tarfile.TarInfo(n)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
PY
for loc in C C.UTF-8; do
    for a in "$whl" "$tgz"; do
        what="$(basename "$a") in LC_ALL=$loc"
        LC_ALL=$loc "$BIN" find "$a" >"$WORK/out" 2>"$WORK/err"
        st=$?
        cut -f1 "$WORK/out" | sed 's/^[^!]*!//' | sort >"$WORK/names"
        printf '%s\n' 'pkg/e\x1b[2Jvil\xe2\x80\xae.metallib' 'pkg/ok.metallib' 'pkg/résumé.metallib' 'pkg/日本.metallib' |
            sort >"$WORK/want"
        if [ $st -eq 0 ] && cmp -s "$WORK/names" "$WORK/want"; then
            ok "find, $what: four members, each its own name, escaped"
        else
            fail "find, $what: exit $st, members: $(tr '\n' '|' <"$WORK/names") $(head -c 300 "$WORK/err")"
        fi
        if grep -q "$(printf '\033')" "$WORK/out" "$WORK/err"; then fail "find, $what: an ESC reached the terminal"; fi
        # The sample needs macOS 15: each member has a finding naming it.
        LC_ALL=$loc "$BIN" check --json --os macos:11.0 "$a" >"$WORK/out" 2>"$WORK/err"
        st=$?
        n=$(python3 -c '
import json, sys
files = {json.loads(l)["file"] for l in open(sys.argv[1])}
print(len([f for f in files if not f.endswith("!")]))' "$WORK/out")
        if [ $st -eq 1 ] && [ "$n" = 4 ] && [ ! -s "$WORK/err" ]; then
            ok "check --json --os, $what: findings name four members"
        else
            fail "check --json --os, $what: exit $st, $n members named: $(head -c 300 "$WORK/err")"
        fi
        LC_ALL=$loc "$BIN" check "$a!pkg/résumé.metallib" >"$WORK/out" 2>"$WORK/err"
        st=$?
        [ $st -le 1 ] && [ ! -s "$WORK/err" ] && ok "check ARCHIVE!MEMBER reaches résumé, $what" ||
            fail "check $a!pkg/résumé.metallib, $what: exit $st: $(head -c 300 "$WORK/err")"
    done
done
LC_ALL=C "$BIN" diff --json "$whl" "$tgz" >"$WORK/out" 2>"$WORK/err"
st=$?
# The same four libraries under the same four names: identical, member by
# member (with the names lost, the wheel's three were one "" against the
# tar's three names).
if [ $st -eq 0 ] && python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(0 if doc["identical"] and not doc["added"] and not doc["removed"] else 1)' "$WORK/out"; then
    ok "diff --json of the wheel and the tar, LC_ALL=C: identical, member by member"
else
    fail "diff --json: exit $st: $(head -c 400 "$WORK/out") $(head -c 200 "$WORK/err")"
fi
finish
