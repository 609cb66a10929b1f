/* SHA-256 digests (checks/sha256.h): of one message and of a stream through
 * libgcrypt (which uses SHA-NI or AVX2 where the CPU has them; this and
 * src/program/safe_write.c are the only files that include gcrypt.h), and
 * of many independent messages at once.
 *
 * Many at once is for verify_all's threads: a library's modules are
 * thousands of separate messages, and Intel's multi-buffer library
 * (intel-ipsec-mb, Debian libipsec-mb1) hashes 16 of them side by side in
 * AVX-512 lanes (8 in AVX2, 2 with SHA-NI under SSE). Measured here on
 * 16 KiB messages (one core, the L20k bench library's module size):
 * libgcrypt 1.63 GB/s, the multi-buffer AVX-512 manager 4.28 GB/s, the
 * AVX2 one 2.27, SSE with SHA-NI 2.26. libgcrypt is as fast as openssl on
 * one message (both use SHA-NI), so this is the only way the hash of
 * `check` gets cheaper.
 *
 * The library is loaded with dlopen on the first batch (12 MB; linked
 * in, it would cost every command's start-up, like libarchive did) and
 * is optional at build time (configure looks for its header) and at run
 * time: without it, or if it refuses a message, that message is hashed
 * by libgcrypt, so a digest never depends on which path made it. A
 * manager (200 KB, ~1.5 ms to allocate and set up, most of it CPU
 * feature detection) is kept in a small pool once made, so that a fat
 * file's slices or the explorer's repeated checks pay for it once. */
#include "config.h"
#include "checks/sha256.h"

#include <gcrypt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

void sha256_ready(void)
{
    pthread_once(&gcrypt_once, gcrypt_init);
}

void sha256(const uint8_t *data, size_t len, uint8_t out[32])
{
    sha256_ready();
    gcry_md_hash_buffer(GCRY_MD_SHA256, out, data, len);
}

void mbx_sha256(const void *data, size_t len, uint8_t out[32]) { sha256(data, len, out); }

struct sha256_stream *sha256_stream_open(void)
{
    sha256_ready();
    gcry_md_hd_t h;
    return gcry_md_open(&h, GCRY_MD_SHA256, 0) == 0 ? (struct sha256_stream *)h : NULL;
}

void sha256_stream_write(struct sha256_stream *s, const uint8_t *data, size_t len)
{
    gcry_md_write((gcry_md_hd_t)s, data, len);
}

void sha256_stream_close(struct sha256_stream *s, uint8_t out[32])
{
    if (out)
        memcpy(out, gcry_md_read((gcry_md_hd_t)s, GCRY_MD_SHA256), 32);
    gcry_md_close((gcry_md_hd_t)s);
}

#define BATCH_MAX 64

struct pending {
    const uint8_t *data;
    size_t len;
    uint8_t *out;
};

/* Whether the multi-buffer library may be used: the program's
 * MTLBX_NO_MULTI_BUFFER turns it off (the library reads no environment). */
static bool multi_buffer_wanted = true;

void mbx_hash_use_multi_buffer(bool use) { multi_buffer_wanted = use; }

#if HAVE_INTEL_IPSEC_MB_H
#include <dlfcn.h>
#include <intel-ipsec-mb.h>

/* intel-ipsec-mb 1.3 refuses a plain SHA-256 job of 65,535 bytes or more
 * ("Invalid authentication message length"); longer messages go to
 * libgcrypt without asking. */
#define MULTI_MAX_LEN ((size_t)65472)
/* Managers kept for reuse; more threads than this make their own. */
#define POOL_MAX 16

typedef IMB_MGR *alloc_fn(uint64_t flags);
typedef void init_fn(IMB_MGR *mgr, IMB_ARCH *arch);
typedef void free_fn(IMB_MGR *mgr);
typedef unsigned version_fn(void);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static alloc_fn *mb_alloc;
static init_fn *mb_init;
static free_fn *mb_free;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static IMB_MGR *pool[POOL_MAX];
static size_t pool_n;

static void *symbol(void *h, const char *name)
{
    return h ? dlsym(h, name) : NULL;
}

static void load(void)
{
    if (!multi_buffer_wanted)
        return;
    void *h = dlopen(IPSEC_MB_SONAME, RTLD_NOW | RTLD_LOCAL);
    void *a = symbol(h, "alloc_mb_mgr"), *i = symbol(h, "init_mb_mgr_auto"), *f = symbol(h, "free_mb_mgr");
    void *v = symbol(h, "imb_get_version");
    /* The job and manager layouts are the header's: an older library
     * than the one built against could differ. */
    version_fn *version;
    memcpy(&version, &v, sizeof v);
    if (!a || !i || !f || !version || version() < IMB_VERSION_NUM) {
        if (h)
            dlclose(h);
        return;
    }
    /* POSIX: a dlsym result converts to a function pointer. */
    memcpy(&mb_alloc, &a, sizeof a);
    memcpy(&mb_init, &i, sizeof i);
    memcpy(&mb_free, &f, sizeof f);
}

static IMB_MGR *manager_take(void)
{
    pthread_once(&load_once, load);
    if (!mb_alloc)
        return NULL;
    pthread_mutex_lock(&pool_lock);
    IMB_MGR *m = pool_n ? pool[--pool_n] : NULL;
    pthread_mutex_unlock(&pool_lock);
    if (m)
        return m;
    if (!(m = mb_alloc(0)))
        return NULL;
    IMB_ARCH arch = IMB_ARCH_NONE;
    mb_init(m, &arch);
    if (arch == IMB_ARCH_NONE) {
        mb_free(m);
        return NULL;
    }
    return m;
}

static void manager_give_back(IMB_MGR *m)
{
    pthread_mutex_lock(&pool_lock);
    bool kept = pool_n < POOL_MAX;
    if (kept)
        pool[pool_n++] = m;
    pthread_mutex_unlock(&pool_lock);
    if (!kept)
        mb_free(m);
}

/* A job the manager handed back: done, or hashed here if it was refused. */
static void job_done(const IMB_JOB *j)
{
    if (j->status != IMB_STATUS_COMPLETED)
        sha256(j->src, (size_t)j->msg_len_to_hash_in_bytes, j->auth_tag_output);
}
#endif

struct sha256_batch {
#if HAVE_INTEL_IPSEC_MB_H
    IMB_MGR *mgr;
#endif
    struct pending queued[BATCH_MAX];
    size_t n;
};

struct sha256_batch *sha256_batch_new(void)
{
#if HAVE_INTEL_IPSEC_MB_H
    IMB_MGR *m = manager_take();
    if (!m)
        return NULL;
    struct sha256_batch *b = calloc(1, sizeof *b);
    if (!b) {
        manager_give_back(m);
        return NULL;
    }
    b->mgr = m;
    return b;
#else
    return NULL;
#endif
}

void sha256_batch_free(struct sha256_batch *b)
{
    if (!b)
        return;
    sha256_batch_finish(b);
#if HAVE_INTEL_IPSEC_MB_H
    manager_give_back(b->mgr);
#endif
    free(b);
}

void sha256_batch_add(struct sha256_batch *b, const uint8_t *data, size_t len, uint8_t out[32])
{
    if (b->n == BATCH_MAX)
        sha256_batch_finish(b);
    b->queued[b->n++] = (struct pending){ data, len, out };
}

void sha256_batch_finish(struct sha256_batch *b)
{
#if HAVE_INTEL_IPSEC_MB_H
    IMB_MGR *m = b->mgr;
    for (size_t k = 0; k < b->n; k++) {
        const struct pending *p = &b->queued[k];
        if (p->len == 0 || p->len > MULTI_MAX_LEN) {
            sha256(p->data, p->len, p->out);
            continue;
        }
        IMB_JOB *j = IMB_GET_NEXT_JOB(m);
        memset(j, 0, sizeof *j);
        j->cipher_mode = IMB_CIPHER_NULL;
        j->cipher_direction = IMB_DIR_ENCRYPT;
        j->chain_order = IMB_ORDER_HASH_CIPHER;
        j->hash_alg = IMB_AUTH_SHA_256;
        j->src = p->data;
        j->hash_start_src_offset_in_bytes = 0;
        j->msg_len_to_hash_in_bytes = p->len;
        j->auth_tag_output = p->out;
        j->auth_tag_output_len_in_bytes = 32;
        /* Submitting may hand back earlier jobs that finished. */
        for (j = IMB_SUBMIT_JOB(m); j; j = IMB_GET_COMPLETED_JOB(m))
            job_done(j);
    }
    for (IMB_JOB *j; (j = IMB_FLUSH_JOB(m));)
        job_done(j);
#else
    for (size_t k = 0; k < b->n; k++)
        sha256(b->queued[k].data, b->queued[k].len, b->queued[k].out);
#endif
    b->n = 0;
}
