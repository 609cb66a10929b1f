/* The list widget: a selection kept in sight, and the scroll-only mode a
 * page of text uses (the moves scroll, nothing is selected, and the last
 * page ends at the last row). */
#include "config.h"

#include <criterion/criterion.h>

#include "ui/widgets/list.h"

Test(list, a_selection_stays_in_sight)
{
    struct list l = { 0 };
    list_set(&l, 100, 0, 10);
    cr_assert(list_move(&l, ACT_PAGE_DOWN));
    cr_assert_eq(l.sel, 10);
    cr_assert_eq(l.top, 1);            /* the selection is the last row shown */
    list_move(&l, ACT_BOTTOM);
    cr_assert_eq(l.sel, 99);
    cr_assert_eq(l.top, 90);
    cr_assert(list_click(&l, 3));
    cr_assert_eq(l.sel, 93);
}

Test(list, scroll_only_moves_the_page)
{
    struct list l = { .scroll_only = true };
    list_set(&l, 100, 0, 10);
    list_move(&l, ACT_DOWN);
    cr_assert_eq(l.top, 1);
    list_move(&l, ACT_PAGE_DOWN);
    cr_assert_eq(l.top, 11);
    list_move(&l, ACT_HALF_UP);
    cr_assert_eq(l.top, 6);
    list_move(&l, ACT_BOTTOM);
    cr_assert_eq(l.top, 90, "the last page ends at the last row, not below it");
    list_move(&l, ACT_DOWN);
    cr_assert_eq(l.top, 90);
    list_move(&l, ACT_TOP);
    cr_assert_eq(l.top, 0);
    list_move(&l, ACT_UP);
    cr_assert_eq(l.top, 0);
    /* A click selects nothing; a text shorter than the page does not scroll. */
    cr_assert_not(list_click(&l, 2));
    list_set(&l, 4, 0, 10);
    list_move(&l, ACT_PAGE_DOWN);
    cr_assert_eq(l.top, 0);
}
