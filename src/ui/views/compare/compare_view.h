/* The compare view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): two shown files compared (D): open it at the file to compare with the next. */
#ifndef MTLBX_UI_VIEWS_COMPARE_COMPARE_VIEW_H
#define MTLBX_UI_VIEWS_COMPARE_COMPARE_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops compare_view;

#endif
