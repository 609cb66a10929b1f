/* The interface worker (see ifacer.h). Search texts are published with an
 * atomic store per function and never change afterwards, so the UI reads
 * them without a lock. */
#include "config.h"

#include "ui/work/background.h"
#include "program/text_buf.h"
#include "ui/work/ifacer.h"
#include "program/span_release.h"
#include "bitcode/interface_reader.h"
#include "ui/text/textfmt.h"
#include "container/functions.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct ifacer {
    pthread_t thread;
    mtlbx_library **libs;
    size_t n_libs, total;
    _Atomic(const char *) **texts; /* [library][function], in `chunks` */
    struct text_chunk *chunks;   /* newest first; only the worker appends */
    _Atomic int32_t **n_args;    /* [library][function]: 0 not swept yet, -1 no
                                    entry, else 1 + the number of arguments */
    size_t *counts;
    atomic_size_t done, kept;
    atomic_bool stop;
    pthread_mutex_t lock;        /* guards the priority request */
    pthread_mutex_t keeping;     /* held while a request is served (ifacer_forget) */
    mtlbx_model *want_model;
    mtlbx_library *want_lib;
    size_t want_index;
};

/* The search texts, back to back in chunks that only grow, each after
 * its length (4 bytes): `/` reads every one of them in function order,
 * and as 200,000 heap strings of their own each cost a cache and TLB miss
 * and a strlen (most of a search's time on L200k, not the bytes). */
#define TEXT_CHUNK_BYTES ((size_t)1 << 20)

struct text_chunk {
    struct text_chunk *next;
    size_t used, cap;
    char data[];
};

/* A copy of s[0..len) in the chunks, NUL-terminated, its length before
 * it; NULL when out of memory. */
static const char *keep_text(struct ifacer *w, const char *s, size_t len)
{
    if (len > UINT32_MAX - 8)
        return NULL;
    size_t need = sizeof(uint32_t) + len + 1;
    struct text_chunk *c = w->chunks;
    if (!c || c->cap - c->used < need) {
        size_t cap = need > TEXT_CHUNK_BYTES ? need : TEXT_CHUNK_BYTES;
        if (!(c = malloc(sizeof *c + cap)))
            return NULL;
        *c = (struct text_chunk){ .next = w->chunks, .cap = cap };
        w->chunks = c;
    }
    char *p = c->data + c->used;
    uint32_t n = (uint32_t)len;
    memcpy(p, &n, sizeof n);
    memcpy(p + sizeof n, s, len);
    p[sizeof n + len] = '\0';
    c->used += need;
    return p + sizeof n;
}

static void append(struct text_buf *t, struct mtlbx_bytes b)
{
    if (!b.len)
        return;
    char *esc = textfmt_escape_dup(b.ptr, b.len);
    if (esc) {
        text_buf_str(t, esc);
        text_buf_add(t, "\n", 1);
    }
    free(esc);
}

/* "A\nhalf\nparams\nmlx::steel::GEMMParams\n..." for one interface
 * (malloc'd, its length in *len; NULL when it is empty). */
static char *search_text(const struct mtlbx_interface *iface, size_t *len_out)
{
    struct text_buf t = { 0 };
    const struct mtlbx_air_argument *lists[2] = { iface->inputs, iface->outputs };
    size_t counts[2] = { iface->n_inputs, iface->n_outputs };
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < counts[l]; i++) {
            if (lists[l][i].has_name)
                append(&t, lists[l][i].name);
            if (lists[l][i].has_type)
                append(&t, lists[l][i].type);
        }
    return text_buf_take(&t, len_out, NULL);
}

static void sweep_one(struct ifacer *w, mtlbx_interface_reader *rd, size_t l, size_t i)
{
    if (atomic_load(&w->texts[l][i]))
        return;
    struct mtlbx_interface *iface = mbx_interface_read(rd, w->libs[l], i, NULL, NULL);
    size_t len = 0;
    char *built = iface && !iface->module.failed ? search_text(iface, &len) : NULL;
    /* Out of memory, the function is searched by its name alone. */
    const char *text = keep_text(w, built ? built : "", built ? len : 0);
    free(built);
    if (!text)
        text = keep_text(w, "", 0);
    bool entry = iface && !iface->module.failed && iface->stage;
    atomic_store(&w->n_args[l][i], entry ? (int32_t)(iface->n_inputs < INT32_MAX - 1 ? iface->n_inputs + 1 : INT32_MAX) : -1);
    mbx_interface_free(iface);
    atomic_store(&w->texts[l][i], text);
}

static void take_priority(struct ifacer *w)
{
    pthread_mutex_lock(&w->keeping);
    pthread_mutex_lock(&w->lock);
    mtlbx_model *model = w->want_model;
    mtlbx_library *lib = w->want_lib;
    size_t index = w->want_index;
    w->want_lib = NULL;
    w->want_model = NULL;
    pthread_mutex_unlock(&w->lock);
    if (lib && mbx_function_interface_cached(model, lib, index, NULL, NULL) == MTLBX_IFACE_NOT_DECODED) {
        mbx_function_interface_keep(model, lib, index);
        atomic_fetch_add(&w->kept, 1);
    }
    pthread_mutex_unlock(&w->keeping);
}

static void *worker(void *arg)
{
    struct ifacer *w = arg;
    /* The sweep is for search and comes last (background.h). */
    background_thread_nice(BACKGROUND_NICE_IFACER);
    for (size_t l = 0; l < w->n_libs; l++) {
        /* One reader per library for the sweep: a module that several
         * functions share is decoded once, not once per function. */
        mtlbx_interface_reader *rd = mbx_interface_reader_new(w->libs[l]);
        /* The modules swept are let go behind the sweep: it reads them
         * through the mapping, which kept 223 MB of L20k's 329 MB. */
        struct span_release swept;
        span_release_init(&swept, mbx_library_file(w->libs[l]));
        for (size_t i = 0; i < w->counts[l]; i++) {
            if (atomic_load(&w->stop)) {
                mbx_interface_reader_free(rd);
                return NULL;
            }
            take_priority(w);
            sweep_one(w, rd, l, i);
            const struct mtlbx_function *fn = mbx_function_at(w->libs[l], i);
            if (fn->module_valid)
                span_release_add(&swept, fn->module);
            atomic_fetch_add(&w->done, 1);
        }
        span_release_flush(&swept);
        mbx_interface_reader_free(rd);
    }
    /* After the sweep, keep serving the selection until stopped. */
    while (!atomic_load(&w->stop)) {
        take_priority(w);
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return NULL;
}

struct ifacer *ifacer_start(mtlbx_library *const *libs, size_t n_libs)
{
    struct ifacer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->libs = calloc(n_libs ? n_libs : 1, sizeof *w->libs);
    w->texts = calloc(n_libs ? n_libs : 1, sizeof *w->texts);
    w->counts = calloc(n_libs ? n_libs : 1, sizeof *w->counts);
    w->n_args = calloc(n_libs ? n_libs : 1, sizeof *w->n_args);
    bool ok = w->libs && w->texts && w->counts && w->n_args;
    for (size_t l = 0; ok && l < n_libs; l++) {
        w->libs[l] = libs[l];
        w->counts[l] = mbx_library_function_count(libs[l]);
        w->total += w->counts[l];
        ok = (w->texts[l] = calloc(w->counts[l] ? w->counts[l] : 1, sizeof **w->texts)) != NULL &&
             (w->n_args[l] = calloc(w->counts[l] ? w->counts[l] : 1, sizeof **w->n_args)) != NULL;
    }
    w->n_libs = n_libs;
    atomic_init(&w->done, 0);
    atomic_init(&w->kept, 0);
    atomic_init(&w->stop, false);
    pthread_mutex_init(&w->lock, NULL);
    pthread_mutex_init(&w->keeping, NULL);
    if (!ok || pthread_create(&w->thread, NULL, worker, w) != 0) {
        atomic_store(&w->stop, true);
        w->n_libs = ok ? n_libs : 0;
        w->thread = pthread_self();
        ifacer_stop(w);
        return NULL;
    }
    return w;
}

void ifacer_prioritise(struct ifacer *w, mtlbx_model *m, mtlbx_library *lib, size_t index)
{
    if (!w || !m)
        return;
    pthread_mutex_lock(&w->lock);
    w->want_model = m;
    w->want_lib = lib;
    w->want_index = index;
    pthread_mutex_unlock(&w->lock);
}

size_t ifacer_kept_count(const struct ifacer *w)
{
    return w ? atomic_load(&((struct ifacer *)w)->kept) : 0;
}

void ifacer_progress(const struct ifacer *w, size_t *done, size_t *total)
{
    *done = w ? atomic_load(&((struct ifacer *)w)->done) : 0;
    *total = w ? w->total : 0;
}

const char *ifacer_search_text(const struct ifacer *w, const mtlbx_library *lib, size_t index, size_t *len)
{
    *len = 0;
    for (size_t l = 0; w && l < w->n_libs; l++)
        if (w->libs[l] == lib) {
            const char *text = index < w->counts[l] ? atomic_load(&w->texts[l][index]) : NULL;
            uint32_t n = 0;
            if (text)
                memcpy(&n, text - sizeof n, sizeof n);
            *len = n;
            return text;
        }
    return NULL;
}

long ifacer_arg_count(const struct ifacer *w, const mtlbx_library *lib, size_t index)
{
    for (size_t l = 0; w && l < w->n_libs; l++)
        if (w->libs[l] == lib) {
            int32_t v = index < w->counts[l] ? atomic_load(&w->n_args[l][index]) : 0;
            return v > 0 ? (long)v - 1 : v == 0 ? -1 : -2;
        }
    return -1;
}

void ifacer_forget(struct ifacer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->keeping);
    pthread_mutex_lock(&w->lock);
    w->want_model = NULL;
    w->want_lib = NULL;
    pthread_mutex_unlock(&w->lock);
    pthread_mutex_unlock(&w->keeping);
}

void ifacer_stop(struct ifacer *w)
{
    if (!w)
        return;
    atomic_store(&w->stop, true);
    if (!pthread_equal(w->thread, pthread_self()))
        pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_mutex_destroy(&w->keeping);
    for (size_t l = 0; w->texts && l < w->n_libs; l++)
        free(w->texts[l]);
    while (w->chunks) {
        struct text_chunk *next = w->chunks->next;
        free(w->chunks);
        w->chunks = next;
    }
    for (size_t l = 0; w->n_args && l < w->n_libs; l++)
        free(w->n_args[l]);
    free(w->n_args);
    free(w->texts);
    free(w->counts);
    free(w->libs);
    free(w);
}
