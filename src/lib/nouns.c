/* Counted nouns: "1 function", "2 functions", "1,234 bytes". One helper
 * so that no message, label or report ever says "1 functions" or
 * "1 bytes". */
#include "config.h"
#include "mtlbx.h"

#include <stdio.h>

const char *mtlbx_noun(uint64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

const char *mtlbx_group_digits(uint64_t n, char *buf, size_t size)
{
    /* Digits in groups of three, as a reader of sizes expects. */
    char digits[24], grouped[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < len; i++) {
        if (i && (len - i) % 3 == 0)
            grouped[o++] = ',';
        grouped[o++] = digits[i];
    }
    grouped[o] = '\0';
    snprintf(buf, size, "%s", grouped);
    return buf;
}

const char *mtlbx_count_noun(uint64_t n, const char *one, const char *many, char *buf, size_t size)
{
    char grouped[32];
    snprintf(buf, size, "%s %s", mtlbx_group_digits(n, grouped, sizeof grouped), mtlbx_noun(n, one, many));
    return buf;
}
