/* Going back to a remembered place (history.c records them): the byte
 * explorer's node with its detail and hex cursors, the function table's
 * row, or a function's page. */
#include "config.h"

#include "ui/core/ui.h"

#include <string.h>

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
    struct jump here = ex_place_here(ex), j = ex->history[--ex->n_history];
    if (restore_place(ex, &j))
        ex_push_jump(ex->forward, &ex->n_forward, &here);
    ex_message(ex, "back (%zu more)", ex->n_history);
}

void ex_go_forward(struct explorer *ex)
{
    if (ex->n_forward == 0) {
        ex_message(ex, "nothing to go forward to (Backspace goes back first)");
        return;
    }
    struct jump here = ex_place_here(ex), j = ex->forward[--ex->n_forward];
    if (restore_place(ex, &j))
        ex_push_jump(ex->history, &ex->n_history, &here);
    ex_message(ex, "forward (%zu more)", ex->n_forward);
}
