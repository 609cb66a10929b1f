/* The deployment target as Metal reads it (checks.h, "deployment
 * target"): the modules' LLVM target triples (each read once:
 * bitcode/function_triples.c), the highest of them,
 * compared at the OS-major level; the container header's os_version only
 * when no module's triple can be read. The one rule every answer to
 * "will it load" goes through (requirements.c, load_stamps.c, the
 * writer's target check). FORMAT.md §23 has the measurements. */
#include "config.h"
#include "bitcode/bitcode.h"
#include "bitcode/function_triples.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

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
        bool readable = bc_function_triple(lib, i, &os, &v);
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
    if (bc_function_triple(lib, i, &os, asks) && (os == mtlbx_library_os(lib) || mtlbx_library_os(lib) == MTLBX_OS_NONE))
        return true;
    struct mtlbx_deployment d;
    mtlbx_library_deployment(lib, &d);
    *from_header = d.known && !d.from_triple;
    *asks = d.asks;
    return d.known;
}
