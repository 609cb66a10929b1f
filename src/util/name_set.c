/* String set for output-name disambiguation (see name_set.h). Open
 * addressing with linear probing; the table doubles at half load. A
 * case-insensitive set stores each name's key: its Unicode full case
 * folding in NFC (libunistring), so "Straße" meets "STRASSE" and a
 * precomposed "É" meets "E" + U+0301, as on a case-insensitive,
 * normalising filesystem (APFS, HFS+). */
#include "config.h"
#include "name_set.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <uninorm.h>

#include "safe_write.h"

static uint64_t hash(const char *p)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return h;
}

/* The key NAME is stored and looked up under: a malloc'd string, or NULL
 * when out of memory. Bytes that are not UTF-8 (safe_component replaced
 * them, but the set takes any string) fold as ASCII. */
static char *key_of(const struct name_set *s, const char *name)
{
    if (!s->nocase)
        return strdup(name);
    size_t n = 0;
    uint8_t *f = u8_casefold((const uint8_t *)name, strlen(name), NULL, UNINORM_NFC, NULL, &n);
    if (f) {
        char *k = realloc(f, n + 1);
        if (!k) {
            free(f);
            return NULL;
        }
        k[n] = 0;
        return k;
    }
    if (errno != EILSEQ)
        return NULL;
    char *k = strdup(name);
    for (char *p = k; p && *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return k;
}

static bool has_key(const struct name_set *s, const char *key)
{
    if (!s->cap)
        return false;
    for (size_t i = hash(key) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        if (!s->slot[i])
            return false;
        if (strcmp(s->slot[i], key) == 0)
            return true;
    }
}

bool name_set_has(const struct name_set *s, const char *name)
{
    char *key = key_of(s, name);
    bool has = key && has_key(s, key);
    free(key);
    return has;
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
            size_t j = hash(s->slot[i]) & (ncap - 1);
            while (ns[j])
                j = (j + 1) & (ncap - 1);
            ns[j] = s->slot[i];
        }
        free(s->slot);
        s->slot = ns;
        s->cap = ncap;
    }
    char *copy = key_of(s, name);
    if (!copy)
        return false;
    size_t j = hash(copy) & (s->cap - 1);
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
        char *key = key_of(s, cand);
        if (!key) {
            free(cand);
            return NULL;
        }
        bool taken = has_key(s, key);
        free(key);
        if (!taken) {
            if (!name_set_add(s, cand)) {
                free(cand);
                return NULL;
            }
            return cand;
        }
        free(cand);
    }
}

char *name_set_unique_file(struct name_set *s, const uint8_t *name, size_t len, const char *suffix)
{
    char *base = safe_component(name, len);
    if (!base)
        return NULL;
    char *out = name_set_unique(s, base, suffix);
    free(base);
    return out;
}
