/* Module hashes against their HASH tags (the digests are sha256.c's).
 * Hashing is never done at open: it is asked for, one function at a time
 * or all at once on several threads. */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/library.h"
#include "container/report.h"
#include "checks/hash.h"
#include "checks/sha256.h"
#include "checks/validate.h"
#include "container/hex.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Module bytes are read with pread into a per-thread buffer and hashed
 * from there when the file is open (a mapped file). Measured on a 300 MB
 * library: hashing straight from a fresh mapping ran at ~1 GB/s per core,
 * pread + hash at ~1.4 GB/s, the way openssl reads. Measured again for
 * issue 22 (L20k, 329 MB, one core, CPU time of the hash alone): pread
 * into the 1 MB window 0.28-0.31 s, hashing from the mapping 0.49-0.59 s,
 * from the mapping after MADV_POPULATE_READ of each 1 MB (or 16 MB) run
 * 0.46-0.54 s: the kernel's copy costs less than faulting the pages in
 * (on this paravirtualised machine a fault is dear), so the copy stays;
 * and check decodes each interface from the same window (verify_worker).
 * The model still hands out spans into the mapping; only the hash input
 * goes through a bounded buffer. A short read (the file shrank) is
 * reported instead of raising SIGBUS.
 *
 * The buffer is also a read-ahead window: verify_all gives each thread runs
 * of consecutive functions, whose modules are usually back to back, so one
 * pread serves many small modules (20,000 preads cost more than the copy),
 * and the modules a window holds are hashed side by side in one batch
 * (hash_ahead) when the multi-buffer library is there. */

/* Functions handed to a thread at a time: consecutive, so that its reads
 * cover modules that lie back to back. */
#define VERIFY_RUN 64

struct hash_reader {
    struct read_window w;      /* no descriptor: hash from the mapping */
    /* The last module hashed: functions that share one module (same
     * offset and size) come in a row and are hashed once. */
    bool has_last;
    struct mtlbx_range last;
    uint8_t last_digest[32];
    /* Digests made ahead, in one multi-buffer batch, for a run of
     * functions whose modules are all in the window (hash_ahead); taken
     * in order by hash_module. No batch: each module is hashed in turn. */
    struct sha256_batch *batch;
    struct hashed_ahead {
        struct mtlbx_range m;
        uint8_t digest[32];
    } ahead[VERIFY_RUN];
    size_t n_ahead, next_ahead;
};

#define WINDOW_BYTES ((size_t)1 << 20)   /* verify_all's threads */
#define STREAM_BYTES ((size_t)64 << 10)  /* one function at a time */
#define MULTI_BUFFER_MIN_BYTES ((uint64_t)8 << 20) /* per thread */

static bool hash_module_bytes(struct hash_reader *r, const mtlbx_file *f, struct mtlbx_range m, uint8_t out[32]);

static bool same_range(struct mtlbx_range a, struct mtlbx_range b)
{
    return a.offset == b.offset && a.size == b.size;
}

static bool hash_module(struct hash_reader *r, const mtlbx_file *f, struct mtlbx_range m, uint8_t out[32])
{
    if (r->has_last && same_range(r->last, m)) {
        memcpy(out, r->last_digest, 32);
        return true;
    }
    size_t k = r->next_ahead;
    while (k < r->n_ahead && !same_range(r->ahead[k].m, m))
        k++;
    if (k < r->n_ahead) {
        r->next_ahead = k + 1;
        memcpy(out, r->ahead[k].digest, 32);
        r->has_last = true;
    } else {
        r->has_last = hash_module_bytes(r, f, m, out);
    }
    if (r->has_last) {
        r->last = m;
        memcpy(r->last_digest, out, 32);
    }
    return r->has_last;
}

static bool hash_module_bytes(struct hash_reader *r, const mtlbx_file *f, struct mtlbx_range m, uint8_t out[32])
{
    struct read_window *w = &r->w;
    if (!read_window_ready(w, f)) {
        /* Without a descriptor, check the size first so that a file that
         * shrank is reported rather than faulting on the mapping. */
        uint64_t now;
        if (f->mapped && file_current_size(f, &now) && now < m.offset + m.size)
            return false;
        sha256(f->data + m.offset, (size_t)m.size, out);
        return true;
    }
    if (read_window_has(w, m)) {
        sha256(w->buf + (m.offset - w->off), (size_t)m.size, out);
        return true;
    }
    if (m.size <= w->cap) {
        read_window_fill(w, f, m.offset);
        if (!read_window_has(w, m))
            return false;
        sha256(w->buf, (size_t)m.size, out);
        return true;
    }
    /* Bigger than the buffer: stream it through. */
    struct sha256_stream *h = sha256_stream_open();
    if (!h) {
        sha256(f->data + m.offset, (size_t)m.size, out);
        return true;
    }
    w->len = 0;
    uint64_t pos = m.offset, left = m.size;
    bool ok = true;
    while (left > 0 && ok) {
        size_t want = left < w->cap ? (size_t)left : w->cap;
        ssize_t got = file_pread(w->fd, w->buf, want, pos);
        ok = got == (ssize_t)want;
        sha256_stream_write(h, w->buf, want);
        pos += want;
        left -= want;
    }
    sha256_stream_close(h, ok ? out : NULL);
    return ok;
}

static void reader_init(struct hash_reader *r, size_t cap)
{
    *r = (struct hash_reader){ 0 };
    read_window_init(&r->w, cap);
}

static void reader_free(struct hash_reader *r)
{
    sha256_batch_free(r->batch);
    read_window_free(&r->w);
}

static void hex32(const uint8_t *d, char out[65])
{
    mtlbx_hex_lower(out, d, 32);
}

static void set_state(mtlbx_library *lib, size_t i, enum mtlbx_hash_state s)
{
    atomic_store_explicit((_Atomic unsigned char *)&lib->hash_states[i], (unsigned char)s, memory_order_release);
}

enum mtlbx_hash_state mbx_function_hash_state(const mtlbx_library *lib, size_t i)
{
    if (i >= lib->n_functions)
        return MTLBX_HASH_UNAVAILABLE;
    return (enum mtlbx_hash_state)atomic_load_explicit((_Atomic unsigned char *)&lib->hash_states[i],
                                                       memory_order_acquire);
}

static enum mtlbx_hash_state verify_one(mtlbx_library *lib, size_t i, uint8_t actual[32], struct hash_reader *r)
{
    if (i >= lib->n_functions)
        return MTLBX_HASH_UNAVAILABLE;
    const struct mtlbx_function *fn = library_function(lib, i);
    enum mtlbx_hash_state s = mbx_function_hash_state(lib, i);
    if (!fn->hash || !fn->module_valid) {
        set_state(lib, i, MTLBX_HASH_UNAVAILABLE);
        return MTLBX_HASH_UNAVAILABLE;
    }
    if ((s == MTLBX_HASH_MATCHES || s == MTLBX_HASH_MISMATCH) && !actual)
        return s;
    uint8_t digest[32];
    sha256_ready();
    if (!hash_module(r, lib->file, fn->module, digest)) {
        /* One report for the whole file, however many modules follow. */
        if (!atomic_exchange(&lib->file->short_read, true))
            lib_error(lib, fn->module.offset, "the file shrank while it was being read: the module of "
                      "function %zu is no longer there", i);
        set_state(lib, i, MTLBX_HASH_UNAVAILABLE);
        return MTLBX_HASH_UNAVAILABLE;
    }
    if (actual)
        memcpy(actual, digest, 32);
    /* The module's first bytes are at hand: judge its bitcode now. */
    const uint8_t *head = NULL;
    size_t head_len = 0;
    const struct read_window *w = &r->w;
    if (!lib->file->mapped || !w->buf) {
        head = lib->file->data + fn->module.offset;
        head_len = (size_t)fn->module.size;
    } else if (fn->module.offset >= w->off && fn->module.offset - w->off < w->len) {
        head = w->buf + (fn->module.offset - w->off);
        head_len = w->len - (size_t)(fn->module.offset - w->off);
    }
    bitcode_judge(lib, i, head, head_len);
    enum mtlbx_hash_state now = memcmp(digest, fn->hash, 32) == 0 ? MTLBX_HASH_MATCHES : MTLBX_HASH_MISMATCH;
    /* Report a mismatch once, whoever checks first. */
    unsigned char expected = (unsigned char)s;
    bool first = s != MTLBX_HASH_MATCHES && s != MTLBX_HASH_MISMATCH &&
                 atomic_compare_exchange_strong((_Atomic unsigned char *)&lib->hash_states[i], &expected,
                                                (unsigned char)now);
    if (first && now == MTLBX_HASH_MISMATCH) {
        char want[65], got[65];
        hex32(fn->hash, want);
        hex32(digest, got);
        lib_error(lib, (uint64_t)(fn->hash - lib->file->data),
                  "HASH of function %zu does not match its module: expected %s, actual %s", i, want, got);
    }
    return now;
}

enum mtlbx_hash_state mbx_function_verify(mtlbx_library *lib, size_t i, uint8_t actual[32])
{
    struct hash_reader r;
    reader_init(&r, STREAM_BYTES);
    enum mtlbx_hash_state s = verify_one(lib, i, actual, &r);
    reader_free(&r);
    return s;
}

struct verify_job {
    mtlbx_library *lib;
    size_t end;                /* functions [next, end) are left */
    atomic_size_t next;
    atomic_size_t mismatches;
    const struct module_visitor *visit;
    bool multi_buffer;         /* hash in batches (sha256.c) */
};

/* Module i's bytes where the hash has just read them: the reader's window
 * (a mapped file), or the caller's buffer (mbx_open_buffer). NULL when
 * they are not all there: not hashed (no HASH, cached state, a module
 * bigger than the window streamed through) or the file shrank. */
static const uint8_t *window_bytes(const mtlbx_library *lib, size_t i, const struct hash_reader *r)
{
    const struct mtlbx_function *fn = library_function(lib, i);
    const struct mtlbx_range m = fn->module;
    if (!fn->module_valid)
        return NULL;
    if (!lib->file->mapped)
        return lib->file->data + m.offset;
    if (read_window_has(&r->w, m))
        return r->w.buf + (m.offset - r->w.off);
    return NULL;
}

/* Hashes in one batch the modules of functions first.. that are in the
 * window once it is read from first's module on, and returns where that
 * run ends (after first). Their digests wait in r->ahead for verify_one.
 * Whatever does not fit the batch has its turn the usual way: no HASH or
 * an answer already known (nothing to hash), a module bigger than the
 * window, a file read without a descriptor, or one that shrank. */
static size_t hash_ahead(mtlbx_library *lib, size_t first, size_t end, struct hash_reader *r)
{
    r->n_ahead = r->next_ahead = 0;
    const mtlbx_file *f = lib->file;
    struct read_window *w = &r->w;
    if (!r->batch || (f->mapped && !read_window_ready(w, f)))
        return first + 1;
    size_t i = first;
    for (; i < end; i++) {
        const struct mtlbx_function *fn = library_function(lib, i);
        enum mtlbx_hash_state s = mbx_function_hash_state(lib, i);
        if (!fn->hash || !fn->module_valid || s == MTLBX_HASH_MATCHES || s == MTLBX_HASH_MISMATCH)
            continue;
        struct mtlbx_range m = fn->module;
        if ((r->n_ahead && same_range(r->ahead[r->n_ahead - 1].m, m)) || (r->has_last && same_range(r->last, m)))
            continue; /* functions sharing a module come in a row */
        const uint8_t *bytes = f->data + m.offset; /* a file in memory */
        if (f->mapped) {
            /* Only the run's first function reads the window: the
             * bytes of the ones queued before must stay where they are. */
            if (!read_window_has(w, m) && (i > first || m.size > w->cap || !read_window_fill(w, f, m.offset)))
                break;
            if (!read_window_has(w, m))
                break;
            bytes = w->buf + (m.offset - w->off);
        }
        struct hashed_ahead *a = &r->ahead[r->n_ahead++];
        a->m = m;
        sha256_batch_add(r->batch, bytes, (size_t)m.size, a->digest);
    }
    sha256_batch_finish(r->batch);
    return i > first ? i : first + 1;
}

static void *verify_worker(void *arg)
{
    struct verify_job *job = arg;
    size_t n = job->end, first;
    struct hash_reader r;
    reader_init(&r, WINDOW_BYTES);
    if (job->multi_buffer)
        r.batch = sha256_batch_new();
    while ((first = atomic_fetch_add(&job->next, VERIFY_RUN)) < n) {
        size_t run_end = first + VERIFY_RUN < n ? first + VERIFY_RUN : n;
        for (size_t i = first; i < run_end;) {
            size_t batch_end = hash_ahead(job->lib, i, run_end, &r);
            for (; i < batch_end; i++) {
                if (verify_one(job->lib, i, NULL, &r) == MTLBX_HASH_MISMATCH)
                    atomic_fetch_add(&job->mismatches, 1);
                /* While the module is still in the window (and the CPU's
                 * caches): check's interface pass reads it from there. */
                if (job->visit)
                    job->visit->fn(job->lib, i, window_bytes(job->lib, i, &r), job->visit->ctx);
            }
        }
    }
    reader_free(&r);
    return NULL;
}

size_t mbx_library_verify_all(mtlbx_library *lib, unsigned threads)
{
    return library_verify_visiting(lib, threads, NULL);
}

size_t library_verify_visiting(mtlbx_library *lib, unsigned threads, const struct module_visitor *visit)
{
    return library_verify_range(lib, 0, lib->n_functions, threads, visit);
}

size_t library_verify_range(mtlbx_library *lib, size_t first, size_t end, unsigned threads,
                            const struct module_visitor *visit)
{
    sha256_ready();
    if (end > lib->n_functions)
        end = lib->n_functions;
    if (first > end)
        first = end;
    size_t runs = (end - first + VERIFY_RUN - 1) / VERIFY_RUN;
    if (threads == 0)
        threads = mbx_cpus();
    if (threads > 16)
        threads = 16;
    if (threads > runs)
        threads = runs ? (unsigned)runs : 1;
    /* A multi-buffer manager costs ~1.5 ms to set up, once per thread in
     * a process (they are pooled); at 1.6 against 4.3 GB/s it pays for
     * itself after ~4 MB. The whole library decides, not the range:
     * dump --interfaces verifies a big library 1,024 functions at a time. */
    struct verify_job job = {
        .lib = lib, .end = end, .visit = visit,
        .multi_buffer = lib->header.modules.size / threads >= MULTI_BUFFER_MIN_BYTES,
    };
    atomic_init(&job.next, first);
    atomic_init(&job.mismatches, 0);
    pthread_t tids[16];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++)
        if (pthread_create(&tids[started], NULL, verify_worker, &job) == 0)
            started++;
    verify_worker(&job); /* this thread works too */
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    /* Comparing with HASH read the whole function list again. A part of
     * it is its caller's to let go (see mbx_library_verify_decoding):
     * dump --interfaces verifies 1,024 functions at a time, and letting
     * the whole list go after each part cost it 4% of its CPU in
     * madvise, TLB flushes on the other CPU and faults that map the
     * pages again. */
    if (first == 0 && end == lib->n_functions)
        mbx_library_release_pages(lib);
    return atomic_load(&job.mismatches);
}

size_t mbx_library_unhashed(mtlbx_library *lib)
{
    size_t n = 0;
    struct function_cursor cur = { 0 };
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_function *fn = function_cursor_at(lib, &cur, i);
        if (!fn)
            break;
        enum mtlbx_hash_state s = mbx_function_hash_state(lib, i);
        /* No module where the entry says (a cut file), or one the hash
         * could not read (the file shrank): never "OK". A function with
         * no HASH tag has nothing to be held to. */
        if (!fn->module_valid || (fn->hash && s != MTLBX_HASH_MATCHES && s != MTLBX_HASH_MISMATCH))
            n++;
    }
    function_cursor_free(&cur);
    return n;
}
