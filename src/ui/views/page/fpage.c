/* A function's page: one key per question, each a full pane. `i` (the
 * page itself) is the interface as a binding table; `s` opens the
 * embedded source member at the function's definition and `d` its IR in
 * the text view (q comes back here); `b` shows its bytes in the byte
 * explorer. Backspace returns to where the page was opened from. */
#include "config.h"

#include "ui/model/iface_table.h"
#include "ui/text/rowfmt.h"
#include "ui/text/source_find.h"
#include "ui/term/term.h"
#include "ui/core/ui.h"
#include "ui/text/wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Continuation lines of a wrapped line are indented this much. */
#define WRAP_INDENT 6
#define WRAP_MAX_LINES 64

static mtlbx_library *page_lib(const struct explorer *ex)
{
    return ex->page.lib < ex->funcs.n_libs ? ex->funcs.libs[ex->page.lib].lib : NULL;
}

void page_free(struct fpage *p)
{
    iface_table_free(p->lines, p->heading, p->n_lines);
    p->lines = NULL;
    p->heading = NULL;
    p->n_lines = 0;
}

/* Opening a page is only naming its function (history.c does the same
 * to come back to one): the first draw builds the rest. */
void page_open(struct explorer *ex, uint32_t lib, uint32_t fn)
{
    ex->page.lib = lib;
    ex->page.fn = fn;
    ex->page.top = 0;
    ex->screen = SCREEN_PAGE;
}

bool page_waiting(struct explorer *ex)
{
    mtlbx_library *l = ex->screen == SCREEN_PAGE ? page_lib(ex) : NULL;
    return l && mtlbx_function_interface_cached(ex_model_of(ex, l), l, ex->page.fn, NULL, NULL) ==
                    MTLBX_IFACE_NOT_DECODED;
}

static void build(struct explorer *ex)
{
    struct fpage *p = &ex->page;
    mtlbx_library *l = page_lib(ex);
    if (!l)
        return;
    bool other = !p->lines || p->built_lib != p->lib || p->built_fn != p->fn;
    mtlbx_model *model = ex_model_of(ex, l);
    int state = mtlbx_function_interface_cached(model, l, p->fn, NULL, NULL);
    if (!other && state == p->built_state && p->lines)
        return;
    if (other) {
        /* A new function: its interface first in the worker's queue, and
         * the table on it, so Backspace lands there. */
        if (state == MTLBX_IFACE_NOT_DECODED)
            ifacer_prioritise(ex->ifacer, model, l, p->fn);
        long pos = ftable_find(&ex->funcs, l, p->fn);
        if (pos >= 0)
            ex->funcs.sel = (size_t)pos;
    }
    page_free(p);
    p->built_lib = p->lib;
    p->built_fn = p->fn;
    p->built_state = iface_table_build(model, l, p->fn, &p->lines, &p->heading, &p->n_lines);
}

/* Screen rows of one logical line at `width`. */
static int wrapped_rows(const char *s, int width, size_t *starts)
{
    int n = wrap_text(s, width, starts, WRAP_MAX_LINES);
    return n < 1 ? 1 : n;
}

static int body_rows(const struct explorer *ex)
{
    int rows = ex->lay.body.h - 2;
    return rows > 1 ? rows : 1;
}

static size_t total_rows(struct explorer *ex, int width)
{
    size_t total = 0, starts[WRAP_MAX_LINES + 1];
    for (size_t i = 0; i < ex->page.n_lines; i++)
        total += (size_t)wrapped_rows(ex->page.lines[i], width, starts);
    return total;
}

void page_draw(struct explorer *ex)
{
    struct fpage *p = &ex->page;
    const struct rect *r = &ex->lay.body;
    mtlbx_library *l = page_lib(ex);
    build(ex);
    /* Title: which pane, and the keys of the others. */
    char title[200];
    snprintf(title, sizeof title, " Interface  (s source, d IR, b bytes; Backspace returns)");
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    /* The name, whole, wrapped under the title when long. */
    const struct ft_row row = { p->lib, p->fn };
    char *name = l ? ftable_display_name(&ex->funcs, &row) : NULL;
    const struct mtlbx_function *f = l ? mtlbx_function_at(l, p->fn) : NULL;
    char head[1600];
    char type[32];
    const char *stage = f && (f->present & MTLBX_F_TYPE) ? mtlbx_function_type_name(f->type, type, sizeof type)
                                                         : "function";
    snprintf(head, sizeof head, "%s %s", stage, name ? name : "?");
    free(name);
    size_t hs[5];
    int head_rows = wrap_text(head, r->w, hs, 4);
    if (head_rows < 1)
        head_rows = 1;
    int y = r->y + 1;
    for (int k = 0; k < head_rows; k++, y++) {
        char piece[1600];
        term_put(y, r->x, r->w, wrap_line(head, hs, k, piece, sizeof piece), A_BOLD, 0);
    }
    int width = r->w - 1;
    int rows = r->y + r->h - y;
    size_t total = total_rows(ex, width);
    if (rows > 0 && p->top + (size_t)rows > total)
        p->top = total > (size_t)rows ? total - (size_t)rows : 0;
    /* Skip to the first wrapped row shown, then draw. */
    size_t row_no = 0, starts[WRAP_MAX_LINES + 1];
    for (size_t i = 0; i < p->n_lines && y < r->y + r->h; i++) {
        int n = wrapped_rows(p->lines[i], width, starts);
        for (int k = 0; k < n && y < r->y + r->h; k++, row_no++) {
            if (row_no < p->top)
                continue;
            char piece[4096];
            wrap_line(p->lines[i], starts, k, piece, sizeof piece);
            int indent = k ? WRAP_INDENT : 0;
            term_fill(y, r->x, r->w, A_NORMAL);
            term_put(y, r->x + indent, r->w - indent, piece, p->heading[i] ? term_attr(AT_HEADING) : A_NORMAL, 0);
            y++;
        }
    }
    for (; y < r->y + r->h; y++)
        term_fill(y, r->x, r->w, A_NORMAL);
}

void page_status(struct explorer *ex, char *buf, size_t size)
{
    mtlbx_library *l = page_lib(ex);
    buf[0] = '\0';
    if (!l)
        return;
    const struct mtlbx_function *f = mtlbx_function_at(l, ex->page.fn);
    char a[32];
    snprintf(buf, size, "function %u  module %s bytes  hash %s", ex->page.fn,
             f->module_valid ? mtlbx_format_count(a, sizeof a, f->module.size) : "-",
             mtlbx_function_hash_state(l, ex->page.fn) == MTLBX_HASH_MATCHES         ? "ok"
             : mtlbx_function_hash_state(l, ex->page.fn) == MTLBX_HASH_MISMATCH ? "BAD"
                                                                               : "-");
}

/* ------------------------------------------------------------- source -- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

void page_show_source(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    const struct mtlbx_sources *s = mtlbx_library_sources(lib);
    if (!s || !s->present || s->n_archives == 0) {
        ex_message(ex, "no embedded sources in this library (they come from -frecord-sources)");
        return;
    }
    long a = mtlbx_function_archive(lib, fn);
    if (a < 0) {
        ex_message(ex, "this function names no source archive (no SOFF)");
        return;
    }
    ex_message(ex, "decompressing the source archive...");
    ex_draw(ex);
    ex->status[0] = '\0';
    if (mtlbx_archive_load(lib, (size_t)a) != MTLBX_ARCHIVE_LOADED) {
        ex_error(ex, "the source archive does not decompress (! lists why)");
        return;
    }
    const struct mtlbx_archive *ar = &s->archives[a];
    const struct mtlbx_function *f = mtlbx_function_at(lib, fn);
    char *demangled = mtlbx_demangle(f->name);
    char *name = demangled ? demangled : strndup((const char *)f->name.ptr, f->name.len);
    /* The best definition over the members, .metal files before others. */
    long best = -1;
    int best_score = 0;
    size_t best_line = 0;
    for (int pass = 0; pass < 2 && best_score < 3; pass++)
        for (size_t m = 0; name && m < ar->n_members; m++) {
            const struct mtlbx_member *mem = &ar->members[m];
            if (mem->type != MTLBX_MEMBER_FILE || !mem->data || ends_with(mem->name, ".metal") != (pass == 0))
                continue;
            size_t line = 0;
            int score = source_find_definition(mem->data, mem->size, name, &line);
            if (score > best_score) {
                best_score = score;
                best = (long)m;
                best_line = line;
            }
        }
    if (best < 0) {
        ex_message(ex, "%s is not named in the embedded sources; s in the byte explorer lists them",
                   name ? "the function" : "?");
        free(name);
        return;
    }
    free(name);
    const struct mtlbx_member *mem = &ar->members[best];
    /* The file name first: a long path is cut at its end. */
    const char *slash = strrchr(mem->name, '/');
    const char *base = slash && slash[1] ? slash + 1 : mem->name;
    char *path = mtlbx_escape_dup((const uint8_t *)mem->name, strlen(mem->name), MTLBX_ESC_TERMINAL);
    char *file = mtlbx_escape_dup((const uint8_t *)base, strlen(base), MTLBX_ESC_TERMINAL);
    char title[1200];
    snprintf(title, sizeof title, "%.200s in %.900s", file ? file : "?", path ? path : "?");
    textview_open(ex, title, (const char *)mem->data, mem->size, base);
    free(path);
    free(file);
    if (ex->screen == SCREEN_TEXT) {
        textview_goto_line(ex, best_line);
        ex_message(ex, "line %zu%s; q returns", best_line + 1,
                   best_score >= 3 ? " defines it" : best_score == 2 ? " names it" : " mentions it");
    }
}

void page_show_bytes(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    ex_push_history(ex);
    enum ex_screen from = ex->screen;
    ex->screen = SCREEN_MAIN;
    if (!bytes_select_function(ex, lib, fn)) {
        ex->screen = from;
        ex->n_history--;
        ex_error(ex, "the tree does not show this function (F, or Esc in the bytes clears its filter)");
        return;
    }
    ex->focus = PANEL_TREE;
    ex_message(ex, "the function's bytes; Backspace returns");
}

/* ------------------------------------------------------------- keys -- */

void page_action(struct explorer *ex, enum action a)
{
    struct fpage *p = &ex->page;
    mtlbx_library *l = page_lib(ex);
    long page = body_rows(ex) - 1;
    if (page < 1)
        page = 1;
    switch (a) {
    case ACT_DOWN: p->top++; break;
    case ACT_UP: p->top = p->top ? p->top - 1 : 0; break;
    case ACT_PAGE_DOWN: p->top += (size_t)page; break;
    case ACT_PAGE_UP: p->top = p->top > (size_t)page ? p->top - (size_t)page : 0; break;
    case ACT_HALF_DOWN: p->top += (size_t)page / 2; break;
    case ACT_HALF_UP: p->top = p->top > (size_t)page / 2 ? p->top - (size_t)page / 2 : 0; break;
    case ACT_TOP: p->top = 0; break;
    case ACT_BOTTOM: p->top = SIZE_MAX / 2; break;
    case ACT_PANE_IFACE: p->top = 0; break;
    case ACT_QUIT:
    case ACT_BACK:
        if (ex->n_history)
            ex_go_back(ex);
        else
            ex->screen = SCREEN_FUNCTIONS;
        break;
    case ACT_FORWARD: ex_go_forward(ex); break;
    case ACT_RAW_NAMES:
        ex->funcs.raw_names = !ex->funcs.raw_names;
        ex_message(ex, ex->funcs.raw_names ? "names as stored" : "names demangled");
        break;
    case ACT_SOURCES:
        if (l)
            page_show_source(ex, l, p->fn);
        break;
    case ACT_DISASSEMBLE:
        if (l)
            action_disassemble_function(ex, l, p->fn);
        break;
    case ACT_PANE_BYTES:
        if (l)
            page_show_bytes(ex, l, p->fn);
        break;
    case ACT_EXTRACT:
        if (l && bytes_select_function(ex, l, p->fn))
            action_extract(ex, false);
        break;
    default: break;
    }
}
