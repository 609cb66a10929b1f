/* Diagnostics: every problem the parser finds, with its byte offset.
 * Lists are capped so that a hostile file cannot make us allocate without
 * bound; what is dropped is counted and reported once. This is the bottom
 * of the library: it calls nothing else in src/lib (a library's list is
 * read through library.c, which decodes the lazy parts first). */
#include "config.h"
#include "container/diag_list.h"
#include "container/file_handle.h"
#include "container/grow.h"
#include "container/library.h"
#include "container/report.h"
#include "container/nouns.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A diagnostic that could not be stored is counted as dropped; when the
 * reason is memory, the parse it belongs to is incomplete too. */
static void mark_out_of_memory(struct diag_list *l, uint64_t offset)
{
    if (!l->out_of_memory)
        l->out_of_memory_offset = offset;
    l->out_of_memory = true;
}

void diag_vadd(struct diag_list *l, enum mtlbx_severity sev, uint64_t offset,
               const char *fmt, va_list ap)
{
    if (l->n >= MTLBX_MAX_DIAGS) {
        l->dropped++;
        return;
    }
    /* Items live in fixed blocks that never move, so a pointer handed to
     * a reader stays valid while a background thread adds more. */
    if (l->n == l->cap) {
        size_t nblocks = l->cap / DIAG_BLOCK;
        struct mtlbx_diag **blocks = realloc(l->blocks, (nblocks + 1) * sizeof *blocks);
        if (!blocks) {
            l->dropped++;
            mark_out_of_memory(l, offset);
            return;
        }
        l->blocks = blocks;
        if (!(blocks[nblocks] = malloc(DIAG_BLOCK * sizeof **blocks))) {
            l->dropped++;
            mark_out_of_memory(l, offset);
            return;
        }
        l->cap += DIAG_BLOCK;
    }
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) {
        l->dropped++;
        mark_out_of_memory(l, offset);
        return;
    }
    l->blocks[l->n / DIAG_BLOCK][l->n % DIAG_BLOCK] =
        (struct mtlbx_diag){ .severity = sev, .offset = offset, .message = msg };
    l->n++;
}

bool grow_array_to(void **array, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2)
            return false;
        cap2 *= 2;
    }
    if (cap2 > SIZE_MAX / elem_size)
        return false;
    void *p = realloc(*array, cap2 * elem_size);
    if (!p)
        return false;
    /* Callers rely on fresh elements being zero, as with calloc. */
    memset((char *)p + *cap * elem_size, 0, (cap2 - *cap) * elem_size);
    *array = p;
    *cap = cap2;
    return true;
}

void diag_add(struct diag_list *l, enum mtlbx_severity sev, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(l, sev, offset, fmt, ap);
    va_end(ap);
}

void diag_free(struct diag_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free((char *)diag_item(l, i)->message);
    for (size_t b = 0; b < l->cap / DIAG_BLOCK; b++)
        free(l->blocks[b]);
    free(l->blocks);
    *l = (struct diag_list){ 0 };
}

/* Depth of quiet re-decoding on this thread (see diag_quiet_begin). */
static __thread int quiet_depth;

void diag_quiet_begin(void) { quiet_depth++; }
void diag_quiet_end(void) { quiet_depth--; }
bool diag_quiet(void) { return quiet_depth > 0; }

static void lib_vreport(mtlbx_library *lib, enum mtlbx_severity sev, uint64_t offset, const char *fmt, va_list ap)
{
    if (quiet_depth)
        return;
    pthread_mutex_lock(&lib->lock);
    diag_vadd(&lib->diags, sev, offset, fmt, ap);
    pthread_mutex_unlock(&lib->lock);
}

void lib_error(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lib_vreport(lib, MTLBX_ERROR, offset, fmt, ap);
    va_end(ap);
}

void lib_out_of_memory(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&lib->lock);
    mark_out_of_memory(&lib->diags, offset);
    diag_vadd(&lib->diags, MTLBX_ERROR, offset, fmt, ap);
    pthread_mutex_unlock(&lib->lock);
    va_end(ap);
}

void file_out_of_memory(mtlbx_file *f, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mark_out_of_memory(&f->diags, offset);
    diag_vadd(&f->diags, MTLBX_ERROR, offset, fmt, ap);
    va_end(ap);
}

/* The first damage of a list: recorded even in quiet re-decoding (the
 * list is the same either way), reported only when not quiet. */
static void note_damage(struct diag_list *l, uint64_t offset, const char *fmt, va_list ap)
{
    if (l->damaged)
        return;
    l->damaged = true;
    l->damaged_offset = offset;
    vsnprintf(l->damaged_why, sizeof l->damaged_why, fmt, ap);
}

void lib_damaged(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    pthread_mutex_lock(&lib->lock);
    note_damage(&lib->diags, offset, fmt, again);
    pthread_mutex_unlock(&lib->lock);
    va_end(again);
    lib_vreport(lib, MTLBX_ERROR, offset, fmt, ap);
    va_end(ap);
}

void file_damaged(mtlbx_file *f, uint64_t offset, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    note_damage(&f->diags, offset, fmt, again);
    va_end(again);
    diag_vadd(&f->diags, MTLBX_ERROR, offset, fmt, ap);
    va_end(ap);
}

bool mbx_file_damaged(const mtlbx_file *f, uint64_t *offset, const char **why)
{
    const struct diag_list *first = f->diags.damaged ? &f->diags : NULL;
    for (size_t i = 0; i < f->n_libraries && !first; i++) {
        mtlbx_library *lib = f->libraries[i];
        pthread_mutex_lock(&lib->lock);
        if (lib->diags.damaged)
            first = &lib->diags;
        pthread_mutex_unlock(&lib->lock);
    }
    if (first && offset)
        *offset = first->damaged_offset;
    if (first && why)
        *why = first->damaged_why;
    return first != NULL;
}

bool mbx_file_out_of_memory(const mtlbx_file *f, uint64_t *offset)
{
    bool oom = f->diags.out_of_memory;
    uint64_t at = f->diags.out_of_memory_offset;
    for (size_t i = 0; i < f->n_libraries && !oom; i++) {
        mtlbx_library *lib = f->libraries[i];
        pthread_mutex_lock(&lib->lock);
        oom = lib->diags.out_of_memory;
        at = lib->diags.out_of_memory_offset;
        pthread_mutex_unlock(&lib->lock);
    }
    if (oom && offset)
        *offset = at;
    return oom;
}

void lib_warning(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lib_vreport(lib, MTLBX_WARNING, offset, fmt, ap);
    va_end(ap);
}

/* The "too many" notice is synthesised on read so that it is always last. */
const struct mtlbx_diag *diag_get(const struct diag_list *l, size_t i, struct mtlbx_diag *scratch)
{
    if (i < l->n)
        return diag_item(l, i);
    if (i == l->n && l->dropped) {
        static __thread char msg[96];
        snprintf(msg, sizeof msg, "%zu further %s not recorded", l->dropped,
                 mbx_noun(l->dropped, "problem was", "problems were"));
        *scratch = (struct mtlbx_diag){ .severity = MTLBX_ERROR,
                                        .offset = l->n ? diag_item(l, l->n - 1)->offset : 0,
                                        .message = msg };
        return scratch;
    }
    return NULL;
}

size_t mbx_file_diag_count(const mtlbx_file *f)
{
    return f->diags.n + (f->diags.dropped ? 1 : 0);
}

const struct mtlbx_diag *mbx_file_diag(const mtlbx_file *f, size_t i)
{
    static __thread struct mtlbx_diag scratch;
    return diag_get(&f->diags, i, &scratch);
}

int mbx_diag_ptr_cmp(const void *pa, const void *pb)
{
    const struct mtlbx_diag *a = *(const struct mtlbx_diag *const *)pa;
    const struct mtlbx_diag *b = *(const struct mtlbx_diag *const *)pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->severity != b->severity)
        return a->severity > b->severity ? -1 : 1;
    return strcmp(a->message, b->message);
}
