/* Formatted text into a caller's buffer: a one-line error. */
#include "config.h"

#include "container/container.h"

#include <stdarg.h>
#include <stdio.h>

void mbx_set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}
