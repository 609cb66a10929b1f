/* The view interface: every full-screen view of the explorer (function
 * table, function page, byte explorer, text view, member list, compare,
 * folder survey) is one entry of a table, with how it draws its body, how
 * it takes an action, the keys it offers (a key context of keys.h: the
 * key bar and the first part of `?` come from it) and its name. The main
 * loop draws and dispatches through this table only, so adding a view is
 * one file and one entry in views.c. */
#ifndef MTLBX_UI_VIEW_H
#define MTLBX_UI_VIEW_H

#include "ui/term/keys.h"

struct explorer;

struct view_ops {
    const char *name;                                  /* "function table" */
    unsigned keys;                                     /* its KC_* context */
    void (*draw)(struct explorer *ex);                 /* the body, under the title line */
    void (*action)(struct explorer *ex, enum action a);
    /* The status line's text about the selection (may be NULL). */
    void (*status)(struct explorer *ex, char *buf, size_t size);
};

/* The entry of a view (an enum ex_screen). Never NULL. */
const struct view_ops *view_of(int screen);

#endif
