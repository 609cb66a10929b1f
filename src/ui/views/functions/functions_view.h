/* The functions view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): the function table, home of a library: open it at a function (its row selected) or where it was. */
#ifndef MTLBX_UI_VIEWS_FUNCTIONS_FUNCTIONS_VIEW_H
#define MTLBX_UI_VIEWS_FUNCTIONS_FUNCTIONS_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops functions_view;

#endif
