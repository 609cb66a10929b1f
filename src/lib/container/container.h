/* The container layer's face (src/lib/container): the metallib file as
 * Apple lays it out. Opening (fat slices, archives of libraries), the
 * header, tag groups, the function list and its metadata, where each
 * module lies, the header extension, embedded sources, the dynamic header
 * and the lists, reflection, and the diagnostics every layer adds to. It
 * knows bytes and FORMAT.md, nothing else: it never reads a module's
 * bitcode, never builds a node, and calls no other layer of src/lib (the
 * bitcode reader, the checks, the model and the comparison are above it
 * and call it, never the other way). The state a higher layer keeps per
 * file belongs to an object of that layer (mtlbx_interface_reader,
 * mtlbx_model, mtlbx_layout), never to the file handle.
 * The headers of the layers above include it (their declarations use its
 * types); within src/lib, the handles' insides are container/library.h. */
#ifndef MTLBX_CONTAINER_H
#define MTLBX_CONTAINER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/gpu_slice.h"
#include "container/hex.h"
#include "container/lower_bound.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtlbx_file mtlbx_file;
typedef struct mtlbx_library mtlbx_library;

/* A span of bytes inside the mapping. Not NUL-terminated. */
struct mtlbx_bytes {
    const uint8_t *ptr;
    size_t len;
};

/* ---------------------------------------------------------------- open -- */

enum mtlbx_status {
    MTLBX_E_NONE = 0,
    MTLBX_E_IO = -1,           /* open/stat/mmap failed; error.message says why */
    MTLBX_E_NOT_METALLIB = -2, /* first four bytes are neither MTLB nor CB FE BA BE */
    MTLBX_E_NOMEM = -3,
    MTLBX_E_NOT_REGULAR = -4,  /* a directory, FIFO, device ... */
};

struct mtlbx_error {
    enum mtlbx_status status;
    uint64_t offset;           /* where it applies, else 0 */
    bool has_offset;
    int sys_errno;             /* MTLBX_E_IO, MTLBX_E_NOMEM: the system's errno
                                  (EISDIR for a directory), else 0 */
    char message[256];
};

/* Open a file by path (read-only mmap). On failure *out is NULL and err says
 * why. Refuses non-regular files without reading them, so a FIFO never
 * blocks and /dev/zero never maps. */
int mbx_open_path(const char *path, mtlbx_file **out, struct mtlbx_error *err);
/* What a file that is not a regular one is, for "not a regular file (a
 * FIFO)": "a directory", "a FIFO", "a device", "a socket" (st_mode). */
const char *mbx_special_file_kind(unsigned mode);

/* Parse a caller-owned buffer (tests, fuzzing). The buffer must outlive the
 * handle. `name` is used in messages and may be NULL. */
int mbx_open_buffer(const void *data, size_t len, const char *name,
                      mtlbx_file **out, struct mtlbx_error *err);
/* The same for a malloc'ed buffer that the handle takes over: it is freed
 * by mbx_close(), or at once when the open fails. Archive members
 * decompressed into memory are opened this way. */
int mbx_open_buffer_owned(void *data, size_t len, const char *name,
                            mtlbx_file **out, struct mtlbx_error *err);

void mbx_close(mtlbx_file *f);

/* The library reads no environment: the program passes on what its
 * variables ask for, before the first file is read. MTLBX_LIBARCHIVE: the
 * libarchive to load (a soname or a path) instead of configure's. */
void mbx_archive_use_library(const char *path);

/* True when the file on disk is no longer what was mapped: it shrank or
 * grew, or a read while hashing came up short. Callers that read modules
 * (hash checks) should ask after doing so and treat a change as fatal. */
bool mbx_file_changed(const mtlbx_file *f);

const char *mbx_file_path(const mtlbx_file *f);
uint64_t mbx_file_size(const mtlbx_file *f);
const uint8_t *mbx_file_data(const mtlbx_file *f);
/* Lets the pages of [offset, offset + size) go from the process's memory
 * (a file mapping only; they stay in the page cache and come back on the
 * next access). For commands that stream over every module. */
void mbx_file_release(const mtlbx_file *f, uint64_t offset, uint64_t size);

/* ----------------------------------------------------------- diagnostics -- */

enum mtlbx_severity { MTLBX_WARNING = 0, MTLBX_ERROR = 1 };

struct mtlbx_diag {
    enum mtlbx_severity severity;
    uint64_t offset;           /* absolute file offset */
    const char *message;       /* owned by the handle */
};

/* Each list is capped (MTLBX_MAX_DIAGS); past the cap one last error says
 * how many were dropped, so hostile input cannot exhaust memory. */
#define MTLBX_MAX_DIAGS 4096

size_t mbx_file_diag_count(const mtlbx_file *f);          /* fat container */
const struct mtlbx_diag *mbx_file_diag(const mtlbx_file *f, size_t i);
size_t mbx_library_diag_count(const mtlbx_library *lib);
const struct mtlbx_diag *mbx_library_diag(const mtlbx_library *lib, size_t i);
/* True when an allocation failed while parsing f or any of its libraries
 * (functions, groups or list entries left out, a diagnostic not stored):
 * what the accessors return is then incomplete, and must not be shown as
 * the whole file. `offset` (may be NULL) receives the first place. */
bool mbx_file_out_of_memory(const mtlbx_file *f, uint64_t *offset);
/* True when the file is a damaged metallib (CONTRACT: `info` and `ls`
 * exit 1): its header, one of its sections or one of its modules (or a
 * fat slice) runs past the end of the file, so that what the header
 * declares is not all there. `offset` (may be NULL) receives where the
 * first such declaration is, `why` (may be NULL) that error's text (owned
 * by f, one line, not escaped: printable ASCII). Decided at open. */
bool mbx_file_damaged(const mtlbx_file *f, uint64_t *offset, const char **why);

/* qsort order for an array of `const struct mtlbx_diag *`: by offset, then
 * errors first, then message, so a listing is the same on every run (the
 * hashing threads record mismatches in the order they finish). */
int mbx_diag_ptr_cmp(const void *a, const void *b);

/* ------------------------------------------------------------------ fat -- */

struct mbx_fat_slice {
    uint32_t cputype, cpusubtype, offset, size, align;
    uint64_t entry_offset;     /* where this slice's 20-byte record is */
};

bool mbx_file_is_fat(const mtlbx_file *f);
size_t mbx_fat_slice_count(const mtlbx_file *f);
const struct mbx_fat_slice *mbx_fat_slice(const mtlbx_file *f, size_t i);

/* One library for a plain file, one per readable slice of a fat file. */
size_t mbx_file_library_count(const mtlbx_file *f);
mtlbx_library *mbx_library_at(const mtlbx_file *f, size_t i);
mtlbx_file *mbx_library_file(const mtlbx_library *lib);

/* --------------------------------------------------------------- header -- */

struct mtlbx_range {
    uint64_t offset;           /* absolute */
    uint64_t size;
};

struct mtlbx_header {
    uint64_t base;             /* absolute offset of the MTLB magic */
    uint64_t available;        /* bytes of this library inside the file */
    bool complete;             /* all 88 header bytes were present */
    uint16_t version_word;     /* u16@4: bit 15 macOS flag, bits 0-14 major */
    uint16_t major, minor, patch;
    bool macos;
    uint8_t type_byte;         /* byte 10 */
    uint8_t file_type;         /* low 7 bits of byte 10 */
    bool stub;                 /* bit 7 of byte 10 */
    uint8_t platform_byte;     /* byte 11: 0x80 64-bit | platform id */
    uint16_t os_major;
    uint8_t os_minor, os_patch;
    uint16_t os_minor_u16;     /* YuAo's reading of bytes 14-15 */
    uint64_t declared_size;    /* u64@0x10 */
    /* Section pairs as declared (relative to base), then resolved to
     * absolute ranges clipped to the file. */
    uint64_t raw_offset[4], raw_size[4];
    struct mtlbx_range function_list;  /* including the u32 count word */
    struct mtlbx_range public_md;
    struct mtlbx_range private_md;
    struct mtlbx_range modules;
};

const struct mtlbx_header *mbx_library_header(const mtlbx_library *lib);

/* ------------------------------------------------------------------ tags -- */

struct mtlbx_tag {
    char name[5];              /* FourCC, NUL-terminated; non-printables as '?' */
    uint32_t fourcc;           /* raw little-endian value */
    uint64_t offset;           /* absolute offset of the FourCC */
    uint32_t header_len;       /* 4 (ENDT), 6 (u16 length) or 8 (u32, wide tags) */
    uint64_t value_offset;     /* absolute */
    uint64_t value_len;
    const uint8_t *value;
    bool known;                /* the tag is one this library decodes */
};

/* Walks a tag sequence to ENDT without leaving [offset, offset+len). */
struct mtlbx_tag_walk {
    const mtlbx_file *file;
    uint64_t pos, end;
    unsigned count;
    bool done, ended, truncated; /* ended: saw ENDT; truncated: ran out */
};

void mbx_tag_walk_init(struct mtlbx_tag_walk *w, const mtlbx_file *f,
                         uint64_t offset, uint64_t len);
/* Returns false at ENDT, at the bound, or on a malformed tag. */
bool mbx_tag_walk_next(struct mtlbx_tag_walk *w, struct mtlbx_tag *out);

/* ------------------------------------------------------------- functions -- */

/* Bits of mtlbx_function.present: which tags were seen. */
enum {
    MTLBX_F_NAME = 1u << 0, MTLBX_F_TYPE = 1u << 1, MTLBX_F_HASH = 1u << 2,
    MTLBX_F_OFFT = 1u << 3, MTLBX_F_VERS = 1u << 4, MTLBX_F_MDSZ = 1u << 5,
    MTLBX_F_SOFF = 1u << 6, MTLBX_F_RFLT = 1u << 7, MTLBX_F_TESS = 1u << 8,
    MTLBX_F_LAYR = 1u << 9,
};

struct mtlbx_function {
    uint64_t entry_offset;     /* absolute offset of the u32 size prefix */
    uint32_t entry_size;       /* as declared (includes the prefix) */
    uint32_t present;          /* MTLBX_F_* bits */
    struct mtlbx_bytes name;   /* without the NUL */
    uint8_t type;
    const uint8_t *hash;       /* 32 bytes, or NULL */
    uint64_t offt[3];          /* public md, private md, module: section-relative */
    uint16_t air_major, air_minor, msl_major, msl_minor;
    uint64_t mdsz;
    uint64_t soff, rflt;
    uint8_t tess, layr;
    /* Derived */
    bool module_valid;         /* the module span lies inside the module section */
    bool module_size_inferred; /* MDSZ missing: size from the next module offset */
    struct mtlbx_range module; /* exactly the bytes HASH covers */
    uint64_t public_md_offset, private_md_offset; /* absolute, UINT64_MAX if none */
};

size_t mbx_library_function_count(const mtlbx_library *lib);
const struct mtlbx_function *mbx_function_at(const mtlbx_library *lib, size_t i);
/* Function i for a pass over every function that must leave memory as
 * it was (a name looked up among a million): an entry the library's
 * table does not hold is decoded, with its neighbours, into a buffer of
 * the calling thread and not added to the table. The pointer lasts until
 * this thread peeks at another chunk of this library, or at two other
 * libraries. NULL past the end. */
const struct mtlbx_function *mbx_function_peek(const mtlbx_library *lib, size_t i);
/* First function with this exact name, or -1. */
long mbx_library_function_find(const mtlbx_library *lib, const char *name);
/* Stored names in byte order, a prefix before the longer name: <0, 0, >0. */
int mbx_name_cmp(struct mtlbx_bytes a, struct mtlbx_bytes b);

/* The CPUs this process may run on (its affinity mask; the module hashes
 * of checks/hash.h run on this many threads when asked for 0). */
unsigned mbx_cpus(void);
/* Lets the pages of the library's function list, metadata and list
 * sections go from memory: they stay readable (read again from the page
 * cache when touched), so every span stays valid. For a caller that walks
 * a large library once and wants its memory to stay flat. */
void mbx_library_release_pages(const mtlbx_library *lib);
/* For streaming commands: the caller (in any thread) holds no pointer
 * from mbx_function_at or mbx_function_metadata for the functions
 * before `before` in this library, so their decoded entries may be let go
 * (about 320 bytes a function); asking for one again decodes it again,
 * identically. Without this call, what was decoded stays. */
void mbx_library_forget(const mtlbx_library *lib, size_t before);

/* Bitcode wrapper header at the start of a module. */
struct mtlbx_wrapper {
    bool present;              /* magic 0x0B17C0DE found */
    uint32_t magic, version, bitcode_offset, bitcode_size, cputype;
    bool bitcode_magic_ok;     /* "BC\xC0\xDE" at bitcode_offset */
};
bool mbx_function_wrapper(const mtlbx_library *lib, size_t i, struct mtlbx_wrapper *out);
struct mtlbx_bytes mbx_function_module_bytes(const mtlbx_library *lib, size_t i);

/* -------------------------------------------------------------- metadata -- */

/* Core Image reflection: RETR and ARGR (FORMAT.md §22): the interface of a Core Image kernel. Every
 * span is absolute. Bytes whose meaning is unknown are kept as read. */
struct mtlbx_ci_member {
    struct mtlbx_bytes name;
    uint8_t type;
    uint32_t unknown_word;     /* u32 after the type (0 so far) */
    uint8_t unknown_byte;      /* last byte (3 so far) */
    uint64_t offset, size;
};

struct mtlbx_ci_argument {
    struct mtlbx_bytes name;
    uint8_t type;              /* 0x3A texture, 0x3C pointer: extra bytes follow */
    uint64_t offset, size;     /* name to the last extra byte */
    bool has_element;
    uint8_t element_type;      /* texture: pixel type; pointer: pointee */
    uint32_t texture_word;     /* texture: u32 after the pixel type (1 so far) */
    uint8_t texture_type;      /* texture: last extra byte */
    uint8_t pointer_byte;      /* pointer: first extra byte (0 so far) */
    uint8_t alignment;         /* pointer */
    uint64_t pointee_size;     /* pointer */
    uint64_t extra_offset;     /* absolute offset of the extra bytes */
    size_t first_member, n_members; /* struct pointee: into reflection.members */
};

struct mtlbx_reflection {
    bool has_return;           /* RETR seen */
    uint8_t return_type;
    uint64_t return_offset;    /* of the RETR value */
    bool has_arguments;        /* ARGR seen */
    bool complete;             /* ARGR decoded exactly to its last byte */
    uint64_t arguments_offset; /* of the ARGR value (its count byte) */
    size_t n_arguments;
    struct mtlbx_ci_argument *arguments;
    size_t n_members;
    struct mtlbx_ci_member *members;
};

/* Where and why an ARGR value stopped decoding. */
struct mtlbx_decode_error {
    uint64_t offset;
    char message[160];
};

/* Decodes one ARGR value (`value_offset` is its absolute offset) into `out`
 * (arguments read so far stay there even on failure). Returns true when the
 * value decodes exactly to its last byte; otherwise fills *err. Free with
 * mbx_reflection_free. Used by the library and directly by the tests. */
bool mbx_argr_decode(const uint8_t *value, size_t len, uint64_t value_offset,
                       struct mtlbx_reflection *out, struct mtlbx_decode_error *err);
void mbx_reflection_free(struct mtlbx_reflection *r);

struct mtlbx_constant {
    struct mtlbx_bytes name;
    uint8_t type;
    uint16_t index;
    bool active;
    uint64_t offset;           /* absolute offset of the name */
};

struct mtlbx_vertex_attr {
    struct mtlbx_bytes name;
    uint16_t index;            /* bits 0-12 */
    uint8_t use;               /* bits 13-14 */
    bool active;               /* bit 15 */
    bool has_type;
    uint8_t type;              /* from VATY */
    uint64_t offset;
};

struct mtlbx_metadata {
    struct mtlbx_range public_group, private_group; /* size 0 when absent */
    size_t n_constants;
    const struct mtlbx_constant *constants;
    size_t n_attributes;
    const struct mtlbx_vertex_attr *attributes;
    bool has_debi;
    uint32_t debi_line;
    struct mtlbx_bytes debi_path;
    bool has_depf;
    struct mtlbx_bytes depf_path;
    struct mtlbx_reflection reflection; /* RETR and ARGR (Core Image) */
};

/* Decoded once at open; never NULL for a valid index. */
const struct mtlbx_metadata *mbx_function_metadata(const mtlbx_library *lib, size_t i);

/* ---------------------------------------------------- header extension -- */

struct mtlbx_header_ext {
    bool present;              /* false: absent (1.2.1, 1.2.2) */
    struct mtlbx_range range;
    size_t n_tags;             /* ENDT excluded */
    const struct mtlbx_tag *tags;
    bool has_uuid;
    uint8_t uuid[16];
};
const struct mtlbx_header_ext *mbx_library_header_ext(const mtlbx_library *lib);

/* ------------------------------------------------------ embedded sources -- */

enum mtlbx_member_type {
    MTLBX_MEMBER_FILE, MTLBX_MEMBER_DIR, MTLBX_MEMBER_SYMLINK,
    MTLBX_MEMBER_HARDLINK, MTLBX_MEMBER_DEVICE, MTLBX_MEMBER_FIFO,
    MTLBX_MEMBER_OTHER,
};

struct mtlbx_member {
    char *name;                /* ustar prefix + "/" + name, raw bytes, NUL-terminated */
    uint64_t size;
    enum mtlbx_member_type type;
    const uint8_t *data;       /* into the decompressed buffer; NULL unless FILE */
    char *link_target;         /* symlinks and hard links, else NULL */
    uint32_t mode;
};

enum mtlbx_archive_state {
    MTLBX_ARCHIVE_UNLOADED = 0,
    MTLBX_ARCHIVE_LOADED,
    MTLBX_ARCHIVE_FAILED,      /* bzip2 or tar did not decode; see diagnostics */
};

/* Decompressed-size cap per archive. A bigger stream stops with an error. */
#define MTLBX_SOURCE_CAP ((size_t)64 << 20)

struct mtlbx_archive {
    uint64_t group_offset;     /* absolute offset of the u32 group size */
    uint32_t group_size;
    uint64_t sarc_offset;      /* absolute offset of the SARC tag (SOFF target) */
    struct mtlbx_bytes id;     /* archive id, without NUL */
    struct mtlbx_bytes payload;/* compressed bytes including any zero padding */
    uint64_t payload_offset;
    /* Filled by mbx_archive_load() */
    enum mtlbx_archive_state state;
    uint8_t *tar;              /* decompressed tar (owned by the handle) */
    size_t tar_len;
    size_t n_members;
    struct mtlbx_member *members;
};

struct mtlbx_sources {
    bool present;
    char tag[5];               /* "HSRC" or "HSRD" */
    struct mtlbx_range range;
    uint32_t declared_count;
    struct mtlbx_bytes link_command;
    bool has_working_dir;
    struct mtlbx_bytes working_dir;
    size_t n_archives;
    struct mtlbx_archive *archives;
};

const struct mtlbx_sources *mbx_library_sources(const mtlbx_library *lib);
/* Decompress and list one archive (cached). Returns its state. */
enum mtlbx_archive_state mbx_archive_load(mtlbx_library *lib, size_t archive_index);
/* Archive whose SARC tag a function's SOFF points at, or -1. */
long mbx_function_archive(const mtlbx_library *lib, size_t function_index);

/* ------------------------------------------- dynamic header and lists -- */

struct mtlbx_dynamic_header {
    bool present;
    struct mtlbx_range range;
    bool has_name;
    struct mtlbx_bytes name;
    size_t n_linked;
    const struct mtlbx_bytes *linked;
};
const struct mtlbx_dynamic_header *mbx_library_dynamic_header(const mtlbx_library *lib);

/* VLST, ILST, RLST and SLST: a u32 count and size-prefixed tag groups. */
enum mtlbx_list_kind { MTLBX_LIST_VLST, MTLBX_LIST_ILST, MTLBX_LIST_RLST,
                       MTLBX_LIST_SLST, MTLBX_LIST_COUNT };

struct mtlbx_list {
    bool present;
    char tag[5];
    struct mtlbx_range range;
    uint32_t declared_count;
    size_t n_groups;
    const struct mtlbx_range *groups; /* each includes its u32 prefix */
};
const struct mtlbx_list *mbx_library_list(const mtlbx_library *lib, enum mtlbx_list_kind k);

/* ------------------------------------------------------------ sections -- */

/* The sections a library's header names, in its order: the header itself
 * (its first 88 bytes, fewer when cut short), then, when the header is
 * complete, the function list, the header extension, public and private
 * metadata, the module list, and those present of the sources, the dynamic
 * header and the four lists. The node tree and the byte-layout walk both
 * start from this one list. */
enum mtlbx_section_kind {
    MTLBX_SECTION_HEADER, MTLBX_SECTION_FUNCTION_LIST, MTLBX_SECTION_HEADER_EXT,
    MTLBX_SECTION_PUBLIC_MD, MTLBX_SECTION_PRIVATE_MD, MTLBX_SECTION_MODULE_LIST,
    MTLBX_SECTION_SOURCES, MTLBX_SECTION_DYNAMIC_HEADER, MTLBX_SECTION_LIST,
};
struct mtlbx_section {
    enum mtlbx_section_kind kind;
    struct mtlbx_range range;
    enum mtlbx_list_kind list;     /* MTLBX_SECTION_LIST: which one */
};
#define MTLBX_SECTIONS_MAX (8 + MTLBX_LIST_COUNT)
size_t mbx_library_sections(const mtlbx_library *lib, struct mtlbx_section out[MTLBX_SECTIONS_MAX]);

/* ---------------------------------------------------------- value names -- */

/* Lower-case names as CONTRACT.md spells them; unknown values are written
 * as "unknown-N" / "unknown-0xNN" into buf. Return buf or a static string. */
const char *mbx_function_type_name(uint8_t type, char *buf, size_t n);
const char *mbx_file_type_name(uint8_t file_type, char *buf, size_t n);
const char *mbx_target_os_name(uint8_t platform_byte, char *buf, size_t n);
/* The deployment target as `info` and the explorer show it: "macOS 13.0.0",
 * or "unknown" when the header records none (target byte and version 0). */
const char *mbx_target_text(const struct mtlbx_header *h, char *buf, size_t n);
const char *mbx_data_type_name(uint8_t type, char *buf, size_t n);
const char *mbx_cputype_name(uint32_t cputype);     /* "AIR64", ... or NULL */
const char *mbx_tag_description(const char *fourcc); /* one line, or NULL */
bool mbx_data_type_known(uint8_t type);
bool mbx_function_type_known(uint8_t type);

/* ---------------------------------------------------------- counted nouns -- */

/* "1 function", "0 functions", "1,234 bytes": the count (digits grouped
 * by three), a space and the noun that agrees with it, written into buf
 * (32 bytes plus the noun are enough). Returns buf.
 * The one place every message, label and report says how many. */
const char *mbx_count_noun(uint64_t n, const char *one, const char *many, char *buf, size_t size);
/* Just the noun that agrees with n, for a format that prints n itself
 * ("%zu %s", n, mbx_noun(n, "entry", "entries")). */
const char *mbx_noun(uint64_t n, const char *one, const char *many);

/* --------------------------------------------------------------- escape -- */

/* The one policy for what a terminal or a file name must never receive
 * as itself (the command line's escaping, the explorer's and the names of
 * extracted files all ask here): C0 and C1 controls and DEL act on the
 * terminal; bidi controls reorder what is shown ("trojan source"); the
 * invisible format characters (zero-width space, word joiner, BOM, soft
 * hyphen, tag characters, Arabic number signs, Egyptian hieroglyph and
 * musical format controls...) and the line and paragraph separators make
 * two names look the same or a name look like something else. Those are
 * whole Unicode categories (Cc, Cf, Zl, Zp), taken from libunistring's
 * tables (escape.c), and so are the code points unassigned in them: a
 * later Unicode may make one a format character. */
bool mbx_codepoint_unsafe(uint32_t cp);

enum {
    MTLBX_ESC_TERMINAL = 1u << 0, /* also escape mbx_codepoint_unsafe() characters */
};
/* The length (1-4) of the valid UTF-8 sequence at p, of `left` bytes, and
 * its code point in *cp; 0 when it is not valid: an overlong form, a
 * surrogate, past U+10FFFF or cut short (what jansson refuses too). */
size_t mbx_utf8_next(const uint8_t *p, size_t left, uint32_t *cp);
/* Copies `len` bytes to `out` as valid UTF-8 text: invalid bytes become
 * "\xNN"; with MTLBX_ESC_TERMINAL also every control character and a
 * backslash becomes "\\". Always NUL-terminates (truncating on a char
 * boundary). Returns the length that the full escape would need. */
size_t mbx_escape(const uint8_t *bytes, size_t len, unsigned flags,
                    char *out, size_t out_size);
/* Same, into a malloc'd string (NULL on OOM). */
char *mbx_escape_dup(const uint8_t *bytes, size_t len, unsigned flags);
/* 1234567 as "1,234,567" in out (n bytes; 27 are enough); returns out.
 * (nouns.c: the grouping mbx_count_noun uses too.) */
const char *mbx_format_count(char *out, size_t n, uint64_t v);

/* textf.c: a one-line error into err (n bytes), as the writers' and the
 * program's calls take one; nothing when err is NULL or n is 0. */
void mbx_set_err(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* fmt with ap: in buf (size bytes) when it fits, else in a malloc'd
 * string (names are unbounded). Returns the text (free it when it is not
 * buf), or NULL when it could not be made whole: out of memory (buf holds
 * what fitted) or a format error (buf is ""). */
char *mbx_vformat(char *buf, size_t size, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif

/* Mach-O hosts: the sections that may hold a metallib. */
#include "container/macho.h"

#endif
