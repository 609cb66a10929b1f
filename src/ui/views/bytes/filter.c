/* The keys of the function-list view: f and | ask for a filter, S cycles
 * the sort, Esc clears the filter and the search highlights. After a
 * change every expanded function list is rebuilt and the selection stays
 * on its node when that is still shown. */
#include "config.h"

#include "ui/views/bytes/bytes.h"
#include "ui/model/fnfilter.h"
#include "ui/widgets/prompt.h"

#include <stdio.h>
#include <string.h>

void filter_apply(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    mtlbx_node *keep = bytes_selected_node(ex);
    uint32_t keep_file = bytes_current_file(ex);
    funcview_reset(&b->fview);
    for (size_t i = b->rows.n; i-- > 0;) {
        struct tree_row *r = &b->rows.v[i];
        if (((mtlbx_node *)r->node)->kind != MTLBX_NODE_FUNCTION_LIST)
            continue;
        bool was_open = r->expanded;
        if (was_open)
            rows_collapse(&b->rows, i);
        b->rows.v[i].n_children = -1;
        if (was_open)
            rows_expand(&b->rows, i, &b->rows_src);
    }
    if (b->tree.sel >= b->rows.n)
        b->tree.sel = b->rows.n ? b->rows.n - 1 : 0;
    if (!keep || !bytes_select_node(ex, keep_file, keep, true)) {
        /* Filtered out: stay on its function list. */
        mtlbx_node *up = keep;
        while (up && up->kind != MTLBX_NODE_FUNCTION_LIST)
            up = up->parent;
        if (!up || !bytes_select_node(ex, keep_file, up, true))
            tree_set_selection(ex, b->tree.sel);
    }
}

static void say_counts(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    size_t shown, total;
    funcview_counts(&b->fview, &shown, &total);
    const char *order = funcview_sort_name(b->fview.sort);
    if (b->fview.filter[0])
        ex_message(ex, "filter %s: %zu of %zu functions, in %s  (Esc clears the filter)", b->fview.filter,
                   shown, total, order);
    else
        ex_message(ex, "functions in %s  (S again for the next order)", order);
}

void filter_prompt(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    char in[sizeof b->fview.filter];
    if (!prompt_line(ex, FNFILTER_PROMPT, b->fview.filter, in,
                     sizeof in))
        return;
    snprintf(b->fview.filter, sizeof b->fview.filter, "%s", in);
    filter_apply(ex);
    if (!in[0]) {
        ex_message(ex, "filter cleared");
        return;
    }
    say_counts(ex);
    size_t shown, total;
    funcview_counts(&b->fview, &shown, &total);
    if (shown == 0)
        ex_error(ex, "no function matches %s (Esc clears the filter)", b->fview.filter);
}

void filter_cycle_sort(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    b->fview.sort = (enum funcview_sort)((b->fview.sort + 1) % SORT_COUNT);
    filter_apply(ex);
    say_counts(ex);
}

void filter_clear(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    bool had_filter = b->fview.filter[0] != '\0', had_hits = b->search.n > 0;
    if (had_filter) {
        b->fview.filter[0] = '\0';
        filter_apply(ex);
    }
    search_results_free(&b->search);
    if (had_filter)
        ex_message(ex, "filter cleared");
    else if (had_hits)
        ex_message(ex, "search highlights cleared");
}
