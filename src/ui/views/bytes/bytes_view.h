/* The bytes view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): the byte explorer (tree, detail, hex): open it at a node, an offset or a function. */
#ifndef MTLBX_UI_VIEWS_BYTES_BYTES_VIEW_H
#define MTLBX_UI_VIEWS_BYTES_BYTES_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops bytes_view;

#endif
