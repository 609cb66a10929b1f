/* Formatted text into a caller's buffer: a one-line error, and a message
 * of any length (a small buffer first, the heap for a longer one). */
#include "config.h"

#include "container/textf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void mbx_set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

char *mbx_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(buf, size, fmt, ap);
    char *text = NULL;
    if (n < 0) {
        if (size)
            buf[0] = '\0';
    } else if ((size_t)n < size) {
        text = buf;
    } else if ((text = malloc((size_t)n + 1)) != NULL) {
        vsnprintf(text, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    return text;
}
