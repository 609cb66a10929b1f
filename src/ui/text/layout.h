/* Screen geometry: the rectangles of every panel, computed from the
 * terminal size alone so it can be unit-tested without a terminal. */
#ifndef MTLBX_UI_LAYOUT_H
#define MTLBX_UI_LAYOUT_H

#include <stdbool.h>

/* Below this the explorer shows a "terminal too small" notice instead of
 * drawing panels with no room (ncdu does the same). */
#define LAYOUT_MIN_COLS 50
#define LAYOUT_MIN_LINES 14

enum panel_id { PANEL_TREE = 0, PANEL_DETAIL, PANEL_HEX, PANEL_COUNT, PANEL_NONE = -1 };

struct rect {
    int y, x, h, w;       /* h or w 0: not shown */
};

struct layout {
    int lines, cols;
    bool too_small;
    struct rect title;    /* top line: files and progress */
    struct rect panel[PANEL_COUNT]; /* each panel's first line is its title bar */
    struct rect separator;/* the column between tree and detail */
    struct rect body;     /* everything between title and status: full-screen views */
    struct rect status;   /* message line */
    struct rect footer;   /* key hints */
};

/* `zoomed` is a panel that takes the whole body, or PANEL_NONE. */
void layout_compute(int lines, int cols, enum panel_id zoomed, struct layout *out);

/* The user's tree width (< and >): columns added to (or taken from) the
 * default 45%, kept across resizes and prompts. Clamped so both the tree
 * and the detail panel keep at least LAYOUT_MIN_PANEL columns. Returns
 * the delta in effect for that terminal width. */
#define LAYOUT_MIN_PANEL 16
int layout_adjust_tree_width(int delta_change, int cols);

/* Rows of content inside a panel (its height minus the title bar). */
int layout_rows(const struct rect *r);

#endif
