/* See funcview.h. Tables are built on first use of each function list
 * and dropped when the filter or sort changes. */
#include "config.h"

#include "ui/model/funcview.h"
#include "ui/model/fnfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool funcview_active(const struct funcview *v)
{
    return v->sort != SORT_FILE || v->filter[0];
}

const char *funcview_sort_name(enum funcview_sort s)
{
    switch (s) {
    case SORT_NAME: return "name order";
    case SORT_SIZE: return "module size order";
    case SORT_TYPE: return "type order";
    default: return "file order";
    }
}

void funcview_reset(struct funcview *v)
{
    for (size_t i = 0; i < v->n_lists; i++)
        free(v->lists[i].pos);
    free(v->lists);
    v->lists = NULL;
    v->n_lists = 0;
}

void funcview_counts(const struct funcview *v, size_t *shown, size_t *total)
{
    *shown = *total = 0;
    for (size_t i = 0; i < v->n_lists; i++) {
        *shown += v->lists[i].n;
        *total += v->lists[i].total;
    }
}

/* qsort has no context argument: the library being sorted. */
static __thread const mtlbx_library *sort_lib;
static __thread const size_t *sort_index;   /* child position -> function */

static const struct mtlbx_function *fn_of(size_t pos)
{
    return mbx_function_at(sort_lib, sort_index[pos]);
}

static int cmp_name(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const struct mtlbx_function *fa = fn_of(x), *fb = fn_of(y);
    int c = mbx_name_cmp(fa->name, fb->name);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    uint64_t sa = fn_of(x)->module.size, sb = fn_of(y)->module.size;
    if (sa != sb)
        return sa > sb ? -1 : 1;    /* biggest first, as ncdu */
    return x < y ? -1 : x > y;
}

static int cmp_type(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    uint8_t ta = fn_of(x)->type, tb = fn_of(y)->type;
    if (ta != tb)
        return ta < tb ? -1 : 1;
    return cmp_name(a, b);
}

static struct funcview_list *build(struct funcview *v, mtlbx_model *model, mtlbx_node *list)
{
    for (size_t i = 0; i < v->n_lists; i++)
        if (v->lists[i].list == list)
            return &v->lists[i];
    struct funcview_list *grown = realloc(v->lists, (v->n_lists + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    v->lists = grown;
    size_t total = mbx_node_child_count(model, list);
    size_t *pos = malloc((total ? total : 1) * sizeof *pos);
    size_t *index = malloc((total ? total : 1) * sizeof *index);
    if (!pos || !index) {
        free(pos);
        free(index);
        return NULL;
    }
    size_t n = 0;
    struct fnfilter filter;
    fnfilter_parse(&filter, v->filter);
    for (size_t c = 0; c < total; c++) {
        mtlbx_node *child = mbx_node_child(model, list, c);
        index[c] = child ? child->index : 0;
        const struct mtlbx_function *fn = child && child->kind == MTLBX_NODE_FUNCTION
                                              ? mbx_function_at(list->lib, child->index) : NULL;
        if (!fn || fnfilter_matches_function(&filter, fn, list->lib, child->index))
            pos[n++] = c;
    }
    sort_lib = list->lib;
    sort_index = index;
    if (v->sort == SORT_NAME)
        qsort(pos, n, sizeof *pos, cmp_name);
    else if (v->sort == SORT_SIZE)
        qsort(pos, n, sizeof *pos, cmp_size);
    else if (v->sort == SORT_TYPE)
        qsort(pos, n, sizeof *pos, cmp_type);
    free(index);
    struct funcview_list *l = &v->lists[v->n_lists++];
    l->list = list;
    l->pos = pos;
    l->n = n;
    l->total = total;
    return l;
}

size_t funcview_child_count(struct funcview *v, mtlbx_model *model, mtlbx_node *node)
{
    if (funcview_active(v) && node->kind == MTLBX_NODE_FUNCTION_LIST && node->lib) {
        struct funcview_list *l = build(v, model, node);
        if (l)
            return l->n;
    }
    return mbx_node_child_count(model, node);
}

mtlbx_node *funcview_child(struct funcview *v, mtlbx_model *model, mtlbx_node *node, size_t i)
{
    if (funcview_active(v) && node->kind == MTLBX_NODE_FUNCTION_LIST && node->lib) {
        struct funcview_list *l = build(v, model, node);
        if (l)
            return i < l->n ? mbx_node_child(model, node, l->pos[i]) : NULL;
    }
    return mbx_node_child(model, node, i);
}
