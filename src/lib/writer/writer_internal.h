/* What the files of src/lib/writer share and nobody else sees: the
 * writer handle itself. */
#ifndef MTLBX_WRITER_INTERNAL_H
#define MTLBX_WRITER_INTERNAL_H

#include "container/le_read.h"
#include "bitcode/arena.h"
#include "writer_model.h"
#include "writer/writer.h"

/* A member added with mtlbx_writer_add_source. */
struct wr_member {
    char *name;
    uint8_t *data;
    size_t len;
};

/* air_module.c: what a module added by mbx_wr_add_air says of itself. */
struct wr_air_info {
    char shown[200];             /* the module as messages name it (escaped) */
    char name[160];              /* its function's name (escaped) */
    bool has_triple;
    char triple[96];             /* printable ASCII */
    uint16_t air[2], msl[2];
};

struct mtlbx_writer {
    bool fat;
    size_t n_libraries, libraries_cap;
    struct mtlbx_wr_library *libraries;
    struct arena arena;          /* copied values, names, paths */
    int base_dirfd;              /* for blobs `beneath`; -1 none */
    bool fatal;                  /* out of memory once: unusable */
    char error[512];
    int64_t error_offset;
    char note[512];              /* the first note (wr_note), "" for none */
    size_t n_notes;

    /* The LIBRARY.md API (writer_api.c). */
    bool has_target;
    bool copy;                   /* mtlbx_writer_from: a described model, written as it is */
    struct mtlbx_wr_target target;
    bool container_set;          /* mtlbx_writer_set overrode the target's container version */
    size_t n_members, members_cap;
    struct wr_member *members;
    size_t n_memories, memories_cap;
    uint8_t **memories;          /* what write_memory returned, kept until free */
    /* Function names of the library, for refusing a second one (hash set
     * over the NAME values; air_module.c). */
    size_t names_cap, names_n;
    struct mtlbx_bytes *names;
    /* What mbx_wr_add_air read of each module that a target is checked
     * against, by function index of the first library. */
    size_t n_air, air_cap;
    struct wr_air_info *air;
};

/* model.c: the value of tag t of lib. */
static inline const struct mtlbx_wr_tag *wr_tag(const struct mtlbx_wr_library *lib, size_t t)
{
    return &lib->tags[t];
}
void wr_library_free(struct mtlbx_wr_library *lib);
/* The first tag `fourcc` in a run, or NULL. */
const struct mtlbx_wr_tag *wr_find_tag(const struct mtlbx_wr_library *lib, struct mtlbx_wr_tags run,
                                       uint32_t fourcc);
/* A FourCC as text for messages ("NAME", non-printables as '?'). */
void wr_fourcc_text(uint32_t fourcc, char out[5]);

/* air_module.c: remembers NAME as taken in the writer's name set; false
 * when another function has it (or out of memory: *oom). */
bool wr_name_claim(mtlbx_writer *w, const uint8_t *name, size_t len, bool *oom);

/* targets.c: the target is a simulator's; the OS version of a triple
 * ("air64-apple-macosx14.0.0" 14.0.0) and whether it names a simulator. */
bool wr_target_simulator(const struct mtlbx_wr_target *t);
bool wr_triple_version(const char *triple, unsigned long v[3], bool *simulator);
/* Something the writer did that its user should hear of (targets.c):
 * the first is kept, the rest counted (mbx_writer_note). */
void wr_note(mtlbx_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* air_module.c: FAILED when the module would not load on the target. */
int wr_check_air(mtlbx_writer *w, const struct wr_air_info *a, const struct mtlbx_wr_target *t);

/* sources_build.c: the members added as one HSRC/HSRD archive of lib
 * (again at every call: members may have been added since). A member
 * name ustar can hold (at most 100 bytes after a '/' within the first
 * 155). */
int wr_lay_out_members(mtlbx_writer *w, struct mtlbx_wr_library *lib);
bool wr_member_name_ok(const char *name);

/* layout.c: the length of the file the model lays out (nothing read). */
int wr_layout_size(mtlbx_writer *w, uint64_t *size);
/* output.c: the model written into one malloc'd buffer; written to
 * `path` atomically (a temporary beside it, renamed when whole). */
int wr_write_memory(mtlbx_writer *w, uint8_t **out, size_t *len);
/* files.c: a regular file opened for reading, beneath dirfd
 * (mbx_wr_open_beneath) or as given; -1 with a reason in err. */
int wr_open_file(int dirfd, const char *path, bool beneath, uint64_t *size, char *err, size_t err_size);
int wr_write_file_atomic(mtlbx_writer *w, const char *path);

/* manifest_values.c: the spellings of values, one strictness for the
 * manifest reader and mtlbx_writer_set (writer_api.c) alike. */
/* Lower-case hex of n bytes into a malloc'd string (NULL out of memory). */
char *mbx_wr_hex(const uint8_t *p, size_t n);
/* Hex text to bytes (malloc'd, *n); false when it is not an even number
 * of hex digits. */
bool mbx_wr_unhex(const char *text, uint8_t **out, size_t *n);
/* Whether `n` bytes are a JSON string as they are: valid UTF-8 with no NUL. */
bool mbx_wr_text_ok(const uint8_t *p, size_t n);
/* A tag value that is that text and a NUL, nothing after. */
bool mbx_wr_cstring_ok(const uint8_t *p, size_t n);
/* The names of a byte as dump --json spells them, and back: a function
 * type ("kernel", "unknown-9"), a file type, a target OS ("unknown-0x1f"),
 * in the one spelling the name functions give (no sign, no leading zero). */
bool mbx_wr_function_type_parse(const char *name, uint8_t *out);
bool mbx_wr_file_type_parse(const char *name, uint8_t *out);
bool mbx_wr_target_os_parse(const char *name, uint8_t *out);
/* "1.2.7" / "14.0.0" / "2.6": `parts` decimal numbers, each within
 * max[k], no sign, no leading zero, nothing after. */
bool mbx_wr_version_parse(const char *text, int parts, const unsigned long *max, unsigned long *out);
/* A FourCC as its four characters when they are printable ASCII. */
bool mbx_wr_fourcc_printable(uint32_t fourcc, char out[5]);

/* manifest_read.c: fills the empty writer `w` from manifest text (the
 * fuzz harness gives it text; mbx_manifest_load reads DIR's file). */
bool mbx_manifest_load_text(mtlbx_writer *w, int dirfd, const char *text, size_t len, char *err, size_t err_size);

/* manifest_claims.c: every function of the model held to its module
 * (plain check's comparison, mbx_claims_compare): FAILED with the first
 * disagreement in err, naming function, field and both values. */
int mbx_wr_check_claims(mtlbx_writer *w, char *err, size_t err_size);

/* The digest of a new UUID made from a seed (RFC 9562 version 8: named
 * from content, neither random nor MD5). */
void wr_uuid_from_digest(const uint8_t digest[32], uint8_t uuid[16]);

static inline void wr64(uint8_t *p, uint64_t v)
{
    v = MTLBX_LE64(v);
    memcpy(p, &v, 8);
}
static inline void wr32(uint8_t *p, uint32_t v)
{
    v = MTLBX_LE32(v);
    memcpy(p, &v, 4);
}
static inline void wr16(uint8_t *p, uint16_t v)
{
    v = MTLBX_LE16(v);
    memcpy(p, &v, 2);
}
static inline void wr32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
