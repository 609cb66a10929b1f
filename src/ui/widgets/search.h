/* Search in a list view (/ n N), written once, as tig's view `grep` is:
 * the view says how a row matches (view_ops.search.grep) and this asks for the
 * query, keeps it (one a view), and on n and N searches again with it.
 * The wrap-around step over a list's rows is here too, so no view writes
 * `(sel + k) % n` again. */
#ifndef MTLBX_UI_WIDGETS_SEARCH_H
#define MTLBX_UI_WIDGETS_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/term/keys.h"

struct explorer;
struct query;

/* /, n and N for the current view when it has a grep: true when `a`
 * was one of them (handled), false for any other action or view. */
bool search_action(struct explorer *ex, enum action a);

/* The next row after `sel` (the previous going backward) of `n` that
 * `match` accepts, wrapping round, `sel` itself last; -1 when none does.
 * With `from_sel`, `sel` is looked at first (a new query's first match
 * may be the selected row). */
long search_rows(size_t n, size_t sel, bool forward, bool from_sel, bool (*match)(void *ctx, size_t row),
                 void *ctx);

#endif
