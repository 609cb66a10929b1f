/* The container's handles from inside (src/lib only): struct mtlbx_file
 * and struct mtlbx_library, the function table and metadata decoded in
 * blocks (lazy_table.c), and the parsing steps library.c runs. What other
 * layers do with a handle without looking inside has headers of its own:
 * container/report.h (lib_error ...), container/cursor.h (passes over
 * the functions), container/file_read.h (module bytes read by pread),
 * container/diag_list.h (the lists diagnostics are kept in). The callers
 * outside src/lib see these handles only through container/container.h.
 * The handle keeps two answers of the checks layer once computed (the
 * library's requirement and deployment target): their types come from
 * checks/requirements.h. */
#ifndef MTLBX_CONTAINER_LIBRARY_H
#define MTLBX_CONTAINER_LIBRARY_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "container/container.h"
#include "container/diag_list.h"
#include "checks/requirements.h"

/* lazy_table.c: an array of n entries decoded LAZY_BLOCK at a time. */
#define LAZY_BLOCK 4096
struct lazy_blocks {
    size_t n_blocks;
    _Atomic unsigned char *state; /* per block: 0 not decoded, 1 decoded */
    bool droppable;               /* blocks may be dropped and decoded again */
    void *array;                  /* the anonymous mapping, or heap memory when small */
    bool mapped;                  /* array is a mapping: a drop gives its pages back */
    size_t array_bytes;
    size_t elem_size;
    pthread_mutex_t lock;         /* serialises decoding */
};

typedef void (*lazy_decode_fn)(mtlbx_library *lib, size_t first, size_t count);
typedef void (*lazy_clear_fn)(mtlbx_library *lib, size_t first, size_t count);
/* n entries of elem_size; false when out of memory. */
bool lazy_init(struct lazy_blocks *b, size_t n, size_t elem_size);
void lazy_free(struct lazy_blocks *b);
/* Entry i, its block decoded first if need be (thread-safe); NULL past
 * the end. */
void *lazy_get(mtlbx_library *lib, struct lazy_blocks *b, size_t i, lazy_decode_fn decode);
/* Maps the pages of [p, p+n) for writing in one call, where touching
 * them would fault once a page (a buffer about to be filled). */
void populate_pages(void *p, size_t n);
/* Maps the pages of entries [first, first+count) in one call, before a
 * block is decoded into them (nothing for a heap array). */
void lazy_populate(struct lazy_blocks *b, size_t first, size_t count);
/* Drops the decoded blocks wholly before entry `before` (clear frees what
 * their entries own), unless the array is not droppable. */
void lazy_drop_before(mtlbx_library *lib, struct lazy_blocks *b, size_t before, lazy_clear_fn clear);
/* A library of at most this many functions keeps its whole table,
 * decoded by the first pass over its list (functions.c): at ~144 bytes an
 * entry that is at most 4.5 MB, where every later pass would otherwise
 * decode each entry again. A bigger library decodes a block on need. */
#define FUNCTION_TABLE_KEEP (8 * LAZY_BLOCK)

struct function_cursor;        /* container/cursor.h */
struct mtlbx_library {
    mtlbx_file *file;
    size_t index;
    struct mtlbx_header header;
    struct diag_list diags;
    pthread_mutex_t lock;      /* guards diags and lazy state touched by threads */
    /* Bytes that size-prefixed group walks may still read. Many OFFT values
     * can name one huge group; the budget keeps that linear, not quadratic. */
    uint64_t walk_budget;
    bool walk_budget_reported;

    size_t n_functions;
    /* The function table and the metadata are decoded in blocks on first
     * need and may be dropped again (lazy_table.c): a million functions
     * would otherwise keep ~330 MB. Both arrays are anonymous mappings of
     * n_functions entries whose pages exist only for decoded blocks. */
    struct mtlbx_function *functions;
    struct lazy_blocks fn_blocks;
    uint64_t *fn_chunk_offset;  /* entry offset of every FN_CHUNK-th function */
    uint64_t serial;            /* tells libraries apart (a freed one's address is reused) */
    bool module_size_needed;    /* some function has OFFT but no MDSZ */
    /* The distinct SOFF values the function list's pass saw (at most
     * SOFF_SEEN_MAX; soff_many past that), so that parse_sources checks
     * the values, not every function again, when they all land. */
#define SOFF_SEEN_MAX 64
    uint64_t soff_seen[SOFF_SEEN_MAX];
    size_t n_soff_seen;
    bool soff_many;
    /* Modules outside their section found by the function list's pass,
     * reported by parse_modules in its turn (hostile input only). */
    struct module_outside { size_t i; uint64_t at, rel, size; } *outside;
    size_t n_outside, outside_cap;
    bool modules_parsed;        /* derive_function may run */
    uint64_t *module_sorted;    /* module offsets, sorted, when a size is inferred */
    size_t n_module_sorted;
    struct lazy_blocks md_blocks;
    unsigned char *hash_states; /* enum mtlbx_hash_state per function, atomic access */
    unsigned char *bitcode_states; /* module_check.c: per function, under lock */
    struct mtlbx_metadata *metadata;
    /* Metadata groups and list groups are decoded on first need (see
     * library_decode_rest): `ls` on 20,000 functions never pays for them. */
    pthread_mutex_t rest_lock;
    _Atomic bool rest_decoded;

    struct mtlbx_header_ext ext;
    struct mtlbx_tag *ext_tags;

    struct mtlbx_sources sources;
    struct mtlbx_dynamic_header dyn;
    struct mtlbx_bytes *dyn_linked;
    struct mtlbx_list lists[MTLBX_LIST_COUNT];
    struct mtlbx_range *list_groups[MTLBX_LIST_COUNT];
    /* requirements.c: the platform requirements are computed for, found
     * once (0: not yet, else enum mtlbx_os + 1) */
    _Atomic int req_os;
    /* and the library's requirement, computed once under `lock` (the
     * explorer's library label asks on every redraw) */
    bool req_cached;
    struct mtlbx_requires req;
    /* deployment.c: the modules' deployment target, read once, and each
     * function's own triple (0: not read yet), noted by whoever reads its
     * module's bytes first */
    _Atomic bool deploy_cached;
    struct mtlbx_deployment deploy;
    _Atomic(_Atomic uint32_t *) fn_triples;
};

struct mtlbx_file {
    char *path;
    const uint8_t *data;
    uint64_t size;
    bool mapped;               /* data came from mmap and must be unmapped */
    dev_t dev;                 /* identity of the mapped file (mapped only): its */
    ino_t ino;                 /* descriptor is closed after mmap, see file_reopen */
    bool owns_data;            /* data is a malloc'ed buffer to free on close */
    _Atomic bool short_read;   /* a pread while hashing came up short */
    struct diag_list diags;
    bool fat;
    size_t n_slices;
    struct mbx_fat_slice *slices;
    size_t n_libraries;
    mtlbx_library **libraries;
    size_t n_gpu;              /* gpu_slice.c: the GPU slices, in slice order */
    struct mtlbx_gpu_slice *gpu;
    /* Nothing of a layer above the container hangs here: their state
     * belongs to their own objects (mtlbx_interface_reader, mtlbx_model,
     * mtlbx_layout), which the caller frees before the file. */
};


/* tags.c */
bool tag_is_wide(uint32_t fourcc);
void tag_fill_name(char name[5], uint32_t fourcc);
/* mbx_tag_walk_next without out->name and out->known (left empty and
 * false), which only a diagnostic or a view needs: the function list's
 * passes walk every entry's tags, a million entries several times. */
bool tag_walk_step(struct mtlbx_tag_walk *w, struct mtlbx_tag *out);
/* values.c: the tag is one this library decodes (it has a description). */
bool tag_known(uint32_t fourcc);
/* Walks a size-prefixed group at `off` to its ENDT, bounded by `limit`
 * (absolute end), and checks the prefix against what the tags use: it may
 * count itself, or (with accept_excluding) not. Reports problems to lib.
 * Returns false if the group is unusable; *body is where its tags start and
 * *end just past its ENDT. */
bool group_bounds(mtlbx_library *lib, uint64_t off, uint64_t limit, const char *what,
                  bool accept_excluding, uint64_t *body, uint64_t *end);

/* Parsing steps, called in order by library.c */
void parse_header(mtlbx_library *lib);
void parse_function_list(mtlbx_library *lib);
void parse_header_ext(mtlbx_library *lib);
void parse_modules(mtlbx_library *lib);
/* modules.c: fills fn's derived fields (module span, metadata offsets)
 * from its tags; returns false when its module lies outside the module
 * list, with the span it names in *rel and *size. */
bool derive_function(const mtlbx_library *lib, struct mtlbx_function *fn, uint64_t *rel, uint64_t *size);
void parse_sources(mtlbx_library *lib);      /* sources.c: structure only, no bzip2 */
void parse_dynamic_and_lists(mtlbx_library *lib);
void check_overlaps(mtlbx_library *lib);
void free_sources(mtlbx_library *lib);
void free_metadata(mtlbx_library *lib);
/* Decoded on first need, through library_decode_rest() */
/* Both read every function entry through `fns`, the caller's cursor:
 * library_decode_rest runs them one after the other on one cursor, so a
 * small library's entries are decoded once for the two. */
void decode_metadata(mtlbx_library *lib, struct function_cursor *fns); /* metadata.c */
void decode_lists(mtlbx_library *lib, struct function_cursor *fns);    /* dynamic.c: list groups, RFLT check */

/* reflection.c: RETR and ARGR of one public metadata group. */
void reflection_decode_retr(mtlbx_library *lib, struct mtlbx_reflection *r, const struct mtlbx_tag *t);
void reflection_decode_argr(mtlbx_library *lib, struct mtlbx_reflection *r, const struct mtlbx_tag *t);

/* header_ext.c: a section pointer (HSRD, HDYN, RLST ...) resolved to an
 * absolute range; false if absent or outside the library. */
bool ext_section(mtlbx_library *lib, uint32_t fourcc, const char *what, struct mtlbx_range *out,
                 const struct mtlbx_tag **tag_out);


/* fat.c */
void parse_fat(mtlbx_file *f);
/* gpu_slice.c: reads GPU slice g (slice, offset, size and cputype set;
 * inside the file), opening its embedded library as f's next; frees it. */
void gpu_slice_read(mtlbx_file *f, struct mtlbx_gpu_slice *g);
void gpu_slice_free(struct mtlbx_gpu_slice *g);

/* library.c */
mtlbx_library *library_open(mtlbx_file *f, size_t index, uint64_t base, uint64_t available);
/* Decodes what open leaves for later (metadata groups, list groups), once,
 * from any thread. Every accessor of those parts and of the diagnostics
 * calls it, so no finding is ever missing from the list. */
void library_decode_rest(const mtlbx_library *lib);
void library_free(mtlbx_library *lib);


/* archive.c: bzip2 + tar listing of one SARC payload. Named source_* so
 * that nothing of ours interposes on libarchive's own archive_* symbols. */
enum mtlbx_archive_state source_archive_decode(mtlbx_library *lib, struct mtlbx_archive *a);
void source_archive_free(struct mtlbx_archive *a);

#endif
