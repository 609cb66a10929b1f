/* The hex panel: offset, bytes and ASCII of the selected node's file,
 * as many bytes a row as the width allows. The selected node's bytes are
 * highlighted (and, while the detail panel has focus, the selected
 * field's); moving the cursor here selects the node that owns the byte. */
#include "config.h"

#include "ui/text/hexfmt.h"
#include "ui/term/term.h"
#include "ui/views/bytes/bytes.h"
#include "container/file.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* After a long move (a page, the top, the end): select the innermost node
 * at the cursor that the tree already shows, expanding nothing, so that
 * paging through the bytes does not open every function on the way. */
static void sync_tree_shallow(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    struct ex_file *ef = &ex->files[b->hex.file];
    for (mtlbx_node *n = mbx_node_at_offset(ef->m, b->hex.cursor); n; n = n->parent)
        for (size_t i = 0; i < b->rows.n; i++)
            if (b->rows.v[i].node == n && b->rows.v[i].file == b->hex.file) {
                if (i != b->tree.sel) {
                    uint64_t keep = b->hex.cursor, top = b->hex.top;
                    tree_set_selection(ex, i);
                    b->hex.cursor = keep;
                    b->hex.top = top;
                    hex_goto(ex, b->hex.file, keep);
                }
                return;
            }
}

/* Moves the cursor; the tree follows, expanding down to the byte's node
 * for a short move, only to what it shows for a long one (`shallow`). */
static void move_cursor_by(struct explorer *ex, int64_t delta, bool shallow)
{
    struct bytes *b = bytes_of(ex);
    uint64_t size = hex_file_size(ex);
    if (size == 0)
        return;
    int64_t c = (int64_t)b->hex.cursor + delta;
    if (c < 0)
        c = 0;
    if ((uint64_t)c >= size)
        c = (int64_t)size - 1;
    b->hex.cursor = (uint64_t)c;
    hex_keep_visible(ex, false);
    if (shallow)
        sync_tree_shallow(ex);
    else
        hex_sync_tree(ex);
}

static void move_cursor(struct explorer *ex, int64_t delta) { move_cursor_by(ex, delta, false); }
static void page_cursor(struct explorer *ex, int64_t delta) { move_cursor_by(ex, delta, true); }

void hex_action(struct explorer *ex, enum action a)
{
    struct bytes *b = bytes_of(ex);
    int bpr, rows;
    hex_geometry(ex, &bpr, &rows);
    int64_t page = (int64_t)bpr * rows;
    switch (a) {
    case ACT_LEFT: move_cursor(ex, -1); break;
    case ACT_RIGHT: move_cursor(ex, 1); break;
    case ACT_UP: move_cursor(ex, -bpr); break;
    case ACT_DOWN: move_cursor(ex, bpr); break;
    case ACT_PAGE_DOWN: page_cursor(ex, page); break;
    case ACT_PAGE_UP: page_cursor(ex, -page); break;
    case ACT_HALF_DOWN: page_cursor(ex, page / 2); break;
    case ACT_HALF_UP: page_cursor(ex, -page / 2); break;
    case ACT_TOP: page_cursor(ex, -(int64_t)b->hex.cursor); break;
    case ACT_BOTTOM: page_cursor(ex, (int64_t)hex_file_size(ex)); break;
    case ACT_ENTER: hex_sync_tree(ex); break;
    default: break;
    }
}

static bool in_span(uint64_t o, uint64_t off, uint64_t size)
{
    return size > 0 && o >= off && o - off < size;
}

/* Whether byte o is unclaimed, remembering the last run looked up: a row
 * asks for neighbouring bytes. */
struct unclaimed_cache {
    const struct mtlbx_layout *layout; /* NULL until walked: nothing is marked */
    struct mtlbx_range run;
    bool have;
};

static bool unclaimed(struct unclaimed_cache *c, uint64_t o)
{
    if (c->have && o >= c->run.offset && o - c->run.offset < c->run.size)
        return true;
    c->have = mbx_layout_unclaimed_at(c->layout, o, false, &c->run);
    return c->have;
}

void hex_draw(struct explorer *ex, const struct rect *r, bool focused)
{
    struct bytes *b = bytes_of(ex);
    if (r->h <= 0 || r->w <= 0 || b->hex.file >= ex->n_files)
        return;
    int bpr, rows;
    hex_geometry(ex, &bpr, &rows);
    hex_keep_visible(ex, false);
    const uint8_t *data = mbx_file_data(ex->files[b->hex.file].f);
    uint64_t size = hex_file_size(ex);
    int digits = hexfmt_offset_digits(size);
    mtlbx_node *node = bytes_selected_node(ex);
    uint64_t n_off = node ? node->offset : 0, n_size = node ? node->size : 0;
    const struct field_row *field = b->focus == PANEL_DETAIL ? detail_selected_field(ex) : NULL;
    uint64_t f_off = field ? field->offset : 0;
    uint64_t f_size = field && !(field->flags & MTLBX_FIELD_HEADING) ? field->size : 0;

    struct unclaimed_cache uc = { .layout = ex->files[b->hex.file].layout };
    char title[160];
    if (unclaimed(&uc, b->hex.cursor))
        snprintf(title, sizeof title, " 3 Hex  cursor 0x%" PRIx64 " of 0x%" PRIx64
                 "  UNCLAIMED 0x%" PRIx64 "+%" PRIu64 " (~)",
                 b->hex.cursor, size, uc.run.offset, uc.run.size);
    else if (n_size)
        snprintf(title, sizeof title, " 3 Hex  cursor 0x%" PRIx64 " of 0x%" PRIx64
                 "  node 0x%" PRIx64 "+%" PRIu64,
                 b->hex.cursor, size, n_off, n_size);
    else
        snprintf(title, sizeof title, " 3 Hex  cursor 0x%" PRIx64 " of 0x%" PRIx64,
                 b->hex.cursor, size);
    term_put(r->y, r->x, r->w, title, term_attr(focused ? AT_PANEL_TITLE_FOCUS : AT_PANEL_TITLE), 0);

    char line[512];
    for (int k = 0; k < rows; k++) {
        uint64_t row_off = b->hex.top + (uint64_t)k * (uint64_t)bpr;
        int y = r->y + 1 + k;
        if (row_off >= size) {
            term_fill(y, r->x, r->w, A_NORMAL);
            continue;
        }
        uint64_t avail = size - row_off;
        hexfmt_row(line, sizeof line, row_off, data + row_off,
                   avail < (uint64_t)bpr ? (size_t)avail : (size_t)bpr, bpr, digits);
        term_put(y, r->x, r->w, line, A_NORMAL, 0);
        term_put_raw(y, r->x, digits, line, term_attr(AT_DIM));
        bool row_unclaimed = false;
        for (int i = 0; i < bpr && (uint64_t)i < avail; i++) {
            uint64_t o = row_off + (uint64_t)i;
            attr_t a = A_NORMAL;
            if (unclaimed(&uc, o)) {
                a = term_attr(AT_HEX_UNCLAIMED);
                row_unclaimed = true;
            }
            if (in_span(o, n_off, n_size))
                a = term_attr(AT_HEX_NODE);
            if (in_span(o, f_off, f_size))
                a = term_attr(AT_HEX_FIELD);
            if (o == b->hex.cursor)
                a = focused ? term_attr(AT_HEX_CURSOR) : a | A_UNDERLINE;
            if (a == A_NORMAL)
                continue;
            int hc = hexfmt_hex_col(i, bpr, digits), ac = hexfmt_ascii_col(i, bpr, digits);
            char two[3] = { line[hc], line[hc + 1], 0 }, one[2] = { line[ac], 0 };
            term_put_raw(y, r->x + hc, 2, two, a);
            term_put_raw(y, r->x + ac, 1, one, a);
            /* Join a highlighted run across the gap to the next byte. */
            uint64_t next = o + 1;
            bool joined = i + 1 < bpr && next < size && o != b->hex.cursor &&
                          ((a == term_attr(AT_HEX_NODE) && in_span(next, n_off, n_size) &&
                            !in_span(next, f_off, f_size)) ||
                           (a == term_attr(AT_HEX_FIELD) && in_span(next, f_off, f_size)));
            if (joined && next != b->hex.cursor) {
                int gap = hexfmt_hex_col(i + 1, bpr, digits) - (hc + 2);
                for (int g = 0; g < gap; g++)
                    term_put_raw(y, r->x + hc + 2 + g, 1, " ", a);
            }
        }
        /* The marker that survives NO_COLOR and ASCII: '~' after the offset
         * of a row holding unclaimed bytes. */
        if (row_unclaimed)
            term_put_raw(y, r->x + digits, 1, "~", term_attr(AT_HEX_UNCLAIMED));
    }
}

void hex_click(struct explorer *ex, const struct rect *r, int row, int x)
{
    struct bytes *b = bytes_of(ex);
    uint64_t size = hex_file_size(ex);
    int digits = hexfmt_offset_digits(size), bpr = b->hex.bytes_per_row;
    if (bpr <= 0)
        return;
    int col = x - r->x;
    for (int i = 0; i < bpr; i++) {
        int hc = hexfmt_hex_col(i, bpr, digits), ac = hexfmt_ascii_col(i, bpr, digits);
        if ((col >= hc && col < hc + 2) || col == ac) {
            uint64_t off = b->hex.top + (uint64_t)row * (uint64_t)bpr + (uint64_t)i;
            if (off < size) {
                uint64_t keep_top = b->hex.top;
                hex_goto(ex, b->hex.file, off);
                b->hex.top = keep_top;     /* a click does not scroll */
                hex_sync_tree(ex);
            }
            return;
        }
    }
}
