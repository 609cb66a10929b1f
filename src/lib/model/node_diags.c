/* Which diagnostics fall inside a node's bytes: the tree marks a row that
 * holds a problem, and the detail panel lists them. Diagnostic offsets are
 * sorted once per library (and once for the fat container), so "any
 * problem in this span?" per visible row is two binary searches. */
#include "config.h"
#include "node.h"
#include "container/file_handle.h"
#include "container/library.h"
#include "model/model.h"
#include "container/lower_bound.h"

#include <stdlib.h>

struct diag_index {
    size_t n_seen;             /* diagnostic count the index was built from */
    size_t n;
    uint64_t *offs;            /* sorted */
    uint32_t *which;           /* index in the handle's list */
    uint32_t *errors;          /* errors[k]: errors among the first k */
};

struct node_diags {
    struct diag_index file_diags;
    size_t n_libs;
    struct diag_index lib_diags[];
};

static void diag_index_free(struct diag_index *d)
{
    free(d->offs);
    free(d->which);
    free(d->errors);
    *d = (struct diag_index){ 0 };
}

struct node_diags *node_diags_new(const mtlbx_file *f)
{
    struct node_diags *nd = calloc(1, sizeof *nd + f->n_libraries * sizeof nd->lib_diags[0]);
    if (nd)
        nd->n_libs = f->n_libraries;
    return nd;
}

void node_diags_free(struct node_diags *nd)
{
    if (!nd)
        return;
    diag_index_free(&nd->file_diags);
    for (size_t i = 0; i < nd->n_libs; i++)
        diag_index_free(&nd->lib_diags[i]);
    free(nd);
}

static size_t diag_count_of(const mtlbx_file *f, const mtlbx_library *lib)
{
    return lib ? mbx_library_diag_count(lib) : mbx_file_diag_count(f);
}

static const struct mtlbx_diag *diag_of(const mtlbx_file *f, const mtlbx_library *lib, size_t i)
{
    return lib ? mbx_library_diag(lib, i) : mbx_file_diag(f, i);
}

static struct diag_index *diag_index_get(mtlbx_model *model, const mtlbx_library *lib)
{
    const mtlbx_file *f = model->f;
    struct node_diags *nd = model->diags;
    struct diag_index *d;
    if (!lib)
        d = &nd->file_diags;
    else if (lib->index < nd->n_libs)
        d = &nd->lib_diags[lib->index];
    else
        return NULL;
    /* Background hashing may add diagnostics at any time; the count (a
     * locked read) tells when to rebuild. Lists are capped, so a rebuild
     * sorts at most MTLBX_MAX_DIAGS + 1 items. */
    size_t n = diag_count_of(f, lib);
    if (n == d->n_seen && (n == 0 || d->offs))
        return d;
    diag_index_free(d);
    struct structure_by_off *keys = n ? malloc(n * sizeof *keys) : NULL;
    d->offs = n ? malloc(n * sizeof *d->offs) : NULL;
    d->which = n ? malloc(n * sizeof *d->which) : NULL;
    d->errors = malloc((n + 1) * sizeof *d->errors);
    if (n && (!keys || !d->offs || !d->which || !d->errors)) {
        free(keys);
        diag_index_free(d);
        return NULL;
    }
    if (!d->errors) {
        diag_index_free(d);
        return NULL;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_diag *dg = diag_of(f, lib, i);
        if (dg)
            keys[m++] = (struct structure_by_off){ dg->offset, (uint32_t)i };
    }
    if (m > 1)
        qsort(keys, m, sizeof *keys, structure_by_off_cmp);
    d->errors[0] = 0;
    for (size_t k = 0; k < m; k++) {
        const struct mtlbx_diag *dg = diag_of(f, lib, keys[k].idx);
        d->offs[k] = keys[k].off;
        d->which[k] = keys[k].idx;
        d->errors[k + 1] = d->errors[k] + (dg && dg->severity == MTLBX_ERROR);
    }
    free(keys);
    d->n = m;
    d->n_seen = n;
    return d;
}

/* First position whose offset is >= off. */
static size_t lower_bound(const uint64_t *v, size_t n, uint64_t off)
{
    return mtlbx_lower_bound_u64(v, n, off);
}

size_t node_diag_range(mtlbx_model *m, const mtlbx_library *lib, uint64_t off,
                       uint64_t size, size_t *first, size_t *count)
{
    *first = *count = 0;
    struct diag_index *d = diag_index_get(m, lib);
    if (!d || !d->n || size == 0)
        return 0;
    uint64_t end = size > UINT64_MAX - off ? UINT64_MAX : off + size;
    size_t lo = lower_bound(d->offs, d->n, off);
    size_t hi = lower_bound(d->offs, d->n, end);
    *first = lo;
    *count = hi - lo;
    return d->errors[hi] - d->errors[lo];
}

const struct mtlbx_diag *node_diag_sorted(mtlbx_model *m, const mtlbx_library *lib, size_t k)
{
    struct diag_index *d = diag_index_get(m, lib);
    if (!d || k >= d->n)
        return NULL;
    return diag_of(m->f, lib, d->which[k]);
}
