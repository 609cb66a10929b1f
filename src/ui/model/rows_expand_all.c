/* Expanding everything below a row in one pass (`*`). Expanding row by
 * row would move every row after the insertion point each time: with
 * 200,000 functions that is gigabytes of memmove and a frozen screen.
 * Instead the subtree is written out afresh, depth first, into its own
 * array (on the explorer's worker thread, so the screen keeps answering),
 * and then spliced in with the rows before and after it copied once:
 * linear in the rows. */
#include "config.h"

#include "ui/model/rows.h"

#include <stdlib.h>
#include <string.h>

/* The tick is called this often, so a cancel is seen promptly and the
 * worker can hand the model back to the UI thread. */
#define ROWS_TICK_EVERY 256

struct emitter {
    struct tree_rows out;
    const struct rows_source *src;
    rows_expandable_fn expandable;
    void *expandable_ctx;
    rows_tick_fn tick;
    void *tick_ctx;
    size_t budget;               /* rows still allowed */
    bool stopped, oom, abandoned;
};

static long push(struct emitter *e, void *node, uint32_t file, uint16_t depth)
{
    if (rows_append(&e->out, node, file, depth) < 0) {
        e->oom = true;
        return -1;
    }
    if (e->tick && e->out.n % ROWS_TICK_EVERY == 0 && !e->tick(e->tick_ctx, e->out.n))
        e->abandoned = true;
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
    for (size_t k = 0; k < n && !e->oom && !e->abandoned; k++) {
        void *c = e->src->child(e->src->ctx, file, node, k);
        long row = push(e, c, file, (uint16_t)(depth + 1));
        if (row >= 0 && e->budget > 0 && !e->abandoned && e->expandable(e->expandable_ctx, file, c))
            emit(e, (size_t)row);
    }
}

int rows_build_subtree(const struct tree_row *top, const struct rows_source *src, size_t budget,
                       rows_expandable_fn expandable, void *ctx, rows_tick_fn tick, void *tick_ctx,
                       struct tree_rows *out, bool *stopped)
{
    *stopped = false;
    memset(out, 0, sizeof *out);
    struct emitter e = { .src = src, .expandable = expandable, .expandable_ctx = ctx,
                         .tick = tick, .tick_ctx = tick_ctx, .budget = budget };
    long first = push(&e, top->node, top->file, top->depth);
    if (first >= 0 && !e.abandoned)
        emit(&e, (size_t)first);
    if (e.oom || e.abandoned) {
        rows_free(&e.out);
        return e.oom ? -1 : 1;
    }
    *out = e.out;
    *stopped = e.stopped;
    return 0;
}

int rows_splice_subtree(struct tree_rows *r, size_t i, struct tree_rows *sub, long *added)
{
    *added = 0;
    if (i >= r->n || sub->n == 0)
        return 0;
    size_t end = rows_subtree_end(r, i);
    struct tree_rows out = { 0 };
    /* Rows before the subtree, then the new subtree, then the rows after. */
    if (rows_append_many(&out, r->v, i) < 0 || rows_append_many(&out, sub->v, sub->n) < 0 ||
        rows_append_many(&out, &r->v[end], r->n - end) < 0) {
        rows_free(&out);
        return -1;
    }
    *added = (long)out.n - (long)r->n;
    rows_free(r);
    *r = out;
    rows_free(sub);
    return 0;
}

long rows_expand_all(struct tree_rows *r, size_t i, const struct rows_source *src, size_t limit,
                     rows_expandable_fn expandable, void *ctx, bool *stopped)
{
    *stopped = false;
    if (i >= r->n)
        return 0;
    size_t old = rows_subtree_end(r, i) - i;
    struct tree_rows sub;
    if (rows_build_subtree(&r->v[i], src, limit + old, expandable, ctx, NULL, NULL, &sub, stopped) != 0)
        return -1;
    long added;
    if (rows_splice_subtree(r, i, &sub, &added) < 0) {
        rows_free(&sub);
        *stopped = false;
        return -1;
    }
    return added;
}
