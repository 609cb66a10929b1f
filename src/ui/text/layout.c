/* Panel rectangles. The tree and detail panels sit side by side above the
 * hex panel, which gets the full width so it can show 16 bytes a row even
 * at 80 columns. */
#include "config.h"

#include "ui/text/layout.h"

#include <string.h>

static int tree_delta;

/* The tree's width for `cols` columns with the user's delta applied. */
static int tree_width(int cols)
{
    int w = cols * 9 / 20;
    if (w < 24)
        w = 24;
    w += tree_delta;
    if (w > cols - 1 - LAYOUT_MIN_PANEL)
        w = cols - 1 - LAYOUT_MIN_PANEL;
    if (w < LAYOUT_MIN_PANEL)
        w = LAYOUT_MIN_PANEL;
    return w;
}

int layout_adjust_tree_width(int delta_change, int cols)
{
    int base = cols * 9 / 20 < 24 ? 24 : cols * 9 / 20;
    tree_delta += delta_change;
    /* Keep the delta within what this width can show, so that a few
     * presses the other way always have a visible effect. */
    tree_delta = tree_width(cols) - base;
    return tree_delta;
}

static struct rect mk(int y, int x, int h, int w)
{
    struct rect r = { y, x, h > 0 ? h : 0, w > 0 ? w : 0 };
    return r;
}

void layout_compute(int lines, int cols, enum panel_id zoomed, struct layout *out)
{
    memset(out, 0, sizeof *out);
    out->lines = lines;
    out->cols = cols;
    if (lines < LAYOUT_MIN_LINES || cols < LAYOUT_MIN_COLS) {
        out->too_small = true;
        return;
    }
    out->title = mk(0, 0, 1, cols);
    out->status = mk(lines - 2, 0, 1, cols);
    out->footer = mk(lines - 1, 0, 1, cols);
    int body_h = lines - 3;
    out->body = mk(1, 0, body_h, cols);

    if (zoomed >= 0 && zoomed < PANEL_COUNT) {
        out->panel[zoomed] = out->body;
        return;
    }

    /* Hex: about two fifths of the body, never fewer than 4 lines
     * (title + 3 rows); the top keeps at least 6. */
    int hex_h = body_h * 2 / 5;
    if (hex_h < 4)
        hex_h = 4;
    if (body_h - hex_h < 6)
        hex_h = body_h - 6;
    int top_h = body_h - hex_h;

    /* Tree: 45% of the width (names are long); detail gets the rest. */
    int tree_w = tree_width(cols);
    int detail_w = cols - tree_w - 1;

    out->panel[PANEL_TREE] = mk(1, 0, top_h, tree_w);
    out->separator = mk(1, tree_w, top_h, 1);
    out->panel[PANEL_DETAIL] = mk(1, tree_w + 1, top_h, detail_w);
    out->panel[PANEL_HEX] = mk(1 + top_h, 0, hex_h, cols);
}

int layout_rows(const struct rect *r)
{
    return r->h > 1 ? r->h - 1 : 0;
}
