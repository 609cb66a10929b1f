/* How a node's detail fields are written: the formatting and escaping that
 * fields.c and its per-kind companions (fields_tag.c, fields_iface.c,
 * fields_reflection.c) share. It sits below all of them, so fields.c can
 * dispatch to a companion without the companion calling back into it. */
#include "config.h"
#include "node.h"
#include "container/file_handle.h"
#include "container/span.h"
#include "model/model.h"
#include "container/escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void field_emit(struct field_out *o, const char *name, uint64_t off, uint64_t size,
                unsigned flags, uint64_t target, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    struct mtlbx_field fl = { .name = name, .value = buf, .offset = off, .size = size,
                              .flags = flags, .target = target };
    o->fn(o->ctx, &fl);
}

const char *field_esc(char *out, size_t n, const uint8_t *p, size_t len)
{
    if (!n)
        return out;
    out[0] = 0;
    if (!p || !len)
        return out;
    if (mbx_escape(p, len, MTLBX_ESC_TERMINAL, out, n) >= n && n > 4) {
        mbx_escape(p, len, MTLBX_ESC_TERMINAL, out, n - 3);
        strcat(out, "...");
    }
    return out;
}

const uint8_t *field_bytes(const mtlbx_file *f, uint64_t off, uint64_t len)
{
    return span_within(off, len, 0, f->size) ? f->data + off : NULL;
}
