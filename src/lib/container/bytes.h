/* Reading the file's bytes (src/lib only): little-endian loads, byte
 * spans compared and bounded, FourCCs, and arrays that grow with what is
 * parsed. What every layer of the parser that reads bytes shares; no
 * state, nothing of the handles (container/library.h). */
#ifndef MTLBX_CONTAINER_BYTES_H
#define MTLBX_CONTAINER_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "container/container.h"

/* Little-endian readers over the mapping. Callers check bounds first with
 * mtlbx_in_file()/span helpers; these never fail. The byte order comes
 * from the compiler (GCC and Clang define __BYTE_ORDER__), not from
 * <endian.h>, which macOS does not have. MTLBX_LE* turn a value either way
 * between the host's order and little-endian (the writer's too). */
#if !defined(__BYTE_ORDER__) || !defined(__ORDER_LITTLE_ENDIAN__)
#error "the compiler does not say its byte order (__BYTE_ORDER__): GCC or Clang is needed"
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MTLBX_LE16(v) (v)
#define MTLBX_LE32(v) (v)
#define MTLBX_LE64(v) (v)
#else
#define MTLBX_LE16(v) __builtin_bswap16(v)
#define MTLBX_LE32(v) __builtin_bswap32(v)
#define MTLBX_LE64(v) __builtin_bswap64(v)
#endif
/* One unaligned load each (memcpy), whatever the optimisation level: the
 * bitstream reader's fast paths load 64 bits per field, and the byte-wise
 * form was four to eight loads at -O1. */
static inline uint16_t rd16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return MTLBX_LE16(v);
}
static inline uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return MTLBX_LE32(v);
}
static inline uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return MTLBX_LE64(v);
}
static inline uint32_t rd32be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

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

#define FOURCC(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))
#define TAG_ENDT FOURCC('E', 'N', 'D', 'T')

/* Makes room for `need` elements in a growable array (doubling), so that
 * arrays grow with what is actually parsed rather than with a count read
 * from the file. Returns false on overflow or out of memory. Inline when
 * there is room already: the bitcode reader asks for every element. */
bool grow_array_to(void **array, size_t *cap, size_t need, size_t elem_size);
static inline bool grow_array(void **array, size_t *cap, size_t need, size_t elem_size)
{
    return need <= *cap || grow_array_to(array, cap, need, elem_size);
}

/* Overflow-safe: does [off, off+len) lie inside [lo, hi)? */
static inline bool span_within(uint64_t off, uint64_t len, uint64_t lo, uint64_t hi)
{
    return off >= lo && off <= hi && len <= hi - off;
}

#endif
