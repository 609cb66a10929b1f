/* A function's page: one key per question, each a full pane. `i` (the
 * page itself) is the interface as a binding table; `s` opens the
 * embedded source member at the function's definition and `d` its IR in
 * the text view (q comes back here); `b` shows its bytes in the byte
 * explorer. q closes it back to the table, Backspace goes back. */
#include "config.h"

#include "ui/views/page/page_view.h"
#include "ui/core/core.h"
#include "ui/model/ftable.h"
#include "ui/model/iface_table.h"
#include "ui/term/term.h"
#include "ui/text/wrap.h"
#include "ui/widgets/list.h"
#include "ui/verbs/verbs.h"
#include "ui/work/ifacer.h"
#include "checks/hash.h"
#include "container/digits.h"
#include "container/value_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Continuation lines of a wrapped line are indented this much. */
#define WRAP_INDENT 6
#define WRAP_MAX_LINES 64

/* The view's private block: the function, and the interface pane's
 * lines built for it. */
struct page {
    mtlbx_library *lib;
    size_t fn;
    struct list list;            /* scroll only: its top is the first wrapped row shown */
    char **lines;                /* the interface pane's logical lines */
    unsigned char *heading;      /* per line: drawn as a heading */
    size_t n_lines;
    int built_state;             /* interface state the lines were built from */
    mtlbx_library *built_lib;    /* the function they were built for */
    size_t built_fn;
};

static struct page *state(struct explorer *ex)
{
    return view_state(ex, VIEW_PAGE);
}

static void free_lines(struct page *p)
{
    iface_table_free(p->lines, p->heading, p->n_lines);
    p->lines = NULL;
    p->heading = NULL;
    p->n_lines = 0;
}

/* Opening a page is only naming its function: the first draw builds the
 * rest. */
static bool page_open(struct explorer *ex, const struct place *at)
{
    struct page *p = state(ex);
    if (at->lib && at->function >= 0 && (size_t)at->function < mbx_library_function_count(at->lib)) {
        if (p->lib != at->lib || p->fn != (size_t)at->function)
            p->list.top = 0;
        p->list.scroll_only = true;
        p->lib = at->lib;
        p->fn = (size_t)at->function;
    }
    if (!p->lib) {
        ex_error(ex, "no function to show");
        return false;
    }
    return true;
}

static bool waiting(struct explorer *ex, struct page *p)
{
    return p->lib && mbx_function_interface_cached(ex_model_of(ex, p->lib), p->lib, p->fn, NULL, NULL) ==
                         MTLBX_IFACE_NOT_DECODED;
}

/* While the interface is decoded in the background: keep waking up, and
 * draw again once it is in. */
static bool page_tick(struct explorer *ex, bool *busy)
{
    struct page *p = state(ex);
    if (waiting(ex, p))
        *busy = true;
    return p->lines && p->built_state != (int)mbx_function_interface_cached(ex_model_of(ex, p->lib), p->lib, p->fn,
                                                                           NULL, NULL);
}

static void build(struct explorer *ex, struct page *p)
{
    mtlbx_library *l = p->lib;
    if (!l)
        return;
    bool other = !p->lines || p->built_lib != l || p->built_fn != p->fn;
    mtlbx_model *model = ex_model_of(ex, l);
    int st = mbx_function_interface_cached(model, l, p->fn, NULL, NULL);
    if (!other && st == p->built_state && p->lines)
        return;
    /* A new function: its interface first in the worker's queue. */
    if (other && st == MTLBX_IFACE_NOT_DECODED)
        ifacer_prioritise(ex->ifacer, model, l, p->fn);
    free_lines(p);
    p->built_lib = l;
    p->built_fn = p->fn;
    p->built_state = iface_table_build(model, l, p->fn, &p->lines, &p->heading, &p->n_lines);
}

/* Screen rows of one logical line at `width`. */
static int wrapped_rows(const char *s, int width, size_t *starts)
{
    int n = wrap_text(s, width, starts, WRAP_MAX_LINES);
    return n < 1 ? 1 : n;
}

static size_t total_rows(struct page *p, int width)
{
    size_t total = 0, starts[WRAP_MAX_LINES + 1];
    for (size_t i = 0; i < p->n_lines; i++)
        total += (size_t)wrapped_rows(p->lines[i], width, starts);
    return total;
}

static void page_draw(struct explorer *ex)
{
    struct page *p = state(ex);
    const struct rect *r = &ex->lay.body;
    mtlbx_library *l = p->lib;
    build(ex, p);
    /* Title: which pane, and the keys of the others. */
    char title[200];
    snprintf(title, sizeof title, " Interface  (s source, d IR, b bytes; Backspace returns)");
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    /* The name, whole, wrapped under the title when long. */
    char *name = l ? ftable_function_name(l, p->fn, ex->raw_names) : NULL;
    const struct mtlbx_function *f = l ? mbx_function_at(l, p->fn) : NULL;
    char head[1600];
    char type[32];
    const char *stage = f && (f->present & MTLBX_F_TYPE) ? mbx_function_type_name(f->type, type, sizeof type)
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
    p->list.scroll_only = true;
    list_set(&p->list, total_rows(p, width), y, rows);
    /* Skip to the first wrapped row shown, then draw. */
    size_t row_no = 0, starts[WRAP_MAX_LINES + 1];
    for (size_t i = 0; i < p->n_lines && y < r->y + r->h; i++) {
        int n = wrapped_rows(p->lines[i], width, starts);
        for (int k = 0; k < n && y < r->y + r->h; k++, row_no++) {
            if (row_no < p->list.top)
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

static void page_status(struct explorer *ex, char *buf, size_t size)
{
    struct page *p = state(ex);
    mtlbx_library *l = p->lib;
    buf[0] = '\0';
    if (!l)
        return;
    const struct mtlbx_function *f = mbx_function_at(l, p->fn);
    char a[32];
    snprintf(buf, size, "function %zu  module %s bytes  hash %s", p->fn,
             f->module_valid ? mbx_format_count(a, sizeof a, f->module.size) : "-",
             mbx_function_hash_state(l, p->fn) == MTLBX_HASH_MATCHES    ? "ok"
             : mbx_function_hash_state(l, p->fn) == MTLBX_HASH_MISMATCH ? "BAD"
                                                                          : "-");
}

/* ------------------------------------------------------------- keys -- */

static enum view_result page_action(struct explorer *ex, enum action a)
{
    struct page *p = state(ex);
    mtlbx_library *l = p->lib;
    switch (a) {
    case ACT_PANE_IFACE: p->list.top = 0; break;
    case ACT_RAW_NAMES:
        ex->raw_names = !ex->raw_names;
        ex_message(ex, ex->raw_names ? "names as stored" : "names demangled");
        break;
    case ACT_SOURCES: verb_show_source(ex, l, p->fn); break;
    case ACT_DISASSEMBLE: verb_disassemble(ex, l, p->fn); break;
    case ACT_PANE_BYTES: {
        struct place at = place_function(l, p->fn);
        if (open_view(ex, VIEW_BYTES, &at))
            ex_message(ex, "the function's bytes; Backspace returns");
        break;
    }
    case ACT_EXTRACT: verb_extract_function(ex, l, p->fn); break;
    case ACT_WRITE: verb_write_function_library(ex, l, p->fn); break;
    case ACT_COPY: {
        char *name = ftable_function_name(l, p->fn, true);
        if (name)
            verb_copy(ex, "the name", name);
        free(name);
        break;
    }
    default: return VIEW_IGNORED;
    }
    return VIEW_HANDLED;
}

/* The generic moves (j, k, pages, g, G, the wheel) scroll the text. */
static struct list *page_list(struct explorer *ex)
{
    return &state(ex)->list;
}

static void page_forget(struct explorer *ex)
{
    struct page *p = state(ex);
    free_lines(p);
    memset(p, 0, sizeof *p);
}

static void page_done(struct explorer *ex)
{
    free_lines(state(ex));
}

static void page_here(struct explorer *ex, struct jump *j)
{
    struct page *p = state(ex);
    if (p->lib)
        j->at = place_function(p->lib, p->fn);
    j->w[0] = p->list.top;
}

static bool page_restore(struct explorer *ex, const struct jump *j)
{
    struct page *p = state(ex);
    p->list.scroll_only = true;
    p->list.top = (size_t)j->w[0];     /* the next draw keeps it in range */
    return true;
}

const struct view_ops page_view = {
    .name = "function page",
    .keys = KC_PAGE,
    .state_size = sizeof(struct page),
    .open = page_open,
    .forget = page_forget,
    .done = page_done,
    .draw = page_draw,
    .action = page_action,
    .status = page_status,
    .tick = page_tick,
    .list = page_list,
    .jump = { page_here, page_restore },
};
