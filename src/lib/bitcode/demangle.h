/* C++ symbol names demangled, within bounds (src/lib/bitcode/demangle.c). */
#ifndef MTLBX_BITCODE_DEMANGLE_H
#define MTLBX_BITCODE_DEMANGLE_H

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Demangling is bounded (bitcode/demangle.c): a mangled name longer than
 * this, or whose demangled form would be more than 16 times as long (plus
 * 256), is left as stored, whatever it would have given. */
#define MTLBX_DEMANGLE_INPUT_MAX 4096
enum mtlbx_demangle_status {
    MTLBX_DEMANGLED,               /* *out holds the demangled name */
    MTLBX_DEMANGLE_NOT_MANGLED,    /* no C++ symbol name, or one the demangler rejects */
    MTLBX_DEMANGLE_TOO_LONG,       /* a C++ symbol past the bounds: shown as stored */
    MTLBX_DEMANGLE_NO_MEMORY,
};
/* The demangled form of a C++ symbol name ("_Z..."), malloc'd into *out
 * and not yet escaped; *out is NULL unless MTLBX_DEMANGLED. */
enum mtlbx_demangle_status mbx_demangle_bounded(struct mtlbx_bytes name, char **out);
/* The same, or NULL whatever the reason (the name is then shown as stored). */
char *mbx_demangle(struct mtlbx_bytes name);

#ifdef __cplusplus
}
#endif
#endif
