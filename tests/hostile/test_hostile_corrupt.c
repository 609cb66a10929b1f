/* Corrupt input: every truncation of two of the project's samples, and a
 * few hundred seeded mutations of them. Each input is opened from memory
 * (an exact-size heap copy, so ASan catches a read one byte past the
 * end) and walked completely (walk.c: all nodes and fields, archive
 * loads, verify_all). Nothing may crash or break a promise; a truncated
 * MTLB file must always yield at least one error diagnostic, and a
 * prefix too short to hold the magic must be refused. */
#include "config.h"

#include "fuzz/walk.h"
#include "container/file.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *slurp(const char *rel, size_t *len)
{
    const char *src = testenv("MTLBX_SRCDIR");
    cr_assert_not_null(src, "MTLBX_SRCDIR is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", src, rel);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    uint8_t *buf = malloc((size_t)n);
    cr_assert_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* Opens an exact-size copy of data[0, len) and walks it. Returns -1 if
 * refused, else the number of error diagnostics. */
static long try_input(const uint8_t *data, size_t len, const char *what)
{
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, data, len);
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    memset(&err, 0, sizeof err);
    long errors = -1;
    if (mbx_open_buffer(copy, len, what, &f, &err) == MTLBX_E_NONE) {
        struct walk_stats st;
        walk_file(f, &st);
        cr_assert_eq(st.bad, 0, "%s (%zu bytes): %s", what, len, st.first_bad);
        errors = (long)st.errors;
        mbx_close(f);
    } else {
        cr_assert_null(f);
        cr_assert(err.message[0], "%s (%zu bytes): refused without a reason", what, len);
    }
    free(copy);
    return errors;
}

/* Each test walks tens of thousands of inputs: 37 s in the -O2 build,
 * 350 s under AddressSanitizer (measured alone on 2 cores), and more when
 * the suite runs two jobs at once. The timeout is there to catch a hang,
 * so a sanitizer build gets room for its tenfold cost. */
#if defined(__SANITIZE_ADDRESS__)
#define CORRUPT_TIMEOUT 1800
#else
#define CORRUPT_TIMEOUT 600
#endif

static void every_truncation(const char *rel)
{
    size_t len;
    uint8_t *data = slurp(rel, &len);
    cr_assert_eq(memcmp(data, "MTLB", 4), 0);
    cr_assert_eq(try_input(data, len, rel), 0, "the whole sample is clean");
    for (size_t n = 0; n < len; n++) {
        long errors = try_input(data, n, rel);
        if (n < 4)
            cr_assert_eq(errors, -1, "%s: a %zu-byte prefix was not refused", rel, n);
        else
            cr_assert_gt(errors, 0, "%s cut to %zu bytes: no error diagnostic", rel, n);
    }
    free(data);
}

/* sample.metallib: many functions, metadata of every kind. */
Test(corrupt, every_truncation_of_the_sample, .timeout = CORRUPT_TIMEOUT)
{
    every_truncation("data/sample.metallib");
}

/* The sources fixture: an embedded bzip2/tar archive at the end, so the
 * truncations cut the compressed stream at every byte. */
Test(corrupt, every_truncation_of_the_sources_fixture, .timeout = CORRUPT_TIMEOUT)
{
    every_truncation("tests/fixtures/hsrc-v125.metallib");
}

/* xorshift64*: the same mutations on every machine and every run. */
static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* One mutation: a few bytes changed, a 32- or 64-bit word set to a value
 * parsers get wrong (0, all ones, the file size, a sign bit), a block
 * duplicated over another, or the tail cut. */
static size_t mutate(uint8_t *d, size_t len)
{
    static const uint64_t words[] = { 0, 1, 4, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 0xFFFF,
                                      UINT64_MAX, 1ull << 63 };
    unsigned kinds = 1 + rng() % 3;
    for (unsigned k = 0; k < kinds; k++) {
        size_t at = rng() % len;
        switch (rng() % 5) {
        case 0:
            d[at] ^= (uint8_t)(1u << (rng() % 8));
            break;
        case 1:
        case 2: {
            uint64_t v = rng() % 2 ? words[rng() % (sizeof words / sizeof words[0])] : len + rng() % 64;
            size_t w = rng() % 2 ? 4 : 8;
            for (size_t i = 0; i < w && at + i < len; i++)
                d[at + i] = (uint8_t)(v >> (8 * i));
            break;
        }
        case 3: {
            size_t from = rng() % len, n = 1 + rng() % 64;
            if (from + n <= len && at + n <= len)
                memmove(d + at, d + from, n);
            break;
        }
        default:
            if (at >= 4)
                len = at;
        }
    }
    return len;
}

static void mutations(const char *rel, uint64_t seed, int count)
{
    size_t len;
    uint8_t *orig = slurp(rel, &len);
    uint8_t *d = malloc(len);
    rng_state = seed;
    int with_diags = 0;
    for (int i = 0; i < count; i++) {
        memcpy(d, orig, len);
        size_t n = mutate(d, len);
        char what[128];
        snprintf(what, sizeof what, "%s mutation %d", rel, i);
        long errors = try_input(d, n, what);
        if (n < len)
            cr_assert_gt(errors, 0, "%s cut to %zu bytes: no error", what, n);
        if (errors != 0)
            with_diags++;
    }
    /* A mutation may land where nothing checks it (a string's text, tar
     * contents past a member's end), so not every one can be noticed; the
     * parser must notice the bulk of them. */
    cr_log_info("%s: %d of %d mutations noticed", rel, with_diags, count);
    cr_assert_gt(with_diags, count / 2, "%s: only %d of %d mutations noticed", rel, with_diags, count);
    free(d);
    free(orig);
}

Test(corrupt, seeded_mutations_of_the_sample, .timeout = CORRUPT_TIMEOUT)
{
    mutations("data/sample.metallib", 0x6d746c6278ull, 300);
}

Test(corrupt, seeded_mutations_of_the_sources_fixture, .timeout = CORRUPT_TIMEOUT)
{
    mutations("tests/fixtures/hsrc-v125.metallib", 0x5eed5eedull, 300);
}
