/* Findings (mtlbx_diag_count, mtlbx_diag): the handle's one list, in the
 * order found. The lists below it (the file's, each library's) only grow,
 * and their items never move: each sync appends what they gained since
 * the last one, pointing at their own messages. A list past its cap
 * counts what it dropped; that count is the one item that changes, so it
 * is kept apart, at the end, written again when it grows. */
#include "config.h"

#include "container/diag_list.h"
#include "container/file_handle.h"
#include "container/library.h"
#include "api/handle.h"
#include "container/nouns.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool push(mtlbx *h, int severity, int64_t offset, const char *message)
{
    if (!message)
        return false;
    if (h->n_diags == h->cap_diags) {
        size_t cap = h->cap_diags ? 2 * h->cap_diags : 64;
        struct api_diag *d = realloc(h->diags, cap * sizeof *d);
        if (!d)
            return false;
        h->diags = d;
        h->cap_diags = cap;
    }
    h->diags[h->n_diags++] = (struct api_diag){ message, severity, offset };
    return true;
}

static int severity_of(enum mtlbx_severity s)
{
    return s == MTLBX_ERROR ? MTLBX_SEVERITY_ERROR : MTLBX_SEVERITY_WARNING;
}

/* Appends list items [*seen, n) and moves *seen on. */
static bool take(mtlbx *h, const struct diag_list *l, size_t n, size_t *seen)
{
    for (; *seen < n; (*seen)++) {
        const struct mtlbx_diag *d = diag_item(l, *seen);
        if (!push(h, severity_of(d->severity), (int64_t)d->offset, d->message))
            return false;
    }
    return true;
}

bool api_diag_sync(mtlbx *h, bool whole)
{
    if (!h->file)
        return true;
    mtlbx_file *f = h->file;
    if (!take(h, &f->diags, f->diags.n, &h->file_diags_seen))
        return false;
    for (size_t l = 0; l < h->n_libraries; l++) {
        mtlbx_library *lib = h->libraries[l].lib;
        /* Decodes the lazy parts first (metadata, lists): their findings
         * belong here. */
        if (whole)
            (void)mbx_library_diag_count(lib);
        pthread_mutex_lock(&lib->lock);
        bool ok = take(h, &lib->diags, lib->diags.n, &h->lib_diags_seen[l]);
        pthread_mutex_unlock(&lib->lock);
        if (!ok)
            return false;
    }
    return true;
}

bool api_diag_add(mtlbx *h, int severity, int64_t offset, const char *message)
{
    return push(h, severity, offset, pool_dup(&h->pool, message, strlen(message)));
}

/* The capped lists that dropped findings: the file's, then each
 * library's. Their notices follow the handle's list, in that order. The
 * k-th such list, or NULL; with k = SIZE_MAX, *count gets how many. */
static const struct diag_list *dropped_list(const mtlbx *h, size_t k, size_t *count)
{
    size_t n = 0;
    if (h->file->diags.dropped && n++ == k)
        return &h->file->diags;
    for (size_t l = 0; l < h->n_libraries; l++)
        if (h->libraries[l].lib->diags.dropped && n++ == k)
            return &h->libraries[l].lib->diags;
    if (count)
        *count = n;
    return NULL;
}

int64_t mtlbx_diag_count(mtlbx *h)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return -1;
    }
    if (!api_diag_sync(h, true))
        api_set_error(h, ENOMEM, -1, "out of memory: the findings listed are not all");
    size_t notices = 0;
    dropped_list(h, SIZE_MAX, &notices);
    return (int64_t)(h->n_diags + notices);
}

const char *mtlbx_diag(mtlbx *h, int64_t i, int *severity, int64_t *offset)
{
    if (!h || !h->file || i < 0)
        return NULL;
    if ((uint64_t)i < h->n_diags) {
        const struct api_diag *d = &h->diags[i];
        if (severity)
            *severity = d->severity;
        if (offset)
            *offset = d->offset;
        return d->message;
    }
    const struct diag_list *l = dropped_list(h, (size_t)i - h->n_diags, NULL);
    if (!l)
        return NULL;
    if (severity)
        *severity = MTLBX_SEVERITY_ERROR;
    if (offset)
        *offset = l->n ? (int64_t)diag_item(l, l->n - 1)->offset : 0;
    return pool_internf(&h->pool, "%zu further %s not recorded", l->dropped,
                        mbx_noun(l->dropped, "problem was", "problems were"));
}
