/* See nocase.h. */
#include "config.h"
#include "nocase.h"

#include <string.h>

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

/* The first place at or after p (before end) holding the needle's first
 * byte in either case, or NULL. */
static const uint8_t *next_start(const struct nocase_needle *n, const uint8_t *p, const uint8_t *end)
{
    const uint8_t *a = memchr(p, n->lower0, (size_t)(end - p));
    if (n->upper0 == n->lower0)
        return a;
    const uint8_t *b = memchr(p, n->upper0, (size_t)((a ? a : end) - p));
    return b ? b : a;
}

bool nocase_contains(const struct nocase_needle *n, const uint8_t *hay, size_t len)
{
    if (n->len == 0)
        return true;
    if (n->len > len)
        return false;
    const uint8_t *end = hay + len - n->len + 1;
    for (const uint8_t *p = hay; p < end; p++) {
        p = next_start(n, p, end);
        if (!p)
            return false;
        size_t j = 1;
        while (j < n->len && fold(p[j]) == fold(n->text[j]))
            j++;
        if (j == n->len)
            return true;
    }
    return false;
}
