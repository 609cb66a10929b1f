/* One MTLB library (a plain file, or one slice of a fat file): runs the
 * parsing steps in order and checks that the sections do not overlap.
 * Each step works with whatever the previous ones could trust. What only
 * some commands need (metadata and list groups) waits for its first use. */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct named_range {
    const char *name;
    struct mtlbx_range r;
};

static int cmp_range(const void *a, const void *b)
{
    const struct named_range *x = a, *y = b;
    return x->r.offset < y->r.offset ? -1 : x->r.offset > y->r.offset;
}

void check_overlaps(mtlbx_library *lib)
{
    const struct mtlbx_header *h = &lib->header;
    if (!h->complete)
        return;
    struct named_range rs[16];
    size_t n = 0;
    rs[n++] = (struct named_range){ "header", { h->base, 88 } };
    rs[n++] = (struct named_range){ "function list", h->function_list };
    if (lib->ext.present)
        rs[n++] = (struct named_range){ "header extension", lib->ext.range };
    rs[n++] = (struct named_range){ "public metadata", h->public_md };
    rs[n++] = (struct named_range){ "private metadata", h->private_md };
    rs[n++] = (struct named_range){ "module list", h->modules };
    if (lib->sources.present)
        rs[n++] = (struct named_range){ "embedded sources", lib->sources.range };
    if (lib->dyn.present)
        rs[n++] = (struct named_range){ "dynamic header", lib->dyn.range };
    static const char *const list_names[] = { "variable list", "imported symbol list", "reflection list",
                                              "script list" };
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        if (lib->lists[k].present)
            rs[n++] = (struct named_range){ list_names[k], lib->lists[k].range };
    qsort(rs, n, sizeof *rs, cmp_range);
    /* Compare each section with the furthest-reaching one before it, so a
     * section nested inside a big one is caught too. */
    size_t reach = 0;
    for (size_t i = 1; i < n; i++) {
        if (rs[i].r.size == 0)
            continue;
        const struct named_range *prev = &rs[reach];
        if (prev->r.size && rs[i].r.offset < prev->r.offset + prev->r.size)
            lib_error(lib, rs[i].r.offset, "%s (0x%llx..0x%llx) overlaps %s (0x%llx..0x%llx)", rs[i].name,
                      (unsigned long long)rs[i].r.offset, (unsigned long long)(rs[i].r.offset + rs[i].r.size),
                      prev->name, (unsigned long long)prev->r.offset,
                      (unsigned long long)(prev->r.offset + prev->r.size));
        if (rs[i].r.offset + rs[i].r.size > prev->r.offset + prev->r.size)
            reach = i;
    }
}

mtlbx_library *library_open(mtlbx_file *f, size_t index, uint64_t base, uint64_t available)
{
    mtlbx_library *lib = calloc(1, sizeof *lib);
    if (!lib)
        return NULL;
    static _Atomic uint64_t serials;
    lib->serial = atomic_fetch_add(&serials, 1) + 1;
    lib->file = f;
    lib->index = index;
    pthread_mutex_init(&lib->lock, NULL);
    pthread_mutex_init(&lib->rest_lock, NULL);
    lib->header.base = base;
    lib->header.available = available;
    lib->walk_budget = 8 * available + (1u << 20);

    parse_header(lib);
    parse_function_list(lib);
    parse_header_ext(lib);
    parse_modules(lib);
    parse_sources(lib);
    parse_dynamic_and_lists(lib);
    check_overlaps(lib);
    /* Entries the passes above decoded into the table are decoded again
     * when asked for: nobody holds one yet. */
    library_forget_functions(lib, lib->n_functions);
    /* Each pass above read its sections once; their pages need not stay
     * (a 200,000-function list is 32 MB), so the memory of a large library
     * is what the parser keeps, not every page it looked at. */
    mbx_library_release_pages(lib);
    return lib;
}

void library_decode_rest(const mtlbx_library *clib)
{
    mtlbx_library *lib = (mtlbx_library *)clib;
    if (atomic_load_explicit(&lib->rest_decoded, memory_order_acquire))
        return;
    pthread_mutex_lock(&lib->rest_lock);
    if (!atomic_load_explicit(&lib->rest_decoded, memory_order_relaxed)) {
        struct function_cursor fns = { 0 };
        decode_metadata(lib, &fns);
        /* The cursor's block goes before the list walk, as each pass's
         * own cursor did, so memory at a million functions stays what it
         * was. */
        function_cursor_free(&fns);
        decode_lists(lib, &fns);
        function_cursor_free(&fns);
        mbx_library_release_pages(lib);
        atomic_store_explicit(&lib->rest_decoded, true, memory_order_release);
    }
    pthread_mutex_unlock(&lib->rest_lock);
}

void library_free(mtlbx_library *lib)
{
    if (!lib)
        return;
    free_sources(lib);
    free_metadata(lib);
    lazy_free(&lib->fn_blocks);
    free(lib->fn_chunk_offset);
    free(lib->module_sorted);
    free(lib->outside);
    free(lib->hash_states);
    free((void *)atomic_load(&lib->fn_triples));
    free(lib->bitcode_states);
    free(lib->ext_tags);
    free(lib->dyn_linked);
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        free(lib->list_groups[k]);
    diag_free(&lib->diags);
    pthread_mutex_destroy(&lib->lock);
    pthread_mutex_destroy(&lib->rest_lock);
    free(lib);
}

/* ------------------------------------------------ lazy accessors -- */

/* What is decoded on first need is asked for here, at the top: the readers
 * below (metadata.c, dynamic.c, diag.c) never call back up, so the library
 * is one-way, file -> container -> sections -> tags -> diagnostics. */

const struct mtlbx_metadata *mbx_function_metadata(const mtlbx_library *lib, size_t i)
{
    static const struct mtlbx_metadata none;
    library_decode_rest(lib);
    const struct mtlbx_metadata *md = library_metadata(lib, i);
    return md ? md : &none;
}

void mbx_library_forget(const mtlbx_library *clib, size_t before)
{
    mtlbx_library *lib = (mtlbx_library *)clib;
    /* The metadata is only there once decoded; its pass must not be
     * running (its first call returns when it is done). */
    if (atomic_load_explicit(&lib->rest_decoded, memory_order_acquire))
        library_forget_metadata(lib, before);
    library_forget_functions(lib, before);
}

const struct mtlbx_list *mbx_library_list(const mtlbx_library *lib, enum mtlbx_list_kind k)
{
    static const struct mtlbx_list none;
    library_decode_rest(lib);
    return (unsigned)k < MTLBX_LIST_COUNT ? &lib->lists[k] : &none;
}

size_t mbx_library_diag_count(const mtlbx_library *lib)
{
    library_decode_rest(lib); /* its findings are part of the list */
    mtlbx_library *l = (mtlbx_library *)lib;
    pthread_mutex_lock(&l->lock);
    size_t n = lib->diags.n + (lib->diags.dropped ? 1 : 0);
    pthread_mutex_unlock(&l->lock);
    return n;
}

const struct mtlbx_diag *mbx_library_diag(const mtlbx_library *lib, size_t i)
{
    static __thread struct mtlbx_diag scratch;
    library_decode_rest(lib);
    mtlbx_library *l = (mtlbx_library *)lib;
    pthread_mutex_lock(&l->lock);
    const struct mtlbx_diag *d = diag_get(&lib->diags, i, &scratch);
    pthread_mutex_unlock(&l->lock);
    return d;
}
