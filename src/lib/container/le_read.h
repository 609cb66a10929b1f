/* Little-endian fields read from the file's bytes, and FourCCs (src/lib
 * only): no state, nothing of the handles. */
#ifndef MTLBX_CONTAINER_LE_READ_H
#define MTLBX_CONTAINER_LE_READ_H

#include <stdint.h>
#include <string.h>

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


#define FOURCC(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))
#define TAG_ENDT FOURCC('E', 'N', 'D', 'T')

#endif
