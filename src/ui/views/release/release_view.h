/* The release view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): two folders or archives compared library by library (D in the folder list). */
#ifndef MTLBX_UI_VIEWS_RELEASE_RELEASE_VIEW_H
#define MTLBX_UI_VIEWS_RELEASE_RELEASE_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops release_view;

#endif
