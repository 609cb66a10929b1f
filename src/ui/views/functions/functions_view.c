/* The function table, the home of a library (htop's process list, k9s's
 * resource list): one row per function, short columns, and the name from
 * its first character in all the width they leave, cut at its end only
 * when it must be. The selected function's whole name has lines of its
 * own under the rows. Only the rows on screen are formatted. */
#include "config.h"

#include "ui/text/rowfmt.h"
#include "ui/term/term.h"
#include "ui/core/ui.h"
#include "ui/text/wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole selected name gets at most this many lines. */
#define NAME_LINES_MAX 4
/* Names keep at least this many columns: the requires column goes
 * first when the screen is narrower (as htop drops columns). */
#define NAME_MIN_WIDTH 40

struct column {
    enum ft_col col;
    int width;
    bool right;                  /* numbers are right-aligned */
};

/* The columns before the name for a screen `width` wide: the file
 * column only with several libraries, requires only where names keep
 * NAME_MIN_WIDTH. */
static int columns(const struct ftable *t, int width, struct column *out)
{
    int n = 0;
    if (t->show_file)
        out[n++] = (struct column){ FT_COL_FILE, t->file_width, false };
    out[n++] = (struct column){ FT_COL_STAGE, t->stage_width, false };
    out[n++] = (struct column){ FT_COL_ARGS, 4, true };
    out[n++] = (struct column){ FT_COL_MSL, 4, false };
    out[n++] = (struct column){ FT_COL_SIZE, 6, true };
    out[n++] = (struct column){ FT_COL_HASH, 4, false };
    out[n++] = (struct column){ FT_COL_SRC, 3, false };
    int fixed = 0;
    for (int c = 0; c < n; c++)
        fixed += out[c].width + 1;
    if (width - fixed - (t->requires_width + 1) >= NAME_MIN_WIDTH)
        out[n++] = (struct column){ FT_COL_REQUIRES, t->requires_width, false };
    return n;
}

static const struct ft_row *selected(const struct explorer *ex)
{
    return ftable_row(&ex->funcs, ex->funcs.sel);
}

static bool is_hit(const struct ftable *t, size_t pos)
{
    size_t lo = 0, hi = t->n_hits;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->hits[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_hits && t->hits[lo] == pos;
}

/* The selected name, wrapped into at most NAME_LINES_MAX lines. */
static int name_lines(const char *name, int width, size_t *starts)
{
    if (!name || !name[0] || width < 1)
        return 1;
    int n = wrap_text(name, width, starts, NAME_LINES_MAX);
    return n < 1 ? 1 : n;
}

static int list_rows(struct explorer *ex, int name_h)
{
    int rows = ex->lay.body.h - 2 - name_h;
    return rows > 1 ? rows : 1;
}

static void scroll_to_sel(struct ftable *t, int rows)
{
    if (t->sel < t->top)
        t->top = t->sel;
    else if (t->sel >= t->top + (size_t)rows)
        t->top = t->sel - (size_t)rows + 1;
}

static void draw_title_bar(struct explorer *ex, int y)
{
    struct ftable *t = &ex->funcs;
    const struct rect *r = &ex->lay.body;
    char all[32], shown[32], bar[400];
    mtlbx_format_count(all, sizeof all, t->n_all);
    mtlbx_format_count(shown, sizeof shown, t->n_shown);
    int n = snprintf(bar, sizeof bar, " Functions  %s", all);
    if (t->filter[0])
        n += snprintf(bar + n, sizeof bar - (size_t)n, "  (%s shown, filter %.100s)", shown, t->filter);
    n += snprintf(bar + n, sizeof bar - (size_t)n, "  sorted by %s", ftable_col_title(t->sort));
    if (t->raw_names)
        snprintf(bar + n, sizeof bar - (size_t)n, "  raw names");
    term_put(y, r->x, r->w, bar, term_attr(AT_PANEL_TITLE_FOCUS), 0);
}

static void put_cell(int y, int x, const struct column *c, const char *text, attr_t a)
{
    char cell[300];
    if (c->right)
        snprintf(cell, sizeof cell, "%*.*s", c->width, c->width, text);
    else if ((int)strlen(text) > c->width)   /* a long file name: cut with an ellipsis */
        rowfmt_cut(text, c->width, rowfmt_ellipsis(term_ascii()), cell, sizeof cell);
    else
        snprintf(cell, sizeof cell, "%-*.*s", c->width, c->width, text);
    term_put(y, x, c->width + 1, cell, a, 0);
}

void functions_draw(struct explorer *ex)
{
    struct ftable *t = &ex->funcs;
    const struct rect *r = &ex->lay.body;
    struct column cols[FT_COL_COUNT];
    int n_cols = columns(t, r->w, cols);
    int fixed = 0;
    for (int c = 0; c < n_cols; c++)
        fixed += cols[c].width + 1;
    int name_w = r->w - fixed;
    const char *ell = rowfmt_ellipsis(term_ascii());

    /* The whole name of the selection, at the bottom of the body. */
    const struct ft_row *sel = selected(ex);
    char *full = sel ? ftable_display_name(t, sel) : NULL;
    size_t starts[NAME_LINES_MAX + 1];
    int name_h = name_lines(full, r->w, starts);
    int rows = list_rows(ex, name_h);
    scroll_to_sel(t, rows);

    draw_title_bar(ex, r->y);
    /* Column headings; the sort column in capitals. */
    int x = r->x;
    for (int c = 0; c < n_cols; c++) {
        char title[32];
        snprintf(title, sizeof title, "%s", ftable_col_title(cols[c].col));
        if (t->sort == cols[c].col)
            for (char *p = title; *p; p++)
                *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        put_cell(r->y + 1, x, &cols[c], title, term_attr(AT_HEADING));
        x += cols[c].width + 1;
    }
    if (name_w > 0)
        term_put(r->y + 1, x, name_w, t->sort == FT_COL_NAME ? "NAME" : "name", term_attr(AT_HEADING), 0);

    for (int k = 0; k < rows; k++) {
        int y = r->y + 2 + k;
        size_t pos = t->top + (size_t)k;
        const struct ft_row *row = ftable_row(t, pos);
        if (!row) {
            term_fill(y, r->x, r->w, A_NORMAL);
            continue;
        }
        bool is_sel = pos == t->sel;
        attr_t base = is_sel ? term_attr(AT_SELECT) : A_NORMAL;
        term_fill(y, r->x, r->w, base);
        x = r->x;
        for (int c = 0; c < n_cols; c++) {
            char text[256];
            ftable_cell(t, row, cols[c].col, text, sizeof text);
            attr_t a = base;
            if (cols[c].col == FT_COL_HASH)
                a = strcmp(text, "BAD") == 0 ? term_attr_on(base, AT_BAD)
                    : strcmp(text, "ok") == 0 ? term_attr_on(base, AT_OK) : base;
            put_cell(y, x, &cols[c], text, a);
            x += cols[c].width + 1;
        }
        if (name_w <= 0)
            continue;
        char *name = ftable_display_name(t, row);
        char cut[2048];
        rowfmt_cut(name ? name : "?", name_w, ell, cut, sizeof cut);
        attr_t a = t->n_hits && is_hit(t, pos) ? term_attr_on(base, AT_MATCH) : base;
        term_put(y, x, name_w, cut, a, 0);
        free(name);
    }
    for (int k = 0; k < name_h; k++) {
        int y = r->y + 2 + rows + k;
        if (!full) {
            term_fill(y, r->x, r->w, A_NORMAL);
            continue;
        }
        char piece[1400];
        wrap_line(full, starts, k, piece, sizeof piece);
        if (k == name_h - 1 && starts[k + 1] < strlen(full))
            rowfmt_cut(full + starts[k], r->w, ell, piece, sizeof piece);
        term_put(y, r->x, r->w, piece, A_BOLD, 0);
    }
    free(full);
}

void functions_status(struct explorer *ex, char *buf, size_t size)
{
    struct ftable *t = &ex->funcs;
    const struct ft_row *row = selected(ex);
    buf[0] = '\0';
    if (!row)
        return;
    const struct mtlbx_function *fn = ftable_row_function(t, row);
    char a[32], b[32], c[32];
    snprintf(buf, size, "function %s of %s  module %s bytes", mtlbx_format_count(a, sizeof a, t->sel + 1),
             mtlbx_format_count(b, sizeof b, t->n_shown),
             fn->module_valid ? mtlbx_format_count(c, sizeof c, fn->module.size) : "-");
}

static const char *iface_text(void *ctx, const mtlbx_library *lib, size_t index, size_t *len)
{
    struct explorer *ex = ctx;
    return ifacer_search_text(ex->ifacer, lib, index, len);
}

static void say_match(struct explorer *ex, bool wrapped)
{
    struct ftable *t = &ex->funcs;
    char a[32], b[32];
    ex_message(ex, "match %s/%s%s", mtlbx_format_count(a, sizeof a, t->hit_cur + 1),
               mtlbx_format_count(b, sizeof b, t->n_hits), wrapped ? "  (search wrapped)" : "");
}

static void search_functions(struct explorer *ex)
{
    struct ftable *t = &ex->funcs;
    char q[sizeof t->query];
    if (!prompt_line(ex, "Search functions (name, argument name or type)", "", q, sizeof q) || !q[0])
        return;
    if (ftable_search(t, q, iface_text, ex) == 0) {
        ex_error(ex, "not found: %s", q);
        return;
    }
    /* The first match from the selection on, the selection included. */
    bool wrapped;
    if (t->sel > 0)
        t->sel--;
    else
        t->sel = t->n_shown ? t->n_shown - 1 : 0;
    ftable_search_step(t, true, &wrapped);
    say_match(ex, false);
}

static void filter_functions(struct explorer *ex)
{
    struct ftable *t = &ex->funcs;
    char in[sizeof t->filter];
    if (!prompt_line(ex, "Filter functions (name, kernel, air 2.6; empty clears)", t->filter, in, sizeof in))
        return;
    snprintf(t->filter, sizeof t->filter, "%s", in);
    if (!ftable_apply(t))
        ex_error(ex, "out of memory sorting the functions");
    char a[32], b[32];
    if (!in[0])
        ex_message(ex, "filter cleared");
    else if (t->n_shown == 0)
        ex_error(ex, "no function matches %s (Esc clears the filter)", in);
    else
        ex_message(ex, "filter %s: %s of %s functions  (Esc clears the filter)", in,
                   mtlbx_format_count(a, sizeof a, t->n_shown), mtlbx_format_count(b, sizeof b, t->n_all));
}

static void move_by(struct explorer *ex, long delta)
{
    struct ftable *t = &ex->funcs;
    if (!t->n_shown)
        return;
    long s = (long)t->sel + delta;
    if (s < 0)
        s = 0;
    if (s >= (long)t->n_shown)
        s = (long)t->n_shown - 1;
    t->sel = (size_t)s;
}

void functions_action(struct explorer *ex, enum action a)
{
    struct ftable *t = &ex->funcs;
    const struct ft_row *row = selected(ex);
    long page = ex->lay.body.h - 3;
    if (page < 1)
        page = 1;
    switch (a) {
    case ACT_QUIT: ex->quit = true; return;
    case ACT_DOWN: move_by(ex, 1); return;
    case ACT_UP: move_by(ex, -1); return;
    case ACT_PAGE_DOWN: move_by(ex, page); return;
    case ACT_PAGE_UP: move_by(ex, -page); return;
    case ACT_HALF_DOWN: move_by(ex, page / 2); return;
    case ACT_HALF_UP: move_by(ex, -page / 2); return;
    case ACT_TOP: t->sel = 0; return;
    case ACT_BOTTOM: t->sel = t->n_shown ? t->n_shown - 1 : 0; return;
    case ACT_SEARCH: search_functions(ex); return;
    case ACT_SEARCH_NEXT:
    case ACT_SEARCH_PREV: {
        bool wrapped;
        if (!t->n_hits)
            ex_message(ex, "no search yet: press / first");
        else if (ftable_search_step(t, a == ACT_SEARCH_NEXT, &wrapped))
            say_match(ex, wrapped);
        return;
    }
    case ACT_FILTER: filter_functions(ex); return;
    case ACT_SORT:
        t->sort = (enum ft_col)((t->sort + 1) % FT_COL_COUNT);
        if (t->sort == FT_COL_FILE && !t->show_file)
            t->sort = (enum ft_col)(t->sort + 1);
        if (!ftable_apply(t))
            ex_error(ex, "out of memory sorting the functions");
        else
            ex_message(ex, "sorted by %s  (S again for the next column)", ftable_col_title(t->sort));
        return;
    case ACT_CLEAR: {
        bool had = t->filter[0] || t->n_hits;
        t->filter[0] = '\0';
        ftable_apply(t);
        if (had)
            ex_message(ex, "filter and search cleared");
        return;
    }
    case ACT_RAW_NAMES:
        t->raw_names = !t->raw_names;
        ex_message(ex, t->raw_names ? "names as stored" : "names demangled");
        return;
    case ACT_BACK: ex_go_back(ex); return;
    case ACT_FORWARD: ex_go_forward(ex); return;
    case ACT_COMPARE: compare_open(ex); return;
    case ACT_FOLDER: folder_back(ex); return;
    case ACT_DIAGNOSTICS: diag_view_open(ex); return;
    default: break;
    }
    if (!row) {
        ex_message(ex, "no function here (f filters, Esc clears the filter)");
        return;
    }
    mtlbx_library *lib = ftable_row_lib(t, row);
    switch (a) {
    case ACT_ENTER:
    case ACT_PANE_IFACE:
        ex_push_history(ex);
        page_open(ex, row->lib, row->index);
        break;
    case ACT_SOURCES: page_show_source(ex, lib, row->index); break;
    case ACT_DISASSEMBLE: action_disassemble_function(ex, lib, row->index); break;
    case ACT_PANE_BYTES: page_show_bytes(ex, lib, row->index); break;
    case ACT_EXTRACT:
        if (bytes_select_function(ex, lib, row->index))
            action_extract(ex, false);
        break;
    default: break;
    }
}
