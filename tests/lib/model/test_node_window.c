/* Unit tests of a section's children taken a window at a time
 * (node_window_open / node_window_fill in src/lib/node.c), which the byte
 * layout walks instead of building 200,000 nodes at once: every window
 * must give exactly the nodes the built section has, in the same order,
 * whatever the window size and in whatever order the windows are asked
 * for, and must leave the section unbuilt. Checked on a library whose
 * metadata groups and modules are out of function order and shared, on
 * the fixtures and sample, and on the corpus when it is there. */
#include "config.h"

#include "imagebuf.h"
#include "libcheck.h"
#include "model/node.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_section(enum mtlbx_node_kind k)
{
    return k == MTLBX_NODE_FUNCTION_LIST || k == MTLBX_NODE_PUBLIC_MD || k == MTLBX_NODE_PRIVATE_MD ||
           k == MTLBX_NODE_MODULE_LIST || k == MTLBX_NODE_LIST;
}

static void assert_same_node(const mtlbx_node *got, const mtlbx_node *want, const char *where, size_t i)
{
    cr_assert_eq(got->kind, want->kind, "%s child %zu: kind", where, i);
    cr_assert_eq(got->offset, want->offset, "%s child %zu: offset", where, i);
    cr_assert_eq(got->size, want->size, "%s child %zu: size", where, i);
    cr_assert_eq(got->index, want->index, "%s child %zu: index", where, i);
    cr_assert_eq(got->sub, want->sub, "%s child %zu: sub", where, i);
    cr_assert_eq(got->flags, want->flags, "%s child %zu: flags", where, i);
    cr_assert_not(got->built, "%s child %zu is built", where, i);
}

/* Fills windows of `size` in order until one comes back short, and
 * checks every node against the built children of `built`. */
static void windows_in_order(mtlbx_model *m, mtlbx_node *section, const mtlbx_node *built, size_t size,
                             const char *where)
{
    struct node_window w;
    cr_assert(node_window_open(m, section, &w), "%s: no window", where);
    mtlbx_node **out = calloc(size, sizeof *out);
    size_t seen = 0, got;
    do {
        bool failed;
        got = node_window_fill(m, &w, seen, size, out, &failed);
        cr_assert_not(failed, "%s: fill at %zu failed", where, seen);
        for (size_t i = 0; i < got; i++) {
            cr_assert_lt(seen + i, built->n_children, "%s: more children than built", where);
            assert_same_node(out[i], built->children[seen + i], where, seen + i);
            cr_assert_eq(out[i]->parent, section);
            cr_assert_eq(out[i]->lib, section->lib);
        }
        seen += got;
    } while (got == size);
    cr_assert_eq(seen, built->n_children, "%s: windows of %zu gave %zu of %u children", where, size, seen,
                 built->n_children);
    cr_assert_not(section->built, "%s: the section was built", where);
    node_window_close(&w);
    free(out);
}

/* Windows asked for out of order (back, forward, past the end). */
static void windows_out_of_order(mtlbx_model *m, mtlbx_node *section, const mtlbx_node *built, const char *where)
{
    static const size_t firsts[] = { 3, 0, 1, 2, 2, 5, 4, 100000 };
    struct node_window w;
    cr_assert(node_window_open(m, section, &w));
    mtlbx_node *out[3];
    for (size_t k = 0; k < sizeof firsts / sizeof *firsts; k++) {
        bool failed;
        size_t first = firsts[k], got = node_window_fill(m, &w, first, 3, out, &failed);
        cr_assert_not(failed);
        size_t want = first < built->n_children ? built->n_children - first : 0;
        cr_assert_eq(got, want < 3 ? want : 3, "%s: window at %zu", where, first);
        for (size_t i = 0; i < got; i++)
            assert_same_node(out[i], built->children[first + i], where, first + i);
    }
    node_window_close(&w);
}

/* Every section of every library of the image, against a second handle
 * on the same bytes whose sections are built in full. */
static size_t check_sections(const void *data, size_t len, const char *name)
{
    mtlbx_file *whole = NULL, *windowed = NULL;
    struct mtlbx_error err;
    if (mbx_open_buffer(data, len, name, &whole, &err) != MTLBX_E_NONE)
        return 0;
    cr_assert_eq(mbx_open_buffer(data, len, name, &windowed, &err), MTLBX_E_NONE);
    mtlbx_model *whole_m = mbx_model_open(whole), *windowed_m = mbx_model_open(windowed);
    mtlbx_node *root_a = mbx_root(whole_m), *root_b = mbx_root(windowed_m);
    size_t sections = 0;
    for (size_t l = 0; l < mbx_node_child_count(whole_m, root_a); l++) {
        mtlbx_node *lib_a = mbx_node_child(whole_m, root_a, l), *lib_b = mbx_node_child(windowed_m, root_b, l);
        /* A DIAGNOSTICS node may come last in one handle and not yet in
         * the other (building a section can find a problem): the sections
         * come before it, in the same order. */
        for (size_t s = 0;
             s < mbx_node_child_count(whole_m, lib_a) && s < mbx_node_child_count(windowed_m, lib_b); s++) {
            mtlbx_node *sec_a = mbx_node_child(whole_m, lib_a, s), *sec_b = mbx_node_child(windowed_m, lib_b, s);
            if (sec_a->kind == MTLBX_NODE_DIAGNOSTICS || sec_b->kind == MTLBX_NODE_DIAGNOSTICS)
                break;
            cr_assert_eq(sec_a->kind, sec_b->kind, "%s: library %zu child %zu", name, l, s);
            struct node_window w;
            cr_assert_eq(node_window_open(windowed_m, sec_b, &w), is_section(sec_b->kind));
            node_window_close(&w);
            if (!is_section(sec_a->kind))
                continue;
            char where[PATH_MAX + 64];
            snprintf(where, sizeof where, "%s library %zu section %zu (kind %d)", name, l, s, (int)sec_a->kind);
            (void)mbx_node_child_count(whole_m, sec_a);
            for (size_t size = 1; size <= 1024; size = size == 2 ? 7 : size == 7 ? 1024 : size + 1)
                windows_in_order(windowed_m, sec_b, sec_a, size, where);
            windows_out_of_order(windowed_m, sec_b, sec_a, where);
            sections++;
        }
    }
    mbx_model_close(whole_m);
    mbx_close(whole);
    mbx_model_close(windowed_m);
    mbx_close(windowed);
    return sections;
}

/* The OFFT value (three u64) in function i's entry. */
static uint8_t *offt_value(struct imagebuf *b, const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    for (uint64_t p = fn->entry_offset; p + 30 <= fn->entry_offset + fn->entry_size; p++)
        if (!memcmp(b->data + p, "OFFT", 4))
            return b->data + p + 6;
    cr_assert_fail("function %zu has no OFFT", i);
    return NULL;
}

Test(window, out_of_order_and_shared_pieces)
{
    enum { N = 40 };
    struct test_function fns[N];
    char names[N][16];
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "f%zu", i);
        fns[i] = (struct test_function){ .name = names[i], .type = 2 };
    }
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = N, .functions = fns, .ext = TEST_EXT_UUID,
                                           .reflection = true });
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    const mtlbx_library *lib = mbx_library_at(f, 0);
    uint8_t *a = offt_value(&b, lib, 3), *z = offt_value(&b, lib, 30);
    uint8_t *s10 = offt_value(&b, lib, 10), *s11 = offt_value(&b, lib, 11), *s12 = offt_value(&b, lib, 12);
    mbx_model_close(m);
    mbx_close(f);
    /* Functions 3 and 30 swap their groups and modules (out of function
     * order: the sorted copy, kept between windows); 11 and 12 share 10's
     * (one group node for three functions, across window edges). */
    uint8_t tmp[24];
    memcpy(tmp, a, 24);
    memcpy(a, z, 24);
    memcpy(z, tmp, 24);
    memcpy(s11, s10, 24);
    memcpy(s12, s10, 24);
    f = open_buf(&b);
    m = mbx_model_open(f);
    mtlbx_node *lib_node = mbx_node_child(m, mbx_root(m), 0);
    mtlbx_node *pub = NULL;
    for (size_t s = 0; s < mbx_node_child_count(m, lib_node); s++)
        if (mbx_node_child(m, lib_node, s)->kind == MTLBX_NODE_PUBLIC_MD)
            pub = mbx_node_child(m, lib_node, s);
    cr_assert_not_null(pub);
    cr_assert_eq(mbx_node_child_count(m, pub), N - 2, "shared groups are one node each");
    mbx_model_close(m);
    mbx_close(f);
    cr_assert_eq(check_sections(b.data, b.len, "crafted"), 5, "function list, two metadata, modules, RLST");
    ib_free(&b);
}

static size_t check_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    struct imagebuf b = { 0 };
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        ib_bytes(&b, chunk, n);
    fclose(fp);
    size_t sections = check_sections(b.data, b.len, path);
    ib_free(&b);
    return sections;
}

static size_t check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t sections = 0;
    char path[PATH_MAX + 300];
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 9 || strcmp(e->d_name + len - 9, ".metallib"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        sections += check_file(path);
    }
    closedir(d);
    return sections;
}

Test(window, fixtures_and_sample)
{
    const char *src = testenv("MTLBX_SRCDIR");
    cr_assert_not_null(src, "MTLBX_SRCDIR is not set (run through make check)");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/tests/fixtures", src);
    size_t sections = check_dir(path);
    snprintf(path, sizeof path, "%s/data/sample.metallib", src);
    sections += check_file(path);
    cr_assert_gt(sections, 20, "only %zu sections found under %s", sections, src);
}

Test(window, corpus)
{
    const char *dir = testenv("MTLBX_CORPUS");
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        cr_skip_test("no corpus at %s", dir ? dir : "(MTLBX_CORPUS unset)");
    }
    closedir(d);
    size_t sections = check_dir(dir);
    cr_assert_gt(sections, 100, "only %zu sections in the corpus", sections);
    cr_log_info("corpus: %zu sections checked window by window", sections);
}
