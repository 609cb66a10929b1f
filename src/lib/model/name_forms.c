/* A function's name in the forms a reader may type, and the entries the
 * name look-ups read (name_match.h): shared by the resolution of a typed
 * NAME (name_resolve.c) and its suggestions (name_suggest.c). */
#include "config.h"

#include "bitcode/demangle.h"
#include "model/name_match.h"
#include "container/functions.h"

#include <stdlib.h>
#include <string.h>

/* One function's name in its forms; demangled text is malloc'd, within
 * the demangler's bound. */
void name_forms_get(struct mtlbx_bytes name, struct name_forms *f)
{
    f->raw = (const char *)name.ptr;
    f->raw_len = name.len;
    f->too_long = mbx_demangle_bounded(name, &f->demangled) == MTLBX_DEMANGLE_TOO_LONG;
    f->base_len = 0;
    if (f->demangled) {
        char *paren = strchr(f->demangled, '(');
        f->base_len = paren ? (size_t)(paren - f->demangled) : strlen(f->demangled);
    }
}

/* A library of at most this many functions is read through its table,
 * which then holds them all (about 4.7 MB): `extract -f` with 200 names
 * resolves each in a pass of its own, and decoding every entry again for
 * each took it from 0.12 s to 0.9 s on 20,000 functions. A bigger one is
 * peeked at, so memory stays flat (a miss reads every name four times:
 * filling the table cost `sig NAME` 65 MB at 200,000 functions, about
 * 300 MB at a million). */
#define NAME_TABLE_MAX 32768

const struct mtlbx_function *name_entry(const mtlbx_library *lib, size_t i)
{
    return mbx_library_function_count(lib) <= NAME_TABLE_MAX ? mbx_function_at(lib, i) : mbx_function_peek(lib, i);
}
