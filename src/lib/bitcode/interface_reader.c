/* The interface reader (mtlbx_interface_reader, declared in bitcode/interface_reader.h):
 * what a caller that decodes many functions of one library keeps between
 * them. Modules that several functions share (one offset and size) are
 * read once and each function's entry decoded from that read (2,000
 * functions on one 1.5 MB module read it 2,000 times). A shared module
 * stays until each of its functions has been decoded from it once, and at
 * most SHARED_KEEP of them at a time (least recently used goes first), so
 * memory stays bounded; a module used by one function only is never kept.
 *
 * The caller makes the reader for one library and frees it when its pass
 * is done (sig, dump, check, the model, the explorer's workers), so the
 * kept modules go with the pass: nothing of this layer hangs off the file.
 *
 * One reader serves any number of threads, behind one mutex, rather than
 * one reader per thread: sig, check and the explorer share a library's
 * functions out among threads in runs, and a module shared by 2,000
 * functions lies in every thread's runs, so per-thread readers would read
 * it once per thread and keep up to SHARED_KEEP modules per thread. The
 * lock is taken once per function, never while a module is read, against
 * a decode that costs far more; a thread that wants a module another one
 * is reading waits for it instead of reading it too. The read window
 * (container/read_window.c) stays apart: it is a buffer one thread fills,
 * so each thread keeps its own.
 *
 * mbx_function_interface, the library's way to one function's interface
 * with no reader, lives here too: it decodes as the reader does, alone. */
#include "config.h"

#include "container/cursor.h"
#include "container/file_read.h"
#include "container/library.h"
#include "bitcode/bitcode.h"
#include "bitcode/function_triples.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SHARED_KEEP 8

struct shared_module {
    bool in_use;
    uint64_t offset, size;
    struct module_read *r;     /* NULL while a thread reads it */
    size_t left;               /* its functions not yet decoded from it */
    uint64_t last_used;
};

struct mtlbx_interface_reader {
    const mtlbx_library *lib;
    pthread_mutex_t lock;         /* guards all below */
    pthread_cond_t ready;         /* a module being read is in (or failed) */
    uint32_t *sharers;            /* [function]: functions with its module's offset
                                     and size (itself included), made on first use */
    struct shared_module shared[SHARED_KEEP];
    uint64_t tick;
};

mtlbx_interface_reader *mbx_interface_reader_new(const mtlbx_library *lib)
{
    if (!lib)
        return NULL;
    mtlbx_interface_reader *rd = calloc(1, sizeof *rd);
    if (!rd)
        return NULL;
    rd->lib = lib;
    if (pthread_mutex_init(&rd->lock, NULL) != 0) {
        free(rd);
        return NULL;
    }
    if (pthread_cond_init(&rd->ready, NULL) != 0) {
        pthread_mutex_destroy(&rd->lock);
        free(rd);
        return NULL;
    }
    return rd;
}

void mbx_interface_reader_free(mtlbx_interface_reader *rd)
{
    if (!rd)
        return;
    for (size_t k = 0; k < SHARED_KEEP; k++)
        module_read_release(rd->shared[k].r);
    free(rd->sharers);
    pthread_cond_destroy(&rd->ready);
    pthread_mutex_destroy(&rd->lock);
    free(rd);
}

struct module_key {
    uint64_t offset, size;
    size_t index;
};

static int by_module(const void *p, const void *q)
{
    const struct module_key *a = p, *b = q;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return (a->size > b->size) - (a->size < b->size);
}

/* For each function of lib, how many functions have its module's offset
 * and size. Modules are usually stored in function order: then one pass
 * counts run by run, else the spans are sorted once. The function table
 * is read through a cursor, so this leaves it as it was (at a million
 * functions it would be 144 MB). Called with the reader's lock held. NULL when
 * out of memory. */
static uint32_t *count_sharers(const mtlbx_library *clib)
{
    mtlbx_library *lib = (mtlbx_library *)clib;
    size_t n = lib->n_functions;
    uint32_t *count = calloc(n ? n : 1, sizeof *count);
    if (!count)
        return NULL;
    struct function_cursor cur = { 0 };
    bool in_order = true;
    struct module_key prev = { 0 };
    for (size_t k = 0; k < n && in_order; k++) {
        const struct mtlbx_range *m = &function_cursor_at(lib, &cur, k)->module;
        struct module_key key = { m->offset, m->size, k };
        in_order = k == 0 || by_module(&prev, &key) <= 0;
        prev = key;
    }
    struct module_key *keys = NULL;
    if (!in_order) {
        if (!(keys = malloc(n * sizeof *keys))) {
            function_cursor_free(&cur);
            free(count);
            return NULL;
        }
        for (size_t k = 0; k < n; k++) {
            const struct mtlbx_range *m = &function_cursor_at(lib, &cur, k)->module;
            keys[k] = (struct module_key){ m->offset, m->size, k };
        }
        qsort(keys, n, sizeof *keys, by_module);
    }
    /* Runs of equal spans, in sorted order (or function order). */
    size_t run_start = 0;
    struct module_key first = { 0 };
    for (size_t k = 0; k <= n; k++) {
        struct module_key key = { 0 };
        if (k < n) {
            if (keys) {
                key = keys[k];
            } else {
                const struct mtlbx_range *m = &function_cursor_at(lib, &cur, k)->module;
                key = (struct module_key){ m->offset, m->size, k };
            }
        }
        if (k == n || (k > run_start && by_module(&first, &key) != 0)) {
            size_t run = k - run_start;
            uint32_t c = (uint32_t)(run > UINT32_MAX ? UINT32_MAX : run);
            for (size_t j = run_start; j < k; j++)
                count[keys ? keys[j].index : j] = c;
            run_start = k;
        }
        if (k == run_start)
            first = key;
    }
    free(keys);
    function_cursor_free(&cur);
    return count;
}

static void drop_shared(struct shared_module *e, struct module_read **release)
{
    *release = e->r;
    *e = (struct shared_module){ 0 };
}

/* Function i's module read once for every function of the reader's
 * library with the same (offset, size), with a reference for the caller;
 * NULL when no other function shares it (or it is not bitcode, or out of
 * memory): then the caller decodes on its own. */
static struct module_read *module_read_shared(mtlbx_interface_reader *rd, size_t i)
{
    const mtlbx_library *lib = rd->lib;
    struct mtlbx_bytes bytes = mbx_function_module_bytes(lib, i);
    if (!bytes.ptr)
        return NULL;
    const struct mtlbx_range key = library_function(lib, i)->module;
    struct module_read *result = NULL, *release = NULL;
    pthread_mutex_lock(&rd->lock);
    if (!rd->sharers && !(rd->sharers = count_sharers(lib)))
        goto out;
    uint32_t sharers = rd->sharers[i];
    if (sharers < 2)
        goto out;
    for (;;) {
        struct shared_module *e = NULL;
        for (size_t k = 0; k < SHARED_KEEP && !e; k++)
            if (rd->shared[k].in_use && rd->shared[k].offset == key.offset && rd->shared[k].size == key.size)
                e = &rd->shared[k];
        if (!e)
            break;
        if (!e->r) { /* another thread is reading it */
            pthread_cond_wait(&rd->ready, &rd->lock);
            continue;
        }
        module_read_retain(e->r);
        result = e->r;
        e->last_used = ++rd->tick;
        if (e->left <= 1)
            drop_shared(e, &release); /* every function has had it */
        else
            e->left--;
        goto out;
    }
    /* Not kept: take a free place, or the least recently used module
     * (not one being read); with none, read it alone. */
    struct shared_module *place = NULL;
    for (size_t k = 0; k < SHARED_KEEP; k++) {
        struct shared_module *e = &rd->shared[k];
        if (!e->in_use) {
            place = e;
            break;
        }
        if (e->r && (!place || e->last_used < place->last_used))
            place = e;
    }
    if (!place)
        goto out;
    if (place->in_use)
        drop_shared(place, &release);
    *place = (struct shared_module){ .in_use = true, .offset = key.offset, .size = key.size,
                                     .left = sharers - 1, .last_used = ++rd->tick };
    pthread_mutex_unlock(&rd->lock);
    module_read_release(release);
    release = NULL;
    struct module_read *r = module_read_new(bytes.ptr, bytes.len, key.offset, NULL);
    pthread_mutex_lock(&rd->lock);
    /* Nobody evicts or drops a place while it is being read. */
    if (r) {
        place->r = r;
        module_read_retain(r);
        result = r;
    } else {
        *place = (struct shared_module){ 0 };
    }
    pthread_cond_broadcast(&rd->ready);
out:
    pthread_mutex_unlock(&rd->lock);
    module_read_release(release);
    return result;
}

/* ---------------------------------------------- a function's interface -- */

struct mtlbx_interface *mbx_function_interface(const mtlbx_library *lib, size_t i, struct mtlbx_error *err)
{
    return interface_read_from(NULL, lib, i, NULL, err, NULL);
}

/* Modules bigger than this are read through the mapping, as before. */
#define READ_WINDOW_BYTES ((size_t)1 << 20)

struct mtlbx_read_window {
    struct read_window w;
};

mtlbx_read_window *mbx_read_window_new(void)
{
    mtlbx_read_window *w = malloc(sizeof *w);
    if (w)
        read_window_init(&w->w, READ_WINDOW_BYTES);
    return w;
}

void mbx_read_window_free(mtlbx_read_window *w)
{
    if (!w)
        return;
    read_window_free(&w->w);
    free(w);
}

struct mtlbx_interface *mbx_interface_read(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i,
                                             mtlbx_read_window *w, struct mtlbx_error *err)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    const uint8_t *copy = NULL;
    /* (A module that several functions share is still read once, through
     * the mapping: interface_read_from takes it from the reader.)
     * Bytes the window could not have, a file that shrank among them, are
     * read through the mapping as mbx_function_interface reads them: the
     * same result, and the same SIGBUS for the CLI's guard to report. */
    if (w && fn && fn->module_valid && fn->module.size > 0)
        copy = read_window_span(&w->w, lib->file, fn->module, NULL);
    return interface_read_from(rd, lib, i, copy, err, NULL);
}

struct mtlbx_interface *interface_read_from(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i,
                                            const uint8_t *copy, struct mtlbx_error *err, bool *mapped)
{
    /* Not into the table: check decodes every interface on its hash
     * threads, which cannot drop what they filled (issue 22). A copy:
     * the entry decoded outside the table lasts only until this thread
     * asks for another chunk's. */
    const struct mtlbx_function *entry = library_function(lib, i);
    const struct mtlbx_function copied = entry ? *entry : (struct mtlbx_function){ 0 };
    const struct mtlbx_function *fn = entry ? &copied : NULL;
    struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
    if (mapped)
        *mapped = false;
    if (!fn || !m.ptr) {
        if (err) {
            *err = (struct mtlbx_error){ .status = MTLBX_E_NOT_METALLIB, .has_offset = true,
                                         .offset = fn ? fn->entry_offset : 0 };
            snprintf(err->message, sizeof err->message, "function has no module bytes");
        }
        return NULL;
    }
    /* A module that other functions share is read once for all of them,
     * through the mapping (it is kept beyond the caller's copy). A reader
     * made for another library is not asked: its table is not lib's. */
    struct module_read *r = rd && rd->lib == lib ? module_read_shared(rd, i) : NULL;
    if (mapped)
        *mapped = r || !copy;
    bc_note_function_triple(lib, i, copy ? copy : m.ptr, m.len); /* while the bytes are at hand */
    if (!r)
        return mbx_interface_decode(copy ? copy : m.ptr, m.len, fn->module.offset, fn->name.ptr, fn->name.len,
                                      err);
    struct mtlbx_interface *iface = module_read_interface(r, fn->name.ptr, fn->name.len, err);
    module_read_release(r);
    return iface;
}
