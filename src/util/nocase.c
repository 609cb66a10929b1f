/* See nocase.h. */
#include "config.h"
#include "nocase.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static uint8_t fold(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c - 'A' + 'a') : c;
}

void nocase_prepare(struct nocase_needle *n, const char *text)
{
    n->text = (const uint8_t *)text;
    n->len = strlen(text);
    n->lower0 = n->len ? fold(n->text[0]) : 0;
    n->upper0 = n->lower0 >= 'a' && n->lower0 <= 'z' ? (uint8_t)(n->lower0 - 'a' + 'A') : n->lower0;
}

/* Does the needle start at p (its first byte already matched)? */
static bool matches_at(const struct nocase_needle *n, const uint8_t *p)
{
    if (fold(p[n->len - 1]) != fold(n->text[n->len - 1]))
        return false; /* names share long prefixes: the last byte rejects most */
    size_t j = 1;
    while (j < n->len && fold(p[j]) == fold(n->text[j]))
        j++;
    return j == n->len;
}

/* The first byte in [p, end) that is the letter `lower` in either case,
 * or NULL: c | 0x20 is a letter's lower case for both cases, and no other
 * byte gives a letter. A search over 200,000 names and their argument
 * texts (about 40 MB) spent most of its time here: memchr once for each
 * case and candidate cost more than the bytes, a byte at a time about a
 * nanosecond each; SSE2 (every x86-64) tests 16 at once. */
static const uint8_t *next_letter(const uint8_t *p, const uint8_t *end, uint8_t lower)
{
#ifdef __SSE2__
    const __m128i want = _mm_set1_epi8((char)lower), bit = _mm_set1_epi8(0x20);
    while (end - p >= 16) {
        __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)p), bit);
        int hits = _mm_movemask_epi8(_mm_cmpeq_epi8(v, want));
        if (hits)
            return p + __builtin_ctz((unsigned)hits);
        p += 16;
    }
#endif
    for (; p < end; p++)
        if ((uint8_t)(*p | 0x20) == lower)
            return p;
    return NULL;
}

bool nocase_contains(const struct nocase_needle *n, const uint8_t *hay, size_t len)
{
    if (n->len == 0)
        return true;
    if (n->len > len)
        return false;
    const uint8_t *end = hay + len - n->len + 1;
    if (n->upper0 == n->lower0) {
        /* A first byte without case: memchr finds the candidates. */
        for (const uint8_t *p = hay; p < end && (p = memchr(p, n->lower0, (size_t)(end - p))) != NULL; p++)
            if (matches_at(n, p))
                return true;
        return false;
    }
    for (const uint8_t *p = hay; (p = next_letter(p, end, n->lower0)) != NULL; p++)
        if (matches_at(n, p))
            return true;
    return false;
}
