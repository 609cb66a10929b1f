/* Hostile input at the parser level (the checklist): counts and
 * sizes far larger than the file, offsets that overflow, overlap or leave
 * the file, fat slices outside it, offsets that point back into their own
 * group or anywhere at all, a bzip2 bomb, and tar members with dangerous
 * names and types. Every case opens, walks the whole model (walk.c: every
 * node, field, hash and archive) without breaking a promise, terminates,
 * and reports at least one error at a sensible place. */
#include "config.h"

#include "fuzz/walk.h"
#include "imagebuf.h"
#include "checks/hash.h"
#include "test_hostile_img.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/sources.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

/* The one-function library most cases damage. Its entry starts at 92:
 * u32 size, NAME "f" (8 bytes), TYPE (7), HASH (38), OFFT (6 + 24). */
#define ENTRY 92u
#define NAME_LEN_AT (ENTRY + 4 + 4)
#define OFFT_VALUE_AT (ENTRY + 4 + 8 + 7 + 38 + 6)

static const struct test_function one_fn[] = { { .name = "f", .type = 2 } };

static void one_library(struct imagebuf *b, enum test_ext ext)
{
    ib_library(b, &(struct test_library){ .n_functions = 1, .functions = one_fn, .ext = ext });
}

/* Opens, walks everything, checks the walk kept every promise, and
 * returns the number of error diagnostics (file and library level). */
static size_t open_and_walk(const struct imagebuf *b, mtlbx_file **out)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(b->data, b->len, "hostile", &f, &err), MTLBX_E_NONE, "%s", err.message);
    struct walk_stats st;
    walk_file(f, &st);
    cr_assert_eq(st.bad, 0, "walk: %s", st.first_bad);
    cr_assert_lt(st.max_depth, 16);
    if (out)
        *out = f;
    else
        mbx_close(f);
    return st.errors;
}

/* An error diagnostic whose message contains `needle` (NULL: any). */
static bool has_error(const mtlbx_file *f, const char *needle)
{
    for (size_t i = 0; i < mbx_file_diag_count(f); i++) {
        const struct mtlbx_diag *d = mbx_file_diag(f, i);
        if (d->severity == MTLBX_ERROR && (!needle || strstr(d->message, needle)))
            return true;
    }
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        for (size_t i = 0; i < mbx_library_diag_count(lib); i++) {
            const struct mtlbx_diag *d = mbx_library_diag(lib, i);
            if (d->severity == MTLBX_ERROR && (!needle || strstr(d->message, needle)))
                return true;
        }
    }
    return false;
}

/* ------------------------------------------------- counts and sizes -- */

Test(counts, function_count_ffffffff_is_bounded_by_the_list)
{
    struct imagebuf b = { 0 };
    one_library(&b, TEST_EXT_EMPTY);
    ib_put_u32(&b, 88, 0xFFFFFFFFu);
    mtlbx_file *f;
    cr_assert_gt(open_and_walk(&b, &f), 0);
    /* Nothing was allocated or walked for four billion entries. */
    cr_assert_leq(mbx_library_function_count(mbx_library_at(f, 0)), 1);
    cr_assert(has_error(f, "4294967295"), "the error names the count");
    mbx_close(f);
    ib_free(&b);
}

Test(counts, tag_length_ffff_stays_inside_its_entry)
{
    struct imagebuf b = { 0 };
    one_library(&b, TEST_EXT_EMPTY);
    cr_assert_eq(memcmp(b.data + NAME_LEN_AT - 4, "NAME", 4), 0);
    b.data[NAME_LEN_AT] = 0xFF;
    b.data[NAME_LEN_AT + 1] = 0xFF;
    mtlbx_file *f;
    cr_assert_gt(open_and_walk(&b, &f), 0);
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(f, 0), 0);
    /* Whatever survived, no name reaches past the entry. */
    if (fn && fn->name.ptr)
        cr_assert_leq(fn->name.ptr + fn->name.len, b.data + ENTRY + fn->entry_size);
    mbx_close(f);
    ib_free(&b);
}

Test(counts, sarc_length_ffffffff_is_refused)
{
    struct imagebuf payload = { 0 }, b = { 0 };
    static const struct hi_member m[] = { { "/src/a.metal", 'f', "kernel void k() {}\n" } };
    hi_tar_bz2(&payload, m, 1);
    hi_library_with_payload(&b, payload.data, payload.len, 0xFFFFFFFFu);
    mtlbx_file *f;
    cr_assert_gt(open_and_walk(&b, &f), 0);
    cr_assert(has_error(f, "SARC length 4294967295"));
    const struct mtlbx_sources *s = mbx_library_sources(mbx_library_at(f, 0));
    cr_assert(s->present);
    for (size_t k = 0; k < s->n_archives; k++)
        cr_assert_leq(s->archives[k].payload.len, b.len);
    mbx_close(f);
    ib_free(&payload);
    ib_free(&b);
}

/* Header pairs (offset, size) at 24 + 16 * k for the four sections. */
Test(counts, offset_plus_size_overflow_in_every_section_pair)
{
    static const uint64_t pairs[][2] = {
        { UINT64_MAX - 7, 16 },  /* offset + size wraps past zero */
        { 16, UINT64_MAX },      /* size alone wraps */
        { UINT64_MAX, UINT64_MAX },
        { 1ull << 63, 1ull << 63 },
    };
    for (int k = 0; k < 4; k++)
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
            struct imagebuf b = { 0 };
            one_library(&b, TEST_EXT_EMPTY);
            ib_put_u64(&b, 24 + 16 * (size_t)k, pairs[p][0]);
            ib_put_u64(&b, 32 + 16 * (size_t)k, pairs[p][1]);
            mtlbx_file *f;
            cr_assert_gt(open_and_walk(&b, &f), 0, "section %d pair %zu", k, p);
            const struct mtlbx_header *h = mbx_library_header(mbx_library_at(f, 0));
            const struct mtlbx_range *r[4] = { &h->function_list, &h->public_md, &h->private_md, &h->modules };
            /* The resolved range is clipped inside the file. */
            cr_assert_leq(r[k]->offset, b.len);
            cr_assert_leq(r[k]->size, b.len - r[k]->offset, "section %d pair %zu", k, p);
            mbx_close(f);
            ib_free(&b);
        }
}

Test(counts, sections_that_overlap_or_point_past_the_end)
{
    /* Public metadata declared on top of the function list. */
    struct imagebuf b = { 0 };
    one_library(&b, TEST_EXT_EMPTY);
    ib_put_u64(&b, 40, 88);
    mtlbx_file *f;
    cr_assert_gt(open_and_walk(&b, &f), 0);
    cr_assert(has_error(f, "overlap"));
    mbx_close(f);
    ib_free(&b);

    /* Modules starting past the end of the file, then running past it. */
    uint64_t cases[][2] = { { 0, 16 }, { 0, 0 } };
    for (int c = 0; c < 2; c++) {
        b = (struct imagebuf){ 0 };
        one_library(&b, TEST_EXT_EMPTY);
        cases[0][0] = b.len + 4096;
        cases[1][0] = b.len - 8;
        cases[1][1] = 4096;
        ib_put_u64(&b, 72, cases[c][0]);
        ib_put_u64(&b, 80, cases[c][1]);
        cr_assert_gt(open_and_walk(&b, &f), 0, "case %d", c);
        const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(f, 0), 0);
        cr_assert(!fn || !fn->module_valid || fn->module.offset + fn->module.size <= b.len);
        cr_assert_neq(mbx_function_verify(mbx_library_at(f, 0), 0, NULL), MTLBX_HASH_MATCHES);
        mbx_close(f);
        ib_free(&b);
    }
}

static void fat_with_slice(struct imagebuf *b, uint32_t off, uint32_t size)
{
    ib_bytes(b, "\xCB\xFE\xBA\xBE\0\0\0\1", 8);
    static const uint8_t be[] = { 1, 0, 0, 0x17, 0, 0, 0, 0 };
    ib_bytes(b, be, 8);
    uint8_t w[12] = { (uint8_t)(off >> 24), (uint8_t)(off >> 16), (uint8_t)(off >> 8), (uint8_t)off,
                      (uint8_t)(size >> 24), (uint8_t)(size >> 16), (uint8_t)(size >> 8), (uint8_t)size,
                      0, 0, 0, 14 };
    ib_bytes(b, w, 12);
    one_library(b, TEST_EXT_EMPTY);
}

Test(counts, fat_slice_outside_the_file)
{
    static const uint32_t slices[][2] = {
        { 0x7FFFFFF0u, 0x100 },        /* starts past the end */
        { 28, 0x7FFFFFFFu },           /* runs past the end */
        { 0xFFFFFFF0u, 0x20 },         /* offset + size wraps 32 bits */
    };
    for (size_t s = 0; s < sizeof slices / sizeof slices[0]; s++) {
        struct imagebuf b = { 0 };
        fat_with_slice(&b, slices[s][0], slices[s][1]);
        mtlbx_file *f;
        cr_assert_gt(open_and_walk(&b, &f), 0, "slice %zu", s);
        cr_assert(has_error(f, "outside the file"), "slice %zu", s);
        cr_assert_eq(mbx_file_library_count(f), 0, "an outside slice is never parsed");
        mbx_close(f);
        ib_free(&b);
    }
}

/* ------------------------------------------------- loops and cycles -- */

/* Entry sizes that would make a naive walker stand still or go back. */
Test(loops, function_entry_sizes_zero_and_tiny, .timeout = 20)
{
    static const uint32_t sizes[] = { 0, 1, 4, 7, 0xFFFFFFFFu };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct imagebuf b = { 0 };
        static const struct test_function three[] = { { .name = "a" }, { .name = "b" }, { .name = "c" } };
        ib_library(&b, &(struct test_library){ .n_functions = 3, .functions = three, .ext = TEST_EXT_EMPTY });
        ib_put_u32(&b, ENTRY, sizes[s]);
        cr_assert_gt(open_and_walk(&b, NULL), 0, "entry size %u", sizes[s]);
        ib_free(&b);
    }
}

/* OFFT's metadata offsets pointing back into the function's own entry,
 * into the function list, at the header, at its own group's prefix +1,
 * and anywhere at all. Same for the module offset. */
Test(loops, offt_values_that_point_anywhere, .timeout = 30)
{
    struct imagebuf probe = { 0 };
    one_library(&probe, TEST_EXT_EMPTY);
    cr_assert_eq(memcmp(probe.data + OFFT_VALUE_AT - 6, "OFFT", 4), 0);
    uint64_t pub_sec = 0;
    memcpy(&pub_sec, probe.data + 40, 8);
    const uint64_t values[] = {
        0, 1, 3, 4, 5, 8, 12,                /* inside the group's own prefix/body */
        (uint64_t)0 - pub_sec,               /* wraps to absolute 0: the header */
        (uint64_t)0 - pub_sec + ENTRY,       /* wraps onto the function entry */
        probe.len, probe.len * 2, UINT64_MAX, UINT64_MAX - 3, 1ull << 63,
    };
    ib_free(&probe);
    for (int which = 0; which < 3; which++)
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            struct imagebuf b = { 0 };
            one_library(&b, TEST_EXT_EMPTY);
            ib_put_u64(&b, OFFT_VALUE_AT + 8 * (size_t)which, values[v]);
            open_and_walk(&b, NULL);
            ib_free(&b);
        }
}

/* A metadata group whose size prefix says 0 (the group would "end" where
 * it starts), less than its own prefix, one byte off, or all ones. (4 is
 * valid here: this group is just ENDT, and 4 is the size without the
 * prefix, the metallib tool's convention.) */
Test(loops, metadata_group_prefix_zero_or_self, .timeout = 20)
{
    static const uint32_t prefixes[] = { 0, 3, 5, 9, 0xFFFFFFFFu };
    for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
        struct imagebuf b = { 0 };
        one_library(&b, TEST_EXT_EMPTY);
        uint64_t pub = 0;
        memcpy(&pub, b.data + 40, 8);
        ib_put_u32(&b, (size_t)pub, prefixes[p]);
        cr_assert_gt(open_and_walk(&b, NULL), 0, "prefix %u", prefixes[p]);
        ib_free(&b);
    }
}

/* SOFF and RFLT pointing anywhere: at a group start +1, inside the
 * SARC value, past their section, and at the maximum. */
Test(loops, soff_and_rflt_values_that_point_anywhere, .timeout = 30)
{
    struct imagebuf payload = { 0 };
    static const struct hi_member m[] = { { "/src/a.metal", 'f', "kernel void k() {}\n" } };
    hi_tar_bz2(&payload, m, 1);
    const uint64_t values[] = { 0, 1, 4, 36, 40, 41, 1000, 1ull << 32, UINT64_MAX, UINT64_MAX - 7 };
    for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
        struct imagebuf sec = { 0 }, b = { 0 };
        hi_sources_section(&sec, payload.data, payload.len, 0);
        uint8_t soff[14];
        hi_soff_tag(soff, values[v]);
        struct test_function fn = { .name = "f", .type = 2, .extra_tags = soff, .extra_tags_len = sizeof soff };
        ib_library(&b, &(struct test_library){ .n_functions = 1, .functions = &fn, .ext = TEST_EXT_UUID,
                                               .sources = sec.data, .sources_len = sec.len, .reflection = true });
        /* RFLT is the tag after MDSZ; point it at the same value. */
        uint8_t *r = memmem(b.data, b.len, "RFLT\x08\x00", 6);
        cr_assert_not_null(r);
        for (int i = 0; i < 8; i++)
            r[6 + i] = (uint8_t)(values[v] >> (8 * i));
        mtlbx_file *f;
        size_t errors = open_and_walk(&b, &f);
        /* 36 is where the test's SARC lands: the one value that is right. */
        long arch = mbx_function_archive(mbx_library_at(f, 0), 0);
        if (values[v] != 36)
            cr_assert(errors > 0 && arch < 0, "SOFF/RFLT %llu", (unsigned long long)values[v]);
        mbx_close(f);
        ib_free(&sec);
        ib_free(&b);
    }
    ib_free(&payload);
}

/* Every list group declaring size 0: a walker that adds the size to its
 * position would never move. */
Test(loops, reflection_list_groups_of_size_zero, .timeout = 20)
{
    static const struct test_function three[] = { { .name = "a" }, { .name = "b" }, { .name = "c" } };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 3, .functions = three, .ext = TEST_EXT_UUID,
                                           .reflection = true });
    for (uint8_t *p = b.data; (p = memmem(p, b.len - (size_t)(p - b.data), "RBUF", 4)) != NULL; p += 4)
        memset(p - 4, 0, 4);
    cr_assert_gt(open_and_walk(&b, NULL), 0);
    ib_free(&b);
}

/* ------------------------------------------------------- bzip2 bomb -- */

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* 512 MiB of zeros compress to a few hundred bytes. Decompression must
 * stop at MTLBX_SOURCE_CAP with an error naming the cap, and the process
 * must never hold the inflated size: peak RSS grows by well under it. */
Test(bomb, bzip2_bomb_stops_at_the_cap, .timeout = 120)
{
    const size_t inflated = (size_t)512 << 20;
    struct imagebuf payload = { 0 }, b = { 0 };
    hi_bz2_zeros(&payload, inflated);
    cr_assert_lt(payload.len, 4096, "a bomb: %zu compressed bytes", payload.len);
    hi_library_with_payload(&b, payload.data, payload.len, 0);
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(b.data, b.len, "bomb", &f, &err), MTLBX_E_NONE);
    mtlbx_library *lib = mbx_library_at(f, 0);
    long before = max_rss_kb();
    cr_assert_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_FAILED);
    long grew_mb = (max_rss_kb() - before) / 1024;
    const struct mtlbx_archive *a = &mbx_library_sources(lib)->archives[0];
    cr_assert_null(a->tar);
    cr_assert_eq(a->n_members, 0);
    char cap[64];
    snprintf(cap, sizeof cap, "%zu MiB cap", MTLBX_SOURCE_CAP >> 20);
    cr_assert(has_error(f, cap), "the diagnostic names the cap");
    /* The cap is 64 MiB; growing by doubling (and ASan's quarantine of the
     * smaller buffers) stays under 3x that, far below the 512 MiB. */
    cr_assert_lt(grew_mb, 3 * (long)(MTLBX_SOURCE_CAP >> 20), "peak RSS grew by %ld MiB", grew_mb);
    /* The whole model still walks, and the second load is cached. */
    struct walk_stats st;
    walk_file(f, &st);
    cr_assert_eq(st.bad, 0, "walk: %s", st.first_bad);
    cr_assert_eq(st.archives_loaded, 0);
    mbx_close(f);
    ib_free(&payload);
    ib_free(&b);
}

/* A stream cut short and one that is not bzip2: errors, never a hang. */
Test(bomb, truncated_and_garbage_streams, .timeout = 20)
{
    struct imagebuf payload = { 0 };
    hi_bz2_zeros(&payload, 1 << 20);
    const size_t cuts[] = { 1, 4, 10, payload.len / 2, payload.len - 1 };
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        struct imagebuf b = { 0 };
        hi_library_with_payload(&b, payload.data, cuts[c], 0);
        mtlbx_file *f;
        cr_assert_gt(open_and_walk(&b, &f), 0);
        cr_assert_eq(mbx_archive_load(mbx_library_at(f, 0), 0), MTLBX_ARCHIVE_FAILED);
        mbx_close(f);
        ib_free(&b);
    }
    ib_free(&payload);
}

/* --------------------------------------------------- tar members -- */

/* The library lists dangerous members as they are (raw names, true types)
 * so the writers can refuse them; it creates nothing itself. */
Test(tar, dangerous_members_are_listed_with_their_types)
{
    static const struct hi_member m[] = {
        { "../../x", 'f', "up\n" },
        { "/etc/x", 'f', "abs\n" },
        { "/src/link", 'l', "/etc/passwd" },
        { "/src/hard", 'h', "/etc/shadow" },
        { "/src/null", 'c', NULL },
        { "/src/fifo", 'p', NULL },
        { "/src/dup.metal", 'f', "first\n" },
        { "/src/dup.metal", 'f', "second\n" },
        { "/src/esc\x1b[31mred\x07.metal", 'f', "esc\n" },
    };
    struct imagebuf payload = { 0 }, b = { 0 };
    hi_tar_bz2(&payload, m, sizeof m / sizeof m[0]);
    hi_library_with_payload(&b, payload.data, payload.len, 0);
    mtlbx_file *f;
    open_and_walk(&b, &f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_assert_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_LOADED);
    const struct mtlbx_archive *a = &mbx_library_sources(lib)->archives[0];
    cr_assert_eq(a->n_members, sizeof m / sizeof m[0]);
    static const enum mtlbx_member_type want[] = {
        MTLBX_MEMBER_FILE, MTLBX_MEMBER_FILE, MTLBX_MEMBER_SYMLINK, MTLBX_MEMBER_HARDLINK,
        MTLBX_MEMBER_DEVICE, MTLBX_MEMBER_FIFO, MTLBX_MEMBER_FILE, MTLBX_MEMBER_FILE, MTLBX_MEMBER_FILE,
    };
    for (size_t i = 0; i < a->n_members; i++) {
        cr_assert_eq(a->members[i].type, want[i], "member %zu (%s)", i, m[i].name);
        if (want[i] != MTLBX_MEMBER_FILE)
            cr_assert_null(a->members[i].data, "member %zu has no data to write", i);
    }
    cr_assert_str_eq(a->members[0].name, "../../x");
    cr_assert_str_eq(a->members[2].link_target, "/etc/passwd");
    cr_assert_str_eq(a->members[3].link_target, "/etc/shadow");
    cr_assert_eq(memcmp(a->members[7].data, "second\n", 7), 0);
    mbx_close(f);
    ib_free(&payload);
    ib_free(&b);
}
