/* The writer layer's face (src/lib/writer): metallib files written, not
 * read. It lays out a library from its values and computes every number
 * a reader locates things by (the header's section offsets and sizes, the
 * file length, each function's HASH, MDSZ, OFFT, SOFF and RFLT, the
 * header extension's section pointers, the reflection buffers' padding,
 * a fat file's slice offsets). Three ways in:
 *
 *  - the values of a library that was read (describe.c: what `mtlbx
 *    unpack` writes to a manifest and `mtlbx pack --from` cuts down),
 *    laid out again byte for byte by the rules of doc/writer-layout.md;
 *  - values filled in one by one (the command line's manifest reader);
 *  - AIR modules alone and a target OS (air_module.c, targets.c): the
 *    API of ../shared/LIBRARY.md, "The writer", declared at the end.
 *
 * It calls the layers below it (the container, the bitcode reader for a
 * module's AIR metadata, the checks for digests and requirements) and
 * nothing above. Like the rest of the library it never prints, never
 * exits and reads no environment variable: a problem is one line in the
 * writer's error (mtlbx_writer_error_string), with the byte offset where
 * one applies. Included by mtlbx_private.h. */
#ifndef MTLBX_WRITER_H
#define MTLBX_WRITER_H

#include "mtlbx_private.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The status scale of LIBRARY.md (MTLBX_OK 0, MTLBX_FAILED -25,
 * MTLBX_FATAL -30), under names of their own so that the installed
 * <mtlbx.h> can define MTLBX_OK and friends beside this header: the
 * values are the same, so the public names are these. */
enum mtlbx_writer_status {
    MTLBX_WRITER_OK = 0,
    MTLBX_WRITER_FAILED = -25, /* this call failed; the writer is still usable */
    MTLBX_WRITER_FATAL = -30,  /* out of memory: the writer is unusable */
};

/* The keys of mtlbx_writer_set (LIBRARY.md: "the library keys above;
 * MTLBX_NAME is the dynamic header's library name"), with the values of
 * the installed <mtlbx.h>'s MTLBX_CONTAINER_VERSION ... MTLBX_UUID and
 * MTLBX_NAME, so that the public mtlbx_writer_set takes those (the api
 * layer checks they agree: src/lib/api/handle.c). Values as dump --json
 * spells them. */
enum mtlbx_writer_key {
    MTLBX_WRITER_CONTAINER_VERSION = 1, /* "1.2.8" */
    MTLBX_WRITER_PLATFORM,              /* "macOS" or "iOS" (bit 15 of u16@4) */
    MTLBX_WRITER_FILE_TYPE,             /* "executable", "dynamic", ..., "unknown-N" */
    MTLBX_WRITER_TARGET_OS,             /* "macOS", "iOS-simulator", ..., "unknown" */
    MTLBX_WRITER_OS_VERSION,            /* "14.0.0" */
    MTLBX_WRITER_UUID,                  /* 32 hex digits; "" removes it */
    MTLBX_WRITER_NAME = 10,             /* the dynamic header's NAME; "" removes it */
};

/* ------------------------------------------------------------ the model -- */

/* How the value of a tag is had. Every kind but VALUE is computed when
 * the file is laid out: those are the numbers a manifest never holds. */
enum mtlbx_wr_kind {
    MTLBX_WR_VALUE = 0,  /* the bytes given */
    MTLBX_WR_HASH,       /* function list: SHA-256 of its module (or the stored_hash quirk) */
    MTLBX_WR_OFFT,       /* function list: its public, private metadata and module offsets */
    MTLBX_WR_MDSZ,       /* function list: its module's length */
    MTLBX_WR_SOFF,       /* function list: where its source archive's SARC tag is */
    MTLBX_WR_RFLT,       /* function list: where its reflection group is */
    MTLBX_WR_SECTION,    /* header extension: (offset, size) of the section the FourCC names
                            (HSRC and HSRD the sources, HDYN, VLST, ILST, RLST, SLST) */
    MTLBX_WR_ALIGNED,    /* a list group's RBUF: zeros up to a 16-byte boundary of the
                            library (FORMAT §12), then the bytes given */
};

struct mtlbx_wr_tag {
    uint32_t fourcc;
    uint8_t kind;              /* enum mtlbx_wr_kind */
    struct mtlbx_bytes value;  /* VALUE and ALIGNED */
};

/* A run of a library's tags: one tag group (ENDT is added when written). */
struct mtlbx_wr_tags {
    size_t first, n;
};

/* Bytes to write: in memory, or the file `path` read when it is written
 * (pack reads 20,000 modules one at a time, never all at once). `path`
 * is opened beneath the writer's base directory when `beneath` (names
 * from a manifest: no "..", no symbolic link followed), else as given. */
struct mtlbx_wr_blob {
    const uint8_t *data;
    uint64_t len;
    const char *path;
    bool beneath;
};

struct mtlbx_wr_module {
    struct mtlbx_wr_blob bytes;
    bool hash_known;           /* hash holds its SHA-256 (else computed as it is written) */
    uint8_t hash[32];
};

struct mtlbx_wr_function {
    struct mtlbx_wr_tags tags;         /* function list entry, in order */
    struct mtlbx_wr_tags public_md, private_md;
    size_t module;                     /* into the library's modules */
    long archive;                      /* SOFF: into the archives, -1 none */
    long reflection;                   /* RFLT: into the RLST groups, -1 none */
    bool has_stored_hash;              /* quirk: HASH holds stored_hash, not the module's digest */
    uint8_t stored_hash[32];
};

struct mtlbx_wr_archive {
    struct mtlbx_bytes id;             /* without its NUL */
    struct mtlbx_wr_blob payload;      /* the compressed bytes, padding included */
};

/* The sections after the modules, in the order the rules write them
 * (FORMAT §1.1); a library whose order differs names its own. */
enum mtlbx_wr_section {
    MTLBX_WR_SOURCES, MTLBX_WR_DYNAMIC, MTLBX_WR_VLST, MTLBX_WR_ILST, MTLBX_WR_RLST, MTLBX_WR_SLST,
    MTLBX_WR_SECTIONS,
};
/* "sources", "dynamic_header", "VLST", ...: the names a manifest uses. */
const char *mbx_wr_section_name(enum mtlbx_wr_section s);
bool mbx_wr_section_parse(const char *name, enum mtlbx_wr_section *out);

struct mtlbx_wr_list {
    bool present;
    size_t n_groups, cap;
    struct mtlbx_wr_tags *groups;
};

/* The largest slice alignment a fat file is written with (2^15, as lipo
 * allows): the zeros between slices stay under 32 KiB each. */
#define MTLBX_WR_MAX_FAT_ALIGN 15

struct mtlbx_wr_library {
    /* The header's values (FORMAT §2): u16@4 (major | macOS flag), minor,
     * patch, byte 10 (file type | stub), byte 11 (platform), OS version. */
    uint16_t version_word, minor, patch;
    uint8_t type_byte, platform_byte;
    uint16_t os_major;
    uint8_t os_minor, os_patch;
    /* Metadata groups' u32 prefix leaves itself out (the standalone
     * `metallib` tool) instead of counting itself (the metal driver). */
    bool md_prefix_excludes;
    bool has_ext;                      /* false: no header extension at all (1.2.1, 1.2.2) */
    struct mtlbx_wr_tags ext;
    size_t n_functions, functions_cap;
    struct mtlbx_wr_function *functions;
    size_t n_modules, modules_cap;
    struct mtlbx_wr_module *modules;
    /* Quirk: the modules' physical order (module indexes), when it is not
     * the order in which the functions first use them. NULL: that rule. */
    size_t *module_order;
    bool has_sources;
    uint32_t sources_tag;              /* FOURCC HSRC or HSRD */
    struct mtlbx_bytes link_command;
    struct mtlbx_bytes working_dir;    /* HSRD only */
    size_t n_archives, archives_cap;
    struct mtlbx_wr_archive *archives;
    bool has_dynamic;
    struct mtlbx_wr_tags dynamic;
    struct mtlbx_wr_list lists[MTLBX_LIST_COUNT]; /* VLST ILST RLST SLST */
    /* Quirk: the sections after the modules in this order (those present,
     * each once) instead of the rule's. n 0: the rule. */
    size_t n_section_order;
    enum mtlbx_wr_section section_order[MTLBX_WR_SECTIONS];
    /* A fat file's slice record for this library (cputype, cpusubtype,
     * align as a power of two, at most MTLBX_WR_MAX_FAT_ALIGN). */
    uint32_t cputype, cpusubtype, align;
    /* Every tag of the library; tag groups are runs of it. */
    size_t n_tags, tags_cap;
    struct mtlbx_wr_tag *tags;
};

typedef struct mtlbx_writer mtlbx_writer;

/* A writer with no library yet (describe, a manifest reader); free it
 * with mtlbx_writer_free. NULL out of memory. */
mtlbx_writer *mbx_wr_new(void);

/* The model the layout reads. Fill it through the calls below; a model
 * made by describe or by a manifest reader is complete as it comes. */
size_t mbx_wr_library_count(const mtlbx_writer *w);
struct mtlbx_wr_library *mbx_wr_library_at(mtlbx_writer *w, size_t i);
bool mbx_wr_is_fat(const mtlbx_writer *w);
/* An empty library at the end (zeroed values, no extension); NULL and
 * the writer's error when out of memory. */
struct mtlbx_wr_library *mbx_wr_add_library(mtlbx_writer *w);
/* A fat file (one slice a library) or a plain one (exactly one library). */
void mbx_wr_set_fat(mtlbx_writer *w, bool fat);

/* Appends a tag to lib's tag array; value copied into the writer unless
 * `borrow` (bytes that outlive the writer: a mapped file). Returns the
 * tag's index, or -1 out of memory. Tags are appended run by run: a
 * group is the tags added between mtlbx_wr_tags_begin and _end. */
long mbx_wr_add_tag(mtlbx_writer *w, struct mtlbx_wr_library *lib, uint32_t fourcc, enum mtlbx_wr_kind kind,
                      const void *value, size_t len, bool borrow);
static inline struct mtlbx_wr_tags mtlbx_wr_tags_begin(const struct mtlbx_wr_library *lib)
{
    return (struct mtlbx_wr_tags){ lib->n_tags, 0 };
}
static inline void mtlbx_wr_tags_end(const struct mtlbx_wr_library *lib, struct mtlbx_wr_tags *t)
{
    t->n = lib->n_tags - t->first;
}
/* A new function, module, archive or list group, zeroed (archive and
 * reflection -1); NULL out of memory. */
struct mtlbx_wr_function *mbx_wr_add_function(mtlbx_writer *w, struct mtlbx_wr_library *lib);
struct mtlbx_wr_module *mbx_wr_add_module(mtlbx_writer *w, struct mtlbx_wr_library *lib);
struct mtlbx_wr_archive *mbx_wr_add_archive(mtlbx_writer *w, struct mtlbx_wr_library *lib);
struct mtlbx_wr_tags *mbx_wr_add_list_group(mtlbx_writer *w, struct mtlbx_wr_library *lib,
                                              enum mtlbx_list_kind k);
/* A copy of `len` bytes owned by the writer (freed with it); NULL out of
 * memory. A copied string gets a NUL after its bytes. */
void *mbx_wr_copy(mtlbx_writer *w, const void *p, size_t len);
/* The module order quirk: n module indexes, copied. False out of memory. */
bool mbx_wr_set_module_order(mtlbx_writer *w, struct mtlbx_wr_library *lib, const size_t *order, size_t n);

/* Sets the writer's error (one line) and returns MTLBX_WRITER_FAILED.
 * `offset` < 0: none. */
int mbx_wr_fail(mtlbx_writer *w, int64_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The offset of the last error, -1 when it has none. */
int64_t mbx_wr_error_offset(const mtlbx_writer *w);
/* Out of memory: the writer is unusable from now on (MTLBX_WRITER_FATAL). */
int mbx_wr_out_of_memory(mtlbx_writer *w);

/* ----------------------------------------------------------- describe -- */

enum {
    /* Hash every module (threads as mbx_library_verify_all): a stored
     * HASH that is not the module's digest becomes the stored_hash quirk
     * and every module's digest is known. Without it digests are computed
     * as the modules are written, and each HASH is the module's. */
    MTLBX_WR_DESCRIBE_VERIFY = 1u << 0,
    /* Let go of no decoded function entry as the pass goes (by default
     * every 4,096, mbx_library_forget, so memory stays flat): for a
     * caller that holds pointers from mbx_function_at across the call
     * or reads the library from another thread meanwhile (the explorer). */
    MTLBX_WR_DESCRIBE_KEEP_DECODED = 1u << 1,
};

/* The writer model of every library of an open file: the values read, in
 * file order, with every number a reader locates things by left to the
 * layout, and what no rule derives kept as a quirk. Byte values point
 * into the file's mapping: f must outlive w. MTLBX_WRITER_FAILED with a
 * message (and the offset) when the file holds something the model cannot
 * say (then pack could not give the file back). w must be new. */
int mbx_wr_describe(mtlbx_writer *w, mtlbx_file *f, unsigned flags);
/* The same, telling `tick` (may be NULL) every 4,096 functions how many
 * of all the libraries' are described; a nonzero return stops it there:
 * MTLBX_WRITER_FAILED, "stopped" (the explorer's Esc). */
int mbx_wr_describe_tick(mtlbx_writer *w, mtlbx_file *f, unsigned flags,
                           int (*tick)(void *ctx, uint64_t done, uint64_t total), void *ctx);

/* Keeps only the functions with keep[l][i] set in library l (every
 * library of the model), the modules and reflection groups they use, and
 * everything else; a library left with no function is removed, unless
 * every one is. Where the model had a UUID, it gets a new one derived
 * from what is kept (another library must not claim the old one). */
int mbx_wr_select(mtlbx_writer *w, bool *const *keep);

/* -------------------------------------------------------------- layout -- */

/* Where written bytes go: put `len` bytes at absolute offset `off`
 * (every byte of the file exactly once, in no particular order). Returns
 * 0, or -1 after setting the writer's error (mbx_wr_fail). */
struct mtlbx_wr_sink {
    int (*put)(void *ctx, mtlbx_writer *w, uint64_t off, const void *data, size_t len);
    void *ctx;
};

/* Lays the model out and writes it to the sink; *size (may be NULL) gets
 * the file's length, before the sink's first put. MTLBX_WRITER_OK, or FAILED with the reason (a value
 * that does not fit its field, a module file that changed, the sink's
 * own error), or FATAL out of memory. */
int mbx_wr_write(mtlbx_writer *w, const struct mtlbx_wr_sink *sink, uint64_t *size);
/* The same to an open file descriptor (pwrite at each offset); the file
 * is made exactly as long as the library. */
int mbx_wr_write_fd(mtlbx_writer *w, int fd);
/* The same, telling `tick` (may be NULL) after each piece written how
 * many bytes are written of how many; a nonzero return stops the write
 * there: FAILED, "stopped" (the explorer's Esc, its progress line). */
int mbx_wr_write_fd_tick(mtlbx_writer *w, int fd, int (*tick)(void *ctx, uint64_t done, uint64_t total),
                           void *ctx);
/* Writes the model in memory and compares it with `bytes` (the file it
 * was described from): OK when they are the same, else FAILED naming the
 * first offset that differs and the structure that covers it. Modules
 * whose bytes are the file's own at the same place are not compared. */
int mbx_wr_compare(mtlbx_writer *w, const uint8_t *bytes, uint64_t len);

/* Files beneath a directory (manifest references): blob paths with
 * `beneath` are opened relative to this descriptor (the writer does not
 * own it). */
void mbx_wr_set_base_dir(mtlbx_writer *w, int dirfd);
/* Opens `path` beneath `dirfd` for reading: every component opened
 * without following a symbolic link, "." and ".." refused, the last a
 * regular file. Returns the descriptor (its size in *size) or -1 with a
 * reason in err. */
int mbx_wr_open_beneath(int dirfd, const char *path, uint64_t *size, char *err, size_t err_size);
/* A whole regular file into a malloc'd buffer (a NUL after its bytes):
 * `path` beneath `dirfd` (as above) or, not `beneath`, as given. At most
 * `max` bytes. 0, or -1 with a reason in err. */
int mbx_wr_read_file(int dirfd, const char *path, bool beneath, uint64_t max, uint8_t **out, size_t *len, char *err,
                       size_t err_size);

/* ------------------------------------------------ modules and targets -- */

struct mtlbx_wr_target;

/* One AIR module as a new function of `lib`: NAME, TYPE and VERS from its
 * own AIR metadata, CNST and VATT/VATY from its function constants and
 * vertex inputs, the module bytes from `module` (read now, and again when
 * written when it is a path). Refused (FAILED): bytes that are not LLVM
 * bitcode, a module whose metadata does not decode, names no entry point
 * or several, a name another function of lib has, and what the writer
 * cannot describe (tessellation), and (`target` not NULL) a module that
 * would not load there (mbx_wr_check_target). `shown` names the module
 * in messages. Nothing is added unless the call succeeds. */
int mbx_wr_add_air(mtlbx_writer *w, struct mtlbx_wr_library *lib, const struct mtlbx_wr_blob *module,
                     const char *shown, const struct mtlbx_wr_target *target);

/* A target as `pack --target` and mtlbx_writer_target take it
 * ("macOS:14.0", "ios:17", "visionOS:1.0", "iOS-simulator:17.0"): the
 * header values, container version, function tag order, metadata style
 * and header extension Apple's standalone `metallib` tool writes for it
 * (targets.c; doc/writer-layout.md). FAILED for a target it does not know. */
struct mtlbx_wr_target {
    enum mtlbx_os os;            /* the platform the requirement tables know it as */
    uint8_t platform_byte;       /* 0x81 macOS, 0x87 iOS simulator, ... */
    bool macos_word;             /* bit 15 of u16@4 */
    uint16_t major;
    uint8_t minor, patch;
    uint16_t container_patch;    /* 1.2.N */
    char text[48];               /* "macOS 14.0" for messages */
};
int mbx_wr_parse_target(mtlbx_writer *w, const char *text, struct mtlbx_wr_target *out);
/* Sets lib's header values and layout style to the target's. */
void mbx_wr_apply_target(struct mtlbx_wr_library *lib, const struct mtlbx_wr_target *t);
/* FAILED (naming the function and why) when a function of lib would not
 * load on the target: its module's triple names another platform or a
 * newer OS release (Metal's rule: checks/deployment.c; a newer minor of
 * the target's release loads, and is packed with a note), or its MSL or
 * AIR version needs a newer OS. */
int mbx_wr_check_target(mtlbx_writer *w, const struct mtlbx_wr_library *lib, const struct mtlbx_wr_target *t);
/* The first note of the writer (a module packed for a newer minor than
 * the target), or NULL; *more: how many others. */
const char *mbx_wr_note(const mtlbx_writer *w, size_t *more);

/* ----------------------------------------- the API of LIBRARY.md -------- */

/* The installed <mtlbx.h> declares these too, for outside programs; the
 * api layer includes both headers (api/handle.h), so the compiler holds
 * the two declarations to one another. */
mtlbx_writer *mtlbx_writer_new(void);
int mtlbx_writer_target(mtlbx_writer *w, const char *os);
int mtlbx_writer_set(mtlbx_writer *w, int key, const char *value);
int mtlbx_writer_add_function(mtlbx_writer *w, const void *air, size_t len);
int mtlbx_writer_add_source(mtlbx_writer *w, const char *name, const void *data, size_t len);
int mtlbx_writer_write_filename(mtlbx_writer *w, const char *path);
int mtlbx_writer_write_memory(mtlbx_writer *w, const void **out, size_t *len);
const char *mtlbx_writer_error_string(mtlbx_writer *w);
void mtlbx_writer_free(mtlbx_writer *w);

/* Internal, for the command line: a writer made from modules checks them
 * against its target and lays out the sources added; call before
 * mbx_wr_write_fd as the write_ calls do themselves. */
int mbx_writer_prepare(mtlbx_writer *w);
/* Marks a described writer as <mtlbx.h>'s mtlbx_writer_from makes it: its
 * write calls write the model as it is; target, set and add are refused. */
void mbx_wr_mark_copy(mtlbx_writer *w);

#ifdef __cplusplus
}
#endif
#endif
