/* `*`: expand everything below the selected row, on the worker thread.
 * A library of 200,000 functions opens up to EXPAND_ALL_LIMIT rows, and
 * each new row may build nodes (tags, module blocks), so this can take
 * seconds on a big file: the screen keeps answering, the status line
 * counts the rows, and Esc cancels. The worker builds the new subtree in
 * an array of its own; the UI thread splices it in when it is done, where
 * the row is then (the user may have moved, opened or closed rows). */
#include "config.h"

#include "ui/core/job.h"
#include "ui/views/bytes/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expanding stops after about this many new rows, so `*` on a library
 * with 200,000 functions fills the tree with what a person can scroll,
 * not the whole file. */
#define EXPAND_ALL_LIMIT 20000

struct expand_all {
    struct explorer *ex;
    struct job *job;
    struct tree_row top;         /* the row `*` was pressed on, as it was */
    size_t budget;
    /* The view the rows were built for: a filter or sort changed while
     * expanding makes them stale. */
    enum funcview_sort sort;
    char filter[sizeof ((struct funcview *)0)->filter];
    struct tree_rows sub;
    int rc;
    bool stopped;
};

/* Archives only decompress when asked for one by one. */
static bool wants(void *ctx, uint32_t file, void *node)
{
    struct explorer *ex = ctx;
    mtlbx_node *n = node;
    return n->kind != MTLBX_NODE_ARCHIVE && mbx_node_expandable(ex->files[file].m, n);
}

static bool tick(void *ctx, size_t rows)
{
    struct expand_all *e = ctx;
    job_set_progress(e->job, rows, e->budget);
    job_model_yield();
    return !job_cancelled(e->job);
}

static void work(struct job *j)
{
    struct expand_all *e = j->ctx;
    e->job = j;
    job_model_lock();
    e->rc = rows_build_subtree(&e->top, &bytes_of(e->ex)->rows_src, e->budget, wants, e->ex, tick, e, &e->sub,
                               &e->stopped);
    job_model_unlock();
}

/* The row now showing the node `*` was pressed on, or -1. */
static long find_top(struct explorer *ex, const struct tree_row *top)
{
    struct bytes *b = bytes_of(ex);
    for (size_t i = 0; i < b->rows.n; i++)
        if (b->rows.v[i].node == top->node && b->rows.v[i].file == top->file)
            return (long)i;
    return -1;
}

static void splice(struct explorer *ex, struct expand_all *e)
{
    struct bytes *b = bytes_of(ex);
    long at = find_top(ex, &e->top);
    if (at < 0) {
        ex_message(ex, "not expanded: its row was closed meanwhile");
        return;
    }
    size_t i = (size_t)at, old_end = rows_subtree_end(&b->rows, i);
    size_t sel = b->tree.sel;
    const void *sel_node = b->rows.v[sel].node;
    long added;
    if (rows_splice_subtree(&b->rows, i, &e->sub, &added) < 0) {
        ex_error(ex, "out of memory expanding");
        return;
    }
    /* The selection stays on its node: after the subtree it moves with
     * it, inside it the node is found again among the new rows. */
    if (sel >= old_end) {
        sel = (size_t)((long)sel + added);
    } else if (sel > i) {
        size_t end = rows_subtree_end(&b->rows, i);
        sel = i;
        for (size_t k = i; k < end; k++)
            if (b->rows.v[k].node == sel_node) {
                sel = k;
                break;
            }
        if (sel == i)
            tree_set_selection(ex, i);
    }
    b->tree.sel = sel < b->rows.n ? sel : b->rows.n - 1;
    tree_scroll_to_selection(ex);
    if (e->stopped)
        ex_message(ex, "stopped expanding after about %d rows", EXPAND_ALL_LIMIT);
    else
        ex_message(ex, "expanded everything below");
}

static void finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct bytes *b = bytes_of(ex);
    struct expand_all *e = j->ctx;
    if (cancelled || e->rc == 1)
        ex_message(ex, "expanding cancelled");
    else if (e->rc < 0)
        ex_error(ex, "out of memory expanding");
    else if (e->sort != b->fview.sort || strcmp(e->filter, b->fview.filter) != 0)
        ex_message(ex, "not expanded: the filter or sort changed meanwhile (* again)");
    else
        splice(ex, e);
    rows_free(&e->sub);
    free(e);
}

void expand_all_start(struct explorer *ex, size_t row)
{
    struct bytes *b = bytes_of(ex);
    if (row >= b->rows.n)
        return;
    struct expand_all *e = calloc(1, sizeof *e);
    if (!e) {
        ex_error(ex, "out of memory");
        return;
    }
    e->ex = ex;
    e->top = b->rows.v[row];
    e->budget = EXPAND_ALL_LIMIT + (rows_subtree_end(&b->rows, row) - row);
    e->sort = b->fview.sort;
    snprintf(e->filter, sizeof e->filter, "%s", b->fview.filter);
    if (!job_start(ex, "expanding", work, finish, e, false))
        free(e);
}
