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
    n->key_first = n->len ? (uint8_t)(n->text[0] | 0x20) : 0;
    n->key_last = n->len ? (uint8_t)(n->text[n->len - 1] | 0x20) : 0;
}

/* Does the needle start at p? */
static bool matches_at(const struct nocase_needle *n, const uint8_t *p)
{
    size_t j = 0;
    while (j < n->len && fold(p[j]) == fold(n->text[j]))
        j++;
    return j == n->len;
}

/* Candidates are where both the needle's first and its last byte could
 * be, 16 places at a time (SSE2, every x86-64), and only those are
 * compared whole. A byte's key is c | 0x20: a letter's lower case for
 * both cases, so a letter is never missed; two other bytes may share a
 * key ('@' and '`'), which only makes a candidate that matches_at()
 * turns down. Looking at the first byte alone, every name of a search
 * over 200,000 names and their argument texts (about 40 MB) was a
 * candidate, "main" holding the 'i' of a name like "isc_main_00199999":
 * that cost more than reading the bytes. With the last byte too, few
 * places are. */
bool nocase_contains(const struct nocase_needle *n, const uint8_t *hay, size_t len)
{
    if (n->len == 0)
        return true;
    if (n->len > len)
        return false;
    const size_t last = n->len - 1;
    const uint8_t *p = hay, *end = hay + len - last; /* where the needle could start */
#ifdef __SSE2__
    const __m128i bit = _mm_set1_epi8(0x20);
    const __m128i first = _mm_set1_epi8((char)n->key_first), final = _mm_set1_epi8((char)n->key_last);
    /* p + 15 + last < hay + len while end - p >= 16. */
    while (end - p >= 16) {
        __m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)p), bit);
        __m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + last)), bit);
        unsigned hits = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, final)));
        for (; hits; hits &= hits - 1)
            if (matches_at(n, p + __builtin_ctz(hits)))
                return true;
        p += 16;
    }
#endif
    for (; p < end; p++)
        if ((uint8_t)(p[0] | 0x20) == n->key_first && (uint8_t)(p[last] | 0x20) == n->key_last && matches_at(n, p))
            return true;
    return false;
}
