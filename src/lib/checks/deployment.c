/* The deployment target as Metal reads it (checks.h, "deployment
 * target"): the modules' LLVM target triples, the highest of them,
 * compared at the OS-major level; the container header's os_version only
 * when no module's triple can be read. The one rule every answer to
 * "will it load" goes through (requirements.c, load_stamps.c, the
 * writer's target check). FORMAT.md §23 has the measurements. */
#include "config.h"
#include "bitcode/bitcode.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

bool mtlbx_triple_os_version(const char *triple, struct mtlbx_os_version *out)
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

struct mtlbx_os_version mtlbx_os_release(enum mtlbx_os os, struct mtlbx_os_version v)
{
    /* macOS 10.0 to 10.15 were each a major release (10.16 is 11). */
    if (os == MTLBX_OS_MACOS && v.major == 10)
        return v;
    return (struct mtlbx_os_version){ v.major, 0 };
}

enum mtlbx_triple_verdict mtlbx_triple_accepts(enum mtlbx_os os, struct mtlbx_os_version running,
                                               struct mtlbx_os_version asks)
{
    if (mtlbx_os_version_cmp(asks, running) <= 0)
        return MTLBX_TRIPLE_ACCEPTED;
    if (mtlbx_os_version_cmp(mtlbx_os_release(os, asks), running) <= 0)
        return MTLBX_TRIPLE_NEWER_MINOR;
    return MTLBX_TRIPLE_REFUSED;
}

/* The triple of a module's bytes, and the version it asks for. */
static bool module_triple(const uint8_t *p, size_t len, char *triple, size_t size, struct mtlbx_os_version *v)
{
    return len && bc_module_triple(p, len, triple, size) && mtlbx_triple_os_version(triple, v);
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
     * (mtlbx_library_requires). */
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
    return pack(mtlbx_os_of_triple(triple), v);
}

void deployment_note_function(const mtlbx_library *lib, size_t i, const uint8_t *module, size_t len)
{
    _Atomic uint32_t *t = i < lib->n_functions ? triples_of(lib) : NULL;
    if (t && atomic_load_explicit(&t[i], memory_order_relaxed) == 0)
        atomic_store_explicit(&t[i], read_triple(module, len), memory_order_relaxed);
}

/* Function i's own triple: noted, else read through the mapping now. */
static bool own_triple(const mtlbx_library *lib, size_t i, enum mtlbx_os *os, struct mtlbx_os_version *v)
{
    if (i >= lib->n_functions)
        return false;
    _Atomic uint32_t *t = triples_of(lib);
    uint32_t x = t ? atomic_load_explicit(&t[i], memory_order_relaxed) : 0;
    if (x == 0) {
        struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, i);
        x = read_triple(m.ptr, m.len);
        if (t)
            atomic_store_explicit(&t[i], x, memory_order_relaxed);
    }
    return unpack(x, os, v);
}

/* --------------------------------------------------------- the library -- */

/* One module's triple, already read, into the library's; true when it
 * is the one that asks the most so far (the one that can be refused). */
static bool note_read(struct mtlbx_deployment *d, enum mtlbx_os os, struct mtlbx_os_version v, bool readable)
{
    if (!readable) {
        d->modules_unread++;
        return false;
    }
    d->triples_read++;
    int c = d->from_triple ? mtlbx_os_version_cmp(v, d->asks) : 1;
    if (c > 0) {
        d->from_triple = d->known = true;
        d->os = os;
        d->asks = v;
        d->triple_functions = 1;
        return true;
    }
    if (c == 0 && os == d->os)
        d->triple_functions++;
    return false;
}

/* The modules' triples noted: the header stands in when none read. */
static void deployment_finish(const mtlbx_library *lib, struct mtlbx_deployment *d)
{
    d->triples_differ = d->triples_read - d->triple_functions;
    if (!d->from_triple) {
        /* No module says: the header's stamp stands in, and says so. */
        enum mtlbx_os os;
        struct mtlbx_os_version v;
        if (mtlbx_library_deployment_target(lib, &os, &v)) {
            d->known = true;
            d->os = os;
            d->asks = v;
        }
    }
    if (d->known)
        d->needs = mtlbx_os_release(d->os, d->asks);
}

static void deployment_store(mtlbx_library *lib, const struct mtlbx_deployment *d)
{
    pthread_mutex_lock(&lib->lock);
    if (!atomic_load(&lib->deploy_cached)) {
        lib->deploy = *d;
        atomic_store(&lib->deploy_cached, true);
    }
    pthread_mutex_unlock(&lib->lock);
}

static void deployment_compute(mtlbx_library *lib, struct mtlbx_deployment *d)
{
    memset(d, 0, sizeof *d);
    size_t top = 0;
    for (size_t i = 0; i < lib->n_functions; i++) {
        enum mtlbx_os os;
        struct mtlbx_os_version v;
        bool readable = own_triple(lib, i, &os, &v);
        if (note_read(d, os, v, readable))
            top = i;
    }
    /* The text of the triple that asks the most, read once. */
    if (d->from_triple) {
        struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, top);
        if (!m.len || !bc_module_triple(m.ptr, m.len, d->triple, sizeof d->triple))
            d->triple[0] = '\0';
    }
    deployment_finish(lib, d);
}

void mtlbx_library_deployment(const mtlbx_library *lib, struct mtlbx_deployment *out)
{
    mtlbx_library *mut = (mtlbx_library *)lib; /* a cache of immutable facts: computing it twice is harmless */
    if (atomic_load(&mut->deploy_cached)) {
        *out = mut->deploy;
        return;
    }
    deployment_compute(mut, out);
    deployment_store(mut, out);
}

bool mtlbx_function_deployment(const mtlbx_library *lib, size_t i, struct mtlbx_os_version *asks, bool *from_header)
{
    enum mtlbx_os os;
    *from_header = false;
    /* Its own module's triple, as Metal reads it; the library's (the
     * highest, or the header's) only when that cannot be read. */
    if (own_triple(lib, i, &os, asks) && (os == mtlbx_library_os(lib) || mtlbx_library_os(lib) == MTLBX_OS_NONE))
        return true;
    struct mtlbx_deployment d;
    mtlbx_library_deployment(lib, &d);
    *from_header = d.known && !d.from_triple;
    *asks = d.asks;
    return d.known;
}
