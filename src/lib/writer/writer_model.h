/* The writer's model (src/lib/writer only): the values a library is laid
 * out from, as describe, the manifest reader and the AIR-module API fill
 * them. Nothing outside src/lib/writer includes this header: the rest of
 * the program holds an mtlbx_writer handle (writer.h) and the manifest's
 * two calls (manifest.h). */
#ifndef MTLBX_WRITER_MODEL_H
#define MTLBX_WRITER_MODEL_H

#include <stdbool.h>

#include "writer.h"
#include "checks/os.h"
#include "container/header.h"

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

/* The model the layout reads. Fill it through the calls below; a model
 * made by describe or by a manifest reader is complete as it comes. */
struct mtlbx_wr_library *mbx_wr_library_at(mtlbx_writer *w, size_t i);
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
/* Out of memory: the writer is unusable from now on (MTLBX_WRITER_FATAL). */
int mbx_wr_out_of_memory(mtlbx_writer *w);

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

#endif
