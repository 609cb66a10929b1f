/* The results of a tree search (search.h): which rows are hits, where n
 * and N go. The tree panel highlights hits through here without calling
 * the search (views/bytes/search.c), which moves the selection. */
#include "config.h"

#include "ui/model/search.h"

#include <stdlib.h>
#include <string.h>

void search_results_free(struct search_results *r)
{
    free(r->v);
    free(r->sorted);
    memset(r, 0, sizeof *r);
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const mtlbx_node *const *)a, y = (uintptr_t)*(const mtlbx_node *const *)b;
    return x < y ? -1 : x > y;
}

void search_results_index(struct search_results *r)
{
    free(r->sorted);
    r->sorted = r->n ? malloc(r->n * sizeof *r->sorted) : NULL;
    if (!r->sorted)
        return; /* no highlight; the hits still step */
    for (size_t i = 0; i < r->n; i++)
        r->sorted[i] = r->v[i].node;
    qsort(r->sorted, r->n, sizeof *r->sorted, cmp_ptr);
}

bool search_is_hit(const struct search_results *r, const mtlbx_node *n)
{
    return r->sorted && bsearch(&n, r->sorted, r->n, sizeof *r->sorted, cmp_ptr) != NULL;
}

size_t search_step(size_t n, size_t pos, bool on_hit, bool forward, bool *wrapped)
{
    *wrapped = false;
    if (n == 0)
        return 0;
    if (forward) {
        size_t next = pos + (on_hit ? 1 : 0);
        if (next >= n) {
            *wrapped = true;
            next = 0;
        }
        return next;
    }
    if (pos == 0) {
        *wrapped = true;
        return n - 1;
    }
    return (pos > n ? n : pos) - 1;
}
