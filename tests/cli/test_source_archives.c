/* The embedded source section and its archives, on libraries built in
 * code: structure at open time (HSRC/HSRD, ids, SOFF), bzip2 + tar decoding
 * through mbx_archive_load() (long ustar paths, links, padding), and
 * damage of every kind ending in a diagnostic and FAILED, never a crash:
 * truncated and corrupt streams, a bzip2 bomb, hostile counts and sizes,
 * and every byte of the section overwritten in turn.
 *
 * The archives are made with libarchive's ustar writer and libbz2, so the
 * test does not depend on the decoder it checks. The last tests run the
 * real binary (sources, extract) on such libraries written to a mktemp
 * directory: hostile member names and repeated function names. */
#include "config.h"

#include "imagebuf.h"
#include "libcheck.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/sources.h"
#include "scratch_dir.h"
#include "testenv.h"

#include <archive.h>
#include <archive_entry.h>
#include <bzlib.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdbool.h>

/* ------------------------------------------------------------ builders -- */

struct tmember {
    const char *name;
    const char *data;           /* regular file contents; NULL for others */
    unsigned type;              /* AE_IFREG, AE_IFLNK, AE_IFDIR; 0 = regular */
    const char *link;           /* symlink target, or hard-link target with hard */
    bool hard;
};

static struct imagebuf make_tar(const struct tmember *m, size_t n)
{
    size_t cap = 1 << 20, used = 0;
    uint8_t *buf = malloc(cap);
    struct archive *a = archive_write_new();
    archive_write_set_format_ustar(a);
    archive_write_set_bytes_in_last_block(a, 1);
    cr_assert_eq(archive_write_open_memory(a, buf, cap, &used), ARCHIVE_OK);
    for (size_t i = 0; i < n; i++) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, m[i].name);
        archive_entry_set_perm(e, 0644);
        if (m[i].hard) {
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_hardlink(e, m[i].link);
            archive_entry_set_size(e, 0);
        } else if (m[i].type == AE_IFLNK) {
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_symlink(e, m[i].link);
        } else if (m[i].type == AE_IFDIR) {
            archive_entry_set_filetype(e, AE_IFDIR);
            archive_entry_set_perm(e, 0755);
        } else {
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_size(e, (la_int64_t)strlen(m[i].data));
        }
        cr_assert_eq(archive_write_header(a, e), ARCHIVE_OK, "%s", archive_error_string(a));
        if (!m[i].hard && (m[i].type == 0 || m[i].type == AE_IFREG))
            archive_write_data(a, m[i].data, strlen(m[i].data));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    return (struct imagebuf){ .data = buf, .len = used, .cap = cap };
}

static struct imagebuf bz(const void *data, size_t len, int level)
{
    unsigned cap = (unsigned)(len + len / 100 + 1024);
    struct imagebuf out = { .data = malloc(cap), .cap = cap };
    unsigned dlen = cap;
    cr_assert_eq(BZ2_bzBuffToBuffCompress((char *)out.data, &dlen, (char *)(uintptr_t)data,
                                          (unsigned)len, level, 0, 0), BZ_OK);
    out.len = dlen;
    return out;
}

static struct imagebuf bz_tar(const struct tmember *m, size_t n)
{
    struct imagebuf t = make_tar(m, n);
    struct imagebuf z = bz(t.data, t.len, 9);
    ib_free(&t);
    return z;
}

struct tarchive {
    const char *id;
    const uint8_t *payload;
    size_t len;
};

/* The section of FORMAT.md §9; sarc_at[i] receives each SARC's offset
 * relative to the section (what SOFF holds). */
static struct imagebuf make_section(bool hsrd, const struct tarchive *a, size_t n, uint32_t count,
                                    uint64_t *sarc_at)
{
    struct imagebuf s = { 0 };
    ib_u32(&s, count);
    const char *cmd = "/usr/bin/air-lld -arch air64 -o x.metallib /tmp/x.air";
    ib_bytes(&s, cmd, strlen(cmd) + 1);
    if (hsrd)
        ib_bytes(&s, "/work/dir", 10);
    for (size_t i = 0; i < n; i++) {
        size_t idl = strlen(a[i].id) + 1;
        ib_u32(&s, (uint32_t)(4 + 4 + idl + a[i].len + 4));
        if (sarc_at)
            sarc_at[i] = s.len;
        ib_bytes(&s, "SARC", 4);
        ib_u32(&s, (uint32_t)(idl + a[i].len));
        ib_bytes(&s, a[i].id, idl);
        ib_bytes(&s, a[i].payload, a[i].len);
        ib_bytes(&s, "ENDT", 4);
    }
    return s;
}

static const struct test_function one_fn[] = { { .name = "main0", .type = 2 } };

/* A SOFF tag (raw, for a function's extra_tags) holding `soff`. */
static void soff_tag(uint8_t out[14], uint64_t soff)
{
    memcpy(out, "SOFF", 4);
    out[4] = 8;
    out[5] = 0;
    for (int i = 0; i < 8; i++)
        out[6 + i] = (uint8_t)(soff >> (8 * i));
}

/* A whole library of these functions whose header extension carries
 * HSRD/HSRC locating `section` appended at the end. ib_library writes
 * UUID as the one extension tag; its 16-byte value has the size of
 * HSRD's, so the tag is renamed in place. */
static struct imagebuf make_library_of(bool hsrd, const struct imagebuf *section, const struct test_function *fns,
                                       size_t n, size_t *section_at)
{
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = n, .functions = fns, .ext = TEST_EXT_UUID });
    size_t at = b.len;
    ib_bytes(&b, section->data, section->len);
    uint8_t *u = memmem(b.data, at, "UUID\x10\x00", 6);
    cr_assert_not_null(u);
    memcpy(u, hsrd ? "HSRD" : "HSRC", 4);
    ib_put_u64(&b, (size_t)(u - b.data) + 6, at);
    ib_put_u64(&b, (size_t)(u - b.data) + 14, section->len);
    ib_put_u64(&b, 0x10, b.len);
    if (section_at)
        *section_at = at;
    return b;
}

/* One function; `soff` (if not UINT64_MAX) becomes its SOFF. */
static struct imagebuf make_library(bool hsrd, const struct imagebuf *section, uint64_t soff,
                                    size_t *section_at)
{
    uint8_t extra[14];
    soff_tag(extra, soff);
    struct test_function fn = one_fn[0];
    if (soff != UINT64_MAX) {
        fn.extra_tags = extra;
        fn.extra_tags_len = sizeof extra;
    }
    return make_library_of(hsrd, section, &fn, 1, section_at);
}

static void dump_diags(const mtlbx_library *lib)
{
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++) {
        const struct mtlbx_diag *d = mbx_library_diag(lib, i);
        cr_log_info("diag %s @%llu: %s", d->severity ? "error" : "warning",
                    (unsigned long long)d->offset, d->message);
    }
}

/* One archive holding `payload` in a fresh library; loads it. */
struct one {
    struct imagebuf img;
    mtlbx_file *f;
    mtlbx_library *lib;
    enum mtlbx_archive_state st;
};

static struct one load_one(const uint8_t *payload, size_t len)
{
    struct one o = { 0 };
    uint64_t sarc[1];
    struct tarchive a = { "0", payload, len };
    struct imagebuf sec = make_section(true, &a, 1, 1, sarc);
    o.img = make_library(true, &sec, sarc[0], NULL);
    ib_free(&sec);
    o.f = open_buf(&o.img);
    o.lib = mbx_library_at(o.f, 0);
    o.st = mbx_archive_load(o.lib, 0);
    return o;
}

static void one_free(struct one *o)
{
    mbx_close(o->f);
    ib_free(&o->img);
}

static const char long_path[] =
    "/Users/someone/Projects/a-rather-long-directory-name/with/several/levels/of/nesting/"
    "so-that-ustar-needs-its-prefix-field/shaders/kernel_with_a_long_name.metal";

static const struct tmember basic[] = {
    { .name = "metal-options.txt", .data = "-c -frecord-sources" },
    { .name = "original-input-filename.txt", .data = "/tmp/x.air" },
    { .name = long_path, .data = "kernel void k() {}\n" },
};

/* --------------------------------------------------------------- tests -- */

Test(sources, structure_and_members)
{
    struct imagebuf z0 = bz_tar(basic, 3);
    struct imagebuf z1 = bz_tar(basic, 1);
    struct tarchive a[2] = { { "0", z0.data, z0.len }, { "runtime", z1.data, z1.len } };
    uint64_t sarc[2];
    struct imagebuf sec = make_section(true, a, 2, 2, sarc);
    size_t at;
    struct imagebuf img = make_library(true, &sec, sarc[1], &at);
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    dump_diags(lib);
    cr_expect_eq(mbx_library_diag_count(lib), 0);
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    cr_assert(s->present);
    cr_expect_str_eq(s->tag, "HSRD");
    cr_expect_eq(s->range.offset, at);
    cr_expect_eq(s->range.size, sec.len);
    cr_expect_eq(s->declared_count, 2);
    cr_assert(s->has_working_dir);
    cr_expect_eq(s->working_dir.len, 9);
    cr_expect(memcmp(s->working_dir.ptr, "/work/dir", 9) == 0);
    cr_expect(s->link_command.len > 10 && memcmp(s->link_command.ptr, "/usr/bin/air-lld", 16) == 0);
    cr_assert_eq(s->n_archives, 2);
    cr_expect_eq(s->archives[1].sarc_offset, at + sarc[1]);
    cr_expect_eq(s->archives[1].group_offset, at + sarc[1] - 4);
    cr_expect_eq(s->archives[1].id.len, 7);
    cr_expect_eq(s->archives[0].payload.len, z0.len);
    cr_expect_eq(s->archives[0].state, MTLBX_ARCHIVE_UNLOADED, "open must not decompress");
    cr_expect_eq(mbx_function_archive(lib, 0), 1);

    cr_assert_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_LOADED);
    const struct mtlbx_archive *ar = &s->archives[0];
    cr_assert_eq(ar->n_members, 3);
    for (size_t i = 0; i < 3; i++) {
        cr_expect_str_eq(ar->members[i].name, basic[i].name);
        cr_expect_eq(ar->members[i].type, MTLBX_MEMBER_FILE);
        cr_expect_eq(ar->members[i].size, strlen(basic[i].data));
        cr_expect_eq(ar->members[i].mode, 0644);
        cr_assert_not_null(ar->members[i].data);
        cr_expect(memcmp(ar->members[i].data, basic[i].data, strlen(basic[i].data)) == 0);
        /* Zero-copy: the data lies inside the decompressed tar. */
        cr_expect(ar->members[i].data >= ar->tar && ar->members[i].data < ar->tar + ar->tar_len);
    }
    /* Loading again is cached. */
    cr_expect_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_LOADED);
    cr_expect_eq(mbx_archive_load(lib, 1), MTLBX_ARCHIVE_LOADED);
    cr_expect_eq(mbx_archive_load(lib, 2), MTLBX_ARCHIVE_FAILED, "index out of range");
    cr_expect_eq(mbx_library_diag_count(lib), 0);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z0);
    ib_free(&z1);
}

Test(sources, hsrc_has_no_working_dir)
{
    struct imagebuf z = bz_tar(basic, 1);
    struct tarchive a = { "0", z.data, z.len };
    uint64_t sarc;
    struct imagebuf sec = make_section(false, &a, 1, 1, &sarc);
    struct imagebuf img = make_library(false, &sec, sarc, NULL);
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    dump_diags(lib);
    cr_expect_eq(mbx_library_diag_count(lib), 0);
    cr_expect_str_eq(s->tag, "HSRC");
    cr_expect_not(s->has_working_dir);
    cr_assert_eq(s->n_archives, 1);
    cr_expect_eq(mbx_function_archive(lib, 0), 0);
    cr_expect_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_LOADED);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}

Test(sources, soff_pointing_at_nothing_is_an_error)
{
    struct imagebuf z = bz_tar(basic, 1);
    struct tarchive a = { "0", z.data, z.len };
    uint64_t sarc;
    struct imagebuf sec = make_section(true, &a, 1, 1, &sarc);
    /* The group's size prefix, not its SARC tag. */
    struct imagebuf img = make_library(true, &sec, sarc - 4, NULL);
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_expect_eq(mbx_function_archive(lib, 0), -1);
    cr_expect_eq(count_diags(lib, MTLBX_ERROR, "SOFF"), 1);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}

/* The SOFF values the function list's pass saw are checked instead of
 * every function when they all land: a library with no sources section
 * at all, and two functions of which one lands, must still give one
 * error each, at the function that misses. */
Test(sources, soff_without_a_sources_section_is_an_error)
{
    uint8_t extra[14];
    soff_tag(extra, 0);
    struct test_function fn = one_fn[0];
    fn.extra_tags = extra;
    fn.extra_tags_len = sizeof extra;
    struct imagebuf img = { 0 };
    ib_library(&img, &(struct test_library){ .n_functions = 1, .functions = &fn, .ext = TEST_EXT_UUID });
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_expect_eq(count_diags(lib, MTLBX_ERROR, "has SOFF but the library has no sources section"), 1);
    mbx_close(f);
    ib_free(&img);
}

Test(sources, only_the_function_whose_soff_misses_is_reported)
{
    struct imagebuf z = bz_tar(basic, 1);
    struct tarchive a = { "0", z.data, z.len };
    uint64_t sarc;
    struct imagebuf sec = make_section(true, &a, 1, 1, &sarc);
    /* Function 0 lands on the SARC tag (make_library), function 1 on the
     * group's size prefix: two distinct values, one of them bad. */
    struct imagebuf img = make_library(true, &sec, sarc, NULL);
    mtlbx_file *one = open_buf(&img);
    cr_expect_eq(count_diags(mbx_library_at(one, 0), MTLBX_ERROR, "SOFF"), 0);
    mbx_close(one);
    ib_free(&img);
    uint8_t good[14], bad[14];
    soff_tag(good, sarc);
    soff_tag(bad, sarc - 4);
    struct test_function fns[2] = { { .name = "main0", .type = 2, .extra_tags = good, .extra_tags_len = 14 },
                                    { .name = "main1", .type = 2, .extra_tags = bad, .extra_tags_len = 14 } };
    struct imagebuf two = make_library_of(true, &sec, fns, 2, NULL);
    mtlbx_file *f = open_buf(&two);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_expect_eq(mbx_function_archive(lib, 0), 0);
    cr_expect_eq(mbx_function_archive(lib, 1), -1);
    cr_expect_eq(count_diags(lib, MTLBX_ERROR, "function 1: SOFF"), 1);
    cr_expect_eq(count_diags(lib, MTLBX_ERROR, "function 0: SOFF"), 0);
    mbx_close(f);
    ib_free(&two);
    ib_free(&sec);
    ib_free(&z);
}

Test(sources, links_and_directories_are_listed_not_resolved)
{
    static const struct tmember m[] = {
        { .name = "dir/", .type = AE_IFDIR },
        { .name = "dir/file.h", .data = "x" },
        { .name = "dir/link", .type = AE_IFLNK, .link = "/etc/passwd" },
        { .name = "dir/hard", .hard = true, .link = "dir/file.h" },
    };
    struct imagebuf z = bz_tar(m, 4);
    struct one o = load_one(z.data, z.len);
    cr_assert_eq(o.st, MTLBX_ARCHIVE_LOADED);
    const struct mtlbx_archive *ar = &mbx_library_sources(o.lib)->archives[0];
    cr_assert_eq(ar->n_members, 4);
    cr_expect_eq(ar->members[0].type, MTLBX_MEMBER_DIR);
    cr_expect_null(ar->members[0].data);
    cr_expect_eq(ar->members[1].type, MTLBX_MEMBER_FILE);
    cr_expect_eq(ar->members[2].type, MTLBX_MEMBER_SYMLINK);
    cr_expect_str_eq(ar->members[2].link_target, "/etc/passwd");
    cr_expect_null(ar->members[2].data);
    cr_expect_eq(ar->members[3].type, MTLBX_MEMBER_HARDLINK);
    cr_expect_str_eq(ar->members[3].link_target, "dir/file.h");
    one_free(&o);
    ib_free(&z);
}

Test(sources, zero_padding_after_the_stream_is_silent)
{
    struct imagebuf z = bz_tar(basic, 3);
    ib_zeros(&z, 16384 - z.len % 16384); /* what Xcode 15/16 write (P6) */
    struct one o = load_one(z.data, z.len);
    dump_diags(o.lib);
    cr_expect_eq(o.st, MTLBX_ARCHIVE_LOADED);
    cr_expect_eq(mbx_library_diag_count(o.lib), 0);
    one_free(&o);
    ib_free(&z);
}

Test(sources, nonzero_bytes_after_the_stream_warn)
{
    struct imagebuf z = bz_tar(basic, 3);
    ib_bytes(&z, "junk", 4);
    struct one o = load_one(z.data, z.len);
    cr_expect_eq(o.st, MTLBX_ARCHIVE_LOADED);
    cr_expect_eq(count_diags(o.lib, MTLBX_WARNING, "padding"), 1);
    cr_expect_eq(count_diags(o.lib, MTLBX_ERROR, NULL), 0);
    one_free(&o);
    ib_free(&z);
}

/* A pax sparse member (never written by Apple's tools) cannot point into
 * the tar: its holes are not stored. It is copied, holes as zeros. */
Test(sources, sparse_member_is_copied_with_its_holes)
{
    size_t cap = 1 << 20, used = 0;
    uint8_t *buf = malloc(cap);
    struct archive *w = archive_write_new();
    archive_write_set_format_pax(w);
    cr_assert_eq(archive_write_open_memory(w, buf, cap, &used), ARCHIVE_OK);
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, "sparse.bin");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, 8192);
    archive_entry_sparse_add_entry(e, 0, 4);
    archive_entry_sparse_add_entry(e, 4096, 4);
    cr_assert_eq(archive_write_header(w, e), ARCHIVE_OK, "%s", archive_error_string(w));
    /* The writer takes the whole logical file and stores only the data
     * regions. */
    static uint8_t logical[8192];
    memcpy(logical, "ABCD", 4);
    memcpy(logical + 4096, "WXYZ", 4);
    archive_write_data(w, logical, sizeof logical);
    archive_entry_free(e);
    e = archive_entry_new();
    archive_entry_set_pathname(e, "after.txt");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, 5);
    cr_assert_eq(archive_write_header(w, e), ARCHIVE_OK);
    archive_write_data(w, "after", 5);
    archive_entry_free(e);
    archive_write_close(w);
    archive_write_free(w);
    struct imagebuf z = bz(buf, used, 9);
    free(buf);
    struct one o = load_one(z.data, z.len);
    dump_diags(o.lib);
    cr_assert_eq(o.st, MTLBX_ARCHIVE_LOADED);
    const struct mtlbx_archive *ar = &mbx_library_sources(o.lib)->archives[0];
    cr_assert_eq(ar->n_members, 2);
    const struct mtlbx_member *m = &ar->members[0];
    cr_expect_str_eq(m->name, "sparse.bin");
    cr_assert_eq(m->size, 8192);
    cr_assert_not_null(m->data);
    cr_expect(memcmp(m->data, "ABCD", 4) == 0);
    cr_expect(memcmp(m->data + 4096, "WXYZ", 4) == 0);
    size_t nonzero = 0;
    for (size_t i = 0; i < 8192; i++)
        nonzero += m->data[i] != 0;
    cr_expect_eq(nonzero, 8);
    cr_expect(m->data < ar->tar || m->data >= ar->tar + ar->tar_len, "sparse data is a copy");
    cr_expect_str_eq(ar->members[1].name, "after.txt");
    cr_expect(memcmp(ar->members[1].data, "after", 5) == 0);
    one_free(&o);
    ib_free(&z);
}

static void expect_failed(const uint8_t *p, size_t n, const char *needle)
{
    struct one o = load_one(p, n);
    dump_diags(o.lib);
    cr_expect_eq(o.st, MTLBX_ARCHIVE_FAILED);
    cr_expect_geq(count_diags(o.lib, MTLBX_ERROR, needle), 1, "want an error naming '%s'", needle);
    const struct mtlbx_archive *ar = &mbx_library_sources(o.lib)->archives[0];
    cr_expect_null(ar->tar);
    cr_expect_eq(ar->n_members, 0);
    /* The error points into the payload. */
    for (size_t i = 0; i < mbx_library_diag_count(o.lib); i++) {
        const struct mtlbx_diag *d = mbx_library_diag(o.lib, i);
        cr_expect(d->offset >= ar->payload_offset && d->offset <= ar->payload_offset + ar->payload.len);
    }
    cr_expect_eq(mbx_archive_load(o.lib, 0), MTLBX_ARCHIVE_FAILED, "failure is cached");
    one_free(&o);
}

Test(sources, truncated_stream_fails)
{
    struct imagebuf z = bz_tar(basic, 3);
    expect_failed(z.data, z.len / 2, "truncated");
    ib_free(&z);
}

Test(sources, corrupt_stream_fails)
{
    struct imagebuf z = bz_tar(basic, 3);
    for (size_t i = z.len / 3; i < z.len / 3 + 16; i++)
        z.data[i] ^= 0x5A;
    expect_failed(z.data, z.len, "");
    ib_free(&z);
}

Test(sources, not_bzip2_fails)
{
    expect_failed((const uint8_t *)"this is no bzip2 stream at all", 30, "bzip2");
}

Test(sources, bzip2_of_something_not_tar_fails)
{
    char junk[2000];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)('a' + i % 23);
    struct imagebuf z = bz(junk, sizeof junk, 9);
    expect_failed(z.data, z.len, "tar");
    ib_free(&z);
}

Test(sources, tar_cut_short_fails)
{
    struct imagebuf t = make_tar(basic, 3);
    struct imagebuf z = bz(t.data, 1024 + 100, 9); /* two headers, half a member */
    expect_failed(z.data, z.len, "tar");
    ib_free(&z);
    ib_free(&t);
}

Test(sources, empty_payload_fails)
{
    expect_failed((const uint8_t *)"", 0, "empty");
}

/* A few hundred bytes that inflate past the cap: the decoder must stop at
 * MTLBX_SOURCE_CAP with an error, holding no more than that. */
static struct imagebuf bomb(void)
{
    size_t n = MTLBX_SOURCE_CAP + (1 << 20);
    uint8_t *zeros = calloc(1, n);
    struct imagebuf z = bz(zeros, n, 9);
    free(zeros);
    return z;
}

Test(sources, bzip2_bomb_is_capped, .timeout = 60)
{
    struct imagebuf z = bomb();
    cr_log_info("bomb: %zu bytes", z.len);
    expect_failed(z.data, z.len, "MiB cap");
    ib_free(&z);
}

Test(sources, many_bombs_hit_the_library_budget, .timeout = 120)
{
    struct imagebuf z = bomb();
    enum { N = 12 };
    struct tarchive a[N];
    char ids[N][12]; /* room for any int: gcc -O1 -Werror=format-truncation */
    for (int i = 0; i < N; i++) {
        snprintf(ids[i], sizeof ids[i], "%d", i);
        a[i] = (struct tarchive){ ids[i], z.data, z.len };
    }
    struct imagebuf sec = make_section(true, a, N, N, NULL);
    struct imagebuf img = make_library(true, &sec, UINT64_MAX, NULL);
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    for (int i = 0; i < N; i++)
        cr_expect_eq(mbx_archive_load(lib, (size_t)i), MTLBX_ARCHIVE_FAILED);
    /* Only a few were really decompressed; the rest were refused. */
    cr_expect_leq(count_diags(lib, MTLBX_ERROR, "MiB cap"), 4);
    cr_expect_geq(count_diags(lib, MTLBX_ERROR, "budget"), N - 4);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}

Test(sources, hostile_count_is_bounded_by_the_section)
{
    struct imagebuf z = bz_tar(basic, 1);
    struct tarchive a = { "0", z.data, z.len };
    struct imagebuf sec = make_section(true, &a, 1, 0xFFFFFFFFu, NULL);
    struct imagebuf img = make_library(true, &sec, UINT64_MAX, NULL);
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    cr_expect_eq(s->n_archives, 1);
    cr_expect_geq(count_diags(lib, MTLBX_ERROR, "cannot fit"), 1);
    cr_expect_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_LOADED);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}

Test(sources, section_outside_the_library_is_an_error)
{
    struct imagebuf sec = make_section(true, NULL, 0, 0, NULL);
    struct imagebuf img = make_library(true, &sec, UINT64_MAX, NULL);
    /* Point HSRD past the end of the file. */
    uint8_t *t = memmem(img.data, img.len, "HSRD\x10\x00", 6);
    ib_put_u64(&img, (size_t)(t - img.data) + 6, img.len + 100);
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_expect(mbx_library_sources(lib)->present);
    cr_expect_eq(mbx_library_sources(lib)->n_archives, 0);
    cr_expect_geq(count_diags(lib, MTLBX_ERROR, "HSRD"), 1);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
}

Test(sources, group_size_and_endt_damage_are_errors)
{
    struct imagebuf z = bz_tar(basic, 1);
    struct tarchive a = { "0", z.data, z.len };
    uint64_t sarc;
    struct imagebuf sec = make_section(true, &a, 1, 1, &sarc);
    /* Group size past the section. */
    ib_put_u32(&sec, (size_t)sarc - 4, 0x7FFFFFFF);
    struct imagebuf img = make_library(true, &sec, UINT64_MAX, NULL);
    mtlbx_file *f = open_buf(&img);
    cr_expect_geq(count_diags(mbx_library_at(f, 0), MTLBX_ERROR, "group size"), 1);
    cr_expect_eq(mbx_library_sources(mbx_library_at(f, 0))->n_archives, 0);
    mbx_close(f);
    ib_free(&img);
    /* Missing ENDT: the archive is still usable. */
    ib_put_u32(&sec, (size_t)sarc - 4, (uint32_t)(sec.len - sarc));
    memcpy(sec.data + sec.len - 4, "XXXX", 4);
    img = make_library(true, &sec, UINT64_MAX, NULL);
    f = open_buf(&img);
    cr_expect_eq(count_diags(mbx_library_at(f, 0), MTLBX_ERROR, "ENDT"), 1);
    cr_expect_eq(mbx_archive_load(mbx_library_at(f, 0), 0), MTLBX_ARCHIVE_LOADED);
    mbx_close(f);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}

/* Every byte of the section overwritten with two values in turn, and
 * every shorter length: open and load everything, expecting no crash (run
 * under the sanitizers to make this bite). */
Test(sources, every_byte_damaged_never_crashes, .timeout = 120)
{
    struct imagebuf z0 = bz_tar(basic, 3);
    struct imagebuf z1 = bz_tar(basic, 1);
    struct tarchive a[2] = { { "0", z0.data, z0.len }, { "1", z1.data, z1.len } };
    uint64_t sarc[2];
    struct imagebuf sec = make_section(true, a, 2, 2, sarc);
    size_t at;
    struct imagebuf img = make_library(true, &sec, sarc[0], &at);
    static const uint8_t values[] = { 0xFF, 0x00 };
    for (size_t i = at; i < img.len; i++) {
        for (size_t v = 0; v < sizeof values; v++) {
            uint8_t keep = img.data[i];
            img.data[i] = values[v];
            mtlbx_file *f = open_buf(&img);
            mtlbx_library *lib = mbx_library_at(f, 0);
            const struct mtlbx_sources *s = mbx_library_sources(lib);
            for (size_t k = 0; k < s->n_archives; k++)
                mbx_archive_load(lib, k);
            mbx_function_archive(lib, 0);
            mbx_close(f);
            img.data[i] = keep;
        }
    }
    /* Truncated sections: shrink the declared size. */
    uint8_t *t = memmem(img.data, at, "HSRD\x10\x00", 6);
    for (size_t len = 0; len < sec.len; len += 7) {
        ib_put_u64(&img, (size_t)(t - img.data) + 14, len);
        mtlbx_file *f = open_buf(&img);
        mtlbx_library *lib = mbx_library_at(f, 0);
        for (size_t k = 0; k < mbx_library_sources(lib)->n_archives; k++)
            mbx_archive_load(lib, k);
        cr_expect_geq(mbx_library_diag_count(lib), 1, "a section cut to %zu bytes is damaged", len);
        mbx_close(f);
    }
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z0);
    ib_free(&z1);
}

/* ------------------------------------------- the commands on hostile input -- */

static char *write_image(const char *dir, const char *name, const struct imagebuf *img)
{
    char *p = pt_join(dir, name);
    FILE *fp = fopen(p, "wb");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(img->data, 1, img->len, fp), img->len);
    fclose(fp);
    return p;
}

static bool has_raw_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
            return true;
    return false;
}

Test(sources_cli, hostile_members_are_refused_and_nothing_leaves_dir)
{
    const char *bin = testenv("MTLBX_BIN");
    if (!bin || access(bin, X_OK) != 0)
        cr_skip_test("the mtlbx binary is not built");
    static const struct tmember m[] = {
        { .name = "../../evil.txt", .data = "evil" },
        { .name = "/abs/ok.metal", .data = "kernel void k() {}" },
        { .name = "link", .type = AE_IFLNK, .link = "/etc/passwd" },
        { .name = "dup.txt", .data = "first" },
        { .name = "dup.txt", .data = "second" },
        { .name = "esc\x1b[31m.txt", .data = "colour" },
        { .name = "ok.txt", .data = "fine" },
    };
    struct imagebuf z = bz_tar(m, sizeof m / sizeof *m);
    struct tarchive a = { "0", z.data, z.len };
    uint64_t sarc;
    struct imagebuf sec = make_section(true, &a, 1, 1, &sarc);
    struct imagebuf img = make_library(true, &sec, sarc, NULL);
    char *d = pt_tmpdir();
    char *lib = write_image(d, "hostile.metallib", &img);
    char *inner = pt_join(d, "a");
    mkdir(inner, 0777);
    char *outdir = pt_join(inner, "out");

    char *out, *err;
    size_t ol, el;
    char *list[] = { (char *)bin, "sources", "--list", lib, NULL };
    cr_expect_eq(run_capture(list, &out, &ol, &err, &el), 0, "%s", err);
    cr_expect_not(has_raw_control(out), "listing must be escaped: %s", out);
    cr_expect(strstr(out, "0\t4\t../../evil.txt\n") != NULL, "%s", out);
    cr_expect(strstr(out, "esc\\x1b[31m.txt") != NULL, "%s", out);
    free(out);
    free(err);

    char *x[] = { (char *)bin, "sources", lib, "-o", outdir, NULL };
    cr_expect_eq(run_capture(x, &out, &ol, &err, &el), 2, "refusals make the status 2");
    cr_log_info("stdout:\n%s\nstderr:\n%s", out, err);
    cr_expect_not(has_raw_control(err), "messages must be escaped: %s", err);
    cr_expect(strstr(err, "\"..\"") != NULL, "%s", err);
    cr_expect(strstr(err, "symbolic link") != NULL, "%s", err);
    cr_expect(strstr(err, "appears twice") != NULL, "%s", err);
    cr_expect(strstr(err, "control character") != NULL, "%s", err);
    size_t len;
    char *p = pt_join(outdir, "0/abs/ok.metal");
    uint8_t *got = pt_slurp(p, &len);
    cr_expect(got && !strcmp((char *)got, "kernel void k() {}"), "absolute member lands under DIR");
    free(got);
    free(p);
    p = pt_join(outdir, "0/dup.txt");
    got = pt_slurp(p, &len);
    cr_expect(got && !strcmp((char *)got, "first"), "the first copy of a duplicate is kept");
    free(got);
    free(p);
    p = pt_join(outdir, "0/ok.txt");
    cr_expect_eq(access(p, F_OK), 0);
    free(p);
    /* Nothing above DIR: the evil member would have landed in d or d/a. */
    p = pt_join(d, "evil.txt");
    cr_expect_neq(access(p, F_OK), 0);
    free(p);
    p = pt_join(inner, "evil.txt");
    cr_expect_neq(access(p, F_OK), 0);
    free(p);
    p = pt_join(outdir, "0/link");
    struct stat st;
    cr_expect_neq(lstat(p, &st), 0, "links are never created");
    free(p);
    free(out);
    free(err);

    pt_rmtree(d);
    free(d);
    free(lib);
    free(inner);
    free(outdir);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}

Test(extract_cli, repeated_and_unsafe_names_are_disambiguated)
{
    const char *bin = testenv("MTLBX_BIN");
    if (!bin || access(bin, X_OK) != 0)
        cr_skip_test("the mtlbx binary is not built");
    static const struct test_function fns[] = {
        { .name = "dup", .type = 2, .payload = "first" },
        { .name = "DUP", .type = 2, .payload = "second" },
        { .name = "dup", .type = 2, .payload = "third" },
        { .name = "../up", .type = 2, .payload = "fourth" },
    };
    struct imagebuf img = { 0 };
    ib_library(&img, &(struct test_library){ .n_functions = 4, .functions = fns, .ext = TEST_EXT_UUID });
    char *d = pt_tmpdir();
    char *lib = write_image(d, "dups.metallib", &img);
    char *outdir = pt_join(d, "out");
    char *out, *err;
    size_t ol, el;
    char *x[] = { (char *)bin, "extract", lib, "-o", outdir, NULL };
    cr_expect_eq(run_capture(x, &out, &ol, &err, &el), 0, "%s", err);
    static const char *want[] = { "dup.air", "DUP~2.air", "dup~3.air", ".._up.air" };
    for (size_t i = 0; i < 4; i++) {
        char *p = pt_join(outdir, want[i]);
        size_t len;
        uint8_t *got = pt_slurp(p, &len);
        cr_expect_not_null(got, "%s", want[i]);
        /* Each file holds its own module: the payload follows the 20-byte wrapper. */
        if (got)
            cr_expect(len > 20 && memmem(got, len, fns[i].payload, strlen(fns[i].payload)) != NULL,
                      "%s holds the wrong module", want[i]);
        free(got);
        free(p);
    }
    free(out);
    free(err);
    /* -f picks by exact name; the file names do not change with the selection. */
    pt_rmtree(outdir);
    char *sel[] = { (char *)bin, "extract", lib, "-o", outdir, "-f", "../up", "-f", "DUP", NULL };
    cr_expect_eq(run_capture(sel, &out, &ol, &err, &el), 0, "%s", err);
    char *w1 = NULL;
    cr_assert(asprintf(&w1, "%s/DUP~2.air\n%s/.._up.air\n", outdir, outdir) > 0);
    cr_expect_str_eq(out, w1);
    free(w1);
    free(out);
    free(err);
    pt_rmtree(d);
    free(d);
    free(lib);
    free(outdir);
    ib_free(&img);
}

Test(sources_cli, damaged_section_is_reported_with_status_2)
{
    const char *bin = testenv("MTLBX_BIN");
    if (!bin || access(bin, X_OK) != 0)
        cr_skip_test("the mtlbx binary is not built");
    struct imagebuf z = bz_tar(basic, 1);
    struct tarchive a = { "0", z.data, z.len };
    struct imagebuf sec = make_section(true, &a, 1, 5, NULL); /* says 5, holds 1 */
    struct imagebuf img = make_library(true, &sec, UINT64_MAX, NULL);
    char *d = pt_tmpdir();
    char *lib = write_image(d, "short.metallib", &img);
    char *out, *err;
    size_t ol, el;
    char *list[] = { (char *)bin, "sources", lib, NULL };
    cr_expect_eq(run_capture(list, &out, &ol, &err, &el), 2, "%s", err);
    cr_expect(strstr(out, "0\t19\tmetal-options.txt\n") != NULL, "what can be read is listed: %s", out);
    cr_expect(strstr(err, "archive count") != NULL || strstr(err, "archives") != NULL, "%s", err);
    free(out);
    free(err);
    /* HSRD pointing past the end of the file. */
    uint8_t *t = memmem(img.data, img.len, "HSRD\x10\x00", 6);
    ib_put_u64(&img, (size_t)(t - img.data) + 6, img.len + 100);
    char *lib2 = write_image(d, "outside.metallib", &img);
    char *list2[] = { (char *)bin, "sources", "--list", lib2, NULL };
    cr_expect_eq(run_capture(list2, &out, &ol, &err, &el), 2, "%s", err);
    cr_expect(strstr(err, "HSRD") != NULL, "%s", err);
    free(out);
    free(err);
    pt_rmtree(d);
    free(d);
    free(lib);
    free(lib2);
    ib_free(&img);
    ib_free(&sec);
    ib_free(&z);
}
