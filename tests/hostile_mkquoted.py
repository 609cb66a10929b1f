#!/usr/bin/env python3
"""Inputs of issue 40 (nothing built here is committed, except the fuzz
seeds --seeds writes):

    hostile_mkquoted.py manifests MANIFEST OUTDIR
        one copy of MANIFEST (an unpack's manifest.json) per value a
        message quotes, each value made hostile (ESC, BEL, a newline then
        a GitHub workflow command): OUTDIR/NAME.json, NAME the key
    hostile_mkquoted.py align MANIFEST OUT [ALIGN]
        MANIFEST's library three times as the slices of a fat file, each
        aligned to 2^ALIGN (default 30: 3 GB of zeros before the bound)
    hostile_mkquoted.py wheel OUT METALLIB [NAME_BYTES TAGS]
        a wheel whose WHEEL file sits under a NAME_BYTES-byte folder name
        (default 60,000) and declares TAGS platform tags (default 80,000)
    hostile_mkquoted.py macho OUT
        a Mach-O whose overlapping sections are named with a newline, a
        workflow command and ESC (the reader's message quotes them)
    hostile_mkquoted.py --seeds SEEDS
        writes SEEDS/writer/issue40-* (manifests for fuzz_writer.c, from
        SEEDS/writer/manifest-sample and manifest-fat) and
        SEEDS/macho/issue40-names (the Mach-O above)
"""
import copy
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkmacho  # noqa: E402

# What a hostile value holds: an escape sequence, a bell, and a newline
# that would start a line the GitHub runner obeys.
EVIL = "x\x1b]0;owned\x07\n::error::pwned\r\n::add-mask::secret\x1b[31m"


def hostile_manifests(m):
    """NAME -> a copy of the manifest with one quoted value made hostile."""
    out = {}
    lib = m["libraries"][0]
    for key in ("container_version", "platform", "file_type", "target_os", "os_version"):
        v = copy.deepcopy(m)
        v["libraries"][0][key] = EVIL
        out[key] = v
    v = copy.deepcopy(m)
    v["libraries"][0]["functions"][0]["type"] = EVIL
    out["type"] = v
    v = copy.deepcopy(m)
    v["libraries"][0]["function_tags"].append(EVIL[:4])
    out["tag"] = v
    v = copy.deepcopy(m)
    v["libraries"][0]["function_tags"].append("\n::e")
    out["tag-newline"] = v
    v = copy.deepcopy(m)
    v["libraries"][0]["quirk_section_order"] = [EVIL]
    out["section"] = v
    v = copy.deepcopy(m)
    v["libraries"][0]["header_extension"].append("\n::a")
    out["header-tag"] = v
    v = copy.deepcopy(m)
    v["libraries"][0][EVIL] = 1
    out["unknown-key"] = v
    assert lib is m["libraries"][0]
    return out


def fat(m, align, count=3):
    v = copy.deepcopy(m)
    v["libraries"] = [copy.deepcopy(m["libraries"][0]) for _ in range(count)]
    v["fat"] = {"slices": [{"cputype": 16777239, "cpusubtype": 7 + i, "align": align} for i in range(count)]}
    return v


def wheel(out, metallib, name_bytes=60000, tags=80000):
    folder = "p" * name_bytes + ".dist-info"
    tag_set = ".".join("macosx_%d_0_x86_64" % (10 + i % 7) for i in range(tags))
    text = "Wheel-Version: 1.0\nTag: cp312-cp312-" + tag_set + "\n"
    with open(metallib, "rb") as f:
        lib = f.read()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(folder + "/WHEEL", text)
        z.writestr("pkg/default.metallib", lib)


def macho():
    lib = b"MTLB" + b"\0" * 92
    names = [("\n::error::x", "\x1b[31m\a\n::add-"), ("__TEXT", "\n::stop-command")]
    data = mkmacho.thin("arm64", [(seg, sect, lib) for seg, sect in names], "macos:14.0", False,
                        "section-overlap")
    return data


def write_json(path, m, prefix=b""):
    with open(path, "wb") as f:
        f.write(prefix + json.dumps(m, indent=1).encode())


def seeds(directory):
    w = os.path.join(directory, "writer")
    with open(os.path.join(w, "manifest-sample"), "rb") as f:
        sample = json.loads(f.read()[1:])
    with open(os.path.join(w, "manifest-fat"), "rb") as f:
        fat_m = json.loads(f.read()[1:])
    for name, m in hostile_manifests(sample).items():
        write_json(os.path.join(w, "issue40-quoted-" + name), m, b"M")
    for s in fat_m["fat"]["slices"]:
        s["align"] = 30
    write_json(os.path.join(w, "issue40-fat-align30"), fat_m, b"M")
    with open(os.path.join(directory, "macho", "issue40-names"), "wb") as f:
        f.write(macho())


def main(argv):
    if argv[:1] == ["--seeds"] and len(argv) == 2:
        seeds(argv[1])
    elif argv[:1] == ["manifests"] and len(argv) == 3:
        with open(argv[1]) as f:
            m = json.load(f)
        os.makedirs(argv[2], exist_ok=True)
        for name, v in hostile_manifests(m).items():
            write_json(os.path.join(argv[2], name + ".json"), v)
    elif argv[:1] == ["align"] and len(argv) in (3, 4):
        with open(argv[1]) as f:
            m = json.load(f)
        write_json(argv[2], fat(m, int(argv[3]) if len(argv) == 4 else 30))
    elif argv[:1] == ["wheel"] and len(argv) in (3, 5):
        wheel(argv[1], argv[2], *(int(a) for a in argv[3:]))
    elif argv[:1] == ["macho"] and len(argv) == 2:
        with open(argv[1], "wb") as f:
            f.write(macho())
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
