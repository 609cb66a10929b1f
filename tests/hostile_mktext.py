#!/usr/bin/env python3
"""Write the hostile inputs of issue 35's text items into DIR (the tests
make a temporary one; nothing here is committed but the small seeds that
`--seeds` writes for tests/fuzz/seeds/parser):

  bomb.metallib        one kernel whose NAME is a 525-byte mangled name that
                       doubles 48 times when demangled (f(std::pair<a, a>,
                       std::pair<std::pair<a, a>, ...>, ...))
  src-memcmp.metallib  `aaa...ab` (A 'a's) whose only source member is
                       M bytes of 'a': a memcmp of the name at every place
  src-calls.metallib   `f` over a member of "x f(" repeated: a parameter
                       list scanned to its span's end at every call
  src-cuts.metallib    ("ab_" x C) over a member of "ab_" repeated: every
                       "_part" cut of the name searched again
  src-styles.metallib  `foo` defined GNU style ("kernel void\\nfoo(...)\\n{")
                       and `bar` defined after a commented-out definition
  same-names.metallib  X functions named `x`, then `foo`
  same-ids.metallib    Y source archives, all with the id `0`
  long-names.metallib  (--full only) 200,000 functions with distinct
                       250-character names, for "did you mean"
  dup-a.metallib       kernel `foo` and vertex `foo` (different modules)
  dup-b.metallib       kernel `foo` only (dup-a's first function)
  nameless-a.whl       a wheel whose library holds N functions without a
  nameless-b.whl       NAME, and the same with N - 1

Usage: hostile_mktext.py DIR [--full] [--seeds]. The sizes by default are
ones at which the old code ran well past the test's bounds, yet quick to
write (same-ids is small: its cost now is the filesystem's, and the
unit test test_name_set.c holds the quadratic case); --full writes the
sizes of the issue (minutes before the fix). Python 3
standard library only; the container comes from tools/mtlbwriter.py."""
import os
import sys
import zipfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mtlbwriter as W  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_mkrunaway import library, module as air_module  # noqa: E402

KERNEL = W.FUNCTION_TYPES["kernel"]
VERTEX = W.FUNCTION_TYPES["vertex"]


def b36(n):
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    s = ""
    while True:
        s = digits[n % 36] + s
        n //= 36
        if n == 0:
            return s


def bomb(depth):
    """_Z1fSt4pairI1aS0_ES_IS1_S1_E...: S_ is std::pair, S0_ a, S1_
    pair<a, a>; each level is one more parameter, the pair of the level
    before with itself, so the text doubles a level."""
    s, sub = "_Z1fSt4pairI1aS0_E", 2
    for _ in range(depth):
        ref = "S%s_" % b36(sub - 1)
        s += "S_I%s%sE" % (ref, ref)
        sub += 1
    return s


def module(text):
    return W.wrap_bitcode(text.encode() if isinstance(text, str) else text)


def many(path, functions):
    """A 1.2.2 library (no header extension) of (name, type, module)
    triples, quick for a few hundred thousand functions (equal module
    objects share their bytes; a name of None writes no NAME tag), written
    to path or, path None, returned."""
    return library(path, [(name, mod, ftype) for name, ftype, mod in functions])


class SharedArchive(W.Archive):
    """An archive whose compressed bytes are made once for all its copies."""

    def __init__(self, ident, members, payload=None):
        super().__init__(ident, members)
        self._payload = payload

    def payload(self):
        if self._payload is None:
            self._payload = super().payload()
        return self._payload


def with_sources(path, functions, archives):
    """A library of (name, module) kernels whose SOFF names archive 0."""
    fns = [W.Function(n, KERNEL, m, (2, 6, 3, 2), source=archives[0].ident) for n, m in functions]
    lib = W.Library(functions=fns, extension=["HSRD", "UUID"], uuid=bytes(16),
                    sources=W.Sources("HSRD", "metal -c", "/src", archives))
    chunks, _ = W.build(lib)
    data = b"".join(chunks)
    if path:
        with open(path, "wb") as f:
            f.write(data)
    return data


def src_library(path, name, text):
    return with_sources(path, [(name, module(name[:16]))], [W.Archive("0", [("a.metal", text)])])


STYLES = b"""#include <metal_stdlib>
using namespace metal;

kernel void
foo(device float *out [[buffer(0)]],
    uint id [[thread_position_in_grid]])
{
    out[id] = 1.0f;
}

/* The old version, kept for reference:
kernel void bar(device float *out [[buffer(0)]]) { out[0] = 0.0f; }
*/
// kernel void bar(device float *out [[buffer(0)]]) { out[0] = 2.0f; }
kernel void bar(device float *out [[buffer(0)]],
                uint id [[thread_position_in_grid]])
{
    out[id] = 3.0f;
}
"""


def write_all(out, full):
    def at(name):
        return os.path.join(out, name)

    # A module whose interface decodes, so that `sig` and `textconv` print
    # its declaration under the demangled name.
    many(at("bomb.metallib"), [(bomb(48), KERNEL, module(air_module([bomb(48)])))])

    a, m = (60000, 48 << 20) if full else (40000, 16 << 20)
    src_library(at("src-memcmp.metallib"), "a" * a + "b", b"a" * m)
    m = (16 << 20) if full else (4 << 20)
    src_library(at("src-calls.metallib"), "f", b"x f(" * (m // 4))
    c, m = (21000, 2000000) if full else (3000, 300000)
    src_library(at("src-cuts.metallib"), "ab_" * c, b"ab_" * m)
    with_sources(at("src-styles.metallib"), [("foo", module("foo")), ("bar", module("bar"))],
                 [W.Archive("0", [("styles.metal", STYLES)])])

    x = 100000 if full else 20000
    shared = module("x")
    many(at("same-names.metallib"), [("x", KERNEL, shared)] * x + [("foo", KERNEL, module("foo"))])

    y = 50000 if full else 1000
    first = SharedArchive("0", [("a.metal", b"kernel void k() {}\n")])
    archives = [first] + [SharedArchive("0", first.members, first.payload()) for _ in range(y - 1)]
    with_sources(at("same-ids.metallib"), [("k", module("k"))], archives)

    if full:  # the unit test (test_names.c) has a harder case; this is the issue's
        shared = module("long")
        many(at("long-names.metallib"),
             [(("fn%07d_" % i).ljust(250, "abcdefghij"[i % 10]), KERNEL, shared) for i in range(200000)])

    foo_k, foo_v = module("foo kernel"), module("foo vertex")
    many(at("dup-a.metallib"), [("foo", KERNEL, foo_k), ("foo", VERTEX, foo_v)])
    many(at("dup-b.metallib"), [("foo", KERNEL, foo_k)])

    n = 300000 if full else 3000
    shared = module("nameless")
    for side, count in (("a", n), ("b", n - 1)):
        lib = many(None, [(None, KERNEL, shared)] * count)
        with zipfile.ZipFile(at("nameless-%s.whl" % side), "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("pkg/lib.metallib", lib)


def write_seeds(out):
    """Small versions for the fuzzers' seed corpus: each reaches the code
    the attack did (the demangler, src's search, name uniqueness, the
    comparison of repeated names) in a few kilobytes."""
    seeds = {
        "issue35-demangle-bomb": many(None, [(bomb(48), KERNEL, module(air_module([bomb(48)]))),
                                             ("foo", KERNEL, module("foo")),
                                             ("_Z3fooi", KERNEL, module("foo(int)"))]),
        "issue35-src-memcmp": src_library(None, "a" * 300 + "b", b"a" * 20000),
        "issue35-src-calls": src_library(None, "f", b"x f(" * 5000),
        "issue35-src-cuts": src_library(None, "ab_" * 100, b"ab_" * 5000),
        "issue35-src-styles": with_sources(None, [("foo", module("foo")), ("bar", module("bar"))],
                                           [W.Archive("0", [("styles.metal", STYLES)])]),
        "issue35-same-names": many(None, [("x", KERNEL, module("x"))] * 200 + [("foo", KERNEL, module("foo"))]),
        "issue35-dup-names": many(None, [("foo", KERNEL, module("foo k")), ("foo", VERTEX, module("foo v")),
                                         (None, KERNEL, module("n")), (None, KERNEL, module("n"))]),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    if "--seeds" in sys.argv:
        write_seeds(args[0])
    else:
        write_all(args[0], "--full" in sys.argv)


if __name__ == "__main__":
    main()
