/* Where the user has been: every jump (Enter on an offset, a search, a
 * mark, Enter on a function, b from a page) remembers the place it left,
 * the view included, so Backspace returns there and, after going back,
 * forward (Ctrl-]) goes again, as in a browser or vim's jump list. */
#include "config.h"

#include "ui.h"

#include <string.h>

bool ex_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex)
{
    if (!node || file >= ex->n_files)
        return false;
    /* The chain from the top row down to the node. */
    mtlbx_node *chain[64];
    int depth = 0;
    for (mtlbx_node *n = node; n && depth < 64; n = n->parent)
        chain[depth++] = n;
    /* With a single file its root is not a row: the libraries are. */
    if (ex->n_files == 1) {
        if (depth <= 1)
            return false;
        depth--;
    }
    long row = -1;
    for (size_t i = 0; i < ex->rows.n; i++)
        if (ex->rows.v[i].depth == 0 && ex->rows.v[i].file == file && ex->rows.v[i].node == chain[depth - 1]) {
            row = (long)i;
            break;
        }
    for (int d = depth - 2; d >= 0 && row >= 0; d--) {
        if (!ex->rows.v[row].expanded && rows_expand(&ex->rows, (size_t)row, &ex->rows_src) < 0)
            return false;
        row = rows_find_child(&ex->rows, (size_t)row, chain[d]);
    }
    if (row < 0)
        return false;
    uint64_t keep_cursor = ex->hex.cursor;
    uint32_t keep_file = ex->hex.file;
    /* A jump: where the row was out of sight, it lands mid-panel. */
    size_t keep_top = ex->tree_top;
    ex->tree_sel = (size_t)row;
    ex->tree_top = keep_top;
    tree_center_selection(ex);
    tree_set_selection(ex, (size_t)row);
    if (keep_hex && keep_file == file)
        hex_goto(ex, file, keep_cursor);
    return true;
}

struct jump ex_here(struct explorer *ex)
{
    return (struct jump){ .screen = SCREEN_MAIN, .file = ex_current_file_index(ex), .node = ex_selected_node(ex),
                          .hex_cursor = ex->hex.cursor, .hex_top = ex->hex.top,
                          .detail_sel = ex->detail.sel, .detail_top = ex->detail.top };
}

/* The current place: a view of functions, or the byte explorer's. */
static struct jump place_here(struct explorer *ex)
{
    struct jump j = ex_here(ex);
    if (ex->screen == SCREEN_FUNCTIONS) {
        j.screen = SCREEN_FUNCTIONS;
        j.table_sel = ex->funcs.sel;
    } else if (ex->screen == SCREEN_PAGE) {
        j.screen = SCREEN_PAGE;
        j.page_lib = ex->page.lib;
        j.page_fn = ex->page.fn;
    }
    return j;
}

static void push(struct jump *stack, size_t *n, const struct jump *j)
{
    if (*n == HISTORY_MAX) {
        memmove(&stack[0], &stack[1], (HISTORY_MAX - 1) * sizeof stack[0]);
        (*n)--;
    }
    stack[(*n)++] = *j;
}

void ex_push_history(struct explorer *ex)
{
    struct jump j = place_here(ex);
    if (j.screen == SCREEN_MAIN && !j.node)
        return;
    push(ex->history, &ex->n_history, &j);
    ex->n_forward = 0;
}

bool ex_restore_jump(struct explorer *ex, const struct jump *j)
{
    if (!ex_select_node(ex, j->file, j->node, false))
        return false;
    /* The detail and hex cursors come back too, not only the node. */
    detail_refresh(ex, true);
    if (ex->detail.n) {
        ex->detail.sel = j->detail_sel < ex->detail.n ? j->detail_sel : ex->detail.n - 1;
        ex->detail.top = j->detail_top <= ex->detail.sel ? j->detail_top : ex->detail.sel;
    }
    hex_goto(ex, j->file, j->hex_cursor);
    ex->hex.top = j->hex_top <= j->hex_cursor ? j->hex_top : ex->hex.top;
    hex_goto(ex, j->file, j->hex_cursor);
    return true;
}

static bool restore_place(struct explorer *ex, const struct jump *j)
{
    switch (j->screen) {
    case SCREEN_FUNCTIONS:
        ex->screen = SCREEN_FUNCTIONS;
        if (ex->funcs.n_shown)
            ex->funcs.sel = j->table_sel < ex->funcs.n_shown ? j->table_sel : ex->funcs.n_shown - 1;
        return true;
    case SCREEN_PAGE:
        if (j->page_lib >= ex->funcs.n_libs)
            return false;
        /* As page_open does: the page builds itself when drawn. */
        ex->page.lib = j->page_lib;
        ex->page.fn = j->page_fn;
        ex->page.top = 0;
        ex->screen = SCREEN_PAGE;
        return true;
    default:
        ex->screen = SCREEN_MAIN;
        return ex_restore_jump(ex, j);
    }
}

void ex_go_back(struct explorer *ex)
{
    if (ex->n_history == 0) {
        ex_message(ex, "no earlier position (Enter on an offset field, / and : make jumps)");
        return;
    }
    struct jump here = place_here(ex), j = ex->history[--ex->n_history];
    if (restore_place(ex, &j))
        push(ex->forward, &ex->n_forward, &here);
    ex_message(ex, "back (%zu more)", ex->n_history);
}

void ex_go_forward(struct explorer *ex)
{
    if (ex->n_forward == 0) {
        ex_message(ex, "nothing to go forward to (Backspace goes back first)");
        return;
    }
    struct jump here = place_here(ex), j = ex->forward[--ex->n_forward];
    if (restore_place(ex, &j))
        push(ex->history, &ex->n_history, &here);
    ex_message(ex, "forward (%zu more)", ex->n_forward);
}
