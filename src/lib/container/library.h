/* A library's handle from inside (src/lib only): struct mtlbx_library,
 * whose function table and metadata are decoded in blocks
 * (container/lazy_table.h). The file's handle is container/file_handle.h,
 * the parsing steps container/parse.h, the tag walk's internals
 * container/tag_walk.h. What other layers do with a handle without
 * looking inside has headers of its own:
 * container/report.h (lib_error ...), container/cursor.h (passes over
 * the functions), container/file_read.h (module bytes read by pread),
 * container/diag_list.h (the lists diagnostics are kept in). The callers
 * outside src/lib see these handles only through the layer's concept
 * headers (container/types.h, file.h, functions.h ...).
 * The handle keeps two answers of the checks layer once computed (the
 * library's requirement and deployment target): their types come from
 * checks/requirements.h and checks/deployment.h. */
#ifndef MTLBX_CONTAINER_LIBRARY_H
#define MTLBX_CONTAINER_LIBRARY_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "container/functions.h"
#include "container/header.h"
#include "container/metadata.h"
#include "container/sources.h"
#include "container/diag_list.h"
#include "container/lazy_table.h"
#include "checks/deployment.h"
#include "checks/requirements.h"

/* A library of at most this many functions keeps its whole table,
 * decoded by the first pass over its list (functions.c): at ~144 bytes an
 * entry that is at most 4.5 MB, where every later pass would otherwise
 * decode each entry again. A bigger library decodes a block on need. */
#define FUNCTION_TABLE_KEEP (8 * LAZY_BLOCK)

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

/* library.c */
/* Decodes what open leaves for later (metadata groups, list groups), once,
 * from any thread. Every accessor of those parts and of the diagnostics
 * calls it, so no finding is ever missing from the list. */
void library_decode_rest(const mtlbx_library *lib);

#endif
