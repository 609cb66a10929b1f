/* See span_release.h. */
#include "config.h"
#include "span_release.h"
#include "container/file.h"

void span_release_init(struct span_release *s, const mtlbx_file *file)
{
    *s = (struct span_release){ .file = file, .lo = UINT64_MAX, .hi = 0 };
}

void span_release_add(struct span_release *s, struct mtlbx_range r)
{
    if (r.size == 0 || r.offset > UINT64_MAX - r.size)
        return;
    if (r.offset < s->lo)
        s->lo = r.offset;
    if (r.offset + r.size > s->hi)
        s->hi = r.offset + r.size;
    if (s->hi - s->lo >= SPAN_RELEASE_STEP)
        span_release_flush(s);
}

void span_release_flush(struct span_release *s)
{
    if (s->hi > s->lo)
        mbx_file_release(s->file, s->lo, s->hi - s->lo);
    s->lo = UINT64_MAX;
    s->hi = 0;
}
