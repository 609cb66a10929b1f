/* Where the user has been: every jump (Enter on an offset, a search, a
 * mark, Enter on a function, b from a page) remembers the place it left,
 * the view included, so Backspace returns there and, after going back,
 * forward (Ctrl-]) goes again, as in a browser or vim's jump list. This
 * file only records places, calling nothing else, so every view may;
 * jumps.c goes back to them. */
#include "config.h"

#include "ui/core/ui.h"

#include <string.h>

struct jump ex_here(struct explorer *ex)
{
    return (struct jump){ .screen = SCREEN_MAIN, .file = ex_current_file_index(ex), .node = ex_selected_node(ex),
                          .hex_cursor = ex->hex.cursor, .hex_top = ex->hex.top,
                          .detail_sel = ex->detail.sel, .detail_top = ex->detail.top };
}

/* The current place: a view of functions, or the byte explorer's. */
struct jump ex_place_here(struct explorer *ex)
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

void ex_push_jump(struct jump *stack, size_t *n, const struct jump *j)
{
    if (*n == HISTORY_MAX) {
        memmove(&stack[0], &stack[1], (HISTORY_MAX - 1) * sizeof stack[0]);
        (*n)--;
    }
    stack[(*n)++] = *j;
}

void ex_push_history(struct explorer *ex)
{
    struct jump j = ex_place_here(ex);
    if (j.screen == SCREEN_MAIN && !j.node)
        return;
    ex_push_jump(ex->history, &ex->n_history, &j);
    ex->n_forward = 0;
}

