/* A set of strings for choosing output file names: which names a command
 * has already used in one directory. Hash table, so 100,000 names stay
 * instant. Case-insensitive sets give the same names on a case-insensitive
 * filesystem (macOS) as on Linux. */
#ifndef MTLBX_NAME_SET_H
#define MTLBX_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>

struct name_set {
    bool nocase;               /* set before the first add; ASCII case only */
    char **slot;
    size_t cap, n;
};

bool name_set_has(const struct name_set *s, const char *name);
/* Adds a copy of name. Returns false on out of memory. */
bool name_set_add(struct name_set *s, const char *name);
void name_set_free(struct name_set *s);

/* "BASE SUFFIX", or "BASE~K SUFFIX" for the first K >= 2 not yet in the
 * set; the result is added to the set. Returns a malloc'd string or NULL. */
char *name_set_unique(struct name_set *s, const char *base, const char *suffix);

#endif
