/* The mouse: a click selects the row (or byte) under it and focuses its
 * panel, the wheel moves three rows in the panel under the pointer.
 * Asked for only when the terminal can report it, and never with
 * --no-mouse (then the terminal's own selection works unshifted). */
#include "config.h"

#include "ui/text/hexfmt.h"
#include "ui/term/term.h"
#include "ui/core/ui.h"
#include "ui/core/view.h"

#define WHEEL_ROWS 3

void mouse_init(struct explorer *ex)
{
    ex->mouse = false;
    if (ex->opts->no_mouse)
        return;
    mmask_t want = BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED;
    mmask_t got = mousemask(want, NULL);
    mouseinterval(0);           /* report presses at once: no click timing */
    ex->mouse = got != 0;
}

static bool inside(const struct rect *r, int y, int x)
{
    return r->h > 0 && r->w > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

static enum panel_id panel_at(struct explorer *ex, int y, int x)
{
    for (int p = 0; p < PANEL_COUNT; p++)
        if (inside(&ex->lay.panel[p], y, x))
            return (enum panel_id)p;
    return PANEL_NONE;
}

static void click_hex(struct explorer *ex, const struct rect *r, int row, int x)
{
    uint64_t size = ex->hex.file < ex->n_files ? mtlbx_file_size(ex->files[ex->hex.file].f) : 0;
    int digits = hexfmt_offset_digits(size), bpr = ex->hex.bytes_per_row;
    if (bpr <= 0)
        return;
    int col = x - r->x;
    for (int i = 0; i < bpr; i++) {
        int hc = hexfmt_hex_col(i, bpr, digits), ac = hexfmt_ascii_col(i, bpr, digits);
        if ((col >= hc && col < hc + 2) || col == ac) {
            uint64_t off = ex->hex.top + (uint64_t)row * (uint64_t)bpr + (uint64_t)i;
            if (off < size) {
                uint64_t keep_top = ex->hex.top;
                hex_goto(ex, ex->hex.file, off);
                ex->hex.top = keep_top;     /* a click does not scroll */
                hex_sync_tree(ex);
            }
            return;
        }
    }
}

static void click_main(struct explorer *ex, int y, int x)
{
    enum panel_id p = panel_at(ex, y, x);
    if (p == PANEL_NONE)
        return;
    ex->focus = p;
    const struct rect *r = &ex->lay.panel[p];
    int row = y - r->y - 1;         /* the first line is the panel's title */
    if (row < 0)
        return;
    if (p == PANEL_TREE) {
        size_t i = ex->tree_top + (size_t)row;
        if (i < ex->rows.n)
            tree_set_selection(ex, i);
    } else if (p == PANEL_DETAIL) {
        size_t i = ex->detail.top + (size_t)row;
        if (i < ex->detail.n)
            ex->detail.sel = i;
    } else {
        click_hex(ex, r, row, x);
    }
}

static void wheel(struct explorer *ex, int y, int x, bool down)
{
    enum action a = down ? ACT_DOWN : ACT_UP;
    for (int i = 0; i < WHEEL_ROWS; i++) {
        if (ex->screen != SCREEN_MAIN) {
            /* A full-screen view scrolls as its own keys do. */
            view_of(ex->screen)->action(ex, a);
        } else {
            enum panel_id p = panel_at(ex, y, x);
            ex_panel_action(ex, p == PANEL_NONE ? ex->focus : p, a);
        }
    }
}

static void click_view(struct explorer *ex, int y)
{
    /* Full-screen views: the title, then (members) a heading, then rows. */
    if (ex->screen == SCREEN_TEXT) {
        int row = y - ex->lay.body.y - 1;
        if (row >= 0 && ex->text.top + (size_t)row < ex->text.n_lines)
            ex->text.cur = ex->text.top + (size_t)row;
    } else if (ex->screen == SCREEN_FUNCTIONS) {
        /* The table: its title and headings, then rows. */
        int row = y - ex->lay.body.y - 2;
        if (row >= 0 && ex->funcs.top + (size_t)row < ex->funcs.n_shown)
            ex->funcs.sel = ex->funcs.top + (size_t)row;
    } else if (ex->screen == SCREEN_MEMBERS) {
        int row = y - ex->lay.body.y - 2;
        if (row >= 0 && ex->members.top + (size_t)row < ex->members.n_rows)
            ex->members.sel = ex->members.top + (size_t)row;
    }
}

void mouse_event(struct explorer *ex)
{
    MEVENT ev;
    if (getmouse(&ev) != OK || ex->lay.too_small)
        return;
    if (ev.bstate & BUTTON4_PRESSED)
        wheel(ex, ev.y, ev.x, false);
    else if (ev.bstate & BUTTON5_PRESSED)
        wheel(ex, ev.y, ev.x, true);
    else if (ev.bstate & BUTTON1_PRESSED) {
        if (ex->screen == SCREEN_MAIN)
            click_main(ex, ev.y, ev.x);
        else
            click_view(ex, ev.y);
    }
}
