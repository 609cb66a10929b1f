/* Per-file state of a layer above the container. The node model's caches
 * no longer hang here (they belong to mtlbx_model, model/model.c) nor does
 * the byte layout (the caller owns it, checks/layout.c). What is left is
 * the bitcode layer's shared module reads (bitcode/module_share.c): they
 * serve mtlbx_function_interface(lib, i), which every command calls with
 * a library and no object of the bitcode layer, so they must live as long
 * as the file. They hang here so that they go away with the file, while
 * the container neither knows their type nor calls their code (only the
 * destructor the owner handed over). This is what keeps the
 * container at the bottom of src/lib: nothing here calls a higher layer.
 *
 * Lookups are lock-free (the explorer's worker threads ask on every node
 * and interface); attaching takes the file's attach lock, so two owners
 * attaching at once from two threads each get a slot of their own. */
#include "config.h"
#include "internal.h"

#include <stdlib.h>

void file_attach_init(mtlbx_file *f)
{
    pthread_mutex_init(&f->attach_lock, NULL);
}

void *file_attachment(const mtlbx_file *f, const void *key)
{
    for (size_t i = 0; i < FILE_ATTACHMENTS; i++) {
        const void *k = atomic_load_explicit(&f->attached[i].key, memory_order_acquire);
        if (!k)
            return NULL; /* slots fill in order: the rest are empty */
        if (k == key)
            return f->attached[i].state;
    }
    return NULL;
}

void *file_attach(mtlbx_file *f, const void *key, void *state, void (*free_state)(void *))
{
    pthread_mutex_lock(&f->attach_lock);
    void *kept = NULL;
    size_t i = 0;
    for (; i < FILE_ATTACHMENTS; i++) {
        const void *k = atomic_load_explicit(&f->attached[i].key, memory_order_relaxed);
        if (!k)
            break;
        if (k == key) {
            kept = f->attached[i].state; /* another thread was first */
            break;
        }
    }
    if (!kept && i < FILE_ATTACHMENTS) {
        f->attached[i].state = state;
        f->attached[i].free_state = free_state;
        atomic_store_explicit(&f->attached[i].key, key, memory_order_release);
        kept = state;
    }
    pthread_mutex_unlock(&f->attach_lock);
    if (kept != state && free_state)
        free_state(state);
    return kept;
}

void file_detach_all(mtlbx_file *f)
{
    /* Latest first: a later owner may still refer to an earlier one's state. */
    for (size_t i = FILE_ATTACHMENTS; i-- > 0;) {
        struct file_attachment *a = &f->attached[i];
        if (!atomic_load_explicit(&a->key, memory_order_relaxed))
            continue;
        if (a->free_state)
            a->free_state(a->state);
        a->state = NULL;
        atomic_store_explicit(&a->key, NULL, memory_order_relaxed);
    }
    pthread_mutex_destroy(&f->attach_lock);
}
