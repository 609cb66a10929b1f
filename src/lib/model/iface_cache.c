/* Interfaces kept by the model (model.c) for the node tree. Commands decode,
 * print and free (mbx_interface_read); the explorer instead decodes
 * in a background thread and the tree, detail and hex panels show what is
 * there, so the UI thread never decodes. Only functions someone asked for
 * are kept (the selected ones), not every module of a 20,000-function
 * library. One mutex per model guards its table: lookups are a few per
 * redraw.

 * Decodes go through an interface reader per library, made with the
 * cache and freed with it (bitcode/interface_reader.c): a module that
 * several functions share is read once for all the functions selected,
 * and let go with the model, not the file. A reader is thread-safe, so
 * the decodes outside the table's lock share it. */
#include "config.h"

#include "node.h"
#include "container/file_handle.h"
#include "container/library.h"
#include "bitcode/interface_reader.h"
#include "model/model.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct iface_slot {
    enum mtlbx_iface_state state;
    struct mtlbx_interface *iface;
    char error[300];
};

struct iface_cache {
    pthread_mutex_t lock;
    size_t n_libs;
    size_t *n_functions;
    struct iface_slot ***slots;   /* [library][function], each made on first use */
    mtlbx_interface_reader **readers; /* [library]; NULL (out of memory): decoded alone */
};

struct iface_cache *iface_cache_new(const mtlbx_file *f)
{
    struct iface_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n_libs = f->n_libraries;
    c->n_functions = calloc(c->n_libs ? c->n_libs : 1, sizeof *c->n_functions);
    c->slots = calloc(c->n_libs ? c->n_libs : 1, sizeof *c->slots);
    c->readers = calloc(c->n_libs ? c->n_libs : 1, sizeof *c->readers);
    if (!c->n_functions || !c->slots || !c->readers || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->n_functions);
        free(c->slots);
        free(c->readers);
        free(c);
        return NULL;
    }
    for (size_t l = 0; l < c->n_libs; l++)
        c->readers[l] = mbx_interface_reader_new(f->libraries[l]);
    return c;
}

/* The slot of (lib, i), made if `make`; NULL when out of range or memory.
 * Called with c->lock held. */
static struct iface_slot *slot_of(struct iface_cache *c, const mtlbx_library *lib, size_t i, bool make)
{
    size_t l = lib->index;
    if (i >= mbx_library_function_count(lib))
        return NULL;
    if (l >= c->n_libs)
        return NULL;
    if (!c->slots[l]) {
        if (!make)
            return NULL;
        size_t n = mbx_library_function_count(lib);
        if (!(c->slots[l] = calloc(n, sizeof **c->slots)))
            return NULL;
        c->n_functions[l] = n;
    }
    if (!c->slots[l][i] && make)
        c->slots[l][i] = calloc(1, sizeof ***c->slots);
    return c->slots[l][i];
}

enum mtlbx_iface_state mbx_function_interface_cached(mtlbx_model *m, const mtlbx_library *lib, size_t i,
                                                       const struct mtlbx_interface **iface, const char **error)
{
    enum mtlbx_iface_state st = MTLBX_IFACE_NOT_DECODED;
    if (iface)
        *iface = NULL;
    if (error)
        *error = NULL;
    if (!m || !lib || lib->file != m->f)
        return st;
    struct iface_cache *c = m->ifaces;
    pthread_mutex_lock(&c->lock);
    struct iface_slot *s = slot_of(c, lib, i, false);
    if (s) {
        st = s->state;
        if (iface)
            *iface = s->iface;
        if (error && st == MTLBX_IFACE_FAILED)
            *error = s->error;
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

enum mtlbx_iface_state mbx_function_interface_keep(mtlbx_model *m, const mtlbx_library *lib, size_t i)
{
    enum mtlbx_iface_state st = mbx_function_interface_cached(m, lib, i, NULL, NULL);
    if (st != MTLBX_IFACE_NOT_DECODED || !m || !lib || lib->file != m->f || i >= mbx_library_function_count(lib))
        return st;
    struct iface_cache *c = m->ifaces;
    /* Decode outside the lock: two threads may both decode the same
     * function; the first to finish is kept. */
    struct mtlbx_error err = { 0 };
    mtlbx_interface_reader *rd = lib->index < c->n_libs ? c->readers[lib->index] : NULL;
    struct mtlbx_interface *iface = mbx_interface_read(rd, lib, i, NULL, &err);
    pthread_mutex_lock(&c->lock);
    struct iface_slot *s = slot_of(c, lib, i, true);
    if (s && s->state == MTLBX_IFACE_NOT_DECODED) {
        s->iface = iface;
        iface = NULL;
        if (!s->iface || s->iface->module.failed) {
            s->state = MTLBX_IFACE_FAILED;
            snprintf(s->error, sizeof s->error, "%s (at %llu)", s->iface ? s->iface->module.error : err.message,
                     (unsigned long long)(s->iface ? s->iface->module.error_offset
                                          : err.has_offset ? err.offset
                                                           : mbx_function_at(lib, i)->module.offset));
        } else {
            s->state = MTLBX_IFACE_OK;
        }
    }
    st = s ? s->state : MTLBX_IFACE_NOT_DECODED;
    pthread_mutex_unlock(&c->lock);
    mbx_interface_free(iface);
    return st;
}

void iface_cache_free(struct iface_cache *c)
{
    if (!c)
        return;
    for (size_t l = 0; l < c->n_libs; l++) {
        for (size_t i = 0; c->slots[l] && i < c->n_functions[l]; i++)
            if (c->slots[l][i]) {
                mbx_interface_free(c->slots[l][i]->iface);
                free(c->slots[l][i]);
            }
        free(c->slots[l]);
        mbx_interface_reader_free(c->readers[l]);
    }
    free(c->slots);
    free(c->readers);
    free(c->n_functions);
    pthread_mutex_destroy(&c->lock);
    free(c);
}
