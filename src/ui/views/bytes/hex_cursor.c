/* The hex panel's cursor and scroll position: where it is, how many
 * bytes a row the layout allows, and a jump to an offset. Every panel and
 * view moves the cursor through here, so none of them calls the hex
 * panel (hex_panel.c, which draws and takes keys) and the panels form no
 * circle. */
#include "config.h"

#include "ui/text/hexfmt.h"
#include "ui/views/bytes/bytes.h"
#include "container/file.h"

uint64_t hex_file_size(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    return b->hex.file < ex->n_files ? mbx_file_size(ex->files[b->hex.file].f) : 0;
}

void hex_geometry(struct explorer *ex, int *bpr, int *rows)
{
    struct bytes *b = bytes_of(ex);
    const struct rect *r = &b->lay.panel[PANEL_HEX];
    int digits = hexfmt_offset_digits(hex_file_size(ex));
    int w = r->w > 0 ? r->w : ex->lay.cols;
    *bpr = hexfmt_bytes_per_row(w, digits);
    *rows = layout_rows(r);
    if (*rows < 1)
        *rows = 1;
    b->hex.bytes_per_row = *bpr;
}

void hex_keep_visible(struct explorer *ex, bool center)
{
    struct bytes *b = bytes_of(ex);
    int bpr, rows;
    hex_geometry(ex, &bpr, &rows);
    uint64_t size = hex_file_size(ex);
    uint64_t row_of_cursor = b->hex.cursor / (uint64_t)bpr * (uint64_t)bpr;
    uint64_t span = (uint64_t)bpr * (uint64_t)rows;
    b->hex.top = b->hex.top / (uint64_t)bpr * (uint64_t)bpr;
    if (row_of_cursor < b->hex.top || row_of_cursor >= b->hex.top + span) {
        if (center) {
            /* A jump lands a third of the way down, with context above. */
            uint64_t above = (uint64_t)(rows / 3) * (uint64_t)bpr;
            b->hex.top = row_of_cursor > above ? row_of_cursor - above : 0;
        } else if (row_of_cursor < b->hex.top) {
            b->hex.top = row_of_cursor;
        } else {
            b->hex.top = row_of_cursor - span + (uint64_t)bpr;
        }
    }
    /* Never leave blank rows below the end when the file is long enough. */
    uint64_t last_row = size ? (size - 1) / (uint64_t)bpr * (uint64_t)bpr : 0;
    if (b->hex.top > last_row)
        b->hex.top = last_row;
}

void hex_goto(struct explorer *ex, uint32_t file, uint64_t offset)
{
    struct bytes *b = bytes_of(ex);
    b->hex.file = file;
    uint64_t size = hex_file_size(ex);
    b->hex.cursor = size == 0 ? 0 : offset < size ? offset : size - 1;
    hex_keep_visible(ex, true);
}
