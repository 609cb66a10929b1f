/* `check`'s interface pass: every function's interface decoded as sig and
 * dump --interfaces decode it (mbx_interface_read), and each one
 * that does not decode (bitstream truncated, blocks nested past the
 * limits, metadata that does not resolve ...) becomes an error of the
 * library at the module's offset, naming where reading stopped. Without
 * it, check called a library clean that sig could not read.
 *
 * Modules that are not bitcode at all are left to module_check.c, which
 * reports them already. On its own (mbx_library_check_interfaces) this
 * is the decode that sig does: every CPU, runs of consecutive functions,
 * a module shared by several functions read once (a reader per pass,
 * bitcode/interface_reader.c), the
 * pages read let go as it goes so that memory stays flat. Beside the hash
 * (mbx_library_verify_and_check_interfaces, what check runs) each
 * module is decoded from the hash's read window instead: reading the
 * mapping a second time, page faults and cache misses on bytes that had
 * just been read, was two thirds of the pass on a 20,000-function
 * library (bench/run's check rows). */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/library.h"
#include "container/report.h"
#include "bitcode/bitcode.h"
#include "checks/hash.h"
#include "checks/validate.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK_RUN 64            /* functions a thread takes at a time */
#define MAX_THREADS 16

struct interface_job {
    mtlbx_library *lib;
    mtlbx_interface_reader *rd;
    atomic_size_t next;
    atomic_size_t failed;
};

/* Function i's interface, from `copy` (its module's bytes as the hash
 * read them) or, when NULL, through the mapping; *mapped says whether the
 * mapping was read. */
static bool check_one(mtlbx_interface_reader *rd, mtlbx_library *lib, size_t i, const uint8_t *copy,
                      bool *mapped)
{
    const struct mtlbx_function *fn = library_function(lib, i);
    *mapped = false;
    if (!fn->module_valid || fn->module.size == 0)
        return true; /* no module bytes: reported by the parser */
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = interface_read_from(rd, lib, i, copy, &err, mapped);
    if (!iface) {
        /* Not bitcode: module_check.c says so. Out of memory is not a
         * finding about the file, but it must not pass as clean. */
        if (err.status == MTLBX_E_NOMEM)
            lib_out_of_memory(lib, fn->module.offset, "function %zu: out of memory decoding its interface", i);
        return err.status != MTLBX_E_NOMEM;
    }
    bool ok = !iface->module.failed;
    if (!ok)
        lib_error(lib, fn->module.offset, "function %zu: interface not decoded: %s (at %llu)", i,
                  iface->module.error, (unsigned long long)iface->module.error_offset);
    else
        claims_check_function(lib, i, iface);
    mbx_interface_free(iface);
    return ok;
}

bool mbx_function_check_interface(mtlbx_interface_reader *rd, mtlbx_library *lib, size_t i)
{
    bool mapped;
    return check_one(rd, lib, i, NULL, &mapped);
}

static void *interface_worker(void *arg)
{
    struct interface_job *job = arg;
    mtlbx_library *lib = job->lib;
    size_t n = lib->n_functions, first;
    while ((first = atomic_fetch_add(&job->next, CHECK_RUN)) < n) {
        size_t last = first + CHECK_RUN < n ? first + CHECK_RUN : n;
        for (size_t i = first; i < last; i++)
            if (!mbx_function_check_interface(job->rd, lib, i))
                atomic_fetch_add(&job->failed, 1);
        /* The run's modules were read through the mapping: let them go,
         * in one call when they lie together (as they usually do). */
        uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
        for (size_t i = first; i < last; i++) {
            const struct mtlbx_range *m = &library_function(lib, i)->module;
            if (!library_function(lib, i)->module_valid)
                continue;
            lo = m->offset < lo ? m->offset : lo;
            hi = m->offset + m->size > hi ? m->offset + m->size : hi;
            sum += m->size;
        }
        if (lo < hi && hi - lo <= 2 * sum)
            file_release_pages(lib->file, lo, hi - lo);
        else
            for (size_t i = first; i < last; i++)
                if (library_function(lib, i)->module_valid)
                    file_release_pages(lib->file, library_function(lib, i)->module.offset, library_function(lib, i)->module.size);
    }
    return NULL;
}

size_t mbx_library_check_interfaces(mtlbx_library *lib, unsigned threads)
{
    if (threads == 0)
        threads = mbx_cpus();
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    size_t runs = (lib->n_functions + CHECK_RUN - 1) / CHECK_RUN;
    if (threads > runs)
        threads = runs ? (unsigned)runs : 1;
    struct interface_job job = { .lib = lib, .rd = mbx_interface_reader_new(lib) };
    atomic_init(&job.next, 0);
    atomic_init(&job.failed, 0);
    pthread_t tids[MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++)
        if (pthread_create(&tids[started], NULL, interface_worker, &job) == 0)
            started++;
    interface_worker(&job); /* this thread works too */
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    mbx_interface_reader_free(job.rd);
    return atomic_load(&job.failed);
}

/* ------------------------------------------ beside the hash (check) -- */

struct hashed_job {
    mtlbx_interface_reader *rd;
    atomic_size_t failed;
};

static void check_hashed(mtlbx_library *lib, size_t i, const uint8_t *bytes, void *ctx)
{
    struct hashed_job *job = ctx;
    const struct mtlbx_function *fn = library_function(lib, i);
    /* A file that shrank under the hash is reported as such (the result
     * is incomplete, exit 2): reading the mapping past its new end would
     * only turn that into SIGBUS. */
    if (!bytes && atomic_load(&lib->file->short_read))
        return;
    bool mapped;
    if (!check_one(job->rd, lib, i, bytes, &mapped))
        atomic_fetch_add(&job->failed, 1);
    /* A module read through the mapping (shared by several functions, or
     * not in the hash's window) is let go at once: memory stays flat. */
    if (mapped && fn->module_valid)
        file_release_pages(lib->file, fn->module.offset, fn->module.size);
}

size_t mbx_library_verify_and_check_interfaces(mtlbx_library *lib, unsigned threads, size_t *failed)
{
    struct hashed_job job = { .rd = mbx_interface_reader_new(lib) };
    atomic_init(&job.failed, 0);
    const struct module_visitor visit = { check_hashed, &job };
    size_t mismatches = library_verify_visiting(lib, threads, &visit);
    mbx_interface_reader_free(job.rd);
    if (failed)
        *failed = atomic_load(&job.failed);
    return mismatches;
}

/* ------------------------------- beside the hash, for the caller -- */

struct decoding_job {
    mtlbx_interface_reader *rd;
    mtlbx_interface_visit_fn visit;
    void *ctx;
};

static void decode_hashed(mtlbx_library *lib, size_t i, const uint8_t *bytes, void *ctx)
{
    struct decoding_job *job = ctx;
    const struct mtlbx_function *fn = library_function(lib, i);
    struct mtlbx_error err = { 0 };
    /* The file shrank under the hash: reading the mapping past its new
     * end would only turn that into SIGBUS. The caller learns it from
     * mbx_file_changed() (the result is incomplete). */
    if (!bytes && atomic_load(&lib->file->short_read)) {
        err = (struct mtlbx_error){ .status = MTLBX_E_IO, .has_offset = true, .offset = fn->module.offset };
        snprintf(err.message, sizeof err.message, "the file shrank while it was being read");
        job->visit(lib, i, NULL, &err, job->ctx);
        return;
    }
    bool mapped;
    struct mtlbx_interface *iface = interface_read_from(job->rd, lib, i, bytes, &err, &mapped);
    job->visit(lib, i, iface, &err, job->ctx);
    mbx_interface_free(iface);
    if (mapped && fn->module_valid)
        file_release_pages(lib->file, fn->module.offset, fn->module.size);
}

size_t mbx_library_verify_decoding(mtlbx_library *lib, mtlbx_interface_reader *rd, size_t first, size_t end,
                                     unsigned threads, mtlbx_interface_visit_fn visit, void *ctx)
{
    struct decoding_job job = { rd, visit, ctx };
    const struct module_visitor v = { decode_hashed, &job };
    return library_verify_range(lib, first, end, threads, &v);
}
