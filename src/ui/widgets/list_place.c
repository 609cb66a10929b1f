/* See list.h: a list view's place for history and marks. */
#include "config.h"

#include "ui/widgets/list.h"
#include "ui/core/core.h"

static struct list *list_of(struct explorer *ex, enum view_id id)
{
    const struct view_ops *ops = view_ops_of(ex, id);
    return ops && ops->list ? ops->list(ex) : NULL;
}

void list_view_here(struct explorer *ex, struct jump *j)
{
    struct list *l = list_of(ex, j->view);
    if (l)
        j->w[0] = l->sel;
}

bool list_view_restore(struct explorer *ex, const struct jump *j)
{
    struct list *l = list_of(ex, j->view);
    if (l)
        list_select(l, (long)j->w[0]);
    return true;
}
