/* What one tree row says, decided without a terminal: the marker column
 * (! error, ? unknown, ! warning), the indent, the expand glyph, the hash
 * badge of a function, and the label cut to the width with an ellipsis.
 * tree_panel.c only paints these pieces with their attributes. */
#ifndef MTLBX_UI_ROWFMT_H
#define MTLBX_UI_ROWFMT_H

#include <stdbool.h>
#include <stddef.h>

#include "checks/hash.h"

enum row_mark { ROW_MARK_NONE, ROW_MARK_ERROR, ROW_MARK_UNKNOWN, ROW_MARK_WARNING };
enum row_badge { ROW_BADGE_NONE, ROW_BADGE_OK, ROW_BADGE_BAD, ROW_BADGE_PENDING, ROW_BADGE_NA };

struct row_input {
    int width;                 /* columns of the panel */
    int depth;
    bool expanded, expandable;
    unsigned flags;            /* MTLBX_NODE_* */
    bool is_function;          /* shows a hash badge */
    enum mtlbx_hash_state hash;
    const char *label;         /* terminal-safe UTF-8 */
    bool ascii;                /* ASCII glyphs */
    int hscroll;               /* label columns scrolled off to the left */
    bool is_name;              /* a function or a member path: cut in the middle */
};

struct row_layout {
    enum row_mark mark;        /* drawn at column 0 */
    const char *mark_text;     /* "!", "?" or "" */
    int glyph_col;             /* -1: no room */
    const char *glyph;         /* expanded, collapsed or " " */
    int badge_col;             /* -1: none */
    enum row_badge badge;
    const char *badge_text;    /* 3 columns */
    int label_col;             /* -1: no room */
    char label[1024];          /* cut to fit, with an ellipsis when cut */
    bool cut;
};

void rowfmt_tree(const struct row_input *in, struct row_layout *out);

/* Copies the longest prefix of `utf8` that fits `width` columns; if it
 * had to cut, the last column becomes `ellipsis` (one column wide).
 * Returns true when it cut. */
bool rowfmt_cut(const char *utf8, int width, const char *ellipsis, char *out, size_t size);

/* Cuts in the middle: the start and the end (which often tells long
 * generated names apart: ..._MN_taligned_K_taligned) stay, joined by
 * `ellipsis` (one column), a third of the room for the start. Falls
 * back to rowfmt_cut below 4 columns. Returns true when it cut. */
bool rowfmt_cut_middle(const char *utf8, int width, const char *ellipsis, char *out, size_t size);

/* Cuts at the start: the end (a path's file name) stays, after
 * `ellipsis` (one column). Returns true when it cut. */
bool rowfmt_cut_left(const char *utf8, int width, const char *ellipsis, char *out, size_t size);

/* Runs of spaces become one space (the type column's padding is the first
 * thing worth giving up when a label does not fit). */
void rowfmt_squeeze_spaces(const char *in, char *out, size_t size);

/* The part of `utf8` after its first `skip` columns (a wide character
 * cut by the edge is dropped whole). */
const char *rowfmt_skip_cols(const char *utf8, int skip);

/* The ellipsis of either mode: one column, "~" in ASCII. */
const char *rowfmt_ellipsis(bool ascii);

#endif
