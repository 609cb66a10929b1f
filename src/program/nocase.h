/* Case-insensitive substring search for the explorer's `/` and filter
 * over every function's name (200,000 of them between two keys): ASCII
 * letters fold, every other byte matches itself, as tolower() does for
 * single bytes in the C and UTF-8 locales. The needle is prepared once
 * per search; candidates (places where both its first and its last
 * byte could be) are found 16 places at a time (SSE2), not byte by byte. */
#ifndef MTLBX_UTIL_NOCASE_H
#define MTLBX_UTIL_NOCASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nocase_needle {
    const uint8_t *text;       /* the caller's, not copied */
    size_t len;
    uint8_t key_first, key_last; /* its first and last byte | 0x20 */
};

void nocase_prepare(struct nocase_needle *n, const char *text);
/* Does hay[0..len) contain the needle? An empty needle is everywhere. */
bool nocase_contains(const struct nocase_needle *n, const uint8_t *hay, size_t len);

#endif
