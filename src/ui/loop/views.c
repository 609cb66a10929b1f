/* The view table (core/view.h): one entry per line of core/view_list.h,
 * each the `struct view_ops` its folder defines. */
#include "config.h"

#include "ui/loop/loop.h"

#define VIEW(id, ops) extern const struct view_ops ops;
#include "ui/core/view_list.h"
#undef VIEW

static const struct view_ops *const table[VIEW_COUNT] = {
#define VIEW(id, ops) [VIEW_##id] = &ops,
#include "ui/core/view_list.h"
#undef VIEW
};

const struct view_ops *const *views_table(void)
{
    return table;
}
