/* The main loop's parts (loop/): the view table, a key's way to the
 * current view, and the frame around the views. */
#ifndef MTLBX_UI_LOOP_LOOP_H
#define MTLBX_UI_LOOP_LOOP_H

#include "ui/core/core.h"

/* views.c: the table of every view, in view_list.h's order. */
const struct view_ops *const *views_table(void);

/* dispatch.c: one key (counts, the view's action, then the generic
 * keys), and one mouse event. */
void loop_key(struct explorer *ex, int key);
void loop_mouse(struct explorer *ex);

/* frame.c: the whole screen (title, the view's body, status, footer). */
void loop_draw_frame(struct explorer *ex);

#endif
