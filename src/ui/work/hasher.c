/* The hash worker: one thread walks every function in order, taking a
 * priority request (the selected function) first when there is one. */
#include "config.h"

#include "ui/work/background.h"
#include "ui/work/hasher.h"
#include "program/span_release.h"
#include "bitcode/interface_reader.h"
#include "checks/hash.h"
#include "checks/validate.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The computed digest of a function whose HASH did not match, so the
 * detail panel can show expected versus actual without hashing itself. */
struct mismatch {
    mtlbx_library *lib;
    size_t index;
    uint8_t actual[32];
};

struct hasher {
    pthread_t thread;
    mtlbx_library **libs;
    size_t n_libs, total;
    atomic_size_t done;
    atomic_bool stop;
    pthread_mutex_t lock;        /* guards the priority request */
    mtlbx_library *want_lib;
    size_t want_index;
    struct mismatch *mismatches;  /* guarded by lock */
    size_t n_mismatches, cap_mismatches;
};

/* Checks one function (unless already checked) and keeps the digest of a
 * mismatch. */
static void check(struct hasher *h, mtlbx_library *lib, size_t index)
{
    enum mtlbx_hash_state s = mbx_function_hash_state(lib, index);
    if (s == MTLBX_HASH_MATCHES || s == MTLBX_HASH_MISMATCH || s == MTLBX_HASH_UNAVAILABLE)
        return;
    uint8_t actual[32];
    if (mbx_function_verify(lib, index, actual) != MTLBX_HASH_MISMATCH)
        return;
    pthread_mutex_lock(&h->lock);
    if (h->n_mismatches == h->cap_mismatches) {
        size_t cap = h->cap_mismatches ? h->cap_mismatches * 2 : 16;
        struct mismatch *v = realloc(h->mismatches, cap * sizeof *v);
        if (v) {
            h->mismatches = v;
            h->cap_mismatches = cap;
        }
    }
    if (h->n_mismatches < h->cap_mismatches) {
        struct mismatch *m = &h->mismatches[h->n_mismatches++];
        m->lib = lib;
        m->index = index;
        memcpy(m->actual, actual, 32);
    }
    pthread_mutex_unlock(&h->lock);
}

bool hasher_actual_digest(struct hasher *h, const mtlbx_library *lib, size_t index, uint8_t out[32])
{
    bool found = false;
    if (!h)
        return false;
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->n_mismatches && !found; i++)
        if (h->mismatches[i].lib == lib && h->mismatches[i].index == index) {
            memcpy(out, h->mismatches[i].actual, 32);
            found = true;
        }
    pthread_mutex_unlock(&h->lock);
    return found;
}

size_t hasher_mismatch_count(struct hasher *h)
{
    if (!h)
        return 0;
    pthread_mutex_lock(&h->lock);
    size_t n = h->n_mismatches;
    pthread_mutex_unlock(&h->lock);
    return n;
}

static void take_priority(struct hasher *h)
{
    mtlbx_library *lib;
    size_t index;
    pthread_mutex_lock(&h->lock);
    lib = h->want_lib;
    index = h->want_index;
    h->want_lib = NULL;
    pthread_mutex_unlock(&h->lock);
    if (lib)
        check(h, lib, index);
}

static void *worker(void *arg)
{
    struct hasher *h = arg;
    background_thread_nice(BACKGROUND_NICE_HASHER);
    for (size_t l = 0; l < h->n_libs; l++) {
        size_t n = mbx_library_function_count(h->libs[l]);
        /* One reader per library for the sweep: a module that several
         * functions share is decoded once, not once per function. */
        mtlbx_interface_reader *rd = mbx_interface_reader_new(h->libs[l]);
        /* The modules checked are let go behind the sweep (see ifacer.c). */
        struct span_release swept;
        span_release_init(&swept, mbx_library_file(h->libs[l]));
        for (size_t i = 0; i < n; i++) {
            if (atomic_load(&h->stop)) {
                mbx_interface_reader_free(rd);
                return NULL;
            }
            take_priority(h);
            check(h, h->libs[l], i);
            /* A module whose interface does not decode is a finding, as
             * in `mtlbx check`; once per function, here and not in the
             * priority path, so that it is never reported twice. */
            mbx_function_check_interface(rd, h->libs[l], i);
            const struct mtlbx_function *fn = mbx_function_at(h->libs[l], i);
            if (fn->module_valid)
                span_release_add(&swept, fn->module);
            atomic_fetch_add(&h->done, 1);
        }
        span_release_flush(&swept);
        mbx_interface_reader_free(rd);
    }
    return NULL;
}

struct hasher *hasher_start(mtlbx_library *const *libs, size_t n_libs)
{
    struct hasher *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->libs = malloc((n_libs ? n_libs : 1) * sizeof *h->libs);
    if (!h->libs) {
        free(h);
        return NULL;
    }
    memcpy(h->libs, libs, n_libs * sizeof *libs);
    h->n_libs = n_libs;
    for (size_t l = 0; l < n_libs; l++)
        h->total += mbx_library_function_count(libs[l]);
    atomic_init(&h->done, 0);
    atomic_init(&h->stop, false);
    pthread_mutex_init(&h->lock, NULL);
    if (pthread_create(&h->thread, NULL, worker, h) != 0) {
        pthread_mutex_destroy(&h->lock);
        free(h->libs);
        free(h);
        return NULL;
    }
    return h;
}

void hasher_prioritise(struct hasher *h, mtlbx_library *lib, size_t index)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    h->want_lib = lib;
    h->want_index = index;
    pthread_mutex_unlock(&h->lock);
}

void hasher_progress(const struct hasher *h, size_t *done, size_t *total)
{
    if (!h) {
        *done = *total = 0;
        return;
    }
    *done = atomic_load(&((struct hasher *)h)->done);
    *total = h->total;
}

void hasher_stop(struct hasher *h)
{
    if (!h)
        return;
    atomic_store(&h->stop, true);
    pthread_join(h->thread, NULL);
    pthread_mutex_destroy(&h->lock);
    free(h->mismatches);
    free(h->libs);
    free(h);
}
