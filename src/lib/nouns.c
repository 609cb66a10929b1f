/* Counted nouns: "1 function", "2 functions". One helper so that no
 * message, label or report ever says "1 functions" or "1 bytes". */
#include "config.h"
#include "mtlbx.h"

#include <stdio.h>

const char *mtlbx_count_noun(uint64_t n, const char *one, const char *many, char *buf, size_t size)
{
    snprintf(buf, size, "%llu %s", (unsigned long long)n, n == 1 ? one : many);
    return buf;
}
