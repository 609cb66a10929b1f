"""pytest of mtlbx.check (the release gate through libmtlbx's mtlbx_gate_*,
never the program), run by tests/api/python.sh beside test_mtlbx.py: every
finding held against what `mtlbx check --json` prints for the same operands
and targets, on the sample, the fixtures, cut and mutated copies of them
(files full of findings) and, when $MTLBX_CORPUS is set, the corpus; and
what this version does not take yet (folders, archives, Mach-O hosts,
os="declared", expect) refused, never passed with no finding."""

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
        assert f.severity in ("error", "warning") and f.rule in ("diagnostic", "os")
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


def test_what_is_not_yet_through_the_library_is_refused(tmp_path):
    with pytest.raises(NotImplementedError, match="folder"):
        mtlbx.check([str(tmp_path)])
    zipped = tmp_path / "w.whl"
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "mkzip.py"), str(zipped), "s:a.metallib=" + SAMPLE],
                   check=True)
    with pytest.raises(NotImplementedError, match="archives"):
        mtlbx.check([str(zipped)])
    host = tmp_path / "host"
    subprocess.run([sys.executable, os.path.join(SRC, "tests", "mkmacho.py"), str(host), "--section",
                    "__TEXT,metal_basic=" + SAMPLE, "--minos", "macos:14.0"], check=True)
    with pytest.raises(NotImplementedError, match="Mach-O"):
        mtlbx.check([str(host)])
    # (the program takes both: exit 0 or 1, which program_findings asserts)
    program_findings([str(zipped), str(host)])
    with pytest.raises(NotImplementedError, match="declared"):
        mtlbx.check([SAMPLE], os="declared")
    with pytest.raises(NotImplementedError, match="expect"):
        mtlbx.check([SAMPLE], expect=["kernel_*"])
    # A refusal comes before any finding is handed out: none is lost as a pass.
    with pytest.raises(NotImplementedError):
        mtlbx.check([SAMPLE, str(tmp_path)])


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
