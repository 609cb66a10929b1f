/* The text view: a pager (widgets/pager.c) over a whole screen, for what
 * the other views open as text: llvm-dis output, a source member, the
 * help, the problem list, a diff. q closes it back to where it was
 * opened; w saves the text, y copies a line, and Enter does what the text
 * asked for (the problem list follows a finding's offset). */
#include "config.h"

#include "ui/views/text/text_view.h"
#include "ui/core/core.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/pager.h"
#include "ui/widgets/prompt.h"
#include "ui/text/textfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The view's private block. The text stays until another replaces it, so
 * that a place in it (the history's, a mark's) can be come back to. */
struct text_view {
    struct pager pg;
    unsigned long gen;           /* which text: one more each time one is opened */
    bool is_help;
    bool (*enter)(struct explorer *ex, const char *text, size_t len, size_t at, long arg);
    long enter_arg;
};

static struct text_view *state(struct explorer *ex)
{
    return view_state(ex, VIEW_TEXT);
}

static bool text_open(struct explorer *ex, const struct place *at)
{
    struct text_view *t = state(ex);
    const struct text_doc *d = at->text;
    if (!d)
        return t->pg.data != NULL; /* back to the text it holds */
    /* ? in the help is the help already. */
    if (d->is_help && t->is_help && view_current(ex) == VIEW_TEXT)
        return true;
    if (!pager_load(&t->pg, d->title, d->data, d->len, d->save_name, d->line)) {
        ex_error(ex, "out of memory opening the text view");
        return false;
    }
    t->pg.diff_colours = d->diff_colours;
    t->gen++;
    t->is_help = d->is_help;
    t->enter = d->enter;
    t->enter_arg = d->enter_arg;
    return true;
}

static void text_draw(struct explorer *ex)
{
    pager_draw(&state(ex)->pg, &ex->lay.body);
}

static void text_status(struct explorer *ex, char *buf, size_t size)
{
    pager_status(&state(ex)->pg, buf, size);
}

static void copy_line(struct explorer *ex, struct pager *p)
{
    if (p->cur >= p->n_lines)
        return;
    const char *s;
    size_t len;
    pager_line(p, p->cur, &s, &len);
    size_t cap = len * 6 + 1;
    char *safe = malloc(cap);
    if (!safe)
        return;
    textfmt_sanitize((const uint8_t *)s, len, safe, cap, 8, 1 << 30);
    verb_copy(ex, "the line", safe);
    free(safe);
}

static enum view_result text_action(struct explorer *ex, enum action a)
{
    struct text_view *t = state(ex);
    struct pager *p = &t->pg;
    switch (a) {
    case ACT_ENTER:
        if (t->enter && p->n_lines)
            t->enter(ex, p->data, p->len, p->line_start[p->cur < p->n_lines ? p->cur : p->n_lines - 1],
                     t->enter_arg);
        else
            ex_message(ex, "Enter follows offsets only in the problem list (!)");
        return VIEW_HANDLED;
    case ACT_WRITE: {
        char path[1024];
        if (prompt_path(ex, "Save text to", p->save_name, path, sizeof path))
            verb_write_bytes(ex, path, p->data, p->len);
        return VIEW_HANDLED;
    }
    case ACT_COPY: copy_line(ex, p); return VIEW_HANDLED;
    case ACT_HELP: return t->is_help ? VIEW_HANDLED : VIEW_IGNORED;
    default: return pager_action(ex, p, a) ? VIEW_HANDLED : VIEW_IGNORED;
    }
}

static void text_mouse(struct explorer *ex, int y, int x, int wheel)
{
    (void)x;
    struct pager *p = &state(ex)->pg;
    if (wheel) {
        for (int i = 0; i < 3; i++)
            pager_action(ex, p, wheel > 0 ? ACT_DOWN : ACT_UP);
        return;
    }
    /* The title, then the lines. */
    int row = y - ex->lay.body.y - 1;
    if (row >= 0 && p->top + (size_t)row < p->n_lines)
        p->cur = p->top + (size_t)row;
}

static void text_forget(struct explorer *ex)
{
    /* A text about the old files may follow into them no more. */
    state(ex)->enter = NULL;
}

static void text_done(struct explorer *ex)
{
    pager_free(&state(ex)->pg);
}

static void text_here(struct explorer *ex, struct jump *j)
{
    struct text_view *t = state(ex);
    j->w[0] = t->gen;
    j->w[1] = t->pg.cur;
    j->w[2] = t->pg.top;
}

static bool text_restore(struct explorer *ex, const struct jump *j)
{
    struct text_view *t = state(ex);
    if (j->w[0] != t->gen || !t->pg.data) {
        ex_error(ex, "that text is no longer open (another replaced it)");
        return false;
    }
    t->pg.cur = (size_t)j->w[1];
    t->pg.top = (size_t)j->w[2];
    return true;
}

const struct view_ops text_view = {
    .name = "text view",
    .keys = KC_TEXT,
    .state_size = sizeof(struct text_view),
    .open = text_open,
    .forget = text_forget,
    .done = text_done,
    .draw = text_draw,
    .action = text_action,
    .status = text_status,
    .mouse = text_mouse,
    .jump = { text_here, text_restore },
};
