#!/bin/sh
# `mtlbx find` and ARCHIVE!MEMBER paths on folders and zip archives built
# here from the project's fixtures (so this always runs): nested folders,
# metallibs without the extension, a text file named .metallib, link
# cycles and a link out of the tree, unreadable files and folders, an .ipa
# with stored and deflated members, hostile member names, a member over the
# limit, zip bombs (honest and lying sizes) and a truncated archive.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
FIX=$SRC/tests/fixtures
MKZIP="python3 $SRC/tests/mkzip.py"
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $FIX in /*) ;; *) FIX=$(pwd)/$FIX ;; esac

command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-find.XXXXXX") || exit 1
chmod 755 "$W"
trap 'chmod -R u+rwx "$W" 2>/dev/null; rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
. "$SRC/tests/expect_lib.sh"
M=$MTLBX_BIN

# ---- a folder tree ---------------------------------------------------------
T=$W/tree
mkdir -p "$T/a/b/c" "$T/Frameworks/X.framework/Resources" "$W/outside"
cp "$FIX/legacy-v122-ios.metallib" "$T/a/b/c/deep.metallib"
cp "$FIX/fat.metallib" "$T/a/no_extension"
cp "$FIX/dylib-v129.metallib" "$T/Frameworks/X.framework/Resources/default.metallib"
printf 'just text, not a library\n' >"$T/a/fake.metallib"
printf 'MTL' >"$T/a/short.metallib"
cp "$FIX/hsrc-v125.metallib" "$W/outside/secret.metallib"
ln -s .. "$T/a/b/loop"                      # a cycle
ln -s "$W/outside" "$T/a/out"               # out of the tree
ln -s "$W/outside/secret.metallib" "$T/a/link.metallib"
mkfifo "$T/a/fifo.metallib" 2>/dev/null || true

# The two misnamed files are reported (exit 1), never passed over in
# silence; the FIFO inside the folder is skipped (only a FIFO named on the
# command line is reported).
expect 1 "find on a tree" -- "$M" find "$T"
cut -f1 "$W/out" >"$W/paths"
cat >"$W/want" <<EOF
$T/Frameworks/X.framework/Resources/default.metallib
$T/a/b/c/deep.metallib
$T/a/no_extension
EOF
cmp -s "$W/paths" "$W/want" && ok "found by magic, in name order, no link followed" ||
    { fail "find listed:"; cat "$W/paths"; }
grep -q secret "$W/out" && fail "a link out of the tree was followed"
cat >"$W/want_err" <<EOF
mtlbx: $T/a/fake.metallib: not a metallib: magic 6a 75 73 74 is neither MTLB nor CB FE BA BE
mtlbx: $T/a/short.metallib: not a metallib: only 3 bytes
EOF
sort "$W/err" | cmp -s - "$W/want_err" && ok "the misnamed files reported, nothing else" ||
    { fail "find's stderr on the tree:"; cat "$W/err"; }
# The columns: path, container version, target, functions, problems,
# requires (the OS version it loads on, CONTRACT.md "Requirements").
line=$(grep deep.metallib "$W/out")
[ "$(echo "$line" | awk -F'\t' '{print NF}')" = 6 ] && ok "six tab-separated columns" || fail "columns: $line"
fns=$("$M" ls "$T/a/b/c/deep.metallib" | wc -l)
[ "$(echo "$line" | cut -f4)" = "$fns" ] && ok "function count matches ls" || fail "function count in: $line"
grep -q "$T/a/no_extension	[0-9.]*,[0-9.]*	" "$W/out" && ok "fat file lists each slice's version" ||
    fail "fat line: $(grep no_extension "$W/out")"
# TARGET: the header's target OS and version; an older container with none
# names the platform of its module triple instead of "unknown 0.0.0"
# (the platform the requirements use: dump --json's requires.os).
python3 - "$M" "$W/out" <<'EOF' && ok "TARGET from the header, else the module triple" || fail "TARGET column: $(cut -f1,3 "$W/out")"
import json, subprocess, sys
m, out = sys.argv[1:3]
triple = 0
for line in open(out).read().splitlines():
    path, target = line.split("\t")[0], line.split("\t")[2]
    doc = json.loads(subprocess.run([m, "dump", "--json", path], capture_output=True).stdout)
    want = []
    for lib in doc["libraries"]:
        if lib["target_os"] == "unknown" and lib["os_version"] == "0.0.0" and lib["requires"]["os"]:
            want.append(lib["requires"]["os"] + " (triple)")
            triple += 1
        else:
            want.append("%s %s" % (lib["target_os"], lib["os_version"]))
    assert target == ",".join(want), (path, target, want)
assert triple >= 2, "no library without a target OS was listed"
EOF

# JSON Lines: each line is the dump --json document of that path.
expect 1 "find --json" -- "$M" find --json "$T"
python3 - "$W/out" "$M" <<'EOF' && ok "find --json lines equal dump --json" || fail "find --json differs from dump --json"
import json, subprocess, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 3, len(lines)
for line in lines:
    doc = json.loads(line)
    ref = json.loads(subprocess.run([sys.argv[2], "dump", "--json", doc["path"]], capture_output=True).stdout)
    assert doc == ref, doc["path"]
EOF

# Same output whatever the order threads finish in: run it three times.
"$M" find "$T" >"$W/r1"; "$M" find "$T" >"$W/r2"; "$M" find "$T" >"$W/r3"
cmp -s "$W/r1" "$W/r2" && cmp -s "$W/r1" "$W/r3" && ok "output is stable" || fail "output changes between runs"

# ---- unreadable entries ------------------------------------------------------
mkdir -p "$T/locked"
cp "$FIX/legacy-v122-ios.metallib" "$T/locked/hidden.metallib"
cp "$FIX/legacy-v122-ios.metallib" "$T/a/unreadable.metallib"
chmod 000 "$T/locked" "$T/a/unreadable.metallib"
AS=""
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null 2>&1 && AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" = 0 ] && [ -z "$AS" ]; then
    echo "SKIP (one check): running as root without setpriv, cannot make a file unreadable"
elif ! $AS "$M" --version >/dev/null 2>&1 || ! $AS test -r "$T/a/b/c/deep.metallib"; then
    echo "SKIP (one check): uid 65534 cannot run $M or read $W (a private directory)"
else
    expect 1 "unreadable entries: exit 1" -- $AS "$M" find "$T"
    [ "$(cut -f1 "$W/out")" = "$(cat "$W/want")" ] && ok "the readable rest is still listed" ||
        fail "listed with unreadable entries: $(cat "$W/out")"
    grep -q "^mtlbx: $T/locked: Permission denied$" "$W/err" && ok "unreadable folder reported" ||
        fail "no report for the locked folder: $(cat "$W/err")"
    grep -q "^mtlbx: $T/a/unreadable.metallib: Permission denied$" "$W/err" && ok "unreadable file reported" ||
        fail "no report for the unreadable file: $(cat "$W/err")"
fi
chmod 755 "$T/locked"; chmod 644 "$T/a/unreadable.metallib"; rm -rf "$T/locked" "$T/a/unreadable.metallib"

# ---- an .ipa with stored and deflated members, hostile names ---------------
I=$W/App.ipa
$MKZIP "$I" "s:Payload/App.app/default.metallib=$FIX/legacy-v122-ios.metallib" \
    "d:Payload/App.app/Frameworks/F.framework/shaders=$FIX/dylib-v129.metallib" \
    "d:Payload/App.app/fake.metallib=$SRC/tests/fixtures/README.md" \
    "d:../escape.metallib=$FIX/nomdsz-v123.metallib" \
    "d:/abs/olute.metallib=$FIX/nomdsz-v123.metallib" \
    "d:esc\x1b[31mred.metallib=$FIX/nomdsz-v123.metallib" || exit 1
expect 1 "find on an .ipa" -- "$M" find "$I"
grep -qx "mtlbx: $I!Payload/App.app/fake.metallib: not a metallib: magic 23 20 74 65 is neither MTLB nor CB FE BA BE" \
    "$W/err" && ok "the misnamed member reported" || fail "$(cat "$W/err")"
cut -f1 "$W/out" >"$W/paths"
cat >"$W/want" <<EOF
$I!Payload/App.app/default.metallib
$I!Payload/App.app/Frameworks/F.framework/shaders
$I!../escape.metallib
$I!/abs/olute.metallib
$I!esc\x1b[31mred.metallib
EOF
cmp -s "$W/paths" "$W/want" && ok "members found by magic, names escaped" || { fail "members listed:"; cat "$W/paths"; }
grep -q "$(printf '\033')" "$W/out" && fail "a raw ESC reached the output"

# The same archive inside a folder, found by the walk.
mkdir -p "$T/dist" && cp "$I" "$T/dist/App.ipa" && cp "$I" "$T/dist/App.txt"
"$M" find "$T" 2>/dev/null | cut -f1 | grep -c '!' | grep -qx 10 &&
    ok "archives found in a folder by content (the .ipa, and the zip named .txt)" ||
    fail "archive members under a folder: $("$M" find "$T" | cut -f1)"

# Every command takes a member path.
"$M" ls "$FIX/dylib-v129.metallib" >"$W/ls-file"
expect 0 "ls on a deflated member" -- "$M" ls "$I!Payload/App.app/Frameworks/F.framework/shaders"
cmp -s "$W/out" "$W/ls-file" && ok "ls member = ls file" || fail "ls on the member differs"
expect 0 "ls --verify on a stored member" -- "$M" ls --verify "$I!Payload/App.app/default.metallib"
expect 0 "info on a member" -- "$M" info "$I!Payload/App.app/default.metallib"
grep -q "^File  *$I!Payload/App.app/default.metallib" "$W/out" && ok "info names the member" || fail "info: $(head -1 "$W/out")"
"$M" dump --json "$FIX/dylib-v129.metallib" | python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("path"); print(json.dumps(d))' >"$W/d1"
"$M" dump --json "$I!Payload/App.app/Frameworks/F.framework/shaders" | python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("path"); print(json.dumps(d))' >"$W/d2"
cmp -s "$W/d1" "$W/d2" && ok "dump --json member = file" || fail "dump --json of the member differs"
expect 0 "check on a member" -- "$M" check "$I!Payload/App.app/default.metallib"
mkdir -p "$W/x/target"
expect 0 "extract from a member named ../" -- "$M" extract "$I!../escape.metallib" -o "$W/x/target"
[ "$(ls "$W/x")" = target ] && [ ! -e "$W/escape.metallib" ] && ok "nothing written outside the target" ||
    fail "extract wrote outside: $(ls "$W/x")"
[ "$(ls "$W/x/target" | wc -l)" -gt 0 ] && ok "modules extracted" || fail "no module extracted"
expect 2 "a member that is not a metallib" -- "$M" ls "$I!Payload/App.app/fake.metallib"
grep -q "^mtlbx: $I!Payload/App.app/fake.metallib:0: not a metallib" "$W/err" && ok "one line naming it" || fail "$(cat "$W/err")"
expect 2 "a member that does not exist" -- "$M" info "$I!Payload/nope.metallib"
grep -q "no such member" "$W/err" && ok "says no such member" || fail "$(cat "$W/err")"
# A name with '!' that is really a file is a file.
cp "$FIX/nomdsz-v123.metallib" "$W/bang!name.metallib"
expect 0 "a file name holding '!'" -- "$M" info "$W/bang!name.metallib"

# ---- size limit, zip bombs ---------------------------------------------------
expect 1 "member over MTLBX_MEMBER_LIMIT" -- env MTLBX_MEMBER_LIMIT=1000 "$M" find "$I"
grep -q "^mtlbx: $I!Payload/App.app/default.metallib: member of [0-9]* bytes is over the limit of 1000 bytes" "$W/err" &&
    ok "reported with the member's name" || fail "$(cat "$W/err")"
expect 2 "ls on a member over the limit" -- env MTLBX_MEMBER_LIMIT=1000 "$M" ls "$I!Payload/App.app/default.metallib"
[ "$(wc -l <"$W/err")" = 1 ] && ok "one line" || fail "$(cat "$W/err")"

B=$W/bomb.zip
$MKZIP "$B" "d:ok.metallib=$FIX/nomdsz-v123.metallib" "bomb:honest.metallib=33554432" "lie:liar.metallib=33554432" || exit 1
[ "$(wc -c <"$B")" -lt 1000000 ] || fail "the bomb is not small: $(wc -c <"$B")"
expect 1 "zip bombs under a 4 MiB limit" -- env MTLBX_MEMBER_LIMIT=4194304 "$M" find "$B"
[ "$(cut -f1 "$W/out")" = "$B!ok.metallib" ] && ok "the good member is still listed" || fail "listed: $(cat "$W/out")"
grep -q "^mtlbx: $B!honest.metallib: .*limit" "$W/err" && ok "honest bomb refused by its declared size" || fail "$(cat "$W/err")"
grep -q "^mtlbx: $B!liar.metallib: " "$W/err" && ok "lying bomb refused while decompressing" || fail "$(cat "$W/err")"
expect 2 "ls on the lying bomb" -- env MTLBX_MEMBER_LIMIT=4194304 "$M" ls "$B!liar.metallib"

# ---- a truncated archive -----------------------------------------------------
size=$(wc -c <"$I")
head -c $((size * 2 / 3)) "$I" >"$W/cut.ipa"
expect 1 "a truncated archive" -- "$M" find "$W/cut.ipa"
grep -q "^mtlbx: $W/cut.ipa: " "$W/err" && ok "reported naming the archive" || fail "$(cat "$W/err")"
head -c 100 "$I" >"$W/tiny.zip"
expect 1 "an archive cut to 100 bytes" -- "$M" find "$W/tiny.zip"
expect 2 "a member of a truncated archive" -- "$M" ls "$W/tiny.zip!Payload/App.app/default.metallib"

# ---- usage -------------------------------------------------------------------
expect 2 "find without a path" -- "$M" find
expect 2 "find with an unknown option" -- "$M" find --bogus "$T"
expect 1 "find on a missing path" -- "$M" find "$W/missing"
grep -q "^mtlbx: $W/missing: No such file or directory$" "$W/err" && ok "missing path reported" || fail "$(cat "$W/err")"
expect 0 "find on one file" -- "$M" find "$FIX/fat.metallib"
[ "$(wc -l <"$W/out")" = 1 ] && ok "one line" || fail "$(cat "$W/out")"

exit $FAILED
