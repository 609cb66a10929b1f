/* The list widget (htop's Panel, written once): a selection over `n`
 * rows of which `rows` show from `top`, its moves (j, k, pages, g, G)
 * and its mouse rows. Every list view keeps one and draws its own rows
 * from top; the main loop moves it for the keys the view leaves to it
 * (loop/dispatch.c), so no view writes the select-and-scroll clamp again.
 * Pure: no terminal. */
#ifndef MTLBX_UI_WIDGETS_LIST_H
#define MTLBX_UI_WIDGETS_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/term/keys.h"

struct list {
    size_t n;                    /* rows in all */
    size_t sel, top;             /* the selected row, the first shown */
    int rows;                    /* rows shown (set when drawn; at least 1) */
    int y;                       /* screen line of the first row shown (mouse) */
    bool keep_full;              /* never leave blank rows below the last (a pager) */
    bool scroll_only;            /* no selection: the moves scroll `top` (a page of text) */
};

/* The rows, and where they are drawn: the selection stays in range and
 * in sight. */
void list_set(struct list *l, size_t n, int y, int rows);
/* Selects row i, clamped to the rows, and scrolls it into sight (scroll
 * only: row i comes to the top, as far as the rows go). */
void list_select(struct list *l, long i);
/* Scrolls so the selection shows (after n or rows changed). */
void list_scroll(struct list *l);
/* After a jump: a selection out of sight comes to the middle. */
void list_center(struct list *l);
/* The moves: down, up, a page, half a page, top and bottom. False (the
 * list unchanged) for any other action. */
bool list_move(struct list *l, enum action a);
/* A press on screen line y: selects the row there; false if none is. */
bool list_click(struct list *l, int y);
/* Rows a page moves (the rows shown, at least 1). */
long list_page(const struct list *l);

struct explorer;
struct jump;
/* A list view's place, for the views whose selection is all of it
 * (view_ops.jump, widgets/list_place.c): the selected row
 * of the view's list in w[0]; back there, that row selected again, as
 * far as the rows now go. */
void list_view_here(struct explorer *ex, struct jump *j);
bool list_view_restore(struct explorer *ex, const struct jump *j);

#endif
