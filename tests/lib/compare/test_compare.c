/* Comparing two libraries (compare.c, `mtlbx diff`) on the project's own
 * fixtures: a library against itself, against copies changed in one place
 * (a module byte, a HASH, a NAME, the OS version), a fat file against one
 * of its slices, a damaged file; then the real binary's exit statuses, its
 * JSON and its refusals (missing file, directory, not a metallib). */
#include "config.h"

#include "imagebuf.h"
#include "testenv.h"
#include "bitcode/interface.h"
#include "checks/hash.h"
#include "compare/compare.h"
#include "json/values_json.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/sources.h"

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct blob {
    uint8_t *data;
    size_t len;
};

static char *fixture(const char *rel)
{
    const char *src = testenv("MTLBX_SRCDIR");
    cr_assert(src, "MTLBX_SRCDIR is not set");
    char *p = NULL;
    cr_assert(asprintf(&p, "%s/%s", src, rel) > 0);
    return p;
}

static struct blob load(const char *rel)
{
    char *path = fixture(rel);
    FILE *in = fopen(path, "rb");
    cr_assert(in, "cannot open %s", path);
    struct blob b = { malloc(1 << 20), 0 };
    b.len = fread(b.data, 1, 1 << 20, in);
    cr_assert(feof(in), "%s is larger than 1 MB", path);
    fclose(in);
    free(path);
    return b;
}

static mtlbx_file *open_blob(const struct blob *b, const char *name)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(b->data, b->len, name, &f, &err), MTLBX_E_NONE, "%s", err.message);
    return f;
}

static struct blob copy(const struct blob *b)
{
    struct blob c = { malloc(b->len ? b->len : 1), b->len };
    memcpy(c.data, b->data, b->len);
    return c;
}

static struct mtlbx_diff *diff(mtlbx_file *a, mtlbx_file *b, bool verify)
{
    struct mtlbx_diff *d = NULL;
    struct mtlbx_diff_options opt = { .verify = verify };
    cr_assert_eq(mbx_diff_files(a, b, &opt, &d), MTLBX_E_NONE);
    cr_assert(d);
    return d;
}

static bool name_is(const mtlbx_library *lib, size_t i, const char *name)
{
    struct mtlbx_bytes n = mbx_function_at(lib, i)->name;
    return n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0;
}

/* Offset in the file of function i's first byte of `what`. */
static size_t offset_of(mtlbx_file *f, const uint8_t *p) { return (size_t)(p - mbx_file_data(f)); }

static void assert_empty(const struct mtlbx_library_diff *l)
{
    cr_assert_eq(l->header_fields, 0u);
    cr_assert_eq(l->n_added, 0);
    cr_assert_eq(l->n_removed, 0);
    cr_assert_eq(l->n_changed, 0);
    cr_assert_eq(l->n_members_added + l->n_members_removed + l->n_members_changed, 0);
}

Test(compare, a_library_against_itself_is_identical)
{
    const char *files[] = { "data/sample.metallib", "tests/fixtures/hsrc-v125.metallib",
                            "tests/fixtures/dylib-v129.metallib", "tests/fixtures/fat.metallib",
                            "tests/fixtures/empty.metallib", "tests/fixtures/unknown-tags.metallib" };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        struct blob b = load(files[k]), c = copy(&b);
        mtlbx_file *fa = open_blob(&b, "a"), *fb = open_blob(&c, "b");
        struct mtlbx_diff *d = diff(fa, fb, true);
        cr_assert(d->identical, "%s", files[k]);
        cr_assert_eq(d->n_libraries, mbx_file_library_count(fa));
        for (size_t l = 0; l < d->n_libraries; l++)
            assert_empty(&d->libraries[l]);
        mbx_diff_free(d);
        mbx_close(fa);
        mbx_close(fb);
        free(b.data);
        free(c.data);
    }
}

Test(compare, a_flipped_module_byte_changes_hash_ok_of_that_function_only)
{
    struct blob b = load("data/sample.metallib"), c = copy(&b);
    mtlbx_file *fa = open_blob(&b, "a");
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(fa, 0), 2);
    c.data[fn->module.offset + fn->module.size / 2] ^= 0x40;
    mtlbx_file *fb = open_blob(&c, "b");

    struct mtlbx_diff *d = diff(fa, fb, true);
    cr_assert_not(d->identical);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_eq(l->n_changed, 1);
    cr_assert_eq(l->n_added + l->n_removed, 0);
    cr_assert_eq(l->changed[0].a, 2);
    cr_assert_eq(l->changed[0].b, 2);
    /* (and the interface, when the flipped byte lands in its metadata) */
    cr_assert_eq(l->changed[0].fields & ~(1u << MTLBX_FF_INTERFACE), 1u << MTLBX_FF_HASH_OK);
    cr_assert_str_eq(mbx_function_field_name(MTLBX_FF_HASH_OK), "hash_ok");
    mbx_diff_free(d);

    /* Without verify the equal stored HASH is not trusted either: the
     * modules' bytes are compared, and only the pair that differs is
     * hashed (issue 23 item 4: never "identical" for different bytes). */
    mbx_close(fb);
    fb = open_blob(&c, "b");
    d = diff(fa, fb, false);
    cr_assert_not(d->identical);
    l = &d->libraries[0];
    cr_assert_eq(l->n_changed, 1);
    cr_assert_eq(l->changed[0].a, 2);
    cr_assert_eq(l->changed[0].fields & ~(1u << MTLBX_FF_INTERFACE), 1u << MTLBX_FF_HASH_OK);
    cr_assert_eq(mbx_function_hash_state(mbx_library_at(fb, 0), 2), MTLBX_HASH_MISMATCH);
    cr_assert_eq(mbx_function_hash_state(mbx_library_at(fb, 0), 1), MTLBX_HASH_UNCHECKED);
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(b.data);
    free(c.data);
}

Test(compare, modules_damaged_differently_behind_one_hash_are_a_module_hash_change)
{
    /* Both sides fail their HASH (hash_ok false on both), in different
     * bytes: still a change, named by the hash the bytes have now. */
    struct blob b = load("data/sample.metallib");
    mtlbx_file *f0 = open_blob(&b, "a");
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(f0, 0), 1);
    size_t at = fn->module.offset + fn->module.size / 2;
    mbx_close(f0);
    struct blob c = copy(&b);
    b.data[at] ^= 0x01;
    c.data[at] ^= 0x02;
    mtlbx_file *fa = open_blob(&b, "a"), *fb = open_blob(&c, "b");
    struct mtlbx_diff *d = diff(fa, fb, false);
    cr_assert_not(d->identical);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_eq(l->n_changed, 1);
    cr_assert_eq(l->changed[0].a, 1);
    cr_assert_eq(l->changed[0].fields & ~(1u << MTLBX_FF_INTERFACE), 1u << MTLBX_FF_MODULE_HASH);
    cr_assert_str_eq(mbx_function_field_name(MTLBX_FF_MODULE_HASH), "module_hash");
    json_t *va = vj_function_field(mbx_library_at(fa, 0), 1, MTLBX_FF_MODULE_HASH);
    json_t *vb = vj_function_field(mbx_library_at(fb, 0), 1, MTLBX_FF_MODULE_HASH);
    cr_assert(json_is_string(va) && json_is_string(vb));
    cr_assert_str_neq(json_string_value(va), json_string_value(vb));
    json_decref(va);
    json_decref(vb);
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(b.data);
    free(c.data);
}

Test(compare, a_changed_hash_is_hash_and_hash_ok)
{
    struct blob b = load("data/sample.metallib"), c = copy(&b);
    mtlbx_file *fa = open_blob(&b, "a");
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(fa, 0), 1);
    c.data[offset_of(fa, fn->hash)] ^= 1;
    mtlbx_file *fb = open_blob(&c, "b");
    struct mtlbx_diff *d = diff(fa, fb, false);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_eq(l->n_changed, 1);
    cr_assert_eq(l->changed[0].fields, (1u << MTLBX_FF_HASH) | (1u << MTLBX_FF_HASH_OK));
    /* Only that pair was hashed. */
    cr_assert_eq(mbx_function_hash_state(mbx_library_at(fa, 0), 0), MTLBX_HASH_UNCHECKED);
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(b.data);
    free(c.data);
}

Test(compare, a_renamed_function_is_recognised_by_its_hash)
{
    struct blob b = load("data/sample.metallib"), c = copy(&b);
    mtlbx_file *fa = open_blob(&b, "a");
    mtlbx_library *la = mbx_library_at(fa, 0);
    long i = mbx_library_function_find(la, "compute_main");
    cr_assert_geq(i, 0);
    const struct mtlbx_function *fn = mbx_function_at(la, (size_t)i);
    c.data[offset_of(fa, fn->name.ptr)] = 'X';    /* "Xompute_main" */
    mtlbx_file *fb = open_blob(&c, "b");
    struct mtlbx_diff *d = diff(fa, fb, true);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_not(d->identical);
    /* Same stored HASH: renamed, not one removed and one added. */
    cr_assert_eq(l->n_removed, 0);
    cr_assert_eq(l->n_added, 0);
    cr_assert_eq(l->n_changed, 0);
    cr_assert_eq(l->n_renamed, 1);
    cr_assert(name_is(la, l->renamed[0].a, "compute_main"));
    cr_assert(name_is(mbx_library_at(fb, 0), l->renamed[0].b, "Xompute_main"));
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(b.data);
    free(c.data);
}

/* Issue 35: a name that repeats. Pairing "the first of a name" compared
 * A's kernel foo with B's and said nothing of A's vertex foo: identical.
 * The k-th of a name is paired with the k-th, and what one side has
 * beyond is added or removed, with its occurrence. */
static mtlbx_file *build(struct imagebuf *ib, const struct test_function *f, size_t n)
{
    ib_library(ib, &(struct test_library){ .n_functions = n, .functions = f, .ext = TEST_EXT_EMPTY });
    mtlbx_file *file = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(ib->data, ib->len, "built", &file, &err), MTLBX_E_NONE, "%s", err.message);
    return file;
}

Test(compare, a_repeated_name_is_paired_occurrence_by_occurrence)
{
    const struct test_function a[] = { { .name = "foo", .type = 2, .payload = "kernel foo" },
                                       { .name = "foo", .type = 0, .payload = "vertex foo" } };
    struct imagebuf ia = { 0 }, ib = { 0 };
    mtlbx_file *fa = build(&ia, a, 2), *fb = build(&ib, a, 1);
    for (int way = 0; way < 2; way++) {
        for (int verify = 0; verify < 2; verify++) {
            struct mtlbx_diff *d = way ? diff(fb, fa, verify) : diff(fa, fb, verify);
            const struct mtlbx_library_diff *l = &d->libraries[0];
            cr_assert_not(d->identical, "way %d verify %d", way, verify);
            cr_assert_eq(l->n_changed, 0);
            cr_assert_eq(way ? l->n_added : l->n_removed, 1);
            cr_assert_eq(way ? l->n_removed : l->n_added, 0);
            cr_assert_eq(way ? l->added[0] : l->removed[0], 1, "the vertex function, A's second foo");
            cr_assert_eq(way ? l->added_occurrence[0] : l->removed_occurrence[0], 2);
            mbx_diff_free(d);
        }
    }
    mbx_close(fb);
    ib_free(&ib);
    /* Swapped in B: each occurrence is compared with its own. */
    const struct test_function swapped[] = { a[1], a[0] };
    fb = build(&ib, swapped, 2);
    struct mtlbx_diff *d = diff(fa, fb, false);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_not(d->identical);
    cr_assert_eq(l->n_changed, 2);
    cr_assert_eq(l->changed[0].a, 0);
    cr_assert_eq(l->changed[0].occurrence_a, 1);
    cr_assert_eq(l->changed[1].a, 1);
    cr_assert_eq(l->changed[1].b, 1);
    cr_assert_eq(l->changed[1].occurrence_b, 2);
    cr_assert(l->changed[1].fields & (1u << MTLBX_FF_TYPE));
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    ib_free(&ia);
    ib_free(&ib);
}

Test(compare, nameless_functions_are_all_compared, .timeout = 60)
{
    /* 3,000 functions without a NAME against 2,999 of them. */
    enum { N = 3000 };
    struct test_function *f = calloc(N, sizeof *f);
    for (size_t i = 0; i < N; i++)
        f[i] = (struct test_function){ .name = NULL, .type = 2, .payload = "nameless" };
    struct imagebuf ia = { 0 }, ib = { 0 };
    mtlbx_file *fa = build(&ia, f, N), *fb = build(&ib, f, N - 1);
    struct mtlbx_diff *d = diff(fa, fb, false);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_not(d->identical);
    cr_assert_eq(l->n_removed, 1);
    cr_assert_eq(l->removed[0], N - 1);
    cr_assert_eq(l->removed_occurrence[0], N);
    cr_assert_eq(l->n_changed + l->n_added + l->n_renamed, 0);
    mbx_diff_free(d);
    d = diff(fa, fa, true);
    cr_assert(d->identical);
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    ib_free(&ia);
    ib_free(&ib);
    free(f);
}

Test(compare, header_fields_and_versions)
{
    struct blob b = load("data/sample.metallib"), c = copy(&b);
    mtlbx_file *fa = open_blob(&b, "a");
    c.data[12] ^= 1;                               /* os_version major, u16@12 */
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(fa, 0), 0);
    /* The VERS tag's value: air major u16, air minor u16, msl major, msl minor. */
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, fa, fn->entry_offset + 4, fn->entry_size - 4);
    while (mbx_tag_walk_next(&w, &t) && strcmp(t.name, "VERS") != 0)
        ;
    cr_assert_str_eq(t.name, "VERS");
    c.data[t.value_offset + 6] ^= 1;              /* msl minor */
    mtlbx_file *fb = open_blob(&c, "b");
    struct mtlbx_diff *d = diff(fa, fb, false);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    /* The deployment target and the MSL version are both reasons of the
     * library's requirement, so it changes with them. */
    cr_assert_eq(l->header_fields, (1u << MTLBX_HF_OS_VERSION) | (1u << MTLBX_HF_REQUIRES));
    cr_assert_eq(l->n_changed, 1);
    cr_assert_eq(l->changed[0].fields, 1u << MTLBX_FF_LANGUAGE_VERSION);
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(b.data);
    free(c.data);
}

Test(compare, a_fat_file_against_its_first_slice)
{
    struct blob fat = load("tests/fixtures/fat.metallib");
    mtlbx_file *fa = open_blob(&fat, "fat");
    cr_assert_eq(mbx_fat_slice_count(fa), 2);
    const struct mbx_fat_slice *s = mbx_fat_slice(fa, 0);
    struct blob slice = { malloc(s->size), s->size };
    memcpy(slice.data, fat.data + s->offset, s->size);
    mtlbx_file *fb = open_blob(&slice, "slice");
    struct mtlbx_diff *d = diff(fa, fb, true);
    cr_assert_not(d->identical);
    cr_assert_eq(d->n_libraries, 2);
    assert_empty(&d->libraries[0]);
    const struct mtlbx_library_diff *extra = &d->libraries[1];
    cr_assert(extra->a);
    cr_assert_null(extra->b);
    cr_assert_eq(extra->n_removed, mbx_library_function_count(extra->a));
    cr_assert_eq(extra->n_added, 0);
    mbx_diff_free(d);

    /* The other way round: the slice's library pairs with the first, the
     * second is only in B. */
    d = diff(fb, fa, false);
    cr_assert_eq(d->n_libraries, 2);
    assert_empty(&d->libraries[0]);
    cr_assert_null(d->libraries[1].a);
    cr_assert_eq(d->libraries[1].n_added, mbx_library_function_count(d->libraries[1].b));
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(fat.data);
    free(slice.data);
}

Test(compare, sources_members_added_and_removed)
{
    struct blob h = load("tests/fixtures/hsrc-v125.metallib"), e = load("tests/fixtures/empty.metallib");
    mtlbx_file *fh = open_blob(&h, "hsrc"), *fe = open_blob(&e, "empty");
    struct mtlbx_diff *d = diff(fe, fh, false);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    const struct mtlbx_archive *arch = &mbx_library_sources(l->b)->archives[0];
    cr_assert_gt(arch->n_members, 0);
    cr_assert_eq(l->n_members_added, arch->n_members);
    cr_assert_eq(l->n_members_removed + l->n_members_changed, 0);
    for (size_t k = 1; k < l->n_members_added; k++)
        cr_assert_lt(strcmp(arch->members[l->members_added[k - 1].member].name,
                            arch->members[l->members_added[k].member].name), 0, "sorted by name");
    cr_assert_eq(l->n_added, mbx_library_function_count(l->b));
    cr_assert_neq(l->header_fields, 0u);
    mbx_diff_free(d);
    mbx_close(fh);
    mbx_close(fe);
    free(h.data);
    free(e.data);
}

Test(compare, a_damaged_file_still_compares)
{
    struct blob b = load("data/sample.metallib");
    mtlbx_file *fa = open_blob(&b, "a");
    /* Cut inside the modules: the last functions lose their module bytes. */
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(fa, 0), 4);
    struct blob cut = { b.data, (size_t)fn->module.offset + 10 };
    mtlbx_file *fb = open_blob(&cut, "cut");
    struct mtlbx_diff *d = diff(fa, fb, true);
    cr_assert_not(d->identical);
    const struct mtlbx_library_diff *l = &d->libraries[0];
    cr_assert_eq(l->n_added + l->n_removed, 0);
    cr_assert_geq(l->n_changed, 1);
    for (size_t k = 0; k < l->n_changed; k++)
        cr_assert(l->changed[k].fields & (1u << MTLBX_FF_HASH_OK));
    mbx_diff_free(d);
    /* Cut inside the function list: fewer functions. */
    struct blob cut2 = { b.data, (size_t)mbx_function_at(mbx_library_at(fa, 0), 3)->entry_offset + 6 };
    mbx_close(fb);
    fb = open_blob(&cut2, "cut2");
    d = diff(fa, fb, false);
    cr_assert_eq(d->libraries[0].n_removed, mbx_library_function_count(mbx_library_at(fa, 0)) -
                                                mbx_library_function_count(mbx_library_at(fb, 0)));
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    free(b.data);
}

/* ------------------------------------------------------ the binary -- */

static int run_diff(const char *a, const char *b, bool json, char **out, char **err)
{
    const char *bin = testenv("MTLBX_BIN");
    cr_assert(bin, "MTLBX_BIN is not set");
    char *argv[] = { (char *)bin, "diff", (char *)a, (char *)b, json ? "--json" : "--no-color", NULL };
    size_t ol, el;
    return run_capture(argv, out, &ol, err, &el);
}

static char *write_temp(const struct blob *b)
{
    char *path = strdup("/tmp/mtlbx-test-compare.XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, b->data, b->len), (ssize_t)b->len);
    close(fd);
    return path;
}

Test(compare_cli, exit_status_text_and_json)
{
    char *sample = fixture("data/sample.metallib"), *out, *err;
    cr_assert_eq(run_diff(sample, sample, false, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "identical"), "%s", out);
    free(out), free(err);

    struct blob b = load("data/sample.metallib");
    mtlbx_file *fa = open_blob(&b, "a");
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(fa, 0), 0);
    b.data[offset_of(fa, fn->name.ptr)] = 'Z';
    mbx_close(fa);
    char *renamed = write_temp(&b);

    cr_assert_eq(run_diff(sample, renamed, false, &out, &err), 1, "%s", err);
    cr_assert(strstr(out, ": 1 function renamed\n"), "%s", out);
    cr_assert(strstr(out, "\n> vertex    vertex_main -> Zertex_main (renamed: same hash)\n"), "%s", out);
    cr_assert_null(strchr(out, '\033'), "no colour into a pipe");
    free(out), free(err);

    cr_assert_eq(run_diff(sample, renamed, true, &out, &err), 1, "%s", err);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    cr_assert(j, "%s", je.text);
    cr_assert(json_is_false(json_object_get(j, "identical")));
    json_t *fns = json_object_get(json_array_get(json_object_get(j, "libraries"), 0), "functions");
    cr_assert_eq(json_array_size(json_object_get(fns, "added")), 0);
    cr_assert_eq(json_array_size(json_object_get(fns, "removed")), 0);
    json_t *ren = json_array_get(json_object_get(fns, "renamed"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(ren, "a")), "vertex_main");
    cr_assert_str_eq(json_string_value(json_object_get(ren, "b")), "Zertex_main");
    cr_assert_eq(json_array_size(json_object_get(fns, "changed")), 0);
    json_decref(j);
    free(out), free(err);
    unlink(renamed);
    free(renamed);
    free(b.data);
    free(sample);
}

Test(compare_cli, refusals_exit_2)
{
    char *sample = fixture("data/sample.metallib"), *readme = fixture("README.md"), *dir = fixture("tests"), *out,
         *err;
    const char *bad[][2] = { { sample, "/nonexistent/x.metallib" }, { "/nonexistent/x.metallib", sample },
                             { sample, dir }, { dir, sample }, { sample, readme }, { readme, readme } };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        cr_assert_eq(run_diff(bad[k][0], bad[k][1], k % 2, &out, &err), 2, "%s %s", bad[k][0], bad[k][1]);
        cr_assert_eq(out[0], '\0', "no output on error: %s", out);
        cr_assert(strncmp(err, "mtlbx: ", 7) == 0 && strchr(err, '\n') == err + strlen(err) - 1,
                  "one line: %s", err);
        free(out), free(err);
    }
    free(sample);
    free(readme);
    free(dir);
}

/* --------------------------------------------------- hostile input -- */

/* Truncations (every 257th length) and seeded byte mutations of the sample
 * and of the fat fixture, each compared both ways with the original and
 * with itself: nothing crashes (ASan in CI), a file is identical to
 * itself, and every index the result holds is a valid function index. */
static void check_consistent(mtlbx_file *a, mtlbx_file *b, const struct mtlbx_diff *d)
{
    for (size_t l = 0; l < d->n_libraries; l++) {
        const struct mtlbx_library_diff *ld = &d->libraries[l];
        size_t na = ld->a ? mbx_library_function_count(ld->a) : 0, nb = ld->b ? mbx_library_function_count(ld->b) : 0;
        for (size_t k = 0; k < ld->n_removed; k++)
            cr_assert_lt(ld->removed[k], na);
        for (size_t k = 0; k < ld->n_added; k++)
            cr_assert_lt(ld->added[k], nb);
        for (size_t k = 0; k < ld->n_changed; k++) {
            cr_assert_lt(ld->changed[k].a, na);
            cr_assert_lt(ld->changed[k].b, nb);
            cr_assert_neq(ld->changed[k].fields, 0u);
        }
        cr_assert_leq(ld->n_removed + ld->n_changed, na);
        cr_assert_leq(ld->n_added + ld->n_changed, nb);
    }
    (void)a, (void)b;
}

static void compare_mutant(const struct blob *orig, const struct blob *mut)
{
    mtlbx_file *fa = open_blob(orig, "orig"), *fb = NULL;
    struct mtlbx_error err;
    if (mbx_open_buffer(mut->data, mut->len, "mutant", &fb, &err) != MTLBX_E_NONE) {
        mbx_close(fa);
        return;                /* no longer a metallib: diff refuses it (exit 2) */
    }
    for (int verify = 0; verify < 2; verify++) {
        struct mtlbx_diff *d = diff(fa, fb, verify);
        check_consistent(fa, fb, d);
        mbx_diff_free(d);
        d = diff(fb, fa, verify);
        check_consistent(fb, fa, d);
        mbx_diff_free(d);
        d = diff(fb, fb, verify);
        cr_assert(d->identical, "a damaged file against itself");
        mbx_diff_free(d);
    }
    mbx_close(fa);
    mbx_close(fb);
}

Test(compare_hostile, truncations_and_mutations, .timeout = 600)
{
    const char *files[] = { "data/sample.metallib", "tests/fixtures/fat.metallib",
                            "tests/fixtures/hsrc-v125.metallib" };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        struct blob b = load(files[k]);
        for (size_t len = 0; len < b.len; len += 257) {
            struct blob cut = { b.data, len };
            compare_mutant(&b, &cut);
        }
        uint32_t seed = 12345;
        for (int m = 0; m < 100; m++) {
            struct blob c = copy(&b);
            for (int flips = 0; flips < 1 + m % 4; flips++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % c.len;
                seed = seed * 1103515245u + 12345u;
                c.data[at] = (uint8_t)(seed >> 16);
            }
            compare_mutant(&b, &c);
            free(c.data);
        }
        free(b.data);
    }
}

Test(compare_cli, hostile_names_same_path_and_truncated)
{
    char *sample = fixture("data/sample.metallib"), *out, *err;
    /* The same path twice. */
    cr_assert_eq(run_diff(sample, sample, true, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "\"identical\": true"), "%s", out);
    free(out), free(err);

    /* A name holding ESC and a C1 CSI: never raw on the output. */
    struct blob b = load("data/sample.metallib");
    mtlbx_file *fa = open_blob(&b, "a");
    const struct mtlbx_function *fn = mbx_function_at(mbx_library_at(fa, 0), 1);
    size_t at = offset_of(fa, fn->name.ptr);
    b.data[at] = 0x1b;
    b.data[at + 1] = 0xc2;
    b.data[at + 2] = 0x9b;
    mbx_close(fa);
    char *hostile = write_temp(&b);
    for (int json = 0; json < 2; json++) {
        cr_assert_eq(run_diff(sample, hostile, json, &out, &err), 1, "%s", err);
        cr_assert_null(strchr(out, 0x1b), "raw ESC in the output");
        cr_assert_null(strstr(out, "\xc2\x9b"), "raw CSI in the output");
        free(out), free(err);
    }
    unlink(hostile);
    free(hostile);

    /* Truncated inside the modules: still compared (exit 1), with a note
     * on stderr; the functions that lost their module bytes changed
     * (hash_ok), found without --verify since their module spans differ. */
    free(b.data);
    b = load("data/sample.metallib");
    b.len = 9000;
    char *cut = write_temp(&b);
    cr_assert_eq(run_diff(sample, cut, false, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "problem"), "%s", err);
    cr_assert(strstr(out, "functions changed"), "%s", out);
    cr_assert(strstr(out, "hash_ok true -> false"), "%s", out);
    free(out), free(err);
    unlink(cut);
    free(cut);
    free(b.data);
    free(sample);
}

/* ------------------------------------------------------ interfaces -- */

static struct mtlbx_bytes B(const char *s) { return (struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) }; }

static struct mtlbx_air_argument arg(uint32_t index, const char *kind, long location, const char *name,
                                     const char *type, const char *access)
{
    return (struct mtlbx_air_argument){ .has_index = true, .index = index, .kind = B(kind),
                                        .has_location = location >= 0, .location = location,
                                        .has_name = name != NULL, .name = B(name ? name : ""),
                                        .has_type = type != NULL, .type = B(type ? type : ""), .access = access };
}

Test(compare_interface, added_removed_rebound_retyped)
{
    struct mtlbx_air_argument in_a[] = {
        arg(0, "buffer", 0, "A", "device const half*", "read"),
        arg(1, "buffer", 3, "params", "constant GEMMParams&", "read"),
        arg(2, "buffer", 5, "old", "device float*", "read_write"),
        arg(3, "thread_position_in_grid", -1, "gid", "uint3", NULL),
    };
    struct mtlbx_air_argument in_b[] = {
        arg(0, "buffer", 0, "A", "device const float*", "read"),     /* retyped */
        arg(1, "buffer", 4, "params", "constant GEMMParams&", "read"), /* rebound */
        arg(2, "texture", 0, "t", "texture2d<float>", "sample"),       /* added */
        arg(3, "thread_position_in_grid", -1, "gid", "uint3", "read"), /* access */
    };
    struct mtlbx_interface a = { .stage = "kernel", .n_inputs = 4, .inputs = in_a };
    struct mtlbx_interface b = { .stage = "kernel", .n_inputs = 4, .inputs = in_b };
    struct mtlbx_interface_diff d;
    cr_assert(mbx_interface_compare(&a, &b, &d));
    cr_assert_not(d.stage_changed);
    cr_assert_eq(d.n_changes, 5);
    /* A's order first, the added one last. */
    cr_assert_eq(d.changes[0].what, MTLBX_ARG_RETYPED);
    cr_assert_eq(d.changes[0].a, &in_a[0]);
    cr_assert_eq(d.changes[1].what, MTLBX_ARG_REBOUND);
    cr_assert_eq(d.changes[1].b, &in_b[1]);
    cr_assert_eq(d.changes[2].what, MTLBX_ARG_REMOVED);
    cr_assert_null(d.changes[2].b);
    cr_assert_eq(d.changes[3].what, MTLBX_ARG_CHANGED);
    cr_assert_eq(d.changes[4].what, MTLBX_ARG_ADDED);
    cr_assert_null(d.changes[4].a);
    mbx_interface_diff_free(&d);

    /* The same interface: nothing; another stage: stage_changed. */
    cr_assert(mbx_interface_compare(&a, &a, &d));
    cr_assert_eq(d.n_changes, 0);
    cr_assert_not(d.stage_changed);
    mbx_interface_diff_free(&d);
    b = a;
    b.stage = "vertex";
    cr_assert(mbx_interface_compare(&a, &b, &d));
    cr_assert(d.stage_changed);
    mbx_interface_diff_free(&d);
}

/* Older AIR's address spaces are in no property, only in the parameter
 * types: device -> constant there is a change all the same (issue 36),
 * and the same space told by the metadata in one and the parameter in
 * the other is none. */
Test(compare_interface, an_address_space_from_the_parameter_type)
{
    struct mtlbx_air_argument x = arg(0, "buffer", 0, "src0", "float4", "read");
    struct mtlbx_air_argument y = x;
    x.address_space_from = MTLBX_AS_PARAMETER, x.address_space = 1;
    y.address_space_from = MTLBX_AS_PARAMETER, y.address_space = 2;
    struct mtlbx_interface a = { .stage = "kernel", .n_inputs = 1, .inputs = &x };
    struct mtlbx_interface b = { .stage = "kernel", .n_inputs = 1, .inputs = &y };
    struct mtlbx_interface_diff d;
    cr_assert(mbx_interface_compare(&a, &b, &d));
    cr_assert_eq(d.n_changes, 1);
    cr_assert_eq(d.changes[0].what, MTLBX_ARG_CHANGED);
    mbx_interface_diff_free(&d);
    y.address_space_from = MTLBX_AS_METADATA, y.address_space = 1;
    cr_assert(mbx_interface_compare(&a, &b, &d));
    cr_assert_eq(d.n_changes, 0);
    mbx_interface_diff_free(&d);
}

Test(compare_interface, change_lines_as_diff_prints_them)
{
    struct mtlbx_air_argument x = arg(1, "buffer", 3, "params", "constant GEMMParams&", "read");
    struct mtlbx_air_argument y = arg(1, "buffer", 4, "params", "constant GEMMParams&", "read");
    char *s = vj_argument_text(&x);
    cr_assert_str_eq(s, "buffer(3) params: constant GEMMParams&");
    free(s);
    struct mtlbx_air_argument g = arg(3, "thread_position_in_grid", -1, "gid", "uint3", NULL);
    s = vj_argument_text(&g);
    cr_assert_str_eq(s, "thread_position_in_grid gid: uint3");
    free(s);
    /* Through the real decoder: the sample's functions have interfaces;
     * compute_main against itself changes nothing, against fragment_main
     * its stage and arguments. */
    struct blob b = load("data/sample.metallib");
    mtlbx_file *f = open_blob(&b, "sample");
    mtlbx_library *lib = mbx_library_at(f, 0);
    long c = mbx_library_function_find(lib, "compute_main"), fr = mbx_library_function_find(lib, "fragment_main");
    json_t *same = vj_interface_changes(NULL, lib, (size_t)c, NULL, lib, (size_t)c);
    cr_assert_eq(json_array_size(same), 0);
    json_decref(same);
    json_t *other = vj_interface_changes(NULL, lib, (size_t)c, NULL, lib, (size_t)fr);
    cr_assert_str_eq(json_string_value(json_array_get(other, 0)), "stage kernel -> fragment");
    cr_assert_gt(json_array_size(other), 2);
    json_decref(other);
    mbx_close(f);
    free(b.data);
    (void)y;
}
