/* A set of strings for choosing output file names: which names a command
 * has already used in one directory. Hash table, so 100,000 names stay
 * instant. Case-insensitive sets give the same names on a case-insensitive
 * filesystem (macOS) as on Linux: names are compared by Unicode case
 * folding in NFC, so "Straße" and "STRASSE", or "É" precomposed and
 * decomposed, are one name. */
#ifndef MTLBX_NAME_SET_H
#define MTLBX_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct name_family;
struct name_set {
    bool nocase;               /* set before the first add: Unicode case folding + NFC */
    char **slot;
    size_t cap, n;
    /* name_set_unique's next K for each BASE and SUFFIX asked for, so
     * that the k-th repeat of a name costs one look-up, not k (100,000
     * functions named alike were minutes, issue 35). */
    struct name_family **family;
    size_t family_cap, n_families;
};

bool name_set_has(const struct name_set *s, const char *name);
/* Adds a copy of name. Returns false on out of memory. */
bool name_set_add(struct name_set *s, const char *name);
void name_set_free(struct name_set *s);

/* "BASE SUFFIX", or "BASE~K SUFFIX" for the first K >= 2 not yet in the
 * set; the result is added to the set. Returns a malloc'd string or NULL. */
char *name_set_unique(struct name_set *s, const char *base, const char *suffix);

/* The one naming rule for written modules (`mtlbx extract`, the
 * explorer's E): NAME (raw bytes) made safe by safe_component, then made
 * unique in the set with name_set_unique. NULL when out of memory. */
char *name_set_unique_file(struct name_set *s, const uint8_t *name, size_t len, const char *suffix);

#endif
