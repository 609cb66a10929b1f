/* Counted nouns: "1 function", "2 functions", "1,234 bytes". One helper
 * so that no message, label or report ever says "1 functions" or
 * "1 bytes". */
#include "config.h"
#include "container/nouns.h"
#include "container/digits.h"

#include <stdio.h>

const char *mbx_noun(uint64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

const char *mbx_format_count(char *out, size_t n, uint64_t v)
{
    /* Digits in groups of three, as a reader of sizes expects. */
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    if (n)
        out[o < n ? o : n - 1] = '\0';
    return out;
}

const char *mbx_count_noun(uint64_t n, const char *one, const char *many, char *buf, size_t size)
{
    char grouped[32];
    snprintf(buf, size, "%s %s", mbx_format_count(grouped, sizeof grouped, n), mbx_noun(n, one, many));
    return buf;
}
