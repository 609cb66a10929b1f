/* Tree row layout. Column 0 is a marker so problems line up down the
 * left edge; two columns of indent a level keep the structure readable,
 * but never push the label past half the row. */
#include "config.h"

#include "rowfmt.h"
#include "textfmt.h"

#include <string.h>

bool rowfmt_cut(const char *utf8, int width, const char *ellipsis, char *out, size_t size)
{
    const uint8_t *s = (const uint8_t *)utf8;
    size_t len = strlen(utf8), i = 0;
    int cols = 0;
    if (size == 0)
        return false;
    if (width <= 0) {
        out[0] = '\0';
        return len > 0;
    }
    if (textfmt_width(utf8) <= width && len < size) {
        memcpy(out, utf8, len + 1);
        return false;
    }
    /* Keep width - 1 columns and put the ellipsis in the last one. */
    size_t e_len = strlen(ellipsis);
    if (e_len + 1 > size)
        e_len = 0;              /* no room for the ellipsis itself */
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0)
            n = 1, cp = '?';
        int w = textfmt_cp_width(cp);
        if (cols + w > width - 1 || i + n + e_len + 1 > size)
            break;
        cols += w;
        i += n;
    }
    memcpy(out, utf8, i);
    memcpy(out + i, ellipsis, e_len);
    out[i + e_len] = '\0';
    return true;
}

static const char *badge_of(enum mtlbx_hash_state s, enum row_badge *b)
{
    switch (s) {
    case MTLBX_HASH_OK: *b = ROW_BADGE_OK; return "ok ";
    case MTLBX_HASH_MISMATCH: *b = ROW_BADGE_BAD; return "BAD";
    case MTLBX_HASH_UNAVAILABLE: *b = ROW_BADGE_NA; return "-- ";
    default: *b = ROW_BADGE_PENDING; return "...";
    }
}

void rowfmt_tree(const struct row_input *in, struct row_layout *out)
{
    memset(out, 0, sizeof *out);
    out->glyph_col = out->badge_col = out->label_col = -1;
    out->mark_text = "";
    out->glyph = " ";
    bool errors = (in->flags & MTLBX_NODE_PROBLEM) && !(in->flags & MTLBX_NODE_WARNING);
    if (errors) {
        out->mark = ROW_MARK_ERROR;
        out->mark_text = "!";
    } else if (in->flags & MTLBX_NODE_UNKNOWN) {
        out->mark = ROW_MARK_UNKNOWN;
        out->mark_text = "?";
    } else if (in->flags & MTLBX_NODE_PROBLEM) {
        out->mark = ROW_MARK_WARNING;
        out->mark_text = "!";
    }
    int w = in->width;
    int col = 1 + 2 * in->depth;
    if (col > w / 2)
        col = w / 2;            /* very deep rows still show their label */
    if (in->expanded)
        out->glyph = in->ascii ? "-" : "\xe2\x96\xbe";
    else if (in->expandable)
        out->glyph = in->ascii ? "+" : "\xe2\x96\xb8";
    if (col < w)
        out->glyph_col = col;
    col += 2;
    if (in->is_function && col + 4 < w) {
        out->badge_text = badge_of(in->hash, &out->badge);
        out->badge_col = col;
        col += 4;
    }
    if (col < w) {
        out->label_col = col;
        out->cut = rowfmt_cut(in->label ? in->label : "", w - col,
                              in->ascii ? ">" : "\xe2\x80\xa6", out->label, sizeof out->label);
    }
}
