/* C++ symbol names (`_Z...`) as a reader wants them, by libstdc++'s
 * demangler: the same code as GCC's and binutils' (cp-demangle.c), well
 * kept and bounded in recursion, rather than a hand-written one. It is the
 * C ABI entry point of libstdc++ (configure checks for it), loaded with
 * dlopen on the first name to demangle: linked in, libstdc++ was a quarter
 * of the start-up of every command, most of which never demangle. Without
 * it (not installed) names stay as they are, which is what a name the
 * demangler rejects gets too. */
#include "config.h"

#include "mtlbx_private.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* <cxxabi.h> is C++ only; this is its documented C-linkage signature. */
typedef char *cxa_demangle_fn(const char *mangled, char *out, size_t *length, int *status);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn *cxa_demangle;

static void load(void)
{
    void *h = dlopen(STDCXX_SONAME, RTLD_NOW | RTLD_LOCAL);
    void *p = h ? dlsym(h, "__cxa_demangle") : NULL;
    /* POSIX: a dlsym result converts to a function pointer. */
    memcpy(&cxa_demangle, &p, sizeof p);
}

/* Longer names are left alone: nothing real is this long, and the
 * demangler's work grows with the input. */
#define DEMANGLE_MAX_INPUT 16384

char *mtlbx_demangle(struct mtlbx_bytes name)
{
    if (name.len < 3 || name.len > DEMANGLE_MAX_INPUT || name.ptr[0] != '_' || name.ptr[1] != 'Z')
        return NULL;
    if (memchr(name.ptr, '\0', name.len))
        return NULL;
    pthread_once(&load_once, load);
    if (!cxa_demangle)
        return NULL;
    char *z = malloc(name.len + 1);
    if (!z)
        return NULL;
    memcpy(z, name.ptr, name.len);
    z[name.len] = '\0';
    int status = -1;
    char *out = cxa_demangle(z, NULL, NULL, &status);
    free(z);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}
