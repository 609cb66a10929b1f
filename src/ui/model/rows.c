/* Flattened tree rows; see rows.h for why the tree is kept flat. */
#include "config.h"

#include "ui/model/rows.h"

#include <stdlib.h>
#include <string.h>

void rows_free(struct tree_rows *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

static int rows_reserve(struct tree_rows *r, size_t extra)
{
    if (r->n + extra <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 64;
    while (cap < r->n + extra)
        cap *= 2;
    struct tree_row *v = realloc(r->v, cap * sizeof *v);
    if (!v)
        return -1;
    r->v = v;
    r->cap = cap;
    return 0;
}

int rows_append(struct tree_rows *r, void *node, uint32_t file, uint16_t depth)
{
    if (rows_reserve(r, 1) < 0)
        return -1;
    struct tree_row row = { node, file, depth, false, -1 };
    r->v[r->n++] = row;
    return 0;
}

int rows_append_many(struct tree_rows *r, const struct tree_row *v, size_t n)
{
    if (n == 0)
        return 0;
    if (rows_reserve(r, n) < 0)
        return -1;
    memcpy(&r->v[r->n], v, n * sizeof *v);
    r->n += n;
    return 0;
}

size_t rows_child_count(struct tree_rows *r, size_t i, const struct rows_source *src)
{
    struct tree_row *row = &r->v[i];
    if (row->n_children < 0) {
        size_t n = src->child_count(src->ctx, row->file, row->node);
        row->n_children = n > INT32_MAX ? INT32_MAX : (int32_t)n;
    }
    return (size_t)row->n_children;
}

/* Inserts rows for children first .. first+count-1 of row `parent` at
 * index `at`. */
static int insert_children(struct tree_rows *r, size_t parent, size_t at, size_t first,
                           size_t count, const struct rows_source *src)
{
    if (rows_reserve(r, count) < 0)
        return -1;
    struct tree_row p = r->v[parent];
    memmove(&r->v[at + count], &r->v[at], (r->n - at) * sizeof r->v[0]);
    for (size_t k = 0; k < count; k++) {
        struct tree_row row = { src->child(src->ctx, p.file, p.node, first + k),
                                p.file, (uint16_t)(p.depth + 1), false, -1 };
        r->v[at + k] = row;
    }
    r->n += count;
    return 0;
}

long rows_expand(struct tree_rows *r, size_t i, const struct rows_source *src)
{
    if (i >= r->n || r->v[i].expanded)
        return 0;
    size_t n = rows_child_count(r, i, src);
    if (n == 0)
        return 0;
    if (insert_children(r, i, i + 1, 0, n, src) < 0)
        return -1;
    r->v[i].expanded = true;
    return (long)n;
}

long rows_refresh_children(struct tree_rows *r, size_t i, const struct rows_source *src)
{
    if (i >= r->n || !r->v[i].expanded || r->v[i].n_children < 0)
        return 0;
    size_t old = (size_t)r->v[i].n_children;
    size_t now = src->child_count(src->ctx, r->v[i].file, r->v[i].node);
    if (now <= old)
        return 0;
    size_t add = now - old;
    if (insert_children(r, i, rows_subtree_end(r, i), old, add, src) < 0)
        return -1;
    r->v[i].n_children = now > INT32_MAX ? INT32_MAX : (int32_t)now;
    return (long)add;
}

size_t rows_subtree_end(const struct tree_rows *r, size_t i)
{
    size_t j = i + 1;
    while (j < r->n && r->v[j].depth > r->v[i].depth)
        j++;
    return j;
}

void rows_collapse(struct tree_rows *r, size_t i)
{
    if (i >= r->n)
        return;
    size_t end = rows_subtree_end(r, i);
    memmove(&r->v[i + 1], &r->v[end], (r->n - end) * sizeof r->v[0]);
    r->n -= end - (i + 1);
    r->v[i].expanded = false;
}

long rows_parent(const struct tree_rows *r, size_t i)
{
    if (i >= r->n || r->v[i].depth == 0)
        return -1;
    for (size_t j = i; j-- > 0;)
        if (r->v[j].depth < r->v[i].depth)
            return (long)j;
    return -1;
}

long rows_find_child(const struct tree_rows *r, size_t parent, const void *node)
{
    uint16_t d = r->v[parent].depth;
    for (size_t j = parent + 1; j < r->n && r->v[j].depth > d; j++)
        if (r->v[j].depth == d + 1 && r->v[j].node == node)
            return (long)j;
    return -1;
}

long rows_next_sibling(const struct tree_rows *r, size_t i)
{
    size_t j = rows_subtree_end(r, i);
    if (j < r->n && r->v[j].depth == r->v[i].depth)
        return (long)j;
    return -1;
}

long rows_prev_sibling(const struct tree_rows *r, size_t i)
{
    for (size_t j = i; j-- > 0;) {
        if (r->v[j].depth == r->v[i].depth)
            return (long)j;
        if (r->v[j].depth < r->v[i].depth)
            return -1;
    }
    return -1;
}
