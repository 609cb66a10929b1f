/* String set for output-name disambiguation (see name_set.h). Open
 * addressing with linear probing; the table doubles at half load. */
#include "config.h"
#include "name_set.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static uint64_t hash(const struct name_set *s, const char *p)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        h = (h ^ (s->nocase ? (unsigned char)tolower(c) : c)) * 1099511628211ULL;
    }
    return h;
}

static bool same(const struct name_set *s, const char *a, const char *b)
{
    return (s->nocase ? strcasecmp(a, b) : strcmp(a, b)) == 0;
}

bool name_set_has(const struct name_set *s, const char *name)
{
    if (!s->cap)
        return false;
    for (size_t i = hash(s, name) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        if (!s->slot[i])
            return false;
        if (same(s, s->slot[i], name))
            return true;
    }
}

bool name_set_add(struct name_set *s, const char *name)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        char **ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return false;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i])
                continue;
            size_t j = hash(s, s->slot[i]) & (ncap - 1);
            while (ns[j])
                j = (j + 1) & (ncap - 1);
            ns[j] = s->slot[i];
        }
        free(s->slot);
        s->slot = ns;
        s->cap = ncap;
    }
    char *copy = strdup(name);
    if (!copy)
        return false;
    size_t j = hash(s, name) & (s->cap - 1);
    while (s->slot[j])
        j = (j + 1) & (s->cap - 1);
    s->slot[j] = copy;
    s->n++;
    return true;
}

void name_set_free(struct name_set *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i]);
    free(s->slot);
    s->slot = NULL;
    s->cap = s->n = 0;
}

char *name_set_unique(struct name_set *s, const char *base, const char *suffix)
{
    /* Terminates: each K is a new name and the set is finite. */
    for (unsigned long k = 1;; k++) {
        char *cand = NULL;
        int r = k == 1 ? asprintf(&cand, "%s%s", base, suffix)
                       : asprintf(&cand, "%s~%lu%s", base, k, suffix);
        if (r < 0)
            return NULL;
        if (!name_set_has(s, cand)) {
            if (!name_set_add(s, cand)) {
                free(cand);
                return NULL;
            }
            return cand;
        }
        free(cand);
    }
}
