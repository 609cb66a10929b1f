/* The folder view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): the folder and archive list (mtlbx DIR). */
#ifndef MTLBX_UI_VIEWS_FOLDER_FOLDER_VIEW_H
#define MTLBX_UI_VIEWS_FOLDER_FOLDER_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops folder_view;

#endif
