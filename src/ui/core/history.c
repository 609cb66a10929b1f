/* Where the user has been: every change of view (open_view) and every
 * jump inside a view (Enter on an offset, a search, a mark) remembers the
 * place it left, so Backspace returns there and, after going back,
 * Ctrl-] goes forward again, as in a browser or vim's jump list. A place
 * is a view and what its here() noted; its restore() comes back to it. */
#include "config.h"

#include "ui/core/core.h"

#include <string.h>

void history_push(struct explorer *ex)
{
    struct jump j = view_here(ex);
    history_record(ex, &j);
}

/* One step through `from` (the history or forward), the place left going
 * on `to`; places equal to where one is are passed over. */
static bool step(struct explorer *ex, struct jump *from, size_t *n_from, struct jump *to, size_t *n_to)
{
    struct jump here = view_here(ex);
    while (*n_from) {
        struct jump j = from[--*n_from];
        if (jump_same(&j, &here))
            continue;
        if (!goto_jump(ex, &j))
            return true; /* gone: goto_jump said why */
        if (here.view != VIEW_NONE)
            jump_push(to, n_to, &here);
        return true;
    }
    return false;
}

void history_back(struct explorer *ex)
{
    if (!step(ex, ex->history, &ex->n_history, ex->forward, &ex->n_forward)) {
        ex_message(ex, "no earlier place (views opened, Enter on an offset field, / and : are remembered)");
        return;
    }
    if (!ex->status[0])
        ex_message(ex, "back (%zu more)", ex->n_history);
}

void history_forward(struct explorer *ex)
{
    if (!step(ex, ex->forward, &ex->n_forward, ex->history, &ex->n_history)) {
        ex_message(ex, "nothing to go forward to (Backspace goes back first)");
        return;
    }
    if (!ex->status[0])
        ex_message(ex, "forward (%zu more)", ex->n_forward);
}

void history_clear(struct explorer *ex)
{
    ex->n_history = ex->n_forward = 0;
    for (size_t i = 0; i < sizeof ex->marks / sizeof ex->marks[0]; i++)
        ex->marks[i].view = VIEW_NONE;
}
