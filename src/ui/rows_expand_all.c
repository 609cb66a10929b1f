/* Expanding everything below a row in one pass (`*`). Expanding row by
 * row would move every row after the insertion point each time: with
 * 200,000 functions that is gigabytes of memmove and a frozen screen.
 * Instead the subtree is written out afresh, depth first, into a new
 * array with the rows before and after it copied once: linear in the rows. */
#include "config.h"

#include "rows.h"

#include <stdlib.h>
#include <string.h>

struct emitter {
    struct tree_rows out;
    const struct rows_source *src;
    rows_expandable_fn expandable;
    void *expandable_ctx;
    size_t budget;               /* rows still allowed beyond the old subtree */
    bool stopped, oom;
};

static long push(struct emitter *e, void *node, uint32_t file, uint16_t depth)
{
    if (rows_append(&e->out, node, file, depth) < 0) {
        e->oom = true;
        return -1;
    }
    return (long)e->out.n - 1;
}

/* Expands row `at` of the output and writes its subtree after it. */
static void emit(struct emitter *e, size_t at)
{
    void *node = e->out.v[at].node;
    uint32_t file = e->out.v[at].file;
    uint16_t depth = e->out.v[at].depth;
    size_t n = e->src->child_count(e->src->ctx, file, node);
    e->out.v[at].n_children = n > INT32_MAX ? INT32_MAX : (int32_t)n;
    if (n == 0)
        return;
    e->out.v[at].expanded = true;
    if (n >= e->budget) {
        e->budget = 0;
        e->stopped = true;
    } else {
        e->budget -= n;
    }
    for (size_t k = 0; k < n && !e->oom; k++) {
        void *c = e->src->child(e->src->ctx, file, node, k);
        long row = push(e, c, file, (uint16_t)(depth + 1));
        if (row >= 0 && e->budget > 0 && e->expandable(e->expandable_ctx, file, c))
            emit(e, (size_t)row);
    }
}

long rows_expand_all(struct tree_rows *r, size_t i, const struct rows_source *src, size_t limit,
                     rows_expandable_fn expandable, void *ctx, bool *stopped)
{
    *stopped = false;
    if (i >= r->n)
        return 0;
    size_t end = rows_subtree_end(r, i), old = end - i;
    struct emitter e = { .src = src, .expandable = expandable, .expandable_ctx = ctx,
                         .budget = limit + old };
    /* Rows before the subtree, then the subtree, then the rows after it. */
    e.out.v = malloc((r->n + limit + 1) * sizeof *e.out.v);
    if (!e.out.v)
        return -1;
    e.out.cap = r->n + limit + 1;
    memcpy(e.out.v, r->v, i * sizeof *r->v);
    e.out.n = i;
    long top = push(&e, r->v[i].node, r->v[i].file, r->v[i].depth);
    if (top >= 0)
        emit(&e, (size_t)top);
    if (!e.oom && rows_append_many(&e.out, &r->v[end], r->n - end) < 0)
        e.oom = true;
    if (e.oom) {
        rows_free(&e.out);
        return -1;
    }
    long added = (long)e.out.n - (long)r->n;
    rows_free(r);
    *r = e.out;
    *stopped = e.stopped;
    return added;
}
