/* See search.h. */
#include "config.h"

#include "ui/widgets/search.h"
#include "ui/core/core.h"
#include "ui/text/query.h"
#include "ui/widgets/prompt.h"

#include <stdlib.h>

long search_rows(size_t n, size_t sel, bool forward, bool from_sel, bool (*match)(void *ctx, size_t row),
                 void *ctx)
{
    if (n == 0)
        return -1;
    if (sel >= n)
        sel = n - 1;
    for (size_t k = from_sel ? 0 : 1; k <= n; k++) {
        if (from_sel && k == n)
            break;
        size_t i = forward ? (sel + k) % n : (sel + n - k % n) % n;
        if (match(ctx, i))
            return (long)i;
    }
    return -1;
}

/* The view's last query (allocated on its first /). */
static struct query *query_of(struct explorer *ex, enum view_id id, bool create)
{
    if (!ex->queries[id] && create)
        ex->queries[id] = calloc(1, sizeof(struct query));
    return ex->queries[id];
}

bool search_action(struct explorer *ex, enum action a)
{
    enum view_id id = view_current(ex);
    const struct view_ops *v = view_ops_of(ex, id);
    if (!v || !v->search.grep || (a != ACT_SEARCH && a != ACT_SEARCH_NEXT && a != ACT_SEARCH_PREV))
        return false;
    struct query *q = query_of(ex, id, a == ACT_SEARCH);
    if (a == ACT_SEARCH) {
        char in[QUERY_MAX], why[128];
        if (!q) {
            ex_error(ex, "out of memory");
            return true;
        }
        if (!prompt_line(ex, v->search.prompt ? v->search.prompt : "Search", "", in, sizeof in) || !in[0])
            return true;
        struct query parsed;
        if (!query_parse_text(in, &parsed, why, sizeof why)) {
            ex_error(ex, "%s", why);
            return true;
        }
        *q = parsed;
        v->search.grep(ex, q, true, true);
        return true;
    }
    if (!q || !q->text[0]) {
        ex_message(ex, "no search yet: press / first");
        return true;
    }
    v->search.grep(ex, q, false, a == ACT_SEARCH_NEXT);
    return true;
}
