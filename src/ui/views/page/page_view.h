/* The page view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): one function's page: open it at a function (place_function). */
#ifndef MTLBX_UI_VIEWS_PAGE_PAGE_VIEW_H
#define MTLBX_UI_VIEWS_PAGE_PAGE_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops page_view;

#endif
