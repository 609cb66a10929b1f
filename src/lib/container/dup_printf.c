/* Formatted strings of their own (dup_printf.h). */
#include "config.h"

#include "container/dup_printf.h"

#include <stdio.h>

char *mbx_dup_vprintf(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    return s;
}

char *mbx_dup_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = mbx_dup_vprintf(fmt, ap);
    va_end(ap);
    return s;
}
