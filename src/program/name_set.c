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

/* A BASE and SUFFIX name_set_unique was asked for (as keys: folded when
 * the set folds) and the K to try next for it. Every K before it gave a
 * name the set holds, and the set only grows, so they need no new look. */
struct name_family {
    char *base, *suffix;
    unsigned long next;
};

static uint64_t family_hash(const char *base, const char *suffix)
{
    uint64_t h = hash(base);
    return (h ^ 0x9e3779b97f4a7c15ULL) * 1099511628211ULL ^ hash(suffix);
}

/* The family of (base, suffix), added with next = 1 when new; NULL when
 * out of memory. */
static struct name_family *family_of(struct name_set *s, const char *base, const char *suffix)
{
    if ((s->n_families + 1) * 2 > s->family_cap) {
        size_t ncap = s->family_cap ? s->family_cap * 2 : 16;
        struct name_family **nf = calloc(ncap, sizeof *nf);
        if (!nf)
            return NULL;
        for (size_t i = 0; i < s->family_cap; i++) {
            if (!s->family[i])
                continue;
            size_t j = family_hash(s->family[i]->base, s->family[i]->suffix) & (ncap - 1);
            while (nf[j])
                j = (j + 1) & (ncap - 1);
            nf[j] = s->family[i];
        }
        free(s->family);
        s->family = nf;
        s->family_cap = ncap;
    }
    size_t j = family_hash(base, suffix) & (s->family_cap - 1);
    for (; s->family[j]; j = (j + 1) & (s->family_cap - 1))
        if (strcmp(s->family[j]->base, base) == 0 && strcmp(s->family[j]->suffix, suffix) == 0)
            return s->family[j];
    struct name_family *f = malloc(sizeof *f);
    if (!f)
        return NULL;
    f->base = strdup(base);
    f->suffix = strdup(suffix);
    f->next = 1;
    if (!f->base || !f->suffix) {
        free(f->base);
        free(f->suffix);
        free(f);
        return NULL;
    }
    s->family[j] = f;
    s->n_families++;
    return f;
}

void name_set_free(struct name_set *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i]);
    free(s->slot);
    for (size_t i = 0; i < s->family_cap; i++)
        if (s->family[i]) {
            free(s->family[i]->base);
            free(s->family[i]->suffix);
            free(s->family[i]);
        }
    free(s->family);
    s->slot = NULL;
    s->family = NULL;
    s->cap = s->n = s->family_cap = s->n_families = 0;
}

char *name_set_unique(struct name_set *s, const char *base, const char *suffix)
{
    char *base_key = key_of(s, base), *suffix_key = key_of(s, suffix);
    struct name_family *fam = base_key && suffix_key ? family_of(s, base_key, suffix_key) : NULL;
    free(base_key);
    free(suffix_key);
    if (!fam)
        return NULL;
    /* Terminates: each K is a new name and the set is finite. */
    for (unsigned long k = fam->next;; k++) {
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
            fam->next = k + 1;
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
