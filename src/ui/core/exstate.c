/* The explorer's shared state as the views read it: which file and node
 * are current, the status message, and a repaint. Calls nothing else in
 * src/ui, so every view may use it without reaching back up into the
 * main loop (explorer.c), which installs the repaint as a callback. */
#include "config.h"

#include "ui/core/ui.h"

#include <stdarg.h>
#include <stdio.h>

uint32_t ex_current_file_index(const struct explorer *ex)
{
    if (ex->rows.n && ex->tree_sel < ex->rows.n)
        return ex->rows.v[ex->tree_sel].file;
    return 0;
}

struct ex_file *ex_current_file(struct explorer *ex)
{
    return &ex->files[ex_current_file_index(ex)];
}

mtlbx_node *ex_selected_node(struct explorer *ex)
{
    if (ex->rows.n && ex->tree_sel < ex->rows.n)
        return ex->rows.v[ex->tree_sel].node;
    return NULL;
}

static void set_status(struct explorer *ex, bool error, const char *fmt, va_list ap)
{
    vsnprintf(ex->status, sizeof ex->status, fmt, ap);
    ex->status_error = error;
}

void ex_message(struct explorer *ex, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_status(ex, false, fmt, ap);
    va_end(ap);
}

void ex_error(struct explorer *ex, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_status(ex, true, fmt, ap);
    va_end(ap);
}

/* The label of a node, as the tree and the searches show it: a file
 * without a name of its own is named by its path. */
void tree_node_label(struct explorer *ex, uint32_t file, const mtlbx_node *n, char *buf, size_t size)
{
    mtlbx_node_label(ex->files[file].m, n, buf, size);
    if (n->kind == MTLBX_NODE_FILE && !buf[0])
        snprintf(buf, size, "%s", ex->files[file].path);
}

const struct field_row *detail_selected_field(const struct explorer *ex)
{
    const struct detail_state *d = &ex->detail;
    return d->sel < d->n ? &d->v[d->sel] : NULL;
}

void ex_draw(struct explorer *ex)
{
    if (ex->repaint)
        ex->repaint(ex);
}
