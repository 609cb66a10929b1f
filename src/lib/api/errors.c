/* The handle's last failure (mtlbx_errno, mtlbx_error_string,
 * mtlbx_error_offset) and how every other file of the layer records it. */
#include "config.h"

#include "api/handle.h"

#include <errno.h>
#include <stdio.h>

static void set_verror(mtlbx *h, int errno_value, int64_t offset, const char *fmt, va_list ap)
{
    char text[768];
    vsnprintf(text, sizeof text, fmt, ap);
    /* The pool keeps every line handed out; a line that repeats is kept
     * once. Out of memory, the line that says so is a constant. */
    const char *kept = pool_intern(&h->pool, text);
    h->err_text = kept ? kept : "out of memory";
    h->err_errno = kept ? errno_value : ENOMEM;
    h->err_offset = offset;
}

void api_set_error(mtlbx *h, int errno_value, int64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_verror(h, errno_value, offset, fmt, ap);
    va_end(ap);
}

int api_fail(mtlbx *h, int status, int errno_value, int64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_verror(h, errno_value, offset, fmt, ap);
    va_end(ap);
    return status;
}

int mtlbx_errno(mtlbx *h) { return h ? h->err_errno : EINVAL; }

const char *mtlbx_error_string(mtlbx *h) { return h ? h->err_text : "no handle"; }

int64_t mtlbx_error_offset(mtlbx *h) { return h ? h->err_offset : -1; }
