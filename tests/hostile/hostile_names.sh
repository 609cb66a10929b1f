#!/bin/sh
# Names that spoof (issue 12, item 8): function names holding U+202E
# (right-to-left override), U+200B, U+FEFF, U+2028, U+2029 and a C1 CSI,
# and source members whose names hold a C1 CSI, a raw 0x9B byte, invalid
# UTF-8 or U+202E, and issue 35's 26 format characters (below). One policy
# (mbx_codepoint_unsafe) for the terminal and for file names: no command
# prints any of them raw, no extracted file
# name holds one, and `sources -o` refuses those members (as the man page
# says) while writing the others.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
python3 - "$SRC/tools" "$WORK/spoof.metallib" <<'PY' || exit 1
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import mtlbwriter as W

class Raw(str):
    """A name written as these exact bytes (the writer encodes names)."""
    def __new__(cls, raw):
        s = super().__new__(cls, raw.decode("latin-1"))
        s.raw = raw
        return s
    def encode(self, *args, **kwargs):
        return self.raw

names = ["rlo\u202egnp.exe", "zw\u200bsp", "bom\ufeffx", "ls\u2028x", "ps\u2029x", "csi\u009b31m"]
members = [(Raw(b"a\xc2\x9bb.metal"), b"c1\n"), (Raw(b"x\x9b.metal"), b"raw\n"),
           (Raw(b"\xff\xfe.metal"), b"bad\n"), (Raw("e\u202evil.metal".encode()), b"bidi\n"),
           ("good.metal", b"ok\n")]
sources = W.Sources("HSRD", "metal -c", "/src", [W.Archive("0", members)])
fns = [W.Function(n, W.FUNCTION_TYPES["kernel"], W.wrap_bitcode(n.encode()), (2, 6, 3, 2), source="0")
       for n in names]
lib = W.Library(functions=fns, extension=["HSRD", "UUID"], uuid=bytes(16), sources=sources)
chunks, _ = W.build(lib)
open(sys.argv[2], "wb").writelines(chunks)
PY
# raw FILE...: any byte sequence of an unsafe character in the files?
raw() { python3 - "$@" <<'PY'
import sys
bad = [b"\xe2\x80\xae", b"\xe2\x80\x8b", b"\xef\xbb\xbf", b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\xc2\x9b",
       b"\x9b", b"\xff", b"\x1b"]
found = [(p, b) for p in sys.argv[1:] for b in bad if b in open(p, "rb").read()]
print(" ".join("%s has %s" % (p.rsplit("/", 1)[-1], b.hex()) for p, b in found))
sys.exit(1 if found else 0)
PY
}
f=$WORK/spoof.metallib
for cmd in "ls" "info" "check" "sources --list"; do
    "$BIN" $cmd "$f" >"$WORK/out" 2>"$WORK/err"
    if r=$(raw "$WORK/out" "$WORK/err"); then ok "$cmd prints nothing raw"; else fail "$cmd: $r"; fi
done
mkdir "$WORK/air"
"$BIN" extract "$f" -o "$WORK/air" >"$WORK/out" 2>"$WORK/err" || { fail "extract: exit $?"; cat "$WORK/err"; }
ls "$WORK/air" >"$WORK/names"
if r=$(raw "$WORK/out" "$WORK/err" "$WORK/names"); then
    ok "extract: $(wc -l <"$WORK/names") files, no unsafe character in a name or a line"
else
    fail "extract: $r"
fi
[ "$(wc -l <"$WORK/names")" -eq 6 ] || fail "extract wrote $(wc -l <"$WORK/names") files, not 6"
mkdir "$WORK/src"
"$BIN" sources "$f" -o "$WORK/src" >"$WORK/out" 2>"$WORK/err"
rc=$?
find "$WORK/src" >"$WORK/names"
if [ $rc -ne 2 ]; then
    fail "sources -o with spoofing members: exit $rc, not 2"
elif ! r=$(raw "$WORK/out" "$WORK/err" "$WORK/names"); then
    fail "sources -o: $r"
elif ! grep -q "good.metal" "$WORK/names" || [ "$(grep -c metal "$WORK/names")" -ne 1 ]; then
    fail "sources -o wrote: $(grep metal "$WORK/names" | tr '\n' ' ')"
else
    ok "sources -o: the four spoofing members refused ($(grep -c "" "$WORK/err") lines), good.metal written"
fi

# Item 9: a TERM holding an escape sequence is not echoed raw by the
# explorer's "cannot use terminal type" message (run on a pty).
python3 - "$BIN" "$SAMPLE" >"$WORK/tty.out" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "x\x1b]0;pwned\x07\x9b"
    os.execv(sys.argv[1], [sys.argv[1], sys.argv[2]])
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
PY
if r=$(raw "$WORK/tty.out") && grep -q "terminal type" "$WORK/tty.out"; then
    ok "TERM with an escape sequence: $(tr -d '\r' <"$WORK/tty.out" | head -1)"
else
    fail "TERM with an escape sequence: $r $(od -c "$WORK/tty.out" | head -3)"
fi

# Item 9: duplicate CNST, VATY, DEBI and DEPF tags in a metadata group
# are reported (the function list already warns about its duplicates).
python3 - "$SRC/tools" "$WORK/dup.metallib" <<'PY' || exit 1
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import mtlbwriter as W
k = [W.Constant("c", "int", 0, True)]
fn = W.Function("dup", 2, W.wrap_bitcode(b"x"), (2, 6, 3, 2), constants=k,
                public_extra=[("CNST", W.cnst_value(k)), ("VATY", b"\x00\x00"), ("VATY", b"\x00\x00")],
                private=[("DEBI", W.debi_value(1, "/a.metal")), ("DEBI", W.debi_value(2, "/b.metal")),
                         ("DEPF", W.cstr("/a.d")), ("DEPF", W.cstr("/b.d"))])
lib = W.Library(functions=[fn], extension=["UUID"], uuid=bytes(16))
open(sys.argv[2], "wb").writelines(W.build(lib)[0])
PY
"$BIN" check "$WORK/dup.metallib" >"$WORK/out" 2>&1
for tag in CNST VATY DEBI DEPF; do
    if grep -q "duplicate $tag tag in a metadata group" "$WORK/out"; then
        ok "duplicate $tag reported"
    else
        fail "duplicate $tag not reported: $(cat "$WORK/out")"
    fi
done

# Issue 35 item 11: the invisible format characters a hand-kept list
# missed (Arabic number signs, Syriac abbreviation mark, Kaithi, Egyptian
# hieroglyph, shorthand and musical format controls), each in a function
# name: none reaches the terminal raw (ls --names is what shell completion
# reads), and none lands in an extracted file's name.
python3 - "$SRC/tools" "$WORK/cf.metallib" <<'PY' || exit 1
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import mtlbwriter as W
cps = [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x8E2, 0x110BD, 0x110CD, 0x13430, 0x13431,
       0x13438, 0x1BCA0, 0x1BCA1, 0x1BCA2, 0x1BCA3] + list(range(0x1D173, 0x1D17B))
assert len(cps) == 26
fns = [W.Function("cf%04x%sx" % (cp, chr(cp)), 2, W.wrap_bitcode(b"%d" % cp), (2, 6, 3, 2)) for cp in cps]
lib = W.Library(functions=fns, extension=["UUID"], uuid=bytes(16))
open(sys.argv[2], "wb").writelines(W.build(lib)[0])
PY
cf_raw() { python3 - "$@" <<'PY'
import sys
cps = [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x8E2, 0x110BD, 0x110CD, 0x13430, 0x13431,
       0x13438, 0x1BCA0, 0x1BCA1, 0x1BCA2, 0x1BCA3] + list(range(0x1D173, 0x1D17B))
found = sorted({"%s has U+%04X" % (p.rsplit("/", 1)[-1], cp) for p in sys.argv[1:] for cp in cps
                if chr(cp).encode() in open(p, "rb").read()})
print(" ".join(found[:4]))
sys.exit(1 if found else 0)
PY
}
f=$WORK/cf.metallib
for cmd in "ls --names" "ls" "info" "check" "textconv" "dump --json"; do
    "$BIN" $cmd "$f" >"$WORK/out" 2>"$WORK/err"
    case $cmd in dump*) : >"$WORK/out" ;; esac  # JSON escapes as JSON does, for programs
    if r=$(cf_raw "$WORK/out" "$WORK/err"); then ok "$cmd: no format character raw"; else fail "$cmd: $r"; fi
done
[ "$("$BIN" ls --names "$f" | grep -c '^cf1d17a\\xf0\\x9d\\x85\\xbax$')" -eq 1 ] ||
    fail "ls --names does not show U+1D17A as its escaped bytes: $("$BIN" ls --names "$f" | tail -1)"
mkdir "$WORK/cfair"
"$BIN" extract "$f" -o "$WORK/cfair" >"$WORK/out" 2>"$WORK/err" || fail "extract: exit $?"
ls "$WORK/cfair" >"$WORK/names"
if r=$(cf_raw "$WORK/out" "$WORK/err" "$WORK/names"); then
    ok "extract: $(wc -l <"$WORK/names") files, no format character in a name"
else
    fail "extract: $r"
fi

# Item 9: an error line about a 5,000-byte name keeps its reason (lines
# used to be cut at 1,023 bytes).
long=$(python3 -c 'print("f" * 5000)')
python3 - "$SRC/tools" "$WORK/long.metallib" "$long" <<'PY' || exit 1
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import mtlbwriter as W
lib = W.Library(functions=[W.Function(sys.argv[3], 2, W.wrap_bitcode(b"x"), (2, 6, 3, 2))],
                extension=["UUID"], uuid=bytes(16))
open(sys.argv[2], "wb").writelines(W.build(lib)[0])
PY
"$BIN" --llvm-dis /bin/false dis "$WORK/long.metallib" "$long" >/dev/null 2>"$WORK/err"
if grep -q "$long: llvm-dis exited with status 1\$" "$WORK/err"; then
    ok "a 5,000-byte name keeps the reason after it"
else
    fail "long name: $(tail -c 120 "$WORK/err")"
fi
finish
