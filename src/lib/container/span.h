/* Byte spans compared, and ranges bounded without overflow (src/lib
 * only). */
#ifndef MTLBX_CONTAINER_SPAN_H
#define MTLBX_CONTAINER_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "container/types.h"

/* Byte spans: equal, and ordered bytewise (a prefix first). */
static inline bool span_eq(struct mtlbx_bytes x, struct mtlbx_bytes y)
{
    return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}
static inline int span_cmp(struct mtlbx_bytes x, struct mtlbx_bytes y)
{
    size_t n = x.len < y.len ? x.len : y.len;
    int c = n ? memcmp(x.ptr, y.ptr, n) : 0;
    return c ? c : (x.len > y.len) - (x.len < y.len);
}

/* Overflow-safe: does [off, off+len) lie inside [lo, hi)? */
static inline bool span_within(uint64_t off, uint64_t len, uint64_t lo, uint64_t hi)
{
    return off >= lo && off <= hi && len <= hi - off;
}

#endif
