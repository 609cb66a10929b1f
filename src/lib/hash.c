/* SHA-256 of modules against their HASH tags, through libgcrypt (which
 * uses SHA-NI or AVX2 where the CPU has them). This is the only file that
 * includes gcrypt.h. Hashing is never done at open: it is asked for, one
 * function at a time or all at once on several threads. */
#include "config.h"
#include "internal.h"

#include <gcrypt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static pthread_once_t gcrypt_once = PTHREAD_ONCE_INIT;

static void gcrypt_init(void)
{
    /* Harmless if the application initialised libgcrypt already; needed
     * when a test or fuzzer uses the library on its own. */
    if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        gcry_check_version(NULL);
        gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
}

void sha256(const uint8_t *data, size_t len, uint8_t out[32])
{
    pthread_once(&gcrypt_once, gcrypt_init);
    gcry_md_hash_buffer(GCRY_MD_SHA256, out, data, len);
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* Maps a range's pages in one call. Faulting a 300 MB module section in
 * page by page cost more than SHA-256 itself; one MADV_POPULATE_READ costs
 * a few milliseconds. Kernels before 5.14 refuse it harmlessly. */
static void populate(const uint8_t *p, size_t len)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)p & ~(page - 1);
    uintptr_t end = (uintptr_t)p + len;
    madvise((void *)start, end - start, MADV_POPULATE_READ);
}

static void hex32(const uint8_t *d, char out[65])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = '\0';
}

static void set_state(mtlbx_library *lib, size_t i, enum mtlbx_hash_state s)
{
    atomic_store_explicit((_Atomic unsigned char *)&lib->hash_states[i], (unsigned char)s, memory_order_release);
}

enum mtlbx_hash_state mtlbx_function_hash_state(const mtlbx_library *lib, size_t i)
{
    if (i >= lib->n_functions)
        return MTLBX_HASH_UNAVAILABLE;
    return (enum mtlbx_hash_state)atomic_load_explicit((_Atomic unsigned char *)&lib->hash_states[i],
                                                       memory_order_acquire);
}

enum mtlbx_hash_state mtlbx_function_verify(mtlbx_library *lib, size_t i, uint8_t actual[32])
{
    if (i >= lib->n_functions)
        return MTLBX_HASH_UNAVAILABLE;
    const struct mtlbx_function *fn = &lib->functions[i];
    enum mtlbx_hash_state s = mtlbx_function_hash_state(lib, i);
    if (!fn->hash || !fn->module_valid) {
        set_state(lib, i, MTLBX_HASH_UNAVAILABLE);
        return MTLBX_HASH_UNAVAILABLE;
    }
    if ((s == MTLBX_HASH_OK || s == MTLBX_HASH_MISMATCH) && !actual)
        return s;
    uint8_t digest[32];
    sha256(lib->file->data + fn->module.offset, (size_t)fn->module.size, digest);
    if (actual)
        memcpy(actual, digest, 32);
    enum mtlbx_hash_state now = memcmp(digest, fn->hash, 32) == 0 ? MTLBX_HASH_OK : MTLBX_HASH_MISMATCH;
    /* Report a mismatch once, whoever checks first. */
    unsigned char expected = (unsigned char)s;
    bool first = s != MTLBX_HASH_OK && s != MTLBX_HASH_MISMATCH &&
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

struct verify_job {
    mtlbx_library *lib;
    atomic_size_t next;
    atomic_size_t mismatches;
};

static void *verify_worker(void *arg)
{
    struct verify_job *job = arg;
    size_t i;
    while ((i = atomic_fetch_add(&job->next, 1)) < job->lib->n_functions)
        if (mtlbx_function_verify(job->lib, i, NULL) == MTLBX_HASH_MISMATCH)
            atomic_fetch_add(&job->mismatches, 1);
    return NULL;
}

size_t mtlbx_library_verify_all(mtlbx_library *lib, unsigned threads)
{
    pthread_once(&gcrypt_once, gcrypt_init);
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (unsigned)cpus : 1;
    }
    if (threads > 16)
        threads = 16;
    if (threads > lib->n_functions)
        threads = lib->n_functions ? (unsigned)lib->n_functions : 1;
    /* Everything will be read: map it in one go (see populate). */
    if (lib->file->mapped && lib->header.modules.size)
        populate(lib->file->data + lib->header.modules.offset, (size_t)lib->header.modules.size);
    struct verify_job job = { .lib = lib };
    atomic_init(&job.next, 0);
    atomic_init(&job.mismatches, 0);
    pthread_t tids[16];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++)
        if (pthread_create(&tids[started], NULL, verify_worker, &job) == 0)
            started++;
    verify_worker(&job); /* this thread works too */
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    return atomic_load(&job.mismatches);
}
