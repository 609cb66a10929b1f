/* The explorer's shared state as the views use it: the status message,
 * a repaint before slow work, the frame's geometry. Calls nothing above
 * the core, so every view may use it without reaching back up into the
 * main loop (loop/explorer.c), which installs the repaint as a callback. */
#include "config.h"

#include "ui/core/core.h"
#include "ui/term/term.h"

#include <stdarg.h>
#include <stdio.h>

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

void ex_draw(struct explorer *ex)
{
    if (ex->repaint)
        ex->repaint(ex);
}

void ex_relayout(struct explorer *ex)
{
    int lines, cols;
    term_size(&lines, &cols);
    layout_compute(lines, cols, PANEL_NONE, &ex->lay);
}
