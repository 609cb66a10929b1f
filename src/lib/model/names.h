/* A function NAME as a user types it, resolved among a file's functions
 * (src/lib/model/name_resolve.c, with suggestions from name_suggest.c). */
#ifndef MTLBX_MODEL_NAMES_H
#define MTLBX_MODEL_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A function NAME as a user types it (name_resolve.c: what dis, sig, src
 * and extract -f mean by NAME). Each function is looked at as stored,
 * demangled, and demangled without its parameters. The pattern is tried
 * as an exact name, then as a shell glob (fnmatch) if it holds * ? or [,
 * then as a prefix (demangled forms are tried only when no stored name
 * matches exactly, or as a prefix). */
enum mtlbx_name_how {
    MTLBX_NAME_EXACT,          /* v: every function of that name */
    MTLBX_NAME_GLOB,           /* v: every function the glob matches */
    MTLBX_NAME_PREFIX,         /* v: the one function it begins */
    MTLBX_NAME_AMBIGUOUS,      /* a prefix of several: v lists them */
    MTLBX_NAME_MISSING,        /* nothing: v holds up to 5 closest names, best first */
};
struct mtlbx_function_ref {
    size_t library, function;
};
struct mtlbx_name_matches {
    enum mtlbx_name_how how;
    size_t n;
    struct mtlbx_function_ref *v;   /* in file order, except suggestions */
    /* C++ names past the demangler's bound (mbx_demangle_bounded) that a
     * glob or prefix was compared with as stored only: a miss may be one
     * of them. */
    size_t undemangled;
};
/* False (and *out empty) only when memory ran out. */
bool mbx_resolve_function_name(const mtlbx_file *f, const char *pattern, struct mtlbx_name_matches *out);
void mbx_name_matches_free(struct mtlbx_name_matches *m);

#ifdef __cplusplus
}
#endif
#endif
