/* Interfaces kept by the file handle for the node model. Commands decode,
 * print and free (mtlbx_function_interface); the explorer instead decodes
 * in a background thread and the tree, detail and hex panels show what is
 * there, so the UI thread never decodes. Only functions someone asked for
 * are kept (the selected ones), not every module of a 20,000-function
 * library. One mutex guards the table: lookups are a few per redraw.
 *
 * Also kept here: modules that several functions share (one offset and
 * size). Their bitstream is read once and each function's entry decoded
 * from it (2,000 functions on one 1.5 MB module read it 2,000 times). A
 * shared module stays until each of its functions has been decoded from
 * it once, and at most SHARED_KEEP of them at a time (least recently used
 * goes first), so memory stays bounded; a module used by one function
 * only is never kept. */
#include "config.h"

#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct iface_slot {
    enum mtlbx_iface_state state;
    struct mtlbx_interface *iface;
    char error[300];
};

#define SHARED_KEEP 8

struct shared_module {
    bool in_use;
    uint64_t offset, size;
    struct module_read *r;     /* NULL while a thread reads it */
    size_t left;               /* its functions not yet decoded from it */
    uint64_t last_used;
};

struct iface_cache {
    size_t n_libs;
    size_t *n_functions;
    struct iface_slot ***slots;   /* [library][function], each made on first use */
    uint32_t **sharers;           /* [library][function]: functions with its module's
                                     offset and size (itself included), made on first use */
    struct shared_module shared[SHARED_KEEP];
    uint64_t tick;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t shared_ready = PTHREAD_COND_INITIALIZER;

/* The cache hangs off the file (file_attach.c) under this key. */
static const char iface_cache_key;
static void iface_cache_free(void *state);

/* The cache of f, made on first use; NULL when out of memory. Called with
 * cache_lock held. */
static struct iface_cache *cache_of(mtlbx_file *f)
{
    struct iface_cache *kept = file_attachment(f, &iface_cache_key);
    if (kept)
        return kept;
    struct iface_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n_libs = f->n_libraries;
    c->n_functions = calloc(c->n_libs ? c->n_libs : 1, sizeof *c->n_functions);
    c->slots = calloc(c->n_libs ? c->n_libs : 1, sizeof *c->slots);
    c->sharers = calloc(c->n_libs ? c->n_libs : 1, sizeof *c->sharers);
    if (!c->n_functions || !c->slots || !c->sharers) {
        free(c->n_functions);
        free(c->slots);
        free(c->sharers);
        free(c);
        return NULL;
    }
    return file_attach(f, &iface_cache_key, c, iface_cache_free);
}

/* The slot of (lib, i), made if `make`; NULL when out of range or memory.
 * Called with cache_lock held. */
static struct iface_slot *slot_of(const mtlbx_library *lib, size_t i, bool make)
{
    mtlbx_file *f = lib->file;
    size_t l = lib->index;
    if (i >= mtlbx_function_count(lib))
        return NULL;
    if (!file_attachment(f, &iface_cache_key) && (!make || !cache_of(f)))
        return NULL;
    struct iface_cache *c = file_attachment(f, &iface_cache_key);
    if (l >= c->n_libs)
        return NULL;
    if (!c->slots[l]) {
        if (!make)
            return NULL;
        size_t n = mtlbx_function_count(lib);
        if (!(c->slots[l] = calloc(n, sizeof **c->slots)))
            return NULL;
        c->n_functions[l] = n;
    }
    if (!c->slots[l][i] && make)
        c->slots[l][i] = calloc(1, sizeof ***c->slots);
    return c->slots[l][i];
}

enum mtlbx_iface_state mtlbx_function_interface_cached(const mtlbx_library *lib, size_t i,
                                                       const struct mtlbx_interface **iface, const char **error)
{
    enum mtlbx_iface_state st = MTLBX_IFACE_NOT_DECODED;
    if (iface)
        *iface = NULL;
    if (error)
        *error = NULL;
    if (!lib)
        return st;
    pthread_mutex_lock(&cache_lock);
    struct iface_slot *s = slot_of(lib, i, false);
    if (s) {
        st = s->state;
        if (iface)
            *iface = s->iface;
        if (error && st == MTLBX_IFACE_FAILED)
            *error = s->error;
    }
    pthread_mutex_unlock(&cache_lock);
    return st;
}

enum mtlbx_iface_state mtlbx_function_interface_keep(const mtlbx_library *lib, size_t i)
{
    enum mtlbx_iface_state st = mtlbx_function_interface_cached(lib, i, NULL, NULL);
    if (st != MTLBX_IFACE_NOT_DECODED || !lib || i >= mtlbx_function_count(lib))
        return st;
    /* Decode outside the lock: two threads may both decode the same
     * function; the first to finish is kept. */
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mtlbx_function_interface(lib, i, &err);
    pthread_mutex_lock(&cache_lock);
    struct iface_slot *s = slot_of(lib, i, true);
    if (s && s->state == MTLBX_IFACE_NOT_DECODED) {
        s->iface = iface;
        iface = NULL;
        if (!s->iface || s->iface->module.failed) {
            s->state = MTLBX_IFACE_FAILED;
            snprintf(s->error, sizeof s->error, "%s (at %llu)", s->iface ? s->iface->module.error : err.message,
                     (unsigned long long)(s->iface ? s->iface->module.error_offset
                                          : err.has_offset ? err.offset
                                                           : mtlbx_function_at(lib, i)->module.offset));
        } else {
            s->state = MTLBX_IFACE_OK;
        }
    }
    st = s ? s->state : MTLBX_IFACE_NOT_DECODED;
    pthread_mutex_unlock(&cache_lock);
    mtlbx_interface_free(iface);
    return st;
}

/* ------------------------------------------------------ shared modules -- */

static const mtlbx_library *order_lib;

static int by_module(const void *p, const void *q)
{
    const struct mtlbx_range *a = &order_lib->functions[*(const size_t *)p].module;
    const struct mtlbx_range *b = &order_lib->functions[*(const size_t *)q].module;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return (a->size > b->size) - (a->size < b->size);
}

/* For each function of lib, how many functions have its module's offset
 * and size: sorted once by module, then counted run by run. Called with
 * cache_lock held (which also guards order_lib). NULL when out of memory. */
static uint32_t *count_sharers(const mtlbx_library *lib)
{
    size_t n = lib->n_functions;
    uint32_t *count = calloc(n ? n : 1, sizeof *count);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!count || !order) {
        free(count);
        free(order);
        return NULL;
    }
    for (size_t k = 0; k < n; k++)
        order[k] = k;
    order_lib = lib;
    qsort(order, n, sizeof *order, by_module);
    for (size_t k = 0; k < n;) {
        size_t run = k + 1;
        while (run < n && by_module(&order[k], &order[run]) == 0)
            run++;
        for (size_t j = k; j < run; j++)
            count[order[j]] = (uint32_t)(run - k > UINT32_MAX ? UINT32_MAX : run - k);
        k = run;
    }
    free(order);
    return count;
}

static void drop_shared(struct shared_module *e, struct module_read **release)
{
    *release = e->r;
    *e = (struct shared_module){ 0 };
}

struct module_read *module_read_shared(const mtlbx_library *lib, size_t i)
{
    struct mtlbx_bytes bytes = mtlbx_function_module_bytes(lib, i);
    if (!bytes.ptr)
        return NULL;
    const struct mtlbx_range key = lib->functions[i].module;
    struct module_read *result = NULL, *release = NULL;
    pthread_mutex_lock(&cache_lock);
    struct iface_cache *c = cache_of(lib->file);
    size_t l = lib->index;
    if (!c || l >= c->n_libs)
        goto out;
    if (!c->sharers[l] && !(c->sharers[l] = count_sharers(lib)))
        goto out;
    uint32_t sharers = c->sharers[l][i];
    if (sharers < 2)
        goto out;
    for (;;) {
        struct shared_module *e = NULL;
        for (size_t k = 0; k < SHARED_KEEP && !e; k++)
            if (c->shared[k].in_use && c->shared[k].offset == key.offset && c->shared[k].size == key.size)
                e = &c->shared[k];
        if (!e)
            break;
        if (!e->r) { /* another thread is reading it */
            pthread_cond_wait(&shared_ready, &cache_lock);
            continue;
        }
        module_read_retain(e->r);
        result = e->r;
        e->last_used = ++c->tick;
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
        struct shared_module *e = &c->shared[k];
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
                                     .left = sharers - 1, .last_used = ++c->tick };
    pthread_mutex_unlock(&cache_lock);
    module_read_release(release);
    release = NULL;
    struct module_read *r = module_read_new(bytes.ptr, bytes.len, key.offset, NULL);
    pthread_mutex_lock(&cache_lock);
    /* Nobody evicts or drops a place while it is being read. */
    if (r) {
        place->r = r;
        module_read_retain(r);
        result = r;
    } else {
        *place = (struct shared_module){ 0 };
    }
    pthread_cond_broadcast(&shared_ready);
out:
    pthread_mutex_unlock(&cache_lock);
    module_read_release(release);
    return result;
}

static void iface_cache_free(void *state)
{
    struct iface_cache *c = state;
    for (size_t k = 0; k < SHARED_KEEP; k++)
        module_read_release(c->shared[k].r);
    for (size_t l = 0; l < c->n_libs; l++)
        free(c->sharers[l]);
    free(c->sharers);
    for (size_t l = 0; l < c->n_libs; l++) {
        for (size_t i = 0; c->slots[l] && i < c->n_functions[l]; i++)
            if (c->slots[l][i]) {
                mtlbx_interface_free(c->slots[l][i]->iface);
                free(c->slots[l][i]);
            }
        free(c->slots[l]);
    }
    free(c->slots);
    free(c->n_functions);
    free(c);
}
