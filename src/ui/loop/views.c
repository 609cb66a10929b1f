/* The view table (core/view.h): one entry per line of core/view_list.h,
 * each the `struct view_ops` its folder's header names. */
#include "config.h"

#include "ui/loop/loop.h"
#include "ui/views/functions/functions_view.h"
#include "ui/views/page/page_view.h"
#include "ui/views/bytes/bytes_view.h"
#include "ui/views/text/text_view.h"
#include "ui/views/members/members_view.h"
#include "ui/views/compare/compare_view.h"
#include "ui/views/folder/folder_view.h"
#include "ui/views/release/release_view.h"

static const struct view_ops *const table[VIEW_COUNT] = {
#define VIEW(id, ops) [VIEW_##id] = &ops,
#include "ui/core/view_list.h"
#undef VIEW
};

const struct view_ops *const *views_table(void)
{
    return table;
}
