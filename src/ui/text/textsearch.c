/* textsearch.h: line matches by one pass over the text, then binary
 * searches, so n and N stay instant on a 60 MB disassembly. */
#include "config.h"

#include "container/lower_bound.h"
#include "ui/text/textsearch.h"
#include "ui/text/textfmt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t *textsearch_lines(const char *data, const size_t *line_start, size_t n_lines, const char *needle,
                         size_t *n)
{
    size_t *v = NULL, cap = 0;
    *n = 0;
    for (size_t i = 0; i < n_lines; i++) {
        size_t s = line_start[i], e = line_start[i + 1];
        if (textfmt_find((const uint8_t *)data + s, e - s, needle) < 0)
            continue;
        if (*n == cap) {
            size_t c = cap ? cap * 2 : 64;
            size_t *g = realloc(v, c * sizeof *g);
            if (!g) {
                free(v);
                *n = (size_t)-1;
                return NULL;
            }
            v = g;
            cap = c;
        }
        v[(*n)++] = i;
    }
    return v;
}

size_t textsearch_rank(const size_t *lines, size_t n, size_t line)
{
    return mtlbx_lower_bound_size(lines, n, line);
}

size_t textsearch_step(const size_t *lines, size_t n, size_t cur, bool forward, bool *wrapped)
{
    *wrapped = false;
    if (forward) {
        size_t k = textsearch_rank(lines, n, cur + 1);
        if (k < n)
            return k;
        *wrapped = true;
        return 0;
    }
    size_t k = textsearch_rank(lines, n, cur);
    if (k > 0)
        return k - 1;
    *wrapped = true;
    return n - 1;
}

size_t textsearch_spans(const char *s, size_t len, const char *needle, struct hl_span *out, size_t cap)
{
    size_t n = 0, nl = strlen(needle), at = 0;
    if (nl == 0)
        return 0;
    while (n < cap && at < len) {
        long k = textfmt_find((const uint8_t *)s + at, len - at, needle);
        if (k < 0)
            break;
        out[n++] = (struct hl_span){ at + (size_t)k, nl, HL_NONE };
        at += (size_t)k + nl;
    }
    return n;
}
