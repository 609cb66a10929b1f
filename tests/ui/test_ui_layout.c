/* Panel rectangles from a terminal size. */
#include "config.h"

#include <criterion/criterion.h>

#include "ui/text/layout.h"

static void assert_inside(const struct rect *r, int lines, int cols)
{
    cr_assert_geq(r->y, 0);
    cr_assert_geq(r->x, 0);
    cr_assert_leq(r->y + r->h, lines);
    cr_assert_leq(r->x + r->w, cols);
}

Test(layout, eighty_by_twenty_four)
{
    struct layout l;
    layout_compute(24, 80, PANEL_NONE, &l);
    cr_assert_not(l.too_small);
    cr_assert_eq(l.title.y, 0);
    cr_assert_eq(l.status.y, 22);
    cr_assert_eq(l.footer.y, 23);
    cr_assert_eq(l.panel[PANEL_HEX].w, 80);          /* 16 bytes a row fit */
    cr_assert_geq(layout_rows(&l.panel[PANEL_HEX]), 3);
    cr_assert_geq(layout_rows(&l.panel[PANEL_TREE]), 5);
    cr_assert_eq(l.panel[PANEL_TREE].x + l.panel[PANEL_TREE].w + 1, l.panel[PANEL_DETAIL].x);
    cr_assert_eq(l.panel[PANEL_DETAIL].x + l.panel[PANEL_DETAIL].w, 80);
    cr_assert_eq(l.panel[PANEL_TREE].h + l.panel[PANEL_HEX].h, 21);
}

Test(layout, every_size_from_the_minimum_up_stays_on_screen)
{
    for (int lines = LAYOUT_MIN_LINES; lines < 80; lines += 3)
        for (int cols = LAYOUT_MIN_COLS; cols < 300; cols += 7) {
            struct layout l;
            layout_compute(lines, cols, PANEL_NONE, &l);
            cr_assert_not(l.too_small);
            for (int p = 0; p < PANEL_COUNT; p++) {
                assert_inside(&l.panel[p], lines, cols);
                cr_assert_geq(layout_rows(&l.panel[p]), 3, "%dx%d panel %d", cols, lines, p);
            }
            /* Panels never overlap the title, status or footer lines. */
            cr_assert_leq(l.panel[PANEL_HEX].y + l.panel[PANEL_HEX].h, l.status.y);
        }
}

Test(layout, below_the_minimum_it_says_so)
{
    struct layout l;
    layout_compute(LAYOUT_MIN_LINES - 1, 80, PANEL_NONE, &l);
    cr_assert(l.too_small);
    layout_compute(24, LAYOUT_MIN_COLS - 1, PANEL_NONE, &l);
    cr_assert(l.too_small);
    layout_compute(0, 0, PANEL_NONE, &l);
    cr_assert(l.too_small);
}

Test(layout, zoom_gives_one_panel_the_body)
{
    struct layout l;
    layout_compute(24, 80, PANEL_HEX, &l);
    cr_assert_eq(l.panel[PANEL_HEX].h, 21);
    cr_assert_eq(l.panel[PANEL_TREE].h, 0);
    cr_assert_eq(l.panel[PANEL_DETAIL].w, 0);
}
