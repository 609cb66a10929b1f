/* Two releases paired and their members read ahead (util/release_pairs.c,
 * issue 35 item 2). Two tars of 24 members each, in different scrambled
 * orders, some members changed, one only on each side: every pair must
 * come exactly once, in key order, and mbx_open_any() of each item inside the
 * callback must give that member's own bytes, without walking the archive
 * again (the archives are moved away while the callback runs, so a walk
 * would fail). Then the same under a read-ahead budget (MTLBX_MEMBER_LIMIT)
 * a few members wide, with the archives' sizes told truly, told as 0 (so
 * a batch takes more than fits and drops what does not) and told too
 * large: the pairs, their order and their bytes do not change. */
#include "config.h"

#include "scratch_dir.h"
#include "gate/archive_members.h"
#include "program/release_pairs.h"
#include "container/file.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#define N 24

/* Member k of a side: "MTLB", the side's letter, k, then filler to a size
 * that varies with k (800 to 1,720 bytes). */
static size_t member_bytes(char side, int k, uint8_t *out)
{
    size_t len = 800 + (size_t)(k * 40);
    memset(out, 'a' + k % 26, len);
    memcpy(out, "MTLB", 4);
    out[4] = (uint8_t)side;
    out[5] = (uint8_t)k;
    return len;
}

/* A ustar header block for a regular file. */
static void tar_header(uint8_t h[512], const char *name, size_t size)
{
    memset(h, 0, 512);
    snprintf((char *)h, 100, "%s", name);
    memcpy(h + 100, "0000644", 8);
    memcpy(h + 108, "0000000", 8);
    memcpy(h + 116, "0000000", 8);
    snprintf((char *)h + 124, 12, "%011zo", size);
    memcpy(h + 136, "00000000000", 12);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
}

/* Side 'A' has members 0..N-2, side 'B' 1..N-1; B's members k % 5 == 0
 * differ from A's. Each tar lists them in its own scrambled order. */
static bool on_side(char side, int k) { return side == 'A' ? k < N - 1 : k > 0; }

static void write_tar(const char *path, char side, int stride)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    uint8_t h[512], data[2048], pad[512] = { 0 };
    for (int i = 0; i < N; i++) {
        int k = (i * stride + 7) % N; /* stride coprime with N: a permutation */
        if (!on_side(side, k))
            continue;
        char name[32];
        snprintf(name, sizeof name, "lib/%02d.metallib", k);
        size_t len = member_bytes(side == 'B' && k % 5 == 0 ? 'B' : 'A', k, data);
        tar_header(h, name, len);
        fwrite(h, 1, 512, f);
        fwrite(data, 1, len, f);
        fwrite(pad, 1, (512 - len % 512) % 512, f);
    }
    fwrite(pad, 1, 512, f);
    fwrite(pad, 1, 512, f);
    cr_assert(fclose(f) == 0);
}

struct seen {
    const char *archive[2];    /* moved to archive[i].away while a pair is compared */
    char keys[2 * N][32];
    size_t n;
    size_t from_offers;        /* opened while the archives were away */
};

static void check_member(const char *open, char side, int k)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert(mbx_open_any(open, &f, &err) == MTLBX_E_NONE && f, "%s: %s", open, err.message);
    uint8_t want[2048];
    size_t len = member_bytes(side, k, want);
    cr_assert(mbx_file_size(f) == len && memcmp(mbx_file_data(f), want, len) == 0, "%s: not its bytes", open);
    mbx_close(f);
}

static void on_pair(void *ctx, const struct release_item *x, const struct release_item *y)
{
    struct seen *s = ctx;
    const struct release_item *it = x ? x : y;
    cr_assert(s->n < 2 * N);
    snprintf(s->keys[s->n++], sizeof s->keys[0], "%s", it->key);
    int k = atoi(it->key + 4);
    cr_assert(on_side('A', k) == (x != NULL) && on_side('B', k) == (y != NULL), "%s paired wrongly", it->key);
    if (!x || !y)
        return;
    char away[2][600];
    for (int i = 0; i < 2; i++) {
        snprintf(away[i], sizeof away[i], "%s.away", s->archive[i]);
        cr_assert(rename(s->archive[i], away[i]) == 0);
    }
    check_member(x->open, 'A', k);
    check_member(y->open, k % 5 == 0 ? 'B' : 'A', k);
    s->from_offers++;
    for (int i = 0; i < 2; i++)
        cr_assert(rename(away[i], s->archive[i]) == 0);
}

static void problem(void *ctx, const char *path, const char *message)
{
    (void)ctx;
    cr_assert_fail("%s: %s", path, message);
}

/* Pairs the two tars; `lie` (when not -1) replaces every declared size. */
static void run(const char *limit, long long lie)
{
    char *dir = pt_tmpdir();
    char *a = pt_join(dir, "old.tar"), *b = pt_join(dir, "new.tar");
    write_tar(a, 'A', 5);
    write_tar(b, 'B', 7);
    mbx_member_limit_set(limit ? strtoull(limit, NULL, 10) : 0); /* what the program does with MTLBX_MEMBER_LIMIT */
    struct release_side sa = { .problem = problem }, sb = { .problem = problem };
    release_side_collect(a, &sa);
    release_side_collect(b, &sb);
    cr_assert(sa.n == N - 1 && sb.n == N - 1, "%zu and %zu members listed", sa.n, sb.n);
    for (size_t i = 0; lie >= 0 && i < sa.n; i++)
        sa.v[i].size = (uint64_t)lie, sb.v[i].size = (uint64_t)lie;
    struct seen s = { .archive = { a, b } };
    release_pair(&sa, &sb, on_pair, &s);
    cr_assert(s.n == N, "%zu pairs, not %d", s.n, N);
    for (size_t i = 0; i < s.n; i++) {
        char want[48];
        snprintf(want, sizeof want, "lib/%02zu.metallib", i);
        cr_assert_str_eq(s.keys[i], want, "pair %zu out of order", i);
    }
    cr_assert(s.from_offers == N - 2);
    release_side_free(&sa);
    release_side_free(&sb);
    mbx_member_limit_set(0);
    pt_rmtree(dir);
    free(a), free(b), free(dir);
}

Test(release_pairs, one_pass_each)
{
    run(NULL, -1);
}

Test(release_pairs, batches_under_a_budget)
{
    run("5000", -1);
}

Test(release_pairs, sizes_told_as_zero)
{
    run("5000", 0);
}

Test(release_pairs, sizes_told_too_large)
{
    run("5000", 4000);
}
