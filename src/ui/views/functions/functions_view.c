/* The function table, the home of a library (htop's process list, k9s's
 * resource list): one row per function, short columns, and the name from
 * its first character in all the width they leave, cut at its end only
 * when it must be. The selected function's whole name has lines of its
 * own under the rows. Only the rows on screen are formatted.
 *
 * Functions are marked as a file manager marks files (Space, a, v, u):
 * while any is, a gutter at the left shows `*` on each marked row (not
 * colour alone), and w writes a library of them (verbs/write_library.c). */
#include "config.h"

#include "ui/views/functions/functions_view.h"
#include "ui/core/core.h"
#include "ui/core/job.h"
#include "ui/model/fnfilter.h"
#include "ui/model/ftable.h"
#include "ui/term/term.h"
#include "ui/text/query.h"
#include "ui/text/rowfmt.h"
#include "ui/text/wrap.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/list.h"
#include "ui/widgets/prompt.h"
#include "ui/work/ifacer.h"

#include "safe_write.h"
#include "container/file.h"
#include "container/lower_bound.h"
#include "container/nouns.h"
#include "container/digits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The marks' gutter: "* " on a marked row, while any function is marked. */
#define MARK_GUTTER 2

/* The whole selected name gets at most this many lines. */
#define NAME_LINES_MAX 4
/* Names keep at least this many columns: the requires column goes
 * first when the screen is narrower (as htop drops columns). */
#define NAME_MIN_WIDTH 40

/* The view's private block: the table's rows (a model of every open
 * library's functions) and the list over them. */
struct functions {
    struct ftable t;
    struct list list;
    bool built;
    struct ft_kept_marks kept;   /* marks of files shown before, for when they show again */
};

static struct functions *state(struct explorer *ex)
{
    return view_state(ex, VIEW_FUNCTIONS);
}


struct column {
    enum ft_col col;
    int width;
    bool right;                  /* numbers are right-aligned */
};

/* The columns before the name for a screen `width` wide: the file
 * column only with several libraries, gpu only in a binary archive,
 * gpu then requires only where names keep NAME_MIN_WIDTH. */
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
    /* In a binary archive the GPU code comes before requires. */
    if (t->show_gpu && width - fixed - (t->gpu_width + 1) >= NAME_MIN_WIDTH) {
        out[n++] = (struct column){ FT_COL_GPU, t->gpu_width, false };
        fixed += t->gpu_width + 1;
    }
    if (width - fixed - (t->requires_width + 1) >= NAME_MIN_WIDTH)
        out[n++] = (struct column){ FT_COL_REQUIRES, t->requires_width, false };
    return n;
}

/* S: the next column shown at this width (a sort by a column one cannot
 * see, requires at 80 columns, would look like no order at all), then the
 * name, then the file's order again. */
static enum ft_col next_sort(struct explorer *ex, const struct ftable *t)
{
    struct column cols[FT_COL_COUNT];
    int n = columns(t, ex->lay.body.w - (t->n_marked ? MARK_GUTTER : 0), cols);
    for (int c = (int)t->sort + 1; c < FT_COL_COUNT; c++) {
        if (c == FT_COL_NAME)
            return FT_COL_NAME;
        for (int k = 0; k < n; k++)
            if (cols[k].col == (enum ft_col)c)
                return (enum ft_col)c;
    }
    return FT_COL_ORDER;
}

static const struct ft_row *selected(struct functions *fv)
{
    return ftable_row(&fv->t, fv->list.sel);
}

static bool is_hit(const struct ftable *t, size_t pos)
{
    size_t lo = mtlbx_lower_bound_u32(t->hits, t->n_hits, (uint32_t)pos);
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

static void draw_title_bar(struct explorer *ex, struct ftable *t, int y)
{
    const struct rect *r = &ex->lay.body;
    char all[32], shown[32], bar[400];
    mbx_format_count(all, sizeof all, t->n_all);
    mbx_format_count(shown, sizeof shown, t->n_shown);
    int n = snprintf(bar, sizeof bar, " Functions  %s", all);
    if (t->filter[0])
        n += snprintf(bar + n, sizeof bar - (size_t)n, "  (%s shown, filter %.100s)", shown, t->filter);
    n += snprintf(bar + n, sizeof bar - (size_t)n, "  sorted by %s", ftable_col_title(t->sort));
    if (t->n_marked) {
        char marked[32];
        n += snprintf(bar + n, sizeof bar - (size_t)n, "  %s marked",
                      mbx_format_count(marked, sizeof marked, t->n_marked));
    }
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

static void functions_draw(struct explorer *ex)
{
    struct functions *fv = state(ex);
    struct ftable *t = &fv->t;
    t->raw_names = ex->raw_names;
    const struct rect *r = &ex->lay.body;
    struct column cols[FT_COL_COUNT];
    int gutter = t->n_marked ? MARK_GUTTER : 0;
    int n_cols = columns(t, r->w - gutter, cols);
    int fixed = gutter;
    for (int c = 0; c < n_cols; c++)
        fixed += cols[c].width + 1;
    int name_w = r->w - fixed;
    const char *ell = rowfmt_ellipsis(term_ascii());

    /* The whole name of the selection, at the bottom of the body. */
    const struct ft_row *sel = selected(fv);
    char *full = sel ? ftable_display_name(t, sel) : NULL;
    size_t starts[NAME_LINES_MAX + 1];
    int name_h = name_lines(full, r->w, starts);
    list_set(&fv->list, t->n_shown, r->y + 2, r->h - 2 - name_h);
    int rows = (int)list_page(&fv->list);

    draw_title_bar(ex, t, r->y);
    /* Column headings; the sort column in capitals. */
    int x = r->x + gutter;
    if (gutter)
        term_put(r->y + 1, r->x, gutter, "", term_attr(AT_HEADING), 0);
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
        size_t pos = fv->list.top + (size_t)k;
        const struct ft_row *row = ftable_row(t, pos);
        if (!row) {
            term_fill(y, r->x, r->w, A_NORMAL);
            continue;
        }
        bool is_sel = pos == fv->list.sel;
        attr_t base = is_sel ? term_attr(AT_SELECT) : A_NORMAL;
        term_fill(y, r->x, r->w, base);
        x = r->x + gutter;
        bool marked = ftable_is_marked(t, row);
        if (gutter)
            term_put(y, r->x, gutter, marked ? "*" : "", marked ? base | A_BOLD : base, 0);
        if (marked)
            base |= A_BOLD;
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

static void functions_status(struct explorer *ex, char *buf, size_t size)
{
    struct functions *fv = state(ex);
    const struct ft_row *row = selected(fv);
    buf[0] = '\0';
    if (!row)
        return;
    const struct mtlbx_function *fn = ftable_row_function(&fv->t, row);
    char a[32], b[32], c[32];
    int n = snprintf(buf, size, "function %s of %s  module %s bytes",
                     mbx_format_count(a, sizeof a, fv->list.sel + 1), mbx_format_count(b, sizeof b, fv->t.n_shown),
                     fn->module_valid ? mbx_format_count(c, sizeof c, fn->module.size) : "-");
    if (fv->t.n_marked && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "  %s marked", mbx_format_count(a, sizeof a, fv->t.n_marked));
}

static const char *iface_text(void *ctx, const mtlbx_library *lib, size_t index, size_t *len)
{
    struct explorer *ex = ctx;
    return ifacer_search_text(ex->ifacer, lib, index, len);
}

static void say_match(struct explorer *ex, struct ftable *t, bool wrapped)
{
    char a[32], b[32];
    ex_message(ex, "match %s/%s%s", mbx_format_count(a, sizeof a, t->hit_cur + 1),
               mbx_format_count(b, sizeof b, t->n_hits), wrapped ? "  (search wrapped)" : "");
}

/* `/` over the shown functions: ftable keeps every match, so n and N
 * step through them and say "match i/N". */
static bool functions_grep(struct explorer *ex, const struct query *q, bool fresh, bool forward)
{
    struct functions *fv = state(ex);
    struct ftable *t = &fv->t;
    bool wrapped;
    if (fresh) {
        if (ftable_search(t, q->text, iface_text, ex) == 0) {
            ex_error(ex, "not found: %s", q->text);
            return false;
        }
        /* The first match from the selection on, the selection included. */
        size_t sel = fv->list.sel > 0 ? fv->list.sel - 1 : t->n_shown ? t->n_shown - 1 : 0;
        ftable_search_step(t, &sel, true, &wrapped);
        list_select(&fv->list, (long)sel);
        say_match(ex, t, false);
        return true;
    }
    size_t sel = fv->list.sel;
    /* A search that found nothing (or a filter or sort since, which drops
     * the matches) is searched again: the interfaces behind argument
     * names may have come in meanwhile. */
    if (!t->n_hits && ftable_search(t, q->text, iface_text, ex) == 0) {
        ex_error(ex, "not found: %s", q->text);
        return false;
    }
    if (!ftable_search_step(t, &sel, forward, &wrapped))
        return false;
    list_select(&fv->list, (long)sel);
    say_match(ex, t, wrapped);
    return true;
}

static void apply(struct explorer *ex, struct functions *fv)
{
    size_t sel = fv->list.sel;
    if (!ftable_apply(&fv->t, &sel))
        ex_error(ex, "out of memory sorting the functions");
    fv->list.n = fv->t.n_shown;
    list_select(&fv->list, (long)sel);
}

static void filter_functions(struct explorer *ex, struct functions *fv)
{
    struct ftable *t = &fv->t;
    char in[sizeof t->filter];
    if (!prompt_line(ex, FNFILTER_PROMPT, t->filter, in, sizeof in))
        return;
    snprintf(t->filter, sizeof t->filter, "%s", in);
    apply(ex, fv);
    char a[32], b[32];
    if (!in[0])
        ex_message(ex, "filter cleared");
    else if (t->n_shown == 0)
        ex_error(ex, "no function matches %s (Esc clears the filter)", in);
    else if (!ex->status[0])
        ex_message(ex, "filter %s: %s of %s functions  (Esc clears the filter)", in,
                   mbx_format_count(a, sizeof a, t->n_shown), mbx_format_count(b, sizeof b, t->n_all));
}

/* "3 marked (1 hidden by the filter); w writes a library of them". */
static void say_marks(struct explorer *ex, struct ftable *t, const char *what)
{
    char n[32], h[32];
    size_t hidden = ftable_marked_hidden(t);
    if (!t->n_marked) {
        ex_message(ex, "%sno function marked", what);
        return;
    }
    mbx_format_count(n, sizeof n, t->n_marked);
    mbx_format_count(h, sizeof h, hidden);
    ex_message(ex, "%s%s marked%s%s%s; w writes a library of them, u unmarks all", what, n,
               hidden ? " (" : "", hidden ? h : "", hidden ? " hidden by the filter)" : "");
}

static void mark(struct explorer *ex, struct functions *fv, enum action a)
{
    struct ftable *t = &fv->t;
    bool ok = true;
    switch (a) {
    case ACT_MARK:
        if (!ftable_row(t, fv->list.sel)) {
            ex_message(ex, "no function here (f filters, Esc clears the filter)");
            return;
        }
        ok = ftable_mark_toggle(t, fv->list.sel);
        list_select(&fv->list, (long)fv->list.sel + 1);
        if (ok)
            say_marks(ex, t, "");
        break;
    case ACT_MARK_ALL:
    case ACT_MARK_INVERT: {
        long changed = ftable_mark_shown(t, a == ACT_MARK_ALL ? FT_MARK_SET : FT_MARK_INVERT);
        ok = changed >= 0;
        if (ok)
            say_marks(ex, t, a == ACT_MARK_ALL ? "every function shown marked: " : "marks inverted: ");
        break;
    }
    case ACT_UNMARK_ALL: {
        char n[32];
        size_t had = ftable_unmark_all(t);
        if (had)
            ex_message(ex, "%s %s unmarked", mbx_format_count(n, sizeof n, had), mbx_noun(had, "function", "functions"));
        else
            ex_message(ex, "no function was marked");
        break;
    }
    default: break;
    }
    if (!ok)
        ex_error(ex, "out of memory marking the functions");
}

/* The name offered for the library: the function's for one, else the
 * file's with the count ("candle-steel-gemm-3-functions.metallib"). */
static void default_name(struct explorer *ex, const struct ftable *t, const struct ft_row *row, size_t n,
                         bool marked, char *out, size_t size)
{
    char *safe = NULL;
    if (!marked) {
        const struct mtlbx_function *fn = ftable_row_function(t, row);
        safe = safe_component(fn->name.ptr, fn->name.len);
        snprintf(out, size, "%s.metallib", safe ? safe : "function");
    } else {
        const char *path = ex->files[t->libs[row->lib].file].path;
        const char *base = path ? strrchr(path, '/') : NULL;
        base = base ? base + 1 : path ? path : "library";
        size_t len = strlen(base);
        if (len > 9 && strcmp(base + len - 9, ".metallib") == 0)
            len -= 9;
        safe = safe_component((const uint8_t *)base, len);
        snprintf(out, size, "%s-%zu-functions.metallib", safe ? safe : "library", n);
    }
    free(safe);
}

/* w: the marked functions, or the one under the cursor, of one file. */
static void write_library(struct explorer *ex, struct functions *fv)
{
    struct ftable *t = &fv->t;
    const struct ft_row *cur = selected(fv);
    struct library_pick pick = { .marked = t->n_marked > 0 };
    size_t n_files = 0;
    if (pick.marked) {
        n_files = ftable_marked_files(t, &pick.file);
    } else if (cur) {
        pick.file = t->libs[cur->lib].file;
        n_files = 1;
    }
    if (n_files == 0) {
        ex_message(ex, "no function here (f filters, Esc clears the filter)");
        return;
    }
    if (n_files > 1) {
        ex_error(ex, "the marked functions are in %zu files: a library is written of one file's (u unmarks all)",
                 n_files);
        return;
    }
    mtlbx_file *f = ex->files[pick.file].f;
    pick.n_libs = mbx_file_library_count(f);
    pick.keep = calloc(pick.n_libs + 1, sizeof *pick.keep);
    bool ok = pick.keep != NULL;
    for (size_t l = 0; ok && l < pick.n_libs; l++)
        ok = (pick.keep[l] = calloc(mbx_library_function_count(mbx_library_at(f, l)) + 1, 1)) != NULL;
    const struct ft_row *name_row = cur;
    for (size_t i = 0; ok && i < t->n_all; i++) {
        const struct ft_row *r = &t->all[i];
        if (pick.marked ? !t->marked[i] : r != cur)
            continue;
        /* The table's library is one of the file's: which one. */
        for (size_t l = 0; l < pick.n_libs; l++)
            if (mbx_library_at(f, l) == t->libs[r->lib].lib) {
                pick.n_functions += !pick.keep[l][r->index];
                pick.keep[l][r->index] = true;
            }
        name_row = pick.marked && pick.n_functions == 1 ? r : name_row;
    }
    if (!ok) {
        library_pick_free(&pick);
        ex_error(ex, "out of memory");
        return;
    }
    /* One marked function is named as one under the cursor is. */
    default_name(ex, t, name_row, pick.n_functions, pick.n_functions > 1, pick.default_name,
                 sizeof pick.default_name);
    verb_write_library(ex, &pick);
}

static enum view_result functions_action(struct explorer *ex, enum action a)
{
    struct functions *fv = state(ex);
    struct ftable *t = &fv->t;
    const struct ft_row *row = selected(fv);
    switch (a) {
    case ACT_FILTER: filter_functions(ex, fv); return VIEW_HANDLED;
    case ACT_MARK: case ACT_MARK_ALL: case ACT_MARK_INVERT: case ACT_UNMARK_ALL:
        mark(ex, fv, a);
        return VIEW_HANDLED;
    case ACT_WRITE: write_library(ex, fv); return VIEW_HANDLED;
    case ACT_SORT:
        t->sort = next_sort(ex, t);
        apply(ex, fv);
        if (!ex->status[0])
            ex_message(ex, "sorted by %s  (S again for the next column)", ftable_col_title(t->sort));
        return VIEW_HANDLED;
    case ACT_CLEAR: {
        bool had = t->filter[0] || t->n_hits;
        t->filter[0] = '\0';
        apply(ex, fv);
        if (had)
            ex_message(ex, "filter and search cleared");
        return VIEW_HANDLED;
    }
    case ACT_RAW_NAMES:
        ex->raw_names = !ex->raw_names;
        ex_message(ex, ex->raw_names ? "names as stored" : "names demangled");
        return VIEW_HANDLED;
    case ACT_COMPARE: {
        struct place at = place_file(row ? t->libs[row->lib].file : 0);
        open_view(ex, VIEW_COMPARE, &at);
        return VIEW_HANDLED;
    }
    case ACT_FOLDER:
        if (!view_is_open(ex, VIEW_FOLDER))
            ex_message(ex, "F goes back to the folder list when a folder or archive was opened");
        else
            open_view(ex, VIEW_FOLDER, NULL);
        return VIEW_HANDLED;
    case ACT_DIAGNOSTICS:
        verb_show_problems(ex, row ? t->libs[row->lib].file : 0);
        return VIEW_HANDLED;
    default: break;
    }
    switch (a) {
    case ACT_ENTER: case ACT_PANE_IFACE: case ACT_SOURCES: case ACT_DISASSEMBLE:
    case ACT_PANE_BYTES: case ACT_EXTRACT: case ACT_COPY:
        if (!row) {
            ex_message(ex, "no function here (f filters, Esc clears the filter)");
            return VIEW_HANDLED;
        }
        break;
    default: return VIEW_IGNORED;
    }
    mtlbx_library *lib = ftable_row_lib(t, row);
    struct place at = place_function(lib, row->index);
    switch (a) {
    case ACT_ENTER:
    case ACT_PANE_IFACE: open_view(ex, VIEW_PAGE, &at); break;
    case ACT_SOURCES: verb_show_source(ex, lib, row->index); break;
    case ACT_DISASSEMBLE: verb_disassemble(ex, lib, row->index); break;
    case ACT_PANE_BYTES:
        if (open_view(ex, VIEW_BYTES, &at))
            ex_message(ex, "the function's bytes; Backspace returns");
        break;
    case ACT_EXTRACT: verb_extract_function(ex, lib, row->index); break;
    case ACT_COPY: {
        char *name = ftable_function_name(lib, row->index, true);
        if (name)
            verb_copy(ex, "the name", name);
        free(name);
        break;
    }
    default: break;
    }
    return VIEW_HANDLED;
}

/* ------------------------------------------------------------ opening -- */

static mtlbx_model *model_of(void *ctx, const mtlbx_library *lib)
{
    return ex_model_of(ctx, lib);
}

static long arg_count(void *ctx, const mtlbx_library *lib, size_t index)
{
    struct explorer *ex = ctx;
    return ifacer_arg_count(ex->ifacer, lib, index);
}

/* The table over every shown library. */
static bool build(struct explorer *ex, struct functions *fv)
{
    size_t n_libs = 0;
    for (uint32_t i = 0; i < ex->n_files; i++)
        n_libs += mbx_file_library_count(ex->files[i].f);
    struct ft_lib *libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (!libs)
        return false;
    size_t k = 0;
    for (uint32_t i = 0; i < ex->n_files; i++)
        for (size_t l = 0; l < mbx_file_library_count(ex->files[i].f); l++)
            if (mbx_library_at(ex->files[i].f, l))
                libs[k++] = (struct ft_lib){ mbx_library_at(ex->files[i].f, l), i, ex->files[i].path, 0, 0 };
    bool ok = ftable_init(&fv->t, libs, k);
    free(libs);
    fv->t.arg_count = arg_count;
    fv->t.model_of = model_of;
    fv->t.arg_ctx = ex;
    fv->list = (struct list){ .n = fv->t.n_shown };
    fv->built = true;
    size_t restored = ok ? ftable_marks_restore(&fv->t, &fv->kept) : 0;
    if (restored)
        ex_message(ex, "%zu %s marked before, still marked", restored, mbx_noun(restored, "function", "functions"));
    return ok;
}

/* The table of the shown files; a function (lib and function) selects its
 * row. False when they hold no function: a file without functions
 * (empty, damaged, a fat header only) opens on its bytes. */
static bool functions_open(struct explorer *ex, const struct place *at)
{
    struct functions *fv = state(ex);
    if (!fv->built && !build(ex, fv)) {
        ex_error(ex, "out of memory listing the functions");
        return false;
    }
    if (!fv->t.n_all)
        return false;
    if (at->lib && at->function >= 0) {
        long pos = ftable_find(&fv->t, at->lib, (size_t)at->function);
        if (pos >= 0)
            list_select(&fv->list, pos);
    }
    if (!ex->frames)
        ex_message(ex, "? shows every key; Enter opens a function, / searches, b shows bytes, q quits");
    return true;
}

static void functions_forget(struct explorer *ex)
{
    struct functions *fv = state(ex);
    struct ft_kept_marks kept = fv->kept;
    ftable_marks_keep(&fv->t, &kept);
    ftable_free(&fv->t);
    memset(fv, 0, sizeof *fv);
    fv->kept = kept;
}

static void functions_done(struct explorer *ex)
{
    ftable_free(&state(ex)->t);
    ftable_kept_marks_free(&state(ex)->kept);
}

static struct list *functions_list(struct explorer *ex)
{
    return &state(ex)->list;
}

/* A place is a function: the table finds its row again however it is
 * sorted or filtered since. */
static void functions_here(struct explorer *ex, struct jump *j)
{
    struct functions *fv = state(ex);
    const struct ft_row *row = selected(fv);
    if (row)
        j->at = place_function(ftable_row_lib(&fv->t, row), row->index);
    j->w[0] = fv->list.sel;
}

static bool functions_restore(struct explorer *ex, const struct jump *j)
{
    struct functions *fv = state(ex);
    long pos = j->at.lib ? ftable_find(&fv->t, j->at.lib, (size_t)j->at.function) : -1;
    list_select(&fv->list, pos >= 0 ? pos : (long)j->w[0]);
    return true;
}

const struct view_ops functions_view = {
    .name = "function table",
    .keys = KC_FUNCS,
    .state_size = sizeof(struct functions),
    .open = functions_open,
    .forget = functions_forget,
    .done = functions_done,
    .draw = functions_draw,
    .action = functions_action,
    .search = { "Search functions (name, argument name or type)", functions_grep },
    .status = functions_status,
    .list = functions_list,
    .jump = { functions_here, functions_restore },
};
