/* Tree row layout. Column 0 is a marker so problems line up down the
 * left edge; two columns of indent a level keep the structure readable,
 * but never push the label past half the row. */
#include "config.h"

#include "ui/text/rowfmt.h"
#include "ui/text/textfmt.h"
#include "model/model.h"

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
        int w;
        size_t n = textfmt_step(s + i, len - i, &w);
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

const char *rowfmt_ellipsis(bool ascii)
{
    return ascii ? "~" : "\xe2\x80\xa6";
}

/* Byte length of the longest prefix within `cols` columns. */
static size_t prefix_bytes(const char *utf8, size_t len, int cols)
{
    const uint8_t *s = (const uint8_t *)utf8;
    size_t i = 0;
    int used = 0;
    while (i < len) {
        int w;
        size_t n = textfmt_step(s + i, len - i, &w);
        if (used + w > cols)
            break;
        used += w;
        i += n;
    }
    return i;
}

const char *rowfmt_skip_cols(const char *utf8, int skip)
{
    const uint8_t *s = (const uint8_t *)utf8;
    size_t len = strlen(utf8), i = 0;
    int cols = 0;
    while (i < len && cols < skip) {
        int w;
        i += textfmt_step(s + i, len - i, &w);
        cols += w;
    }
    return utf8 + i;
}

/* Copies utf8 whole when it fits `width` (and the buffer): true then. */
static bool whole(const char *utf8, int width, char *out, size_t size)
{
    size_t len = strlen(utf8);
    if (size == 0)
        return true;
    if (textfmt_width(utf8) <= width && len < size) {
        memcpy(out, utf8, len + 1);
        return true;
    }
    return false;
}

bool rowfmt_cut_middle(const char *utf8, int width, const char *ellipsis, char *out, size_t size)
{
    if (whole(utf8, width, out, size))
        return false;
    size_t len = strlen(utf8);
    if (width < 4)
        return rowfmt_cut(utf8, width, ellipsis, out, size);
    int room = width - 1, head_cols = room / 3, tail_cols = room - head_cols;
    size_t head = prefix_bytes(utf8, len, head_cols);
    /* The tail: the shortest suffix start whose width fits tail_cols. */
    const char *tail = utf8 + head;
    while (*tail && textfmt_width(tail) > tail_cols)
        tail = rowfmt_skip_cols(tail, 1) > tail ? rowfmt_skip_cols(tail, 1) : tail + 1;
    size_t e_len = strlen(ellipsis), t_len = strlen(tail);
    if (head + e_len + t_len + 1 > size)
        return rowfmt_cut(utf8, width, ellipsis, out, size);
    memcpy(out, utf8, head);
    memcpy(out + head, ellipsis, e_len);
    memcpy(out + head + e_len, tail, t_len + 1);
    return true;
}

bool rowfmt_cut_left(const char *utf8, int width, const char *ellipsis, char *out, size_t size)
{
    if (whole(utf8, width, out, size))
        return false;
    if (width < 2)
        return rowfmt_cut(utf8, width, ellipsis, out, size);
    const char *tail = utf8;
    while (*tail && textfmt_width(tail) > width - 1)
        tail = rowfmt_skip_cols(tail, 1) > tail ? rowfmt_skip_cols(tail, 1) : tail + 1;
    size_t e_len = strlen(ellipsis), t_len = strlen(tail);
    if (e_len + t_len + 1 > size)
        return rowfmt_cut(utf8, width, ellipsis, out, size);
    memcpy(out, ellipsis, e_len);
    memcpy(out + e_len, tail, t_len + 1);
    return true;
}

void rowfmt_squeeze_spaces(const char *in, char *out, size_t size)
{
    size_t o = 0;
    if (size == 0)
        return;
    for (size_t i = 0; in[i] && o + 1 < size; i++) {
        if (in[i] == ' ' && i > 0 && in[i - 1] == ' ')
            continue;
        out[o++] = in[i];
    }
    out[o] = '\0';
}

static const char *badge_of(enum mtlbx_hash_state s, enum row_badge *b)
{
    switch (s) {
    case MTLBX_HASH_MATCHES: *b = ROW_BADGE_OK; return "ok ";
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
        const char *label = in->label ? in->label : "";
        const char *dots = rowfmt_ellipsis(in->ascii);
        int room = w - col;
        out->label_col = col;
        if (in->hscroll > 0 && textfmt_width(label) > 0 && room > 1) {
            /* Scrolled: an ellipsis at the left edge says there is more. */
            size_t e = strlen(dots);
            memcpy(out->label, dots, e);
            rowfmt_cut(rowfmt_skip_cols(label, in->hscroll + 1), room - 1, dots, out->label + e,
                       sizeof out->label - e);
            out->cut = true;
        } else if (textfmt_width(label) <= room || !(in->is_name || in->is_function)) {
            /* Other labels start with what they are: cut at the end. */
            out->cut = rowfmt_cut(label, room, dots, out->label, sizeof out->label);
        } else {
            char squeezed[1024];
            rowfmt_squeeze_spaces(label, squeezed, sizeof squeezed);
            /* The badge already says what a function's "[hash ok]" says. */
            char *hash = in->is_function ? strstr(squeezed, " [hash ") : NULL;
            if (hash && hash[strlen(hash) - 1] == ']')
                *hash = '\0';
            out->cut = rowfmt_cut_middle(squeezed, room, dots, out->label, sizeof out->label);
        }
    }
}
