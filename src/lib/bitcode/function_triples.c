/* Each function's own target triple (function_triples.h): read from its
 * module once, by whoever has the module's bytes in hand first (the
 * interface reader, or the deployment pass through the mapping), and kept
 * as 4 bytes a function. The OS and version a triple names are read here
 * too: the requirement rule above (checks/deployment.c) asks for them. */
#include "config.h"
#include "bitcode/bitcode.h"
#include "bitcode/function_triples.h"
#include "container/library.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

enum mtlbx_os mbx_os_of_triple(const char *triple)
{
    /* ARCH-VENDOR-OS[-ENVIRONMENT] */
    const char *os = strchr(triple, '-');
    os = os ? strchr(os + 1, '-') : NULL;
    if (!os)
        return MTLBX_OS_NONE;
    os++;
    const char *env = strchr(os, '-');
    size_t len = env ? (size_t)(env - os) : strlen(os);
    if (env && strncmp(env + 1, "macabi", 6) == 0)
        return MTLBX_OS_MACCATALYST;
    if (starts(os, len, "macos"))
        return MTLBX_OS_MACOS;
    if (starts(os, len, "ios"))
        return MTLBX_OS_IOS;
    if (starts(os, len, "tvos"))
        return MTLBX_OS_TVOS;
    if (starts(os, len, "watchos"))
        return MTLBX_OS_WATCHOS;
    if (starts(os, len, "xros") || starts(os, len, "visionos"))
        return MTLBX_OS_VISIONOS;
    return MTLBX_OS_NONE;
}

bool mbx_triple_os_version(const char *triple, struct mtlbx_os_version *out)
{
    /* ARCH-VENDOR-OS[-ENVIRONMENT]; OS is letters, then the version */
    const char *os = strchr(triple, '-');
    os = os ? strchr(os + 1, '-') : NULL;
    if (!os)
        return false;
    os++;
    while (*os >= 'a' && *os <= 'z')
        os++;
    if (*os < '0' || *os > '9')
        return false;
    char *end;
    unsigned long major = strtoul(os, &end, 10), minor = 0;
    if (*end == '.' && end[1] >= '0' && end[1] <= '9')
        minor = strtoul(end + 1, &end, 10);
    if (major > UINT16_MAX || minor > UINT16_MAX)
        return false;
    *out = (struct mtlbx_os_version){ (uint16_t)major, (uint16_t)minor };
    return true;
}

/* The triple of a module's bytes, and the version it asks for. */
static bool module_triple(const uint8_t *p, size_t len, char *triple, size_t size, struct mtlbx_os_version *v)
{
    return len && bc_module_triple(p, len, triple, size) && mbx_triple_os_version(triple, v);
}

/* ------------------------------------------- each function's own triple -- */

/* A function's triple packed in 32 bits: 0 not read, UNREADABLE, else
 * 1 + (os << 24 | major << 8 | minor), the minor kept to 255 (what a
 * header holds). */
#define UNREADABLE UINT32_MAX

static uint32_t pack(enum mtlbx_os os, struct mtlbx_os_version v)
{
    return 1u + ((uint32_t)os << 24 | (uint32_t)v.major << 8 | (v.minor > 255 ? 255u : v.minor));
}

static bool unpack(uint32_t x, enum mtlbx_os *os, struct mtlbx_os_version *v)
{
    if (x == 0 || x == UNREADABLE)
        return false;
    x--;
    *os = (enum mtlbx_os)(x >> 24);
    *v = (struct mtlbx_os_version){ (uint16_t)(x >> 8 & 0xFFFF), (uint16_t)(x & 0xFF) };
    return true;
}

/* The library's array of them, made on first need (4 bytes a function,
 * whose pages exist only where a function was noted). NULL: no memory. */
static _Atomic uint32_t *triples_of(const mtlbx_library *lib)
{
    mtlbx_library *mut = (mtlbx_library *)lib;
    _Atomic uint32_t *t = atomic_load(&mut->fn_triples);
    if (t || !lib->n_functions)
        return t;
    /* A lock of its own: this is asked with the library's lock held
     * (mbx_library_requires). */
    static pthread_mutex_t made = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&made);
    t = atomic_load(&mut->fn_triples);
    if (!t) {
        t = calloc(lib->n_functions, sizeof *t);
        atomic_store(&mut->fn_triples, t);
    }
    pthread_mutex_unlock(&made);
    return t;
}

static uint32_t read_triple(const uint8_t *module, size_t len)
{
    char triple[96];
    struct mtlbx_os_version v;
    if (!module || !module_triple(module, len, triple, sizeof triple, &v))
        return UNREADABLE;
    return pack(mbx_os_of_triple(triple), v);
}

void bc_note_function_triple(const mtlbx_library *lib, size_t i, const uint8_t *module, size_t len)
{
    _Atomic uint32_t *t = i < lib->n_functions ? triples_of(lib) : NULL;
    if (t && atomic_load_explicit(&t[i], memory_order_relaxed) == 0)
        atomic_store_explicit(&t[i], read_triple(module, len), memory_order_relaxed);
}

/* Function i's own triple: noted, else read through the mapping now
 * (*was_read says so, for a caller that lets the pages go behind it). */
bool bc_function_triple_read(const mtlbx_library *lib, size_t i, enum mtlbx_os *os, struct mtlbx_os_version *v,
                             bool *was_read)
{
    *was_read = false;
    if (i >= lib->n_functions)
        return false;
    _Atomic uint32_t *t = triples_of(lib);
    uint32_t x = t ? atomic_load_explicit(&t[i], memory_order_relaxed) : 0;
    if (x == 0) {
        struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
        x = read_triple(m.ptr, m.len);
        *was_read = m.len != 0;
        if (t)
            atomic_store_explicit(&t[i], x, memory_order_relaxed);
    }
    return unpack(x, os, v);
}

bool bc_function_triple(const mtlbx_library *lib, size_t i, enum mtlbx_os *os, struct mtlbx_os_version *v)
{
    bool was_read;
    return bc_function_triple_read(lib, i, os, v, &was_read);
}
