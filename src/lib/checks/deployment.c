/* The deployment target as Metal reads it (checks/deployment.h, "deployment
 * target"): the modules' LLVM target triples (each read once:
 * bitcode/function_triples.c), the highest of them,
 * compared at the OS-major level; the container header's os_version only
 * when no module's triple can be read. The one rule every answer to
 * "will it load" goes through (requirements.c, load_stamps.c, the
 * writer's target check). FORMAT.md §23 has the measurements. */
#include "config.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/library.h"
#include "bitcode/bitcode.h"
#include "bitcode/function_triples.h"
#include "checks/deployment.h"
#include "checks/requirements.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

struct mtlbx_os_version mbx_os_release(enum mtlbx_os os, struct mtlbx_os_version v)
{
    /* macOS 10.0 to 10.15 were each a major release (10.16 is 11). */
    if (os == MTLBX_OS_MACOS && v.major == 10)
        return v;
    return (struct mtlbx_os_version){ v.major, 0 };
}

enum mtlbx_triple_verdict mbx_triple_accepts(enum mtlbx_os os, struct mtlbx_os_version running,
                                               struct mtlbx_os_version asks)
{
    if (mbx_os_version_cmp(asks, running) <= 0)
        return MTLBX_TRIPLE_ACCEPTED;
    if (mbx_os_version_cmp(mbx_os_release(os, asks), running) <= 0)
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
    int c = d->from_triple ? mbx_os_version_cmp(v, d->asks) : 1;
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
        if (mbx_library_deployment_target(lib, &os, &v)) {
            d->known = true;
            d->os = os;
            d->asks = v;
        }
    }
    if (d->known)
        d->needs = mbx_os_release(d->os, d->asks);
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

/* The modules a run of the triple pass read through the mapping: let
 * their pages go behind it, as the other streaming passes do (memory
 * stays flat on 200,000 functions: tests/hostile/memory_flat.sh), in one
 * call when they lie together (as they usually do). */
struct read_span {
    uint64_t lo, hi, sum;
};

static void span_note(struct read_span *r, const mtlbx_library *lib, size_t i)
{
    struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
    if (!m.len)
        return;
    uint64_t off = (uint64_t)(m.ptr - lib->file->data);
    r->lo = off < r->lo ? off : r->lo;
    r->hi = off + m.len > r->hi ? off + m.len : r->hi;
    r->sum += m.len;
}

static void span_release(struct read_span *r, const mtlbx_library *lib, size_t first, size_t last)
{
    if (r->lo < r->hi && r->hi - r->lo <= 2 * r->sum)
        file_release_pages(lib->file, r->lo, r->hi - r->lo);
    else
        for (size_t i = first; i < last; i++) {
            struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
            if (m.len)
                file_release_pages(lib->file, (uint64_t)(m.ptr - lib->file->data), m.len);
        }
    *r = (struct read_span){ UINT64_MAX, 0, 0 };
}

/* A release after this many functions, or sooner once the modules read
 * since the last one span RELEASE_BYTES: reading the triple faults in a
 * module's first page and the kernel maps its neighbours with it (up to
 * 64 KB), so 4,096 functions of 16 KB modules held 64 MB until they went
 * (info's peak on 20,000 functions was 74 MB). */
enum { RELEASE_EVERY = 4096, RELEASE_BYTES = 4 << 20 };

static void deployment_compute(mtlbx_library *lib, struct mtlbx_deployment *d)
{
    memset(d, 0, sizeof *d);
    size_t top = 0, run_start = 0;
    struct read_span run = { UINT64_MAX, 0, 0 };
    for (size_t i = 0; i < lib->n_functions; i++) {
        enum mtlbx_os os;
        struct mtlbx_os_version v;
        bool was_read = false;
        bool readable = bc_function_triple_read(lib, i, &os, &v, &was_read);
        if (was_read)
            span_note(&run, lib, i);
        if (note_read(d, os, v, readable))
            top = i;
        if (i + 1 - run_start == RELEASE_EVERY || i + 1 == lib->n_functions ||
            (run.hi > run.lo && run.hi - run.lo >= RELEASE_BYTES)) {
            span_release(&run, lib, run_start, i + 1);
            run_start = i + 1;
        }
    }
    /* The text of the triple that asks the most, read once. */
    if (d->from_triple) {
        struct mtlbx_bytes m = mbx_function_module_bytes(lib, top);
        if (!m.len || !bc_module_triple(m.ptr, m.len, d->triple, sizeof d->triple))
            d->triple[0] = '\0';
    }
    deployment_finish(lib, d);
}

void mbx_library_deployment(const mtlbx_library *lib, struct mtlbx_deployment *out)
{
    mtlbx_library *mut = (mtlbx_library *)lib; /* a cache of immutable facts: computing it twice is harmless */
    if (atomic_load(&mut->deploy_cached)) {
        *out = mut->deploy;
        return;
    }
    deployment_compute(mut, out);
    deployment_store(mut, out);
}

bool mbx_function_deployment(const mtlbx_library *lib, size_t i, struct mtlbx_os_version *asks, bool *from_header)
{
    enum mtlbx_os os;
    *from_header = false;
    /* Its own module's triple, as Metal reads it; the library's (the
     * highest, or the header's) only when that cannot be read. */
    if (bc_function_triple(lib, i, &os, asks) && (os == mbx_library_os(lib) || mbx_library_os(lib) == MTLBX_OS_NONE))
        return true;
    struct mtlbx_deployment d;
    mbx_library_deployment(lib, &d);
    *from_header = d.known && !d.from_triple;
    *asks = d.asks;
    return d.known;
}
