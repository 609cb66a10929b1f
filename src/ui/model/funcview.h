/* Filter and sort of the function lists in the tree (f, |, S, Esc), as
 * htop's filter and ncdu's sort do. The tree asks for a function list's
 * children through here, so a filtered or sorted list is only a table of
 * child positions: the nodes themselves never change, and search,
 * jumps and marks keep pointing at them. */
#ifndef MTLBX_UI_FUNCVIEW_H
#define MTLBX_UI_FUNCVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum funcview_sort { SORT_FILE, SORT_NAME, SORT_SIZE, SORT_TYPE, SORT_COUNT };

struct funcview_list {
    const mtlbx_node *list;      /* a FUNCTION_LIST node */
    size_t *pos;                 /* child positions shown, in order */
    size_t n, total;
};

struct funcview {
    enum funcview_sort sort;
    char filter[128];            /* "" : no filter */
    struct funcview_list *lists;
    size_t n_lists;
};

/* Whether the view changes anything (a filter, or a sort other than the
 * file's order). */
bool funcview_active(const struct funcview *v);
/* Children of `node` as the tree shows them. */
size_t funcview_child_count(struct funcview *v, mtlbx_model *model, mtlbx_node *node);
mtlbx_node *funcview_child(struct funcview *v, mtlbx_model *model, mtlbx_node *node, size_t i);
/* Forget the tables (after the filter or sort changed). */
void funcview_reset(struct funcview *v);
/* Shown and total functions over the lists built so far. */
void funcview_counts(const struct funcview *v, size_t *shown, size_t *total);
const char *funcview_sort_name(enum funcview_sort s);

#endif
