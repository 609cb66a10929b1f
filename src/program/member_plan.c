/* Where a source archive's members land, and which of them repeat a path
 * (see member_plan.h). */
#include "config.h"
#include "member_plan.h"

#include "name_set.h"

#include <stdlib.h>
#include <string.h>

char *member_plan_path(const char *name)
{
    size_t n = strlen(name);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (const char *p = name; *p;) {
        const char *e = strchr(p, '/');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l && !(l == 1 && p[0] == '.')) {
            if (o)
                out[o++] = '/';
            memcpy(out + o, p, l);
            o += l;
        }
        if (!e)
            break;
        p = e + 1;
    }
    out[o] = 0;
    return out;
}

size_t member_plan_duplicates(const struct mtlbx_archive *a, bool *dup)
{
    /* Exact bytes, as Linux compares names: "A.txt" and "a.txt" are two
     * files there, and safe_write_under writes on Linux. */
    struct name_set taken = { 0 };
    size_t dups = 0;
    for (size_t i = 0; i < a->n_members; i++) {
        dup[i] = false;
        if (a->members[i].type != MTLBX_MEMBER_FILE)
            continue;
        char *path = member_plan_path(a->members[i].name);
        if (!path || (!(dup[i] = name_set_has(&taken, path)) && !name_set_add(&taken, path))) {
            free(path);
            name_set_free(&taken);
            return (size_t)-1;
        }
        dups += dup[i];
        free(path);
    }
    name_set_free(&taken);
    return dups;
}
