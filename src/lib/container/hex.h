/* Bytes as lower-case hex, written once for the tree: HASHes, UUIDs, the
 * JSON's and the manifest's raw values. Static inline, as the loops it
 * replaces were. */
#ifndef MTLBX_HEX_H
#define MTLBX_HEX_H

#include <stddef.h>
#include <stdint.h>

/* The n bytes at p as 2n hex digits and a NUL, into out (2n + 1 bytes). */
static inline void mtlbx_hex_lower(char *out, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    out[2 * n] = '\0';
}

#endif
