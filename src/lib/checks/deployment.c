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

void deployment_note(struct mtlbx_deployment *d, const uint8_t *module, size_t len)
{
    char triple[sizeof d->triple];
    struct mtlbx_os_version v;
    if (!module || !module_triple(module, len, triple, sizeof triple, &v)) {
        d->modules_unread++;
        return;
    }
    enum mtlbx_os os = mtlbx_os_of_triple(triple);
    d->triples_read++;
    int c = d->from_triple ? mtlbx_os_version_cmp(v, d->asks) : 1;
    if (c > 0) {
        /* the one that asks the most is the one that can be refused */
        d->from_triple = d->known = true;
        d->os = os;
        d->asks = v;
        d->triple_functions = 1;
        snprintf(d->triple, sizeof d->triple, "%s", triple);
    } else if (c == 0 && os == d->os) {
        d->triple_functions++;
    }
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

void deployment_seed(mtlbx_library *lib, struct mtlbx_deployment *d)
{
    deployment_finish(lib, d);
    deployment_store(lib, d);
}

static void deployment_compute(mtlbx_library *lib, struct mtlbx_deployment *d)
{
    memset(d, 0, sizeof *d);
    struct function_cursor cur = { 0 };
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_function *fn = function_cursor_at(lib, &cur, i);
        if (!fn)
            break;
        deployment_note(d, fn->module_valid ? lib->file->data + fn->module.offset : NULL,
                        fn->module_valid ? (size_t)fn->module.size : 0);
    }
    function_cursor_free(&cur);
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

bool mtlbx_function_deployment(const mtlbx_library *lib, const struct mtlbx_deployment *d, size_t i,
                               struct mtlbx_os_version *asks, bool *from_header)
{
    *from_header = d->known && !d->from_triple;
    *asks = d->asks;
    /* One triple for every module (the usual library): nothing to read. */
    if (!d->from_triple || (d->triples_differ == 0 && d->modules_unread == 0) || i >= lib->n_functions)
        return d->known;
    const struct mtlbx_function *fn = library_function(lib, i);
    char triple[sizeof d->triple];
    struct mtlbx_os_version v;
    if (fn && fn->module_valid &&
        module_triple(lib->file->data + fn->module.offset, (size_t)fn->module.size, triple, sizeof triple, &v) &&
        mtlbx_os_of_triple(triple) == d->os)
        *asks = v;
    return true;
}
