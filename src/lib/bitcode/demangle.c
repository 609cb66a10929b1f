/* C++ symbol names (`_Z...`) as a reader wants them, by libstdc++'s
 * demangler: the same code as GCC's and binutils' (cp-demangle.c), well
 * kept and bounded in recursion, rather than a hand-written one. It is the
 * C ABI entry point of libstdc++, so C code can call it by linking
 * -lstdc++ (configure checks for it). */
#include "config.h"

#include "mtlbx.h"

#include <stdlib.h>
#include <string.h>

/* <cxxabi.h> is C++ only; this is its documented C-linkage declaration. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);

/* Longer names are left alone: nothing real is this long, and the
 * demangler's work grows with the input. */
#define DEMANGLE_MAX_INPUT 16384

char *mtlbx_demangle(struct mtlbx_bytes name)
{
    if (name.len < 3 || name.len > DEMANGLE_MAX_INPUT || name.ptr[0] != '_' || name.ptr[1] != 'Z')
        return NULL;
    if (memchr(name.ptr, '\0', name.len))
        return NULL;
    char *z = malloc(name.len + 1);
    if (!z)
        return NULL;
    memcpy(z, name.ptr, name.len);
    z[name.len] = '\0';
    int status = -1;
    char *out = __cxa_demangle(z, NULL, NULL, &status);
    free(z);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}
