"""pytest of mtlbx.check (the release gate through libmtlbx's mtlbx_gate_*,
never the program), run by tests/api/python.sh beside test_mtlbx.py: every
finding held against what `mtlbx check --json` prints for the same operands
and targets, on the sample, the fixtures, cut and mutated copies of them
(files full of findings) and, when $MTLBX_CORPUS is set, the corpus; and
every other operand check takes, built here from the sample and the
fixtures (a folder with an .app bundle, a wheel with its WHEEL tags, an
.ipa with a binary Info.plist, Mach-O hosts, ARCHIVE!MEMBER, a damaged zip,
a bad plist), under os="declared" and expect=, finding for finding and
problem for problem."""

import json
import os
import random
import subprocess
import sys

import pytest

import mtlbx
# The paths and files the module's tests read (beside this file: pytest
# puts its folder first in sys.path).
from test_mtlbx import BIN, CORPUS_FILES, FIXTURES, SAMPLE, SRC, WORK, metallib


def program_findings(paths, targets=()):
    """What `mtlbx check --json` prints, as (file, offset, severity, message, rule)."""
    args = [BIN, "check", "--json"]
    for t in targets:
        args += ["--os", t]
    p = subprocess.run(args + list(paths), capture_output=True)
    assert p.returncode in (0, 1), (p.returncode, p.stderr[:300])
    rows = [json.loads(line) for line in p.stdout.decode("utf-8", "surrogateescape").splitlines()]
    return [(r["file"], r["offset"], r["severity"], r["message"], r["rule"]) for r in rows]


def library_findings(paths, targets=()):
    found = mtlbx.check(paths, os=list(targets) or None)
    for f in found:
        assert isinstance(f, mtlbx.Finding)
        assert f.severity in ("error", "warning") and f.rule in ("diagnostic", "os", "os-declared", "expect")
    return [(f.file, f.offset, f.severity, f.message, f.rule) for f in found]


TARGETS = [(), ("macOS:13.0",), ("macOS:11.0", "iOS:14.0", "tvOS:14.0"), ("macOS:26.0", "iOS:26.0")]


@pytest.mark.parametrize("targets", TARGETS, ids=lambda t: ",".join(t) or "no-os")
def test_fixtures_agree_with_check_json(targets):
    lib = library_findings(FIXTURES, targets)
    assert lib == program_findings(FIXTURES, targets)
    if targets == ("macOS:11.0", "iOS:14.0", "tvOS:14.0"):
        assert any(rule == "os" for *_, rule in lib), "the targets should catch something"


def damaged_copies():
    """Cut and mutated copies of the sample and the fat fixture: files with
    many diagnostics, in an order the sort must settle."""
    out = os.path.join(WORK, "gate-damaged")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(44)
    files = []
    for base in (SAMPLE, os.path.join(SRC, "tests", "fixtures", "fat.metallib")):
        with open(base, "rb") as f:
            data = f.read()
        stem = os.path.basename(base)
        for n in sorted({88, 200, len(data) // 2, len(data) - 1}):
            p = os.path.join(out, "%s.cut%d" % (stem, n))
            with open(p, "wb") as f:
                f.write(data[:n])
            files.append(p)
        for k in range(12):
            b = bytearray(data)
            for _ in range(rng.choice((1, 8, 64))):
                i = rng.randrange(4, len(b))
                b[i] = rng.randrange(256)
            p = os.path.join(out, "%s.mut%d" % (stem, k))
            with open(p, "wb") as f:
                f.write(b)
            files.append(p)
    return files


def test_damaged_files_agree_with_check_json():
    seen = 0
    for path in damaged_copies():
        try:
            lib = library_findings([path], ("macOS:14.0",))
        except mtlbx.Error:
            # check says so on stderr with exit 2 and prints no finding
            p = subprocess.run([BIN, "check", "--json", "--os", "macOS:14.0", path], capture_output=True)
            assert p.returncode == 2 and not p.stdout, path
            continue
        assert lib == program_findings([path], ("macOS:14.0",)), path
        seen += len(lib)
    assert seen > 20, "the damaged copies should give findings"


def test_corpus_agrees_with_check_json():
    if not CORPUS_FILES:
        pytest.skip("no $MTLBX_CORPUS: only the fixtures were checked")
    # (a corpus file that is not a metallib is the error test's business)
    files = [p for p in CORPUS_FILES if metallib(p)]
    for targets in ((), ("macOS:14.0", "iOS:17.0")):
        assert library_findings(files, targets) == program_findings(files, targets)


def test_one_path_and_pathlike():
    import pathlib
    fat = os.path.join(SRC, "tests", "fixtures", "fat.metallib")
    assert mtlbx.check(fat) == mtlbx.check([pathlib.Path(fat)]) == mtlbx.check((fat,))
    assert mtlbx.check([]) == []
    assert repr(mtlbx.check(fat, os="macOS:11.0")[0]).startswith("<mtlbx.Finding " + fat + ":")


def test_errors_name_their_file(tmp_path):
    missing = str(tmp_path / "no-such.metallib")
    with pytest.raises(FileNotFoundError) as e:
        mtlbx.check([SAMPLE, missing])
    assert e.value.filename == missing
    with pytest.raises(mtlbx.Error, match="expected PLATFORM:VERSION"):
        mtlbx.check([SAMPLE], os="macOS")
    with pytest.raises(mtlbx.Error, match="named twice"):
        mtlbx.check([SAMPLE], os=["macOS:14.0", "macOS:13.0"])
    # Not a metallib, nor an archive or a host: check refuses it with exit 2.
    readme = os.path.join(SRC, "README.md")
    with pytest.raises(mtlbx.Error, match="not a metallib") as e:
        mtlbx.check([readme])
    assert str(e.value).startswith(readme + ":")
    assert subprocess.run([BIN, "check", "--json", readme], capture_output=True).returncode == 2
    # A file cut inside its header opens, with the finding check prints.
    cut = tmp_path / "cut.metallib"
    with open(SAMPLE, "rb") as f:
        cut.write_bytes(f.read(8))
    assert library_findings([str(cut)]) == program_findings([str(cut)]) != []


# ---------------------------------------------- every operand check takes --

def run_program(paths, targets=(), expect=None):
    """`mtlbx check --json`: (exit status, findings, the stderr lines)."""
    args = [BIN, "check", "--json"]
    for t in targets:
        args += ["--os", t]
    if expect is not None:
        args += ["--expect", expect]
    p = subprocess.run(args + list(paths), capture_output=True)
    rows = [json.loads(line) for line in p.stdout.decode("utf-8", "surrogateescape").splitlines()]
    found = [(r["file"], r["offset"], r["severity"], r["message"], r["rule"]) for r in rows]
    return p.returncode, found, p.stderr.decode("utf-8", "surrogateescape").splitlines()


def run_library(paths, targets=(), expect=None):
    """mtlbx.check on the same: (the exit status check would give, findings,
    the problems as check's stderr lines)."""
    try:
        found = mtlbx.check(paths, os=list(targets) or None, expect=expect)
        problems = []
    except (mtlbx.Error, OSError) as e:
        found, problems = e.findings, e.problems
    rows = [(f.file, f.offset, f.severity, f.message, f.rule) for f in found]
    for f in found:
        assert f.rule in ("diagnostic", "os", "os-declared", "expect")
        # the member is what follows its archive's path and '!'
        assert f.member == "" or f.file.endswith("!" + f.member), (f.file, f.member)
    lines = ["mtlbx: %s:%d: %s" % (p, o, m) if o is not None else "mtlbx: %s: %s" % (p, m) for p, o, m in problems]
    return (2 if problems else 1 if rows else 0), rows, lines


def agree(paths, targets=(), expect=None):
    """The library and the program give the same answer: the findings, the
    problems, the exit status. Returns the findings."""
    lib = run_library(paths, targets, expect)
    prog = run_program(paths, targets, expect)
    assert lib == prog, (paths, targets, expect)
    return lib


def mkrelease(out, *members):
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "mkrelease.py"), str(out)] +
                   ["%s=%s" % m for m in members], check=True)
    return str(out)


def mkmacho(out, *args):
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "mkmacho.py"), str(out)] + list(args), check=True)
    return str(out)


def plist(path, fmt=None, **keys):
    import plistlib
    with open(path, "wb") as f:
        plistlib.dump(keys, f, fmt=fmt or plistlib.FMT_XML)
    return str(path)


FAT = os.path.join(SRC, "tests", "fixtures", "fat.metallib")
IOS = os.path.join(SRC, "tests", "fixtures", "legacy-v122-ios.metallib")


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """The operands: each kind check takes, built from the sample and the fixtures."""
    import plistlib
    d = tmp_path_factory.mktemp("releases")
    r = {}
    wheel_meta = d / "WHEEL"
    wheel_meta.write_text("Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp312-cp312-macosx_14_0_arm64\n")
    r["wheel"] = mkrelease(d / "pkg-1.0-cp312-cp312-macosx_10_13_arm64.whl", ("pkg/lib/sample.metallib", SAMPLE),
                           ("pkg/lib/fat.metallib", FAT), ("pkg-1.0.dist-info/WHEEL", wheel_meta))
    r["wheel_untagged"] = mkrelease(d / "plain-1.0-py3-none-any.whl", ("plain/sample.metallib", SAMPLE))
    info = plist(d / "Info.plist", plistlib.FMT_BINARY, CFBundleIdentifier="org.example.app",
                 MinimumOSVersion="12.0", CFBundleSupportedPlatforms=["iPhoneOS"])
    r["ipa"] = mkrelease(d / "App.ipa", ("Payload/X.app/ios.metallib", IOS), ("Payload/X.app/Info.plist", info),
                         ("Payload/X.app/sample.metallib", SAMPLE))
    bad = d / "bad.plist"
    bad.write_bytes(b"bplist00\xff\xff\xff\xff not a plist at all")
    r["ipa_bad_plist"] = mkrelease(d / "Bad.ipa", ("Payload/Y.app/Info.plist", bad),
                                   ("Payload/Y.app/ios.metallib", IOS))
    r["host"] = mkmacho(d / "libhost.dylib", "--section", "__TEXT,metal_basic=" + SAMPLE, "--minos", "macos:11.0")
    r["host_universal"] = mkmacho(d / "libuni.dylib", "--section", "__TEXT,metal_basic=" + SAMPLE, "--minos",
                                  "macos:14.0", "--universal", "arm64,x86_64")
    r["zip_of_ipa"] = mkrelease(d / "outer.zip", ("dist/App.ipa", r["ipa"]), ("dist/fat.metallib", FAT))
    r["tar"] = mkrelease(d / "rel.tar.gz", ("lib/sample.metallib", SAMPLE), ("lib/ios.metallib", IOS))
    folder = d / "folder"
    (folder / "Mac.app" / "Contents" / "Resources").mkdir(parents=True)
    plist(folder / "Mac.app" / "Contents" / "Info.plist", CFBundleIdentifier="org.example.mac",
          LSMinimumSystemVersion="13.0")
    with open(SAMPLE, "rb") as f:
        (folder / "Mac.app" / "Contents" / "Resources" / "default.metallib").write_bytes(f.read())
    with open(FAT, "rb") as f:
        (folder / "loose.metallib").write_bytes(f.read())
    (folder / "notes.txt").write_text("not a library\n")
    mkrelease(folder / "pkg-1.0-cp312-cp312-macosx_14_0_arm64.whl", ("pkg/sample.metallib", SAMPLE))
    mkmacho(folder / "libin.dylib", "--section", "__TEXT,metal_basic=" + SAMPLE, "--minos", "macos:12.0")
    r["folder"] = str(folder)
    with open(r["wheel"], "rb") as f:
        whole = f.read()
    r["zip_cut"] = str(d / "cut-1.0-cp312-cp312-macosx_14_0_arm64.whl")
    with open(r["zip_cut"], "wb") as f:
        f.write(whole[:len(whole) * 2 // 3])
    return r


DECLARED_TARGETS = [(), ("declared",), ("macOS:13.0", "declared"), ("macOS:26.0", "iOS:12.0")]
KINDS = ["wheel", "wheel_untagged", "ipa", "host", "host_universal", "zip_of_ipa", "tar", "folder"]


@pytest.mark.parametrize("targets", DECLARED_TARGETS, ids=lambda t: ",".join(t) or "no-os")
@pytest.mark.parametrize("kind", KINDS)
def test_operands_agree_with_check_json(releases, kind, targets):
    status, found, problems = agree([releases[kind]], targets)
    assert status in (0, 1) and not problems, (kind, problems)
    if kind in ("wheel", "ipa", "folder", "zip_of_ipa", "tar"):
        assert any("!" in f[0] or kind == "folder" for f in found) or not found
    if "declared" in targets and kind != "tar":
        assert any(f[4] == "os-declared" for f in found), (kind, "the package's minimum should speak")


def test_the_issue_wheel_declared(releases):
    """The issue's own words: mtlbx.check([wheel], os="declared") gives
    check --json's findings."""
    found = mtlbx.check([releases["wheel"]], os="declared")
    _, prog, _ = run_program([releases["wheel"]], ("declared",))
    assert [(f.file, f.offset, f.severity, f.message, f.rule) for f in found] == prog
    assert any(f.rule == "os-declared" and f.member == "pkg/lib/sample.metallib" for f in found)


def test_several_operands_and_members(releases):
    ops = [releases["wheel"], SAMPLE, releases["host"], releases["ipa"] + "!Payload/X.app/ios.metallib",
           releases["host"] + "!__TEXT,metal_basic"]
    for targets in ((), ("declared",), ("macOS:14.0", "iOS:13.0")):
        agree(ops, targets)


def test_expect_agrees_with_check_json(releases, tmp_path):
    with mtlbx.open(SAMPLE) as f:
        names = sorted(fn.name for fn in f.functions)
    assert names
    listing = tmp_path / "expect.txt"
    listing.write_text("# kernels the host asks for\n%s\n  %s  \nno_such_kernel\nnever_*\n%s*\n\n" %
                       (names[0], names[-1], names[0][:3]))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    for expect in (str(listing), str(empty), FAT, SAMPLE, releases["wheel"], releases["folder"]):
        for ops in ([SAMPLE], [releases["wheel"], releases["ipa"]], [releases["folder"]], [releases["host"]]):
            _, found, _ = agree(ops, ("declared",), expect)
            if expect == str(listing):
                assert any(f[4] == "expect" and "no_such_kernel" in f[3] for f in found)
                assert any(f[4] == "expect" and "never_*" in f[3] for f in found)
    # A list of names: the same findings as a file of those lines, the list
    # called by its own name.
    by_list = mtlbx.check([releases["wheel"]], expect=[names[0], "no_such_kernel", "never_*"])
    lines = tmp_path / "same.txt"
    lines.write_text("%s\nno_such_kernel\nnever_*\n" % names[0])
    by_file = mtlbx.check([releases["wheel"]], expect=str(lines))
    assert [f.message.replace(str(lines), "the expect list") for f in by_file] == [f.message for f in by_list]
    assert any(f.rule == "expect" and "no_such_kernel" in f.message for f in by_list)
    # A LIST that cannot be read: check exits 2 before any operand.
    with pytest.raises(FileNotFoundError):
        mtlbx.check([SAMPLE], expect=str(tmp_path / "missing.metallib"))
    assert run_program([SAMPLE], (), str(tmp_path / "missing.metallib"))[0] == 2


def test_hostile_archives_give_the_programs_answer(releases, tmp_path):
    """A zip cut short, a plist that is not one, an archive member that is
    not a library: the same findings and the same problems as check, never
    a crash."""
    for ops in ([releases["zip_cut"]], [releases["ipa_bad_plist"]], [releases["zip_cut"], SAMPLE]):
        for targets in ((), ("declared",)):
            agree(ops, targets)
    status, _, problems = run_library([releases["zip_cut"]], ("declared",))
    assert status == 2 and problems, "a cut zip is a problem, as check says"
    _, found, problems = run_library([releases["ipa_bad_plist"]], ("declared",))
    assert not problems and any(f[4] == "os-declared" and "Info.plist" in f[3] for f in found), found
    # A member that is not there, and garbage that claims to be a zip.
    garbage = tmp_path / "junk.zip"
    garbage.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 8)
    for ops in ([releases["wheel"] + "!pkg/none.metallib"], [str(garbage)]):
        status, _, problems = agree(ops, ("declared",))
        assert status == 2 and problems
    with pytest.raises(mtlbx.Error) as e:
        mtlbx.check([releases["wheel"] + "!pkg/none.metallib", SAMPLE])
    assert str(e.value).startswith(releases["wheel"] + "!pkg/none.metallib:")
    assert e.value.findings == mtlbx.check([SAMPLE]), "the rest is still checked"
