/* A formatted string in memory of its own (malloc'd), or NULL when memory
 * ran out: what a message built from parts needs, once for the tree (the
 * gate's declarations, the program's one-line errors). */
#ifndef MTLBX_DUP_PRINTF_H
#define MTLBX_DUP_PRINTF_H

#include <stdarg.h>

char *mbx_dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *mbx_dup_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
