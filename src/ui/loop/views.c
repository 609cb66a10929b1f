/* The view table (view.h): one entry per view. */
#include "config.h"

#include "ui/core/view.h"
#include "ui/core/ui.h"

static const struct view_ops views[SCREEN_COUNT] = {
    [SCREEN_MAIN] = { "byte explorer", KC_TREE, bytes_draw, bytes_action, bytes_status },
    [SCREEN_TEXT] = { "text view", KC_TEXT, textview_draw, textview_action, textview_status },
    [SCREEN_MEMBERS] = { "source members", KC_MEMBERS, members_draw, members_action, bytes_status },
    [SCREEN_COMPARE] = { "compare", KC_COMPARE, compare_draw, compare_action, bytes_status },
    [SCREEN_FOLDER] = { "folder survey", KC_FOLDER, folder_draw, folder_action, bytes_status },
    [SCREEN_RELEASE] = { "release compare", KC_RELEASE, release_draw, release_action, bytes_status },
    [SCREEN_FUNCTIONS] = { "function table", KC_FUNCS, functions_draw, functions_action, functions_status },
    [SCREEN_PAGE] = { "function page", KC_PAGE, page_draw, page_action, page_status },
};

const struct view_ops *view_of(int screen)
{
    if (screen < 0 || screen >= SCREEN_COUNT || !views[screen].draw)
        return &views[SCREEN_MAIN];
    return &views[screen];
}
