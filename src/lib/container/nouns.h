/* The container layer (src/lib/container) on counts (nouns.c): a count
 * with the noun that agrees with it. (Digits grouped by three:
 * container/digits.h.) */
#ifndef MTLBX_CONTAINER_NOUNS_H
#define MTLBX_CONTAINER_NOUNS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- counted nouns -- */

/* "1 function", "0 functions", "1,234 bytes": the count (digits grouped
 * by three), a space and the noun that agrees with it, written into buf
 * (32 bytes plus the noun are enough). Returns buf.
 * The one place every message, label and report says how many. */
const char *mbx_count_noun(uint64_t n, const char *one, const char *many, char *buf, size_t size);
/* Just the noun that agrees with n, for a format that prints n itself
 * ("%zu %s", n, mbx_noun(n, "entry", "entries")). */
const char *mbx_noun(uint64_t n, const char *one, const char *many);

#ifdef __cplusplus
}
#endif

#endif
