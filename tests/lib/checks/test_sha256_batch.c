/* Module hashes made many at a time (src/lib/checks/sha256.c): every
 * digest the multi-buffer path makes must be libgcrypt's, whatever the
 * message's length (block edges, the library's length limit, the ones it
 * refuses), and a library verified in batches must find exactly the
 * modules whose HASH is wrong, from memory and from a mapped file. */
#include "config.h"

#include "libcheck.h"
#include "checks/hash.h"
#include "checks/sha256.h"
#include "container/functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Without the header the build has no multi-buffer path to test. */
static struct sha256_batch *batch_or_skip(void)
{
    struct sha256_batch *b = sha256_batch_new();
#if HAVE_INTEL_IPSEC_MB_H
    cr_assert_not_null(b, "built with intel-ipsec-mb.h, but the multi-buffer library did not load "
                          "(MTLBX_NO_MULTI_BUFFER set, or libipsec-mb1 missing)");
#else
    if (!b)
        cr_skip_test("built without intel-ipsec-mb.h: no multi-buffer path to compare");
#endif
    return b;
}

static uint8_t *pattern(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    cr_assert_not_null(p);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)x;
    }
    return p;
}

Test(sha256_batch, known_answer)
{
    struct sha256_batch *b = batch_or_skip();
    uint8_t out[32];
    sha256_batch_add(b, (const uint8_t *)"abc", 3, out);
    sha256_batch_finish(b);
    static const uint8_t want[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
    };
    cr_expect_arr_eq(out, want, 32);
    sha256_batch_free(b);
}

Test(sha256_batch, every_length_as_libgcrypt)
{
    struct sha256_batch *b = batch_or_skip();
    /* Block edges, the multi-buffer library's limit (65,534 bytes in 1.3)
     * on both sides, and far past it; more messages than a batch holds,
     * so that a full batch is finished by the add that finds it full. */
    static const size_t lengths[] = { 0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096, 16384,
                                      65471, 65472, 65473, 65534, 65535, 65536, 200003 };
    enum { N_LEN = sizeof lengths / sizeof lengths[0], ROUNDS = 5 };
    uint8_t *data = pattern(200003 + ROUNDS);
    uint8_t (*got)[32] = calloc(N_LEN * ROUNDS, 32);
    cr_assert_not_null(got);
    for (size_t r = 0; r < ROUNDS; r++)
        for (size_t k = 0; k < N_LEN; k++)
            sha256_batch_add(b, data + r, lengths[k], got[r * N_LEN + k]);
    sha256_batch_finish(b);
    for (size_t r = 0; r < ROUNDS; r++)
        for (size_t k = 0; k < N_LEN; k++) {
            uint8_t want[32];
            sha256(data + r, lengths[k], want);
            cr_expect_arr_eq(got[r * N_LEN + k], want, 32, "length %zu at offset %zu", lengths[k], r);
        }
    free(got);
    free(data);
    sha256_batch_free(b);
}

/* A library of `n` functions with modules of 3 to 23 KiB (about 26 MB,
 * over the size from which verify_all hashes in batches on two threads),
 * every 97th with a wrong HASH. */
enum { N_FUNCTIONS = 2000, BAD_EVERY = 97 };

static size_t build_library(struct imagebuf *img, char **payload_store)
{
    struct test_function *fns = calloc(N_FUNCTIONS, sizeof *fns);
    char (*names)[24] = calloc(N_FUNCTIONS, sizeof *names);
    cr_assert(fns && names);
    size_t bad = 0;
    for (size_t i = 0; i < N_FUNCTIONS; i++) {
        size_t len = 3072 + (i * 7919) % 20480;
        payload_store[i] = malloc(len + 1);
        cr_assert_not_null(payload_store[i]);
        for (size_t k = 0; k < len; k++)
            payload_store[i][k] = (char)('a' + (i + k * 31) % 26);
        payload_store[i][len] = '\0';
        snprintf(names[i], sizeof names[i], "f%zu", i);
        bool wrong = i % BAD_EVERY == 5;
        bad += wrong;
        fns[i] = (struct test_function){ .name = names[i], .payload = payload_store[i], .bad_hash = wrong };
    }
    ib_library(img, &(struct test_library){ .n_functions = N_FUNCTIONS, .functions = fns });
    free(fns);
    free(names);
    return bad;
}

static void expect_verified(mtlbx_file *f, size_t bad)
{
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_assert_eq(mbx_library_function_count(lib), N_FUNCTIONS);
    cr_expect_eq(mbx_library_verify_all(lib, 2), bad);
    for (size_t i = 0; i < N_FUNCTIONS; i++) {
        enum mtlbx_hash_state want = i % BAD_EVERY == 5 ? MTLBX_HASH_MISMATCH : MTLBX_HASH_MATCHES;
        cr_expect_eq(mbx_function_hash_state(lib, i), want, "function %zu", i);
    }
}

Test(sha256_batch, library_in_memory_and_mapped)
{
    sha256_batch_free(batch_or_skip());
    struct imagebuf img = { 0 };
    char **payloads = calloc(N_FUNCTIONS, sizeof *payloads);
    cr_assert_not_null(payloads);
    size_t bad = build_library(&img, payloads);
    cr_assert_gt(img.len, (size_t)20 << 20);

    mtlbx_file *f = open_buf(&img);
    expect_verified(f, bad);
    mbx_close(f);

    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/mtlbx-sha256-batch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, img.data, img.len), (ssize_t)img.len);
    close(fd);
    struct mtlbx_error err;
    f = NULL;
    int rc = mbx_open_path(path, &f, &err);
    unlink(path);
    cr_assert_eq(rc, MTLBX_E_NONE, "%s", err.message);
    expect_verified(f, bad);
    mbx_close(f);

    for (size_t i = 0; i < N_FUNCTIONS; i++)
        free(payloads[i]);
    free(payloads);
    ib_free(&img);
}
