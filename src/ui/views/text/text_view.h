/* The text view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): the text view: open it at a text (place_text). */
#ifndef MTLBX_UI_VIEWS_TEXT_TEXT_VIEW_H
#define MTLBX_UI_VIEWS_TEXT_TEXT_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops text_view;

#endif
