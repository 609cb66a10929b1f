#!/bin/sh
# The GitHub Action (action.yml): its gate step, the script GitHub runs
# with the inputs in the environment, run here by bash as a runner would,
# with the mtlbx just built on PATH: a good library passes with no
# annotation, a cut one gives ::error annotations and fails, patterns
# (dist/*.whl) and --os declared reach the gate, an --expect list is
# honoured, and an input is never run as shell code.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC ;; esac
command -v bash >/dev/null 2>&1 || { echo "SKIP: no bash (GitHub runs the step with it)"; exit 77; }
PY=
for p in /usr/bin/python3 python3; do
    "$p" -c 'import yaml' 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] || { echo "SKIP: no python3 with yaml (Debian: python3-yaml) to read action.yml"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-action.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

"$PY" - "$SRC/action.yml" "$W/gate.sh" "$W/defaults" <<'PY' || { echo "FAIL: action.yml"; exit 1; }
import sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
assert action["runs"]["using"] == "composite"
assert set(action["inputs"]) == {"paths", "os", "expect"}, action["inputs"]
steps = [s for s in action["runs"]["steps"] if s.get("name") == "Check"]
assert len(steps) == 1 and steps[0]["shell"] == "bash", steps
env = steps[0]["env"]
assert env == {"MTLBX_PATHS": "${{ inputs.paths }}", "MTLBX_OS": "${{ inputs.os }}",
               "MTLBX_EXPECT": "${{ inputs.expect }}"}, env
assert "${{" not in steps[0]["run"], "an input pasted into the script"
open(sys.argv[2], "w").write(steps[0]["run"])
open(sys.argv[3], "w").write(action["inputs"]["os"]["default"] + "\n")
PY
[ "$(cat "$W/defaults")" = declared ] && ok "os defaults to declared" || fail "os defaults to $(cat "$W/defaults")"
mkdir -p "$W/bin" "$W/ws/dist" "$W/ws/old" "$W/ws/sub/deep" && ln -s "$MTLBX_BIN" "$W/bin/mtlbx" || exit 1
cp "$SRC/data/sample.metallib" "$W/ws/good.metallib"
head -c 20000 "$SRC/data/sample.metallib" >"$W/ws/cut.metallib"
cp "$W/ws/cut.metallib" "$W/ws/sub/deep/nested.metallib"
python3 "$SRC/tests/mkrelease.py" "$W/ws/dist/demo-1.0-py3-none-macosx_15_0_arm64.whl" "demo/k.metallib=$SRC/data/sample.metallib" &&
python3 "$SRC/tests/mkrelease.py" "$W/ws/old/demo-1.0-py3-none-macosx_14_0_arm64.whl" "demo/k.metallib=$SRC/data/sample.metallib" || exit 1
printf 'vertex_main\n' >"$W/ws/have.txt"
printf 'vertex_main\nno_such_kernel\n' >"$W/ws/want.txt"

gate() { # gate PATHS OS EXPECT: the step as GitHub runs it; output in $W/out
    (cd "$W/ws" && PATH="$W/bin:$PATH" MTLBX_PATHS=$1 MTLBX_OS=$2 MTLBX_EXPECT=$3 \
        bash --noprofile --norc -eo pipefail "$W/gate.sh") >"$W/out" 2>&1
}
gate "good.metallib" "" "" && [ ! -s "$W/out" ] && ok "a good library passes, no annotation" ||
    { fail "a good library"; cat "$W/out"; }
if gate "good.metallib
cut.metallib" "" ""; then
    fail "a cut library passes"; cat "$W/out"
else
    grep -q "^::error file=cut.metallib,.*cut.metallib:16: " "$W/out" && ! grep -q "file=good" "$W/out" &&
        ok "a cut library fails with ::error annotations on it alone" || { fail "annotations"; cat "$W/out"; }
fi
gate "dist/*.whl" declared "" && ok "dist/*.whl --os declared: the wheel that declares macOS 15 passes" ||
    { fail "dist/*.whl --os declared"; cat "$W/out"; }
if gate "dist/*.whl old/*.whl" declared ""; then
    fail "--os declared passes the wheel that declares macOS 14"; cat "$W/out"
else
    # GitHub attaches an annotation to a repository file: the archive in
    # file=, the member in the message (issue 46).
    grep -q "^::error file=old/demo-1.0-py3-none-macosx_14_0_arm64.whl,.*::old/demo-1.0-py3-none-macosx_14_0_arm64.whl!demo/k.metallib:0: .*more than the macOS 14.0" "$W/out" &&
        ok "--os declared fails the wheel that declares macOS 14" || { fail "--os declared finding"; cat "$W/out"; }
fi
gate "sub/**/*.metallib" "" ""; grep -q "^::error file=sub/deep/nested.metallib," "$W/out" &&
    ok "sub/**/*.metallib reaches the folders below" || { fail "sub/**/*.metallib"; cat "$W/out"; }
gate "good.metallib" "iOS:18.0 macOS:15.0" "" && ok "several --os: the library loads on the macOS named second" ||
    { fail "os 'iOS:18.0 macOS:15.0'"; cat "$W/out"; }
if gate "good.metallib" "iOS:18.0 macOS:14.0" ""; then
    fail "os 'iOS:18.0 macOS:14.0' passes a library that needs macOS 15"
else
    grep -q "macOS 15.0" "$W/out" && ok "several --os: the second one's finding" || { fail "second --os"; cat "$W/out"; }
fi
gate "good.metallib" "" "have.txt" && ok "--expect: a list the library has passes" || { fail "--expect have"; cat "$W/out"; }
if gate "good.metallib" "" "want.txt"; then
    fail "--expect passes a missing kernel"; cat "$W/out"
else
    grep -q "no_such_kernel is missing" "$W/out" && ok "--expect: a missing kernel fails" || { fail "--expect want"; cat "$W/out"; }
fi
gate 'good.metallib;touch${IFS}pwned $(touch pwned2) `touch pwned3`' "" "" >/dev/null
ls "$W/ws" | grep -q pwned && fail "an input ran as shell code" || ok "inputs are data, never shell code"
exit $FAILED
