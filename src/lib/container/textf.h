/* The container layer (src/lib/container): the small formatting helpers
 * (textf.c) the layers' messages use. */
#ifndef MTLBX_CONTAINER_TEXTF_H
#define MTLBX_CONTAINER_TEXTF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* textf.c: a one-line error into err (n bytes), as the writers' and the
 * program's calls take one; nothing when err is NULL or n is 0. */
void mbx_set_err(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* fmt with ap: in buf (size bytes) when it fits, else in a malloc'd
 * string (names are unbounded). Returns the text (free it when it is not
 * buf), or NULL when it could not be made whole: out of memory (buf holds
 * what fitted) or a format error (buf is ""). */
char *mbx_vformat(char *buf, size_t size, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif

#endif
