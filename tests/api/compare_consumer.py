#!/usr/bin/env python3
"""compare_consumer.py MTLBX FILE OUTDIR: holds what tests/api/consumer
wrote about FILE into OUTDIR against what the mtlbx program says about it:
the dump --json documents byte for byte, every getter's value against the
document's, the declarations against `mtlbx sig`, the check_os findings
against `mtlbx check --os macos:14.0`, the findings against the document's
diagnostics, and the gate's findings against `mtlbx check --json --os
macos:14.0 --expect LIST`. Prints one line per disagreement; exit 1 when
there is one."""

import collections
import json
import os
import re
import subprocess
import sys

mtlbx, path, outdir = sys.argv[1:4]
problems = []


def say(what):
    problems.append("%s: %s" % (os.path.basename(path), what))


def run(*args):
    return subprocess.run([mtlbx, *args, path], capture_output=True)


def read(name):
    with open(os.path.join(outdir, name), "rb") as f:
        return f.read()


# The documents, byte for byte: the program prints the same text and a newline.
for name, args in (("dump.json", ["dump", "--json"]), ("dump-all.json", ["dump", "--json", "--interfaces", "--layout"])):
    want = run(*args).stdout
    got = read(name)
    if got + b"\n" != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        say("%s differs from `mtlbx %s` at byte %d (%d and %d bytes)" % (name, " ".join(args), at, len(got), len(want)))

doc = json.loads(run("dump", "--json", "--interfaces").stdout)
with open(os.path.join(outdir, "values.json"), encoding="utf-8", errors="surrogateescape") as f:
    api = json.load(f)


def requires_text(r):
    return "%s %s" % (r["os"], r["version"]) if r["os"] and r["version"] else None


def same(where, got, want, program="dump --json"):
    if got != want:
        say("%s: the C API says %r, %s %r" % (where, got, program, want))


same("libraries", len(api["libraries"]), len(doc["libraries"]))
slices = {s["offset"]: s["size"] for s in (doc["fat"] or {}).get("slices", [])}
mismatch = False
for l, (a, d) in enumerate(zip(api["libraries"], doc["libraries"])):
    for key in ("container_version", "platform", "file_type", "target_os", "os_version", "uuid"):
        same("library %d %s" % (l, key), a[key], d[key])
    same("library %d requires" % l, a["requires"], requires_text(d["requires"]))
    same("library %d offset" % l, a["offset"], d["offset"])
    same("library %d size" % l, a["size"], min(slices[d["offset"]], doc["size"] - d["offset"])
         if doc["fat"] else doc["size"])
    same("library %d functions" % l, len(a["functions"]), len(d["functions"]))
    for i, (af, df) in enumerate(zip(a["functions"], d["functions"])):
        where = "library %d function %d" % (l, i)
        # The document escapes a name's bytes that are not UTF-8 (\xNN);
        # the C API gives them as stored.
        if "\\x" not in df["name"]:
            same(where + " name", af["name"], df["name"])
        for key, dkey in (("type", "type"), ("air_version", "air_version"), ("msl_version", "language_version"),
                          ("hash", "hash"), ("hash_ok", "hash_ok"), ("interface", "interface")):
            same("%s %s" % (where, key), af[key], df[dkey])
        same(where + " requires", af["requires"], requires_text(df["requires"]))
        module = df["module"] or {"offset": None, "size": None}
        same(where + " module offset", af["module_offset"], module["offset"])
        same(where + " module size", af["module_size"], module["size"])
        mismatch |= df["hash"] is not None and df["module"] is not None and not df["hash_ok"]
    members = [m for arc in ((d["sources"] or {}).get("archives") or []) if arc["decoded"] for m in arc["members"]]
    same("library %d source members" % l, [m["name"] for m in a["sources"]], [m["name"] for m in members])
    for s, m in zip(a["sources"], members):
        if s["size"] is not None:
            same("library %d source %s size" % (l, s["name"]), s["size"], m["size"])
same("verify", api["verify"], 1 if mismatch else 0)

# Declarations: what sig prints, but its "// requires" lines (and the
# "// library N" line a fat file has before each library's).
sig = run("sig").stdout.decode("utf-8", "surrogateescape")
want = "".join(line for line in sig.splitlines(True) if not line.startswith(("// requires ", "// library ")))
got = read("declarations.txt").decode("utf-8", "surrogateescape")
if got != want:
    say("declarations differ from `mtlbx sig` (%d and %d characters)" % (len(got), len(want)))

# Findings: the document's, and the gate's as check words them.
def findings(text):
    out = collections.Counter()
    for line in text.decode("utf-8", "surrogateescape").splitlines():
        m = re.match(r"^.*?:(\d+): (error|warning): (.*)$", line[len(path):] if line.startswith(path) else line)
        if m:
            out[(2 if m.group(2) == "error" else 1, int(m.group(1)), m.group(3))] += 1
    return out


plain = findings(run("check").stdout)
gated = findings(run("check", "--os", "macos:14.0").stdout)
same("check_os findings", collections.Counter(tuple(x) for x in api["check_os"]), gated - plain)
same("check_os status", api["check_os_status"], -20 if gated - plain else 0)
# The plain document's: with --interfaces it also lists the modules whose
# interface does not decode, which only a reader of interfaces finds.
plain_doc = json.loads(run("dump", "--json").stdout)
want = collections.Counter()
for d in plain_doc["diagnostics"] + [x for lib in plain_doc["libraries"] for x in lib["diagnostics"]]:
    want[(2 if d["severity"] == "error" else 1, d["offset"], d["message"])] += 1
same("findings", collections.Counter(tuple(x) for x in api["diagnostics"]), want)

# The gate (mtlbx_gate_*): what `check --json --os macOS:14.0 --expect LIST`
# prints, finding for finding and in its order, and the same status.
with open(os.path.join(outdir, "gate.json"), encoding="utf-8", errors="surrogateescape") as f:
    gate = json.load(f)
checked = run("check", "--json", "--os", "macOS:14.0", "--expect", os.path.join(outdir, "expected.txt"))
rows = [json.loads(line) for line in checked.stdout.decode("utf-8", "surrogateescape").splitlines()]
same("gate findings", [tuple(x[:5]) for x in gate["findings"]],
     [(r["file"], r["offset"], r["severity"], r["message"], r["rule"]) for r in rows], "check --json")
same("gate members", [x[5] for x in gate["findings"]], ["" for r in rows], "check --json")
same("gate status", gate["status"], -25 if checked.returncode == 2 else -20 if rows else 0, "check --json")
same("gate problems", bool(gate["problems"]), checked.returncode == 2, "check --json")
if not any(r["rule"] == "expect" for r in rows) and checked.returncode != 2:
    say("the gate found no missing expected function; the test cannot tell a list read from one ignored")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
