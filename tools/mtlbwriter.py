"""Byte-exact writer for Apple .metallib containers, used by mkfixtures.py
(the project's sample and test libraries) and bench/mklarge.py (the large
benchmark libraries).

Every layout rule here follows /work/shared/FORMAT.md; the section numbers in
the comments point there. Besides the bytes, build() returns what a correct
parser must report for them in the `mtlbx dump --json` schema (CONTRACT.md).
That expectation is taken from the writer's own layout decisions (where it put
each module, which tags it wrote, the SHA-256 of the bytes it wrote), never
from parsing the result, so it is independent of the C parser it checks.

Python 3 standard library only.
"""

import bz2
import hashlib
import struct
import subprocess

# FORMAT §13.2; CONTRACT.md spells the names.
FUNCTION_TYPES = {
    "vertex": 0, "fragment": 1, "kernel": 2, "unqualified": 3,
    "visible": 4, "extern": 5, "intersection": 6, "mesh": 7, "object": 8,
}
TYPE_NAMES = {v: k for k, v in FUNCTION_TYPES.items()}
TYPE_NAMES[255] = "none"

# FORMAT §13.1, only the data types the fixtures use, spelled as MSL does.
DATA_TYPES = {
    "float": 0x03, "float2": 0x04, "float3": 0x05, "float4": 0x06,
    "half": 0x10, "half4": 0x13, "int": 0x1D, "uint": 0x21,
    "ushort": 0x29, "bool": 0x35,
}
DATA_TYPE_NAMES = {v: k for k, v in DATA_TYPES.items()}

FILE_TYPES = {"executable": 0, "coreimage": 1, "dynamic": 2,
              "symbol-companion": 3}
FILE_TYPE_NAMES = {v: k for k, v in FILE_TYPES.items()}

# CONTRACT.md target_os names for byte 0x0B (FORMAT §13.4).
TARGET_OS_NAMES = {
    0x00: "unknown", 0x81: "macOS", 0x82: "iOS", 0x83: "tvOS",
    0x84: "watchOS", 0x85: "bridgeOS", 0x86: "macCatalyst",
    0x87: "iOS-simulator", 0x88: "tvOS-simulator",
    0x89: "watchOS-simulator", 0x8A: "DriverKit", 0x8B: "visionOS",
    0x8C: "visionOS-simulator",
}

# Tags a parser knows in each place (FORMAT §4.1, §5, §6, §7, W6). Anything
# else the writer emits is "unknown", and the contract wants a warning for it.
KNOWN_FUNCTION_TAGS = {"NAME", "TYPE", "HASH", "OFFT", "VERS", "MDSZ",
                       "SOFF", "RFLT", "TESS", "LAYR"}
KNOWN_EXTENSION_TAGS = {"UUID", "HSRC", "HSRD", "HDYN", "RLST", "VLST",
                        "ILST", "SLST", "HSRP"}
KNOWN_PUBLIC_TAGS = {"CNST", "VATT", "VATY", "RETR", "ARGR"}
KNOWN_PRIVATE_TAGS = {"DEBI", "DEPF"}

# Tags whose value length is a u32 instead of a u16 (FORMAT §3.1, P5).
WIDE_TAGS = {"SARC", "RBUF", "SBUF", "RBUZ"}

# Header-extension tags whose value is a (u64 offset, u64 size) pair that
# build() fills in from the section it lays out.
SECTION_TAGS = {"HSRC", "HSRD", "HDYN", "RLST", "VLST", "ILST"}

HEADER_SIZE = 88
WRAPPER_MAGIC = 0x0B17C0DE


# --------------------------------------------------------------------------
# Small encoders

def cstr(text):
    """NUL-terminated UTF-8, the encoding of every string value (§1)."""
    return text.encode("utf-8") + b"\0"


def tag(fourcc, value):
    """One tag: FourCC, u16 (u32 for wide tags) length, value (§3.1)."""
    assert len(fourcc) == 4
    if fourcc in WIDE_TAGS:
        return fourcc.encode("ascii") + struct.pack("<I", len(value)) + value
    assert len(value) < 0x10000, fourcc
    return fourcc.encode("ascii") + struct.pack("<H", len(value)) + value


ENDT = b"ENDT"  # the only tag without a length field (§3.1)


def u64(v):
    return struct.pack("<Q", v)


def pad_to(data, multiple):
    return data + b"\0" * (-len(data) % multiple)


class TagList:
    """Accumulates tags and remembers where each one starts, so unknown
    ones can be reported at their file offset."""

    def __init__(self):
        self.data = bytearray()
        self.names = []      # FourCCs in file order, ENDT not included
        self.offsets = []    # offset of each FourCC relative to data[0]

    def add(self, fourcc, value):
        self.names.append(fourcc)
        self.offsets.append(len(self.data))
        self.data += tag(fourcc, value)

    def end(self):
        self.data += ENDT
        return bytes(self.data)


def group(tags_bytes, prefix_counts_itself=True):
    """A u32-size-prefixed tag group. air-lld counts the prefix, the
    standalone metallib tool does not (§3.2, P2)."""
    size = len(tags_bytes) + (4 if prefix_counts_itself else 0)
    return struct.pack("<I", size) + tags_bytes


# --------------------------------------------------------------------------
# Bitcode

def assemble(ll_path, llvm_as="llvm-as"):
    """Raw LLVM bitcode from a .ll file. Fed on stdin so the bytes cannot
    depend on where the source tree lives (distcheck builds elsewhere)."""
    with open(ll_path, "rb") as src:
        out = subprocess.run([llvm_as, "-", "-o", "-"], stdin=src,
                             stdout=subprocess.PIPE, check=True).stdout
    # For a Darwin-like triple (air64-apple-...) llvm-as itself writes the
    # wrapper header and 16-byte padding; unwrap so the module bytes come
    # from one place (wrap_bitcode), and check that both wrappers agree.
    if out[:4] == struct.pack("<I", WRAPPER_MAGIC):
        _, _, offset, size, _ = struct.unpack_from("<5I", out)
        inner = out[offset:offset + size]
        assert wrap_bitcode(inner) == out, ll_path
        out = inner
    assert out[:4] == b"BC\xc0\xde", ll_path
    return out


def wrap_bitcode(bitcode, extra_pad=0):
    """The module bytes as stored: 20-byte wrapper header (magic, version 0,
    offset 20, size, cputype -1), the bitcode, zeros to a 16-byte multiple
    (§8, P16). extra_pad (a multiple of 16) adds trailing zeros beyond that,
    which HASH still covers; only the fixtures without MDSZ use it, to show
    that a module's size cannot be taken from its wrapper (W2)."""
    assert extra_pad % 16 == 0
    head = struct.pack("<5I", WRAPPER_MAGIC, 0, 20, len(bitcode), 0xFFFFFFFF)
    return pad_to(head + bitcode, 16) + b"\0" * extra_pad


# --------------------------------------------------------------------------
# Embedded sources (§9)

def _octal(value, width):
    """Xcode's tar numeric field: zero-padded octal, a space, a NUL."""
    return b"%0*o \0" % (width - 2, value)


def ustar(members):
    """A deterministic POSIX ustar archive of (path, bytes) pairs: mode
    0644, uid/gid 0, mtime 0, no owner names, two zero blocks at the end
    and no padding to a 10 KiB record (as the archives in real libraries).
    Paths longer than 100 bytes are split into the prefix field."""
    out = bytearray()
    for path, data in members:
        name = path.encode("utf-8")
        prefix = b""
        if len(name) > 100:
            cut = name.rindex(b"/", 0, 156)
            prefix, name = name[:cut], name[cut + 1:]
            assert 0 < len(name) <= 100 and len(prefix) <= 155, path
        hdr = bytearray(512)
        hdr[0:len(name)] = name
        hdr[100:108] = _octal(0o644, 8)
        hdr[108:116] = _octal(0, 8)
        hdr[116:124] = _octal(0, 8)
        hdr[124:136] = b"%011o " % len(data)
        hdr[136:148] = b"%011o " % 0
        hdr[148:156] = b" " * 8            # checksum counts as spaces
        hdr[156:157] = b"0"                 # regular file
        hdr[257:265] = b"ustar\x0000"
        hdr[329:345] = _octal(0, 8) + _octal(0, 8)
        hdr[345:345 + len(prefix)] = prefix
        hdr[148:156] = b"%06o\0 " % sum(hdr)
        out += hdr + pad_to(data, 512)
    out += b"\0" * 1024
    return bytes(out)


class Archive:
    """One SARC archive: an id and its members. pad_multiple > 0 appends
    zeros after the bzip2 stream up to that multiple, like Xcode 15/16 (P6)."""

    def __init__(self, ident, members, pad_multiple=0):
        self.ident = ident
        self.members = members
        self.pad_multiple = pad_multiple

    def payload(self):
        data = bz2.compress(ustar(self.members), 9)
        if self.pad_multiple:
            data = pad_to(data, self.pad_multiple)
        return data


class Sources:
    """The embedded-source section. HSRD carries a working directory after
    the link command, HSRC does not (P12)."""

    def __init__(self, tag_name, link_command, working_dir, archives):
        assert tag_name in ("HSRC", "HSRD")
        assert (working_dir is None) == (tag_name == "HSRC")
        self.tag = tag_name
        self.link_command = link_command
        self.working_dir = working_dir
        self.archives = archives

    def build(self):
        """Section bytes and, per archive id, the section-relative offset
        of its SARC FourCC (what SOFF points at)."""
        out = bytearray(struct.pack("<I", len(self.archives)))  # u32 (P13)
        out += cstr(self.link_command)
        if self.working_dir is not None:
            out += cstr(self.working_dir)
        soff = {}
        for arc in self.archives:
            body = (tag("SARC", cstr(arc.ident) + arc.payload()) + ENDT)
            soff[arc.ident] = len(out) + 4
            out += group(body, prefix_counts_itself=False)
        return bytes(out), soff

    def expected(self):
        return {"tag": self.tag, "archives": [
            {"id": a.ident,
             "members": [{"name": n, "size": len(d)} for n, d in a.members]}
            for a in self.archives]}


# --------------------------------------------------------------------------
# Reflection (§12)

def airr_flatbuffer(name):
    """A minimal valid FlatBuffer with file identifier AIRR whose root
    table holds one string field (the function name). Real reflection
    buffers hold much more; a parser treats them as opaque."""
    text = name.encode("utf-8")
    buf = bytearray()
    buf += struct.pack("<I", 16)                 # root table at 16
    buf += b"AIRR"                               # file identifier
    buf += struct.pack("<HHHH", 6, 8, 4, 0)      # vtable: 1 field at +4
    buf += struct.pack("<i", 8)                  # table -> vtable (16-8)
    buf += struct.pack("<I", 4)                  # field -> string at 24
    buf += struct.pack("<I", len(text)) + text + b"\0"
    return pad_to(bytes(buf), 4)


def reflection_list(payloads, section_offset):
    """RLST section: u32 count, then per buffer a group {u32 size counting
    itself, RBUF, u32 length, zeros so the payload starts 16-byte aligned
    in the file, payload, ENDT}. Returns the bytes and each group's
    section-relative offset (what RFLT holds; the first is always 4)."""
    out = bytearray(struct.pack("<I", len(payloads)))
    offsets = []
    for payload in payloads:
        offsets.append(len(out))
        payload_at = section_offset + len(out) + 12
        value = b"\0" * (-payload_at % 16) + payload
        out += group(tag("RBUF", value) + ENDT)
    return bytes(out), offsets


# --------------------------------------------------------------------------
# Functions and metadata (§4, §6, §7)

class Constant:
    def __init__(self, name, dtype, index, active):
        self.name, self.dtype, self.index, self.active = (
            name, dtype, index, active)


class VertexAttribute:
    """use: 0 standard, 1 per-patch, 2 control-point (§6 VATT)."""

    def __init__(self, name, dtype, index, active=True, use=0):
        self.name, self.dtype, self.index, self.active, self.use = (
            name, dtype, index, active, use)


def cnst_value(constants):
    out = bytearray(struct.pack("<H", len(constants)))
    for c in constants:
        out += cstr(c.name) + struct.pack(
            "<BHB", DATA_TYPES[c.dtype], c.index, 1 if c.active else 0)
    return bytes(out)


def vatt_value(attrs):
    out = bytearray(struct.pack("<H", len(attrs)))
    for a in attrs:
        assert a.index < (1 << 13) and a.use < 4
        info = a.index | (a.use << 13) | (0x8000 if a.active else 0)
        out += cstr(a.name) + struct.pack("<H", info)
    return bytes(out)


def vaty_value(attrs):
    return struct.pack("<H", len(attrs)) + bytes(
        DATA_TYPES[a.dtype] for a in attrs)


def debi_value(line, path):
    return struct.pack("<I", line) + cstr(path)


def tess_value(patch, control_points):
    """TESS byte: bits 0-1 patch type (1 triangle, 2 quad), bits 2-7 the
    control-point count (§4.1)."""
    return bytes([{"triangle": 1, "quad": 2}[patch] | control_points << 2])


class Function:
    """One library function. module is the wrapped, padded module bytes.
    extra_tags are written right after VERS (where floor puts TESS), in
    the given order; they may include unknown tags on purpose. public_extra
    and private tags are (FourCC, value) pairs written into the metadata
    groups. source is the id of the SARC archive SOFF points at;
    reflection=True gives the function an RBUF group and an RFLT tag."""

    def __init__(self, name, ftype, module, vers, constants=(),
                 attributes=(), extra_tags=(), public_extra=(),
                 private=(), source=None, reflection=False):
        self.name = name
        self.ftype = ftype
        self.module = module
        self.vers = vers
        self.constants = list(constants)
        self.attributes = list(attributes)
        self.extra_tags = list(extra_tags)
        self.public_extra = list(public_extra)
        self.private = list(private)
        self.source = source
        self.reflection = reflection
        self.sha256 = hashlib.sha256(module).digest()

    def public_tags(self):
        tags = []
        if self.constants:
            tags.append(("CNST", cnst_value(self.constants)))
        if self.attributes:
            tags.append(("VATT", vatt_value(self.attributes)))
            tags.append(("VATY", vaty_value(self.attributes)))
        return tags + self.public_extra


# Function-list tag orders seen in real files (§4).
ORDER_AIR_LLD = ("NAME", "TYPE", "HASH", "OFFT", "VERS", "MDSZ", "SOFF",
                 "RFLT")
ORDER_METALLIB_TOOL = ("NAME", "TYPE", "HASH", "MDSZ", "OFFT", "VERS")


class Library:
    """Everything that goes into one MTLB library.

    extension: None for no header extension at all (1.2.1/1.2.2), else the
    header-extension tag names in file order ([] = a bare ENDT). Section
    tags get their (offset, size) from build(); "UUID" takes self.uuid;
    any other name is written as 16 zero bytes (e.g. HSRP, W6).
    module_order: the physical order of the modules as function indexes
    (default: function order).
    """

    def __init__(self, version=(1, 2, 8), macos=True, file_type="executable",
                 stub=False, target_os=0x81, os_version=(15, 0, 0),
                 functions=(), tag_order=ORDER_AIR_LLD, write_mdsz=True,
                 md_prefix_counts_itself=True, extension=None, uuid=None,
                 sources=None, dynamic_name=None, dynamic_linked=(),
                 variables=(), imports=(), module_order=None):
        self.version = version
        self.macos = macos
        self.file_type = file_type
        self.stub = stub
        self.target_os = target_os
        self.os_version = os_version
        self.functions = list(functions)
        self.tag_order = tag_order
        self.write_mdsz = write_mdsz
        self.md_prefix_counts_itself = md_prefix_counts_itself
        self.extension = None if extension is None else list(extension)
        self.uuid = uuid
        self.sources = sources
        self.dynamic_name = dynamic_name
        self.dynamic_linked = list(dynamic_linked)
        self.variables = list(variables)   # VLST: list of tag lists
        self.imports = list(imports)       # ILST: list of tag lists
        self.module_order = module_order


def _function_tags(lib, fn, offt, soff, rflt):
    """The function's list entry as a TagList, in the library's order with
    the function's extra tags after VERS. Tags a function has no value for
    (no TYPE, no sources, no reflection, no MDSZ) are left out."""
    values = {
        "NAME": cstr(fn.name),
        "TYPE": None if fn.ftype is None else bytes([fn.ftype]),
        "HASH": fn.sha256,
        "OFFT": struct.pack("<3Q", *offt),
        "VERS": struct.pack("<4H", *fn.vers),
        "MDSZ": u64(len(fn.module)) if lib.write_mdsz else None,
        "SOFF": None if fn.source is None else u64(soff),
        "RFLT": None if not fn.reflection else u64(rflt),
    }
    tl = TagList()
    for name in lib.tag_order:
        if values[name] is not None:
            tl.add(name, values[name])
        if name == "VERS":
            for extra, value in fn.extra_tags:
                tl.add(extra, value)
    return tl


def _list_section(entries):
    """VLST/ILST: u32 count, then tag groups whose prefix counts itself,
    the same shape as the function list (§11)."""
    out = bytearray(struct.pack("<I", len(entries)))
    for tags in entries:
        tl = TagList()
        for fourcc, value in tags:
            tl.add(fourcc, value)
        out += group(tl.end())
    return bytes(out)


def _warn(diags, offset, message):
    diags.append({"severity": "warning", "offset": offset,
                  "message": message})


def _note_unknown(diags, tl, base, known, where):
    for name, rel in zip(tl.names, tl.offsets):
        if name not in known:
            _warn(diags, base + rel, "unknown %s tag %s" % (where, name))


def build(lib):
    """Lay out lib. Returns (chunks, expected): the file as a list of byte
    strings to write in order, and the LIBRARY object of the dump --json
    schema for it at file offset 0 (relocate() moves it into a fat file)."""
    fns = lib.functions
    diags = []

    # Metadata groups: positions only depend on their own sizes.
    pub, priv = bytearray(), bytearray()
    pub_rel, priv_rel, pub_tags, priv_tags = [], [], [], []
    for fn in fns:
        for section, rels, lists, tags in (
                (pub, pub_rel, pub_tags, fn.public_tags()),
                (priv, priv_rel, priv_tags, fn.private)):
            tl = TagList()
            for fourcc, value in tags:
                tl.add(fourcc, value)
            rels.append(len(section))
            lists.append(tl)
            section += group(tl.end(), lib.md_prefix_counts_itself)

    # Modules, in physical order.
    order = lib.module_order or list(range(len(fns)))
    assert sorted(order) == list(range(len(fns)))
    mod_rel = [0] * len(fns)
    mod_size = 0
    for i in order:
        mod_rel[i] = mod_size
        mod_size += len(fns[i].module)

    src_bytes, soffs = lib.sources.build() if lib.sources else (b"", {})
    dyn = b""
    if lib.dynamic_name is not None or lib.dynamic_linked:
        tl = TagList()
        if lib.dynamic_name is not None:
            tl.add("NAME", cstr(lib.dynamic_name))
        for linked in lib.dynamic_linked:
            tl.add("DYNL", cstr(linked))
        dyn = tl.end()
    vlst = _list_section(lib.variables) if lib.variables else b""
    ilst = _list_section(lib.imports) if lib.imports else b""

    # Sizes of the function list and header extension do not depend on the
    # values still unknown (all fixed-width), so lay out with zeros first.
    fl_size = sum(len(group(_function_tags(lib, fn, (0, 0, 0), 0, 0).end()))
                  for fn in fns)
    ext_size = 0
    if lib.extension is not None:
        ext_size = 22 * len(lib.extension) + 4

    fl_off = HEADER_SIZE
    ext_off = fl_off + 4 + fl_size          # §4: size omits the count word
    pub_off = ext_off + ext_size
    priv_off = pub_off + len(pub)
    mod_off = priv_off + len(priv)
    src_off = mod_off + mod_size
    # Physical order after the modules: sources, dynamic header, variable
    # list, imported symbol list, reflection list (§1.1).
    dyn_off = src_off + len(src_bytes)
    vlst_off = dyn_off + len(dyn)
    ilst_off = vlst_off + len(vlst)
    rlst_off = ilst_off + len(ilst)
    refl = [fn for fn in fns if fn.reflection]
    rlst, rflt_list = (reflection_list([airr_flatbuffer(f.name) for f in refl],
                                       rlst_off) if refl else (b"", []))
    rflt = dict(zip((id(f) for f in refl), rflt_list))
    total = rlst_off + len(rlst)

    # Function list, now with real values.
    fl = bytearray(struct.pack("<I", len(fns)))
    expected_fns = []
    for i, fn in enumerate(fns):
        tl = _function_tags(lib, fn, (pub_rel[i], priv_rel[i], mod_rel[i]),
                            soffs.get(fn.source, 0), rflt.get(id(fn), 0))
        entry_off = fl_off + len(fl)
        fl += group(tl.end())
        _note_unknown(diags, tl, entry_off + 4, KNOWN_FUNCTION_TAGS,
                      "function")
        expected_fns.append(_expected_function(fn, tl.names, mod_off
                                               + mod_rel[i]))
    assert len(fl) == 4 + fl_size
    for base, rels, lists, known, where in (
            (pub_off, pub_rel, pub_tags, KNOWN_PUBLIC_TAGS, "public metadata"),
            (priv_off, priv_rel, priv_tags, KNOWN_PRIVATE_TAGS,
             "private metadata")):
        for rel, tl in zip(rels, lists):
            _note_unknown(diags, tl, base + rel + 4, known, where)

    ext = b""
    if lib.extension is not None:
        where = {"HSRC": (src_off, len(src_bytes)),
                 "HSRD": (src_off, len(src_bytes)),
                 "HDYN": (dyn_off, len(dyn)), "VLST": (vlst_off, len(vlst)),
                 "ILST": (ilst_off, len(ilst)), "RLST": (rlst_off, len(rlst))}
        tl = TagList()
        for name in lib.extension:
            if name in SECTION_TAGS:
                tl.add(name, struct.pack("<2Q", *where[name]))
            elif name == "UUID":
                tl.add(name, lib.uuid)
            else:
                tl.add(name, b"\0" * 16)
        ext = tl.end()
        _note_unknown(diags, tl, ext_off, KNOWN_EXTENSION_TAGS,
                      "header extension")
        assert len(ext) == ext_size

    header = _header(lib, total, fl_off, fl_size, pub_off, len(pub),
                     priv_off, len(priv), mod_off, mod_size)
    modules = [fns[i].module for i in order]
    chunks = [header, bytes(fl), ext, bytes(pub), bytes(priv)] + modules + [
        src_bytes, dyn, vlst, ilst, rlst]
    assert sum(map(len, chunks)) == total

    expected = {
        "offset": 0,
        "container_version": "%d.%d.%d" % lib.version,
        "platform": "macOS" if lib.macos else "iOS",
        "file_type": FILE_TYPE_NAMES[FILE_TYPES[lib.file_type]],
        "stub": lib.stub,
        "target_os": TARGET_OS_NAMES[lib.target_os],
        "os_version": "%d.%d.%d" % lib.os_version,
        "uuid": (lib.uuid.hex() if lib.extension and "UUID" in lib.extension
                 else None),
        "header_extension": lib.extension,
        "functions": expected_fns,
        "sources": lib.sources.expected() if lib.sources else None,
        "dynamic_header": (None if not dyn else {
            "name": lib.dynamic_name, "linked": lib.dynamic_linked}),
        "diagnostics": sorted(diags, key=lambda d: d["offset"]),
    }
    return chunks, expected


def _header(lib, total, *sections):
    """The 88-byte header (§2): u16 major|macOS flag, u16 minor, u16 patch,
    u8 file type|stub, u8 platform, u16+u8+u8 OS version, u64 file length,
    then (offset, size) of function list, public md, private md, modules."""
    major, minor, patch = lib.version
    word = major | (0x8000 if lib.macos else 0)
    ftype = FILE_TYPES[lib.file_type] | (0x80 if lib.stub else 0)
    osmaj, osmin, ospatch = lib.os_version
    head = struct.pack("<4sHHHBBHBBQ", b"MTLB", word, minor, patch, ftype,
                       lib.target_os, osmaj, osmin, ospatch, total)
    head += struct.pack("<8Q", *sections)
    assert len(head) == HEADER_SIZE
    return head


def _expected_function(fn, tag_names, module_offset):
    return {
        "name": fn.name,
        "type": None if fn.ftype is None else TYPE_NAMES.get(
            fn.ftype, "unknown-%d" % fn.ftype),
        "air_version": "%d.%d" % fn.vers[:2],
        "language_version": "%d.%d" % fn.vers[2:],
        "tags": list(tag_names),
        "module": {"offset": module_offset, "size": len(fn.module)},
        "hash": fn.sha256.hex(),
        "hash_ok": True,
        "constants": [{"name": c.name, "type": c.dtype, "index": c.index,
                       "active": c.active} for c in fn.constants],
        "vertex_attributes": [{"name": a.name, "index": a.index,
                               "use": a.use, "active": a.active,
                               "type": a.dtype} for a in fn.attributes],
    }


# --------------------------------------------------------------------------
# Whole files

def relocate(expected, delta):
    """Move a LIBRARY expectation built at offset 0 to file offset delta."""
    expected["offset"] += delta
    for fn in expected["functions"]:
        fn["module"]["offset"] += delta
    for diag in expected["diagnostics"]:
        diag["offset"] += delta
    return expected


FAT_MAGIC = 0xCBFEBABE   # stored big-endian: CB FE BA BE (not Mach-O CA FE)


def build_fat(slices, align_log2=4):
    """A fat container (W3): BE magic, BE u32 count, per slice five BE u32
    (cputype, cpusubtype, offset, size, align as a power of two), then the
    slices, each a complete library, aligned. slices: (cputype, cpusubtype,
    Library). Returns (chunks, fat object, LIBRARY list)."""
    head_size = 8 + 20 * len(slices)
    built = [(ct, cst, build(lib)) for ct, cst, lib in slices]
    records, chunks, libs = [], [], []
    pos = head_size
    for ct, cst, (lib_chunks, expected) in built:
        start = pos + (-pos % (1 << align_log2))
        size = sum(map(len, lib_chunks))
        chunks.append(b"\0" * (start - pos))
        chunks.extend(lib_chunks)
        records.append((ct, cst, start, size, align_log2))
        libs.append(relocate(expected, start))
        pos = start + size
    head = struct.pack(">II", FAT_MAGIC, len(slices)) + b"".join(
        struct.pack(">5I", *r) for r in records)
    fat = {"slices": [dict(zip(("cputype", "cpusubtype", "offset", "size",
                                "align"), r)) for r in records]}
    return [head] + chunks, fat, libs


def document(name, chunks, fat, libraries):
    """The top-level dump --json object for a file called name."""
    return {"path": name, "size": sum(map(len, chunks)), "fat": fat,
            "libraries": libraries, "diagnostics": []}
