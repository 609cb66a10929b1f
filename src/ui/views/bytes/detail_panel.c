/* The detail panel: every decoded field of the selected node, one per
 * line, with the bytes it came from. Offset fields (OFFT, SOFF, RFLT,
 * header offsets...) carry an arrow and Enter follows them. */
#include "config.h"

#include "ui/text/rowfmt.h"
#include "ui/term/term.h"
#include "ui/text/textfmt.h"
#include "ui/views/bytes/bytes.h"
#include "ui/work/hasher.h"
#include "ui/text/wrap.h"
#include "container/file.h"
#include "container/functions.h"

/* The selected field's value wraps onto at most this many rows. */
#define DETAIL_WRAP_LINES 4

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void detail_free(struct detail_state *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].name);
        free(d->v[i].value);
    }
    free(d->v);
    d->v = NULL;
    d->n = d->cap = 0;
}

static void collect(void *ctx, const struct mtlbx_field *field)
{
    struct detail_state *d = ctx;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 32;
        struct field_row *v = realloc(d->v, cap * sizeof *v);
        if (!v)
            return;
        d->v = v;
        d->cap = cap;
    }
    struct field_row *r = &d->v[d->n];
    /* The strings live only during the callback. */
    r->name = strdup(field->name ? field->name : "");
    r->value = strdup(field->value ? field->value : "");
    if (!r->name || !r->value) {
        free(r->name);
        free(r->value);
        return;
    }
    r->offset = field->offset;
    r->size = field->size;
    r->target = field->target;
    r->flags = field->flags;
    d->n++;
}

static void hex32(char out[65], const uint8_t *d)
{
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hx[d[i] >> 4];
        out[2 * i + 1] = hx[d[i] & 15];
    }
    out[64] = '\0';
}

/* For a mismatched hash the library says MISMATCH; the digests say how.
 * The actual one comes from the background worker (the UI never hashes). */
static void add_digests(struct explorer *ex, struct detail_state *d, const mtlbx_node *n)
{
    /* Only where the hash is the subject: the function and its HASH tag,
     * not every other tag or group of that function. */
    bool hash_tag = n && n->kind == MTLBX_NODE_TAG && strcmp(n->tag.name, "HASH") == 0;
    if (!n || (n->kind != MTLBX_NODE_FUNCTION && !hash_tag))
        return;
    long fn = bytes_function_of(n);
    if (fn < 0 || !n->lib || mbx_function_hash_state(n->lib, (size_t)fn) != MTLBX_HASH_MISMATCH)
        return;
    const struct mtlbx_function *f = mbx_function_at(n->lib, (size_t)fn);
    uint8_t actual[32];
    char e[65], a[65];
    if (!f || !f->hash)
        return;
    hex32(e, f->hash);
    bool have = hasher_actual_digest(ex->hasher, n->lib, (size_t)fn, actual);
    if (have)
        hex32(a, actual);
    struct mtlbx_field fe = { "sha256 expected", e, 0, 0, MTLBX_FIELD_ERROR, 0 };
    struct mtlbx_field fa = { "sha256 actual", have ? a : "(being computed)", f->module.offset,
                              f->module.size, MTLBX_FIELD_ERROR, 0 };
    /* The HASH tag's 32 bytes are where the expected digest lives. */
    fe.offset = (uint64_t)(f->hash - mbx_file_data(bytes_file(ex)->f));
    fe.size = 32;
    size_t at = d->n;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->v[i].name, "hash") == 0 || strcmp(d->v[i].name, "state") == 0)
            at = i + 1;
    size_t before = d->n;
    collect(d, &fe);
    collect(d, &fa);
    /* Move the two new rows up to just below the hash state. */
    size_t added = d->n - before;
    if (added && at < before) {
        struct field_row tmp[2];
        memcpy(tmp, &d->v[before], added * sizeof tmp[0]);
        memmove(&d->v[at + added], &d->v[at], (before - at) * sizeof tmp[0]);
        memcpy(&d->v[at], tmp, added * sizeof tmp[0]);
    }
}

/* Fields are re-read when the selection changes, and when background
 * hashing has made progress (a "pending" hash turns into ok/mismatch). */
void detail_refresh(struct explorer *ex, bool force)
{
    struct bytes *b = bytes_of(ex);
    struct detail_state *d = &b->detail;
    mtlbx_node *n = bytes_selected_node(ex);
    bool same = n == d->node;
    if (same && !force && d->hash_done_seen == b->hash_done_seen)
        return;
    size_t keep_sel = same ? d->list.sel : 0, keep_top = same ? d->list.top : 0;
    detail_free(d);
    d->node = n;
    d->hash_done_seen = b->hash_done_seen;
    if (n) {
        mbx_node_fields(bytes_file(ex)->m, n, collect, d);
        add_digests(ex, d, n);
    }
    d->list.sel = d->n ? (keep_sel < d->n ? keep_sel : d->n - 1) : 0;
    d->list.top = keep_top;
}

/* The fields are a list (widgets/list.h) in the detail panel. */
static struct list *field_list(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    struct list *l = &b->detail.list;
    l->n = b->detail.n;
    l->rows = layout_rows(&b->lay.panel[PANEL_DETAIL]);
    l->keep_full = true;
    return l;
}

const struct field_row *detail_selected_field(struct explorer *ex)
{
    const struct detail_state *d = &bytes_of(ex)->detail;
    return d->list.sel < d->n ? &d->v[d->list.sel] : NULL;
}

static void follow(struct explorer *ex, const struct field_row *f)
{
    struct ex_file *ef = bytes_file(ex);
    if (f->target >= mbx_file_size(ef->f)) {
        ex_error(ex, "%s points at 0x%" PRIx64 ", past the end of the file", f->name, f->target);
        return;
    }
    history_push(ex);
    mtlbx_node *n = mbx_node_at_offset(ef->m, f->target);
    uint32_t file = bytes_current_file(ex);
    bytes_select_node(ex, file, n, true);
    hex_goto(ex, file, f->target);
    ex_message(ex, "followed %s to 0x%" PRIx64 " (Backspace goes back)", f->name, f->target);
}

static void show_whole_field(struct explorer *ex, const struct field_row *f)
{
    char *text = NULL;
    int n;
    if (f->size)
        n = asprintf(&text, "%s\n\n%s\n\nbytes: 0x%" PRIx64 " .. 0x%" PRIx64 " (%" PRIu64 " bytes)\n",
                     f->name, f->value, f->offset, f->offset + f->size - 1, f->size);
    else
        n = asprintf(&text, "%s\n\n%s\n", f->name, f->value);
    if (n < 0)
        return;
    /* The value is terminal-safe already; the pager escapes again, which
     * is harmless for safe text. */
    struct text_doc doc = { .title = f->name, .data = text, .len = (size_t)n, .save_name = "field.txt" };
    struct place at = place_text(&doc);
    open_view(ex, VIEW_TEXT, &at);
    free(text);
}

void detail_action(struct explorer *ex, enum action a)
{
    switch (a) {
    case ACT_ENTER: {
        const struct field_row *f = detail_selected_field(ex);
        if (!f)
            break;
        if (f->flags & MTLBX_FIELD_FOLLOW)
            follow(ex, f);
        else
            show_whole_field(ex, f);
        break;
    }
    default: break;
    }
}

void detail_draw(struct explorer *ex, const struct rect *r, bool focused)
{
    struct bytes *b = bytes_of(ex);
    if (r->h <= 0 || r->w <= 0)
        return;
    struct detail_state *d = &b->detail;
    const struct field_row *sel = detail_selected_field(ex);
    char title[256];
    if (sel && sel->size)
        snprintf(title, sizeof title, " 2 Detail  %.40s @0x%" PRIx64 " +%" PRIu64,
                 sel->name, sel->offset, sel->size);
    else if (sel)
        snprintf(title, sizeof title, " 2 Detail  %.60s", sel->name);
    else
        snprintf(title, sizeof title, " 2 Detail");
    term_put(r->y, r->x, r->w, title, term_attr(focused ? AT_PANEL_TITLE_FOCUS : AT_PANEL_TITLE), 0);

    int name_w = 4;
    for (size_t i = 0; i < d->n; i++) {
        if (d->v[i].flags & MTLBX_FIELD_HEADING)
            continue;
        int w = textfmt_width(d->v[i].name);
        if (w > name_w)
            name_w = w;
    }
    if (name_w > r->w * 2 / 5)
        name_w = r->w * 2 / 5;
    /* The per-field offset column only when there is room for it and a
     * useful part of the value; the selected field's is in the title. */
    bool show_off = r->w >= 56;

    int rows = layout_rows(r);
    list_scroll(field_list(ex));
    int y = r->y + 1;
    for (int k = 0; k < rows && y < r->y + 1 + rows; k++, y++) {
        size_t i = d->list.top + (size_t)k;
        if (i >= d->n)
            break;
        const struct field_row *f = &d->v[i];
        bool is_sel = i == d->list.sel;
        attr_t base = is_sel ? term_attr(focused ? AT_SELECT : AT_SELECT_UNFOCUSED) : A_NORMAL;
        term_fill(y, r->x, r->w, base);
        if (f->flags & MTLBX_FIELD_HEADING) {
            char h[300];
            snprintf(h, sizeof h, "%s%s%s", f->name, f->value[0] ? " " : "", f->value);
            term_put_raw(y, r->x + 1, r->w - 1, h, base | term_attr(AT_HEADING));
            continue;
        }
        char name[256];
        rowfmt_cut(f->name, name_w, rowfmt_ellipsis(term_ascii()), name, sizeof name);
        term_put_raw(y, r->x + 1, name_w, name, base | A_BOLD);
        int vx = 1 + name_w + 1;
        int vw = r->w - vx;
        char off[48] = "";
        if (show_off && f->size) {
            snprintf(off, sizeof off, " 0x%" PRIx64 "+%" PRIu64, f->offset, f->size);
            int ow = (int)strlen(off);
            vw -= ow;
            term_put_raw(y, r->x + r->w - ow, ow, off, base | term_attr(AT_DIM));
        }
        attr_t va = base;
        if (f->flags & MTLBX_FIELD_ERROR)
            va = term_attr_on(base, AT_BAD);
        else if (f->flags & MTLBX_FIELD_WARNING)
            va = term_attr_on(base, AT_WARN);
        /* A marker of its own in the margin, as the tree has: colour
         * alone is lost with NO_COLOR. */
        if (f->flags & (MTLBX_FIELD_ERROR | MTLBX_FIELD_WARNING))
            term_put_raw(y, r->x, 1, "!", va);
        const char *arrow = (f->flags & MTLBX_FIELD_FOLLOW) ? term_glyph_follow() : NULL;
        int aw = arrow ? textfmt_width(arrow) + 1 : 0;
        if (vw - aw > 0 && is_sel && textfmt_width(f->value) > vw - aw) {
            /* The selected field shows whole: its value wraps onto the
             * rows below (a long name, say), which move down. */
            size_t starts[DETAIL_WRAP_LINES + 1];
            int n = wrap_text(f->value, vw - aw, starts, DETAIL_WRAP_LINES);
            for (int l = 0; l < n && y < r->y + 1 + rows; l++) {
                char piece[1024];
                size_t len = starts[l + 1] - starts[l];
                if (len >= sizeof piece)
                    len = sizeof piece - 1;
                memcpy(piece, f->value + starts[l], len);
                piece[len] = '\0';
                if (l > 0)
                    term_fill(++y, r->x, r->w, base);
                term_put(y, r->x + vx, vw - aw, piece, va, 0);
            }
            if (arrow)
                term_put_raw(y, r->x + r->w - aw, aw, arrow, base | term_attr(AT_FOLLOW));
        } else if (vw - aw > 0) {
            int used = term_put_raw(y, r->x + vx, vw - aw, f->value, va);
            if (used == vw - aw && textfmt_width(f->value) > vw - aw)
                term_put_raw(y, r->x + vx + used - 1, 1, term_glyph_ellipsis(), va);
            if (arrow)
                term_put_raw(y, r->x + vx + used + 1, aw, arrow, base | term_attr(AT_FOLLOW));
        }
    }
    if (d->n == 0 && rows > 0)
        term_put_raw(r->y + 1, r->x + 1, r->w - 1, "(no fields)", term_attr(AT_DIM));
}
