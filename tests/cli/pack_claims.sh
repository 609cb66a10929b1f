#!/bin/sh
# pack DIR holds manifest.json's function list to its modules (issue 41):
# a NAME the module does not define, a TYPE that is not its stage, an AIR
# or MSL version that is not its own is refused (exit 2, no output) with
# one line naming the function, the field and both values; with
# --keep-manifest-values the values are packed as given, and plain check
# then names the same lie in the written file. The untouched folder packs
# back byte for byte. Folders are the sample's, unpacked and edited here.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-claims.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

"$MTLBX_BIN" unpack "$SRC/data/sample.metallib" -o "$WORK/u" >/dev/null 2>&1 || { echo "FAIL: unpack"; exit 1; }
"$MTLBX_BIN" pack "$WORK/u" -o "$WORK/same.metallib" 2>"$WORK/err" && cmp -s "$WORK/same.metallib" "$SRC/data/sample.metallib" \
    && ok "the untouched folder packs back byte for byte" || fail "untouched folder: $(cat "$WORK/err")"

# One edited copy per lie: FIELD KEY NEW; prints the function's name and
# the old value.
edit() { # FIELD KEY NEW
    rm -rf "$WORK/$1" && cp -r "$WORK/u" "$WORK/$1" || exit 1
    python3 - "$WORK/$1/manifest.json" "$2" "$3" <<'EOF'
import json, sys
path, key, new = sys.argv[1:]
m = json.load(open(path))
f = m["libraries"][0]["functions"][0]
print(f["name"], f[key])
f[key] = new
json.dump(m, open(path, "w"), indent=1)
EOF
}

for lie in "NAME name not_its_entry" "TYPE type kernel" "AIR air_version 2.1" "MSL language_version 1.1"; do
    set -- $lie
    field=$1 key=$2 new=$3
    set -- $(edit "$field" "$key" "$new")
    name=$1 old=$2
    [ "$field" = NAME ] && { shown=$new; old=$name; } || shown=$name
    rm -f "$WORK/out.metallib"
    "$MTLBX_BIN" pack "$WORK/$field" -o "$WORK/out.metallib" 2>"$WORK/err"
    rc=$?
    msg=$(cat "$WORK/err")
    case $field in
    NAME) want="NAME is $new, but its module defines no function of that name (its entry is $old)" ;;
    TYPE) want="TYPE is $new, but its module declares it a $old function" ;;
    AIR) want="AIR version is $new in the function list, $old in its module" ;;
    MSL) want="MSL version is $new in the function list, $old in its module" ;;
    esac
    if [ $rc -eq 2 ] && [ ! -e "$WORK/out.metallib" ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
        printf '%s' "$msg" | grep -qF "function $shown: $want" && printf '%s' "$msg" | grep -qF -- "--keep-manifest-values"; then
        ok "$field lie refused: $msg"
    else
        fail "$field lie: exit $rc, message: $msg"
    fi
    if "$MTLBX_BIN" pack --keep-manifest-values "$WORK/$field" -o "$WORK/out.metallib" 2>"$WORK/err" &&
        [ -s "$WORK/out.metallib" ]; then
        "$MTLBX_BIN" check "$WORK/out.metallib" >"$WORK/check" 2>&1
        if grep -qF "$want" "$WORK/check"; then
            ok "$field: --keep-manifest-values packs it, and check names the lie"
        else
            fail "$field: packed with --keep-manifest-values, but check says: $(cat "$WORK/check")"
        fi
    else
        fail "$field: --keep-manifest-values did not pack: $(cat "$WORK/err")"
    fi
done

# The flag says what it does, and only where it means something.
"$MTLBX_BIN" pack --keep-manifest-values --target macOS:14.0 "$WORK/u/"*.air -o "$WORK/t.metallib" 2>"$WORK/err"
[ $? -eq 2 ] && grep -q 'goes with pack DIR' "$WORK/err" && ok "--keep-manifest-values refused with --target" ||
    fail "--keep-manifest-values with --target: $(cat "$WORK/err")"
exit $FAILED
