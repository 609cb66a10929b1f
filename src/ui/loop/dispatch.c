/* A key's way to the current view (htop's ScreenManager with Panel_onKey,
 * tig's view_driver): digits build a count, the key becomes an action
 * through the key table, the view takes it or not, and what it leaves
 * falls back on the generic moves over the list it scrolls and on the
 * keys every view shares: q closes the view (at the home view it quits),
 * Q quits, ? helps, Backspace and Ctrl-] walk the history, m and ' mark. */
#include "config.h"

#include "ui/loop/loop.h"
#include "ui/term/term.h"
#include "ui/widgets/list.h"
#include "ui/widgets/search.h"

#include <stdlib.h>
#include <string.h>

/* Moves a count repeats (5j, and 5 Space marks five functions); a count before G or g goes to that row. */
static bool countable(enum action a)
{
    switch (a) {
    case ACT_DOWN: case ACT_UP: case ACT_LEFT: case ACT_RIGHT:
    case ACT_PAGE_DOWN: case ACT_PAGE_UP: case ACT_HALF_DOWN: case ACT_HALF_UP:
    case ACT_NEXT_SIBLING: case ACT_PREV_SIBLING: case ACT_NEXT_FUNCTION: case ACT_PREV_FUNCTION:
    case ACT_SEARCH_NEXT: case ACT_SEARCH_PREV: case ACT_NEXT_PROBLEM: case ACT_PREV_PROBLEM:
    case ACT_MARK:
        return true;
    default:
        return false;
    }
}

#define COUNT_MAX 100000

static void open_help(struct explorer *ex)
{
    char *help = keys_help_text(view_key_context(ex));
    if (!help)
        return;
    struct text_doc doc = { .title = "Help", .data = help, .len = strlen(help), .save_name = "mtlbx-keys.txt",
                            .is_help = true };
    struct place at = place_text(&doc);
    open_view(ex, VIEW_TEXT, &at);
    free(help);
}

/* What every view shares, for what the current one did not take. */
static bool generic(struct explorer *ex, enum action a)
{
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    struct list *l = v && v->list ? v->list(ex) : NULL;
    if (l && list_move(l, a)) {
        if (v->select)
            v->select(ex);
        return true;
    }
    switch (a) {
    case ACT_QUIT: close_view(ex); return true;
    case ACT_QUIT_NOW: ex->quit = true; return true;
    case ACT_HELP: open_help(ex); return true;
    case ACT_REDRAW: term_redraw_all(); return true;
    case ACT_BACK: history_back(ex); return true;
    case ACT_FORWARD: history_forward(ex); return true;
    case ACT_SET_MARK: marks_set(ex); return true;
    case ACT_GOTO_MARK: marks_jump(ex); return true;
    default: return false;
    }
}

/* The action to the current view, then to the generic keys. */
static bool dispatch(struct explorer *ex, enum action a)
{
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    if (a == ACT_QUIT_NOW || !v)
        return generic(ex, a);
    if (search_action(ex, a))
        return true;
    switch (v->action(ex, a)) {
    case VIEW_HANDLED: return true;
    case VIEW_CLOSE: close_view(ex); return true;
    default: return generic(ex, a);
    }
}

/* 10G: row 10 of the list the view scrolls, else ten moves from the top. */
static void go_to_row(struct explorer *ex, size_t n)
{
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    struct list *l = v && v->list ? v->list(ex) : NULL;
    if (l) {
        list_select(l, (long)n - 1);
        if (v->select)
            v->select(ex);
        return;
    }
    dispatch(ex, ACT_TOP);
    for (size_t i = 1; i < n; i++)
        dispatch(ex, ACT_DOWN);
}

void loop_key(struct explorer *ex, int key)
{
    if (ex->lay.too_small) {
        if (key == 'q' || key == 'Q')
            ex->quit = true;
        return;
    }
    if (key == KEY_MOUSE) {
        loop_mouse(ex);
        return;
    }
    ex->status[0] = '\0';
    unsigned ctx = view_key_context(ex);
    enum action a = key_lookup(ctx, key);
    /* Digits build a count; one bound to an action (1, 2, 3 focus the
     * byte explorer's panels) does that instead, unless a count is being
     * typed or the view has nothing to do for it. */
    if (key >= '0' && key <= '9' && (ex->count || key != '0')) {
        bool digit = ex->count || a == ACT_NONE;
        if (!digit) {
            const struct view_ops *v = view_ops_of(ex, view_current(ex));
            digit = v && v->action(ex, a) == VIEW_IGNORED;
            if (!digit)
                return;
        }
        ex->count = ex->count * 10 + (size_t)(key - '0');
        if (ex->count > COUNT_MAX)
            ex->count = COUNT_MAX;
        ex_message(ex, "count %zu", ex->count);
        return;
    }
    size_t count = ex->count;
    ex->count = 0;
    if (count && (a == ACT_TOP || a == ACT_BOTTOM)) {
        go_to_row(ex, count);
        return;
    }
    if (count > 1 && countable(a))
        for (size_t i = 1; i < count && !ex->quit; i++)
            dispatch(ex, a);
    if (a == ACT_NONE) {
        char name[32];
        if (key)
            ex_message(ex, "%s does nothing here: press ? for the keys", key_display_name(key, name, sizeof name));
        return;
    }
    if (!dispatch(ex, a)) {
        char name[32];
        ex_message(ex, "%s does nothing here: press ? for the keys", key_display_name(key, name, sizeof name));
    }
}

#define WHEEL_ROWS 3

void loop_mouse(struct explorer *ex)
{
    int y, x, wheel;
    if (!term_mouse_event(&y, &x, &wheel) || ex->lay.too_small)
        return;
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    if (!v)
        return;
    if (v->mouse) {
        v->mouse(ex, y, x, wheel);
        return;
    }
    struct list *l = v->list ? v->list(ex) : NULL;
    if (wheel) {
        for (int i = 0; i < WHEEL_ROWS; i++)
            dispatch(ex, wheel > 0 ? ACT_DOWN : ACT_UP);
    } else if (l && list_click(l, y)) {
        if (v->select)
            v->select(ex);
    }
}
