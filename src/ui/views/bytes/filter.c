/* The keys of the function-list view: f and | ask for a filter, S cycles
 * the sort, Esc clears the filter and the search highlights. After a
 * change every expanded function list is rebuilt and the selection stays
 * on its node when that is still shown. */
#include "config.h"

#include "ui/core/ui.h"

#include <stdio.h>
#include <string.h>

void filter_apply(struct explorer *ex)
{
    mtlbx_node *keep = ex_selected_node(ex);
    uint32_t keep_file = ex_current_file_index(ex);
    funcview_reset(&ex->fview);
    for (size_t i = ex->rows.n; i-- > 0;) {
        struct tree_row *r = &ex->rows.v[i];
        if (((mtlbx_node *)r->node)->kind != MTLBX_NODE_FUNCTION_LIST)
            continue;
        bool was_open = r->expanded;
        if (was_open)
            rows_collapse(&ex->rows, i);
        ex->rows.v[i].n_children = -1;
        if (was_open)
            rows_expand(&ex->rows, i, &ex->rows_src);
    }
    if (ex->tree_sel >= ex->rows.n)
        ex->tree_sel = ex->rows.n ? ex->rows.n - 1 : 0;
    if (!keep || !ex_select_node(ex, keep_file, keep, true)) {
        /* Filtered out: stay on its function list. */
        mtlbx_node *up = keep;
        while (up && up->kind != MTLBX_NODE_FUNCTION_LIST)
            up = up->parent;
        if (!up || !ex_select_node(ex, keep_file, up, true))
            tree_set_selection(ex, ex->tree_sel);
    }
}

static void say_counts(struct explorer *ex)
{
    size_t shown, total;
    funcview_counts(&ex->fview, &shown, &total);
    const char *order = funcview_sort_name(ex->fview.sort);
    if (ex->fview.filter[0])
        ex_message(ex, "filter %s: %zu of %zu functions, in %s  (Esc clears the filter)", ex->fview.filter,
                   shown, total, order);
    else
        ex_message(ex, "functions in %s  (S again for the next order)", order);
}

void filter_prompt(struct explorer *ex)
{
    char in[sizeof ex->fview.filter];
    if (!prompt_line(ex, "Filter functions (name, kernel, air 2.6; empty clears)", ex->fview.filter, in,
                     sizeof in))
        return;
    snprintf(ex->fview.filter, sizeof ex->fview.filter, "%s", in);
    filter_apply(ex);
    if (!in[0]) {
        ex_message(ex, "filter cleared");
        return;
    }
    say_counts(ex);
    size_t shown, total;
    funcview_counts(&ex->fview, &shown, &total);
    if (shown == 0)
        ex_error(ex, "no function matches %s (Esc clears the filter)", ex->fview.filter);
}

void filter_cycle_sort(struct explorer *ex)
{
    ex->fview.sort = (enum funcview_sort)((ex->fview.sort + 1) % SORT_COUNT);
    filter_apply(ex);
    say_counts(ex);
}

void filter_clear(struct explorer *ex)
{
    bool had_filter = ex->fview.filter[0] != '\0', had_hits = ex->search.n > 0;
    if (had_filter) {
        ex->fview.filter[0] = '\0';
        filter_apply(ex);
    }
    search_results_free(&ex->search);
    if (had_filter)
        ex_message(ex, "filter cleared");
    else if (had_hits)
        ex_message(ex, "search highlights cleared");
}
