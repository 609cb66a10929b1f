/* Member names and magics (member_names.h). */
#include "config.h"

#include "member_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool mbx_metallib_magic(const uint8_t m[4])
{
    return (m[0] == 'M' && m[1] == 'T' && m[2] == 'L' && m[3] == 'B') ||
           (m[0] == 0xCB && m[1] == 0xFE && m[2] == 0xBA && m[3] == 0xBE);
}

bool mbx_metallib_name(const char *name)
{
    size_t n = strlen(name);
    return n >= 9 && strcasecmp(name + n - 9, ".metallib") == 0;
}

char *mbx_archive_join(const char *prefix, const char *name)
{
    size_t n = (prefix ? strlen(prefix) + 1 : 0) + strlen(name) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", prefix ? prefix : "", prefix ? "!" : "", name);
    return s;
}
