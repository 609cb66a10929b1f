/* See list.h. */
#include "config.h"

#include "ui/widgets/list.h"

long list_page(const struct list *l)
{
    return l->rows > 0 ? l->rows : 1;
}

void list_scroll(struct list *l)
{
    size_t page = (size_t)list_page(l);
    if (l->n == 0) {
        l->sel = l->top = 0;
        return;
    }
    if (l->scroll_only) {
        /* No blank rows below the last: the page ends at the bottom. */
        if (l->top + page > l->n)
            l->top = l->n > page ? l->n - page : 0;
        l->sel = l->top;
        return;
    }
    if (l->sel >= l->n)
        l->sel = l->n - 1;
    if (l->sel < l->top)
        l->top = l->sel;
    else if (l->sel >= l->top + page)
        l->top = l->sel - page + 1;
    if (l->keep_full && l->top + page > l->n)
        l->top = l->n > page ? l->n - page : 0;
}

void list_set(struct list *l, size_t n, int y, int rows)
{
    l->n = n;
    l->y = y;
    l->rows = rows > 0 ? rows : 1;
    list_scroll(l);
}

void list_select(struct list *l, long i)
{
    if (l->n == 0)
        return;
    if (i >= (long)l->n)
        i = (long)l->n - 1;
    if (i < 0)
        i = 0;
    l->sel = (size_t)i;
    if (l->scroll_only)
        l->top = (size_t)i;
    list_scroll(l);
}

void list_center(struct list *l)
{
    size_t page = (size_t)list_page(l);
    if (l->sel >= l->top && l->sel < l->top + page)
        return;
    l->top = l->sel > page / 2 ? l->sel - page / 2 : 0;
    list_scroll(l);
}

bool list_move(struct list *l, enum action a)
{
    long page = list_page(l), half = page / 2 ? page / 2 : 1, sel = (long)(l->scroll_only ? l->top : l->sel);
    switch (a) {
    case ACT_DOWN: list_select(l, sel + 1); return true;
    case ACT_UP: list_select(l, sel - 1); return true;
    case ACT_PAGE_DOWN: list_select(l, sel + page); return true;
    case ACT_PAGE_UP: list_select(l, sel - page); return true;
    case ACT_HALF_DOWN: list_select(l, sel + half); return true;
    case ACT_HALF_UP: list_select(l, sel - half); return true;
    case ACT_TOP: list_select(l, 0); return true;
    case ACT_BOTTOM: list_select(l, (long)l->n - 1); return true;
    default: return false;
    }
}

bool list_click(struct list *l, int y)
{
    int row = y - l->y;
    if (l->scroll_only || row < 0 || row >= list_page(l) || l->top + (size_t)row >= l->n)
        return false;
    l->sel = l->top + (size_t)row;
    return true;
}
