/* Private glue between the resolution of a typed function NAME
 * (name_resolve.c) and the suggestions offered when it matches nothing
 * (name_suggest.c). Nothing outside src/lib/model includes this. */
#ifndef MTLBX_NAME_MATCH_H
#define MTLBX_NAME_MATCH_H

#include "model/names.h"
#include "container/functions.h"

/* Suggestions offered on a miss, at most. */
#define NAME_SUGGESTIONS_MAX 5

/* One function's name in the forms a reader may type: as stored and, for
 * a C++ symbol the bounded demangler takes, demangled (malloc'd). */
struct name_forms {
    const char *raw;
    size_t raw_len;
    char *demangled;           /* NULL: not mangled, or past the demangler's bound */
    size_t base_len;           /* demangled up to '(' */
    bool too_long;             /* mangled, but past the demangler's bound */
};
void name_forms_get(struct mtlbx_bytes name, struct name_forms *f);

/* Function i of lib, through the library's table when it is small
 * (name_resolve.c says why), else peeked at. */
const struct mtlbx_function *name_entry(const mtlbx_library *lib, size_t i);

/* The functions closest to `pattern`, best first, into best[0..*n)
 * (at most NAME_SUGGESTIONS_MAX): names holding it (ignoring case), then
 * names a few edits away. */
void name_suggest(const mtlbx_file *f, const char *pattern, struct mtlbx_function_ref *best, size_t *n);

#endif
