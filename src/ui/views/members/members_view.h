/* The members view's face: only its view_ops, which the view table (loop/
 * views.c) lists; everything else of it is private to this folder. Other
 * views open it by its id (core/view.h): the members of a library's source archives: open it at an archive (place_archive). */
#ifndef MTLBX_UI_VIEWS_MEMBERS_MEMBERS_VIEW_H
#define MTLBX_UI_VIEWS_MEMBERS_MEMBERS_VIEW_H

#include "ui/core/view.h"

extern const struct view_ops members_view;

#endif
