/* Unit tests of the two lookups that answer "which function" and "where
 * is it defined": mtlbx_resolve_function_name (exact, glob, unique prefix,
 * ambiguous prefix, did-you-mean) on a library built in code, and
 * mtlbx_source_find_in_text (definitions, prototypes, calls, host_name)
 * on small texts. */
#include "config.h"

#include "imagebuf.h"
#include "libcheck.h"
#include "mtlbx_private.h"

#include <criterion/criterion.h>
#include <string.h>

static const struct test_function fns[] = {
    { .name = "gemm_nt_float32", .type = 2 },
    { .name = "gemm_nn_float32", .type = 2 },
    { .name = "softmax_float", .type = 2 },
    { .name = "vertex_main", .type = 0 },
    { .name = "_ZN5utils5scaleEDv3_ff", .type = 3 },
};

static mtlbx_file *open_fixture(struct imagebuf *b)
{
    ib_library(b, &(struct test_library){ .n_functions = 5, .functions = fns, .ext = TEST_EXT_EMPTY });
    return open_buf(b);
}

static struct mtlbx_name_matches resolve(mtlbx_file *f, const char *p)
{
    struct mtlbx_name_matches m;
    cr_assert(mtlbx_resolve_function_name(f, p, &m));
    return m;
}

Test(names, exact_glob_prefix_and_ambiguous)
{
    struct imagebuf b = { 0 };
    mtlbx_file *f = open_fixture(&b);

    struct mtlbx_name_matches m = resolve(f, "softmax_float");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 2);
    mtlbx_name_matches_free(&m);

    m = resolve(f, "soft");
    cr_assert_eq(m.how, MTLBX_NAME_PREFIX);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 2);
    mtlbx_name_matches_free(&m);

    m = resolve(f, "gemm_");
    cr_assert_eq(m.how, MTLBX_NAME_AMBIGUOUS);
    cr_assert_eq(m.n, 2);
    cr_assert_eq(m.v[0].function, 0);
    cr_assert_eq(m.v[1].function, 1);
    mtlbx_name_matches_free(&m);

    m = resolve(f, "*_float32");
    cr_assert_eq(m.how, MTLBX_NAME_GLOB);
    cr_assert_eq(m.n, 2);
    mtlbx_name_matches_free(&m);

    m = resolve(f, "gemm_n[t]_*");
    cr_assert_eq(m.how, MTLBX_NAME_GLOB);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 0);
    mtlbx_name_matches_free(&m);
    mtlbx_close(f);
    ib_free(&b);
}

Test(names, demangled_forms)
{
    struct imagebuf b = { 0 };
    mtlbx_file *f = open_fixture(&b);
    struct mtlbx_name_matches m = resolve(f, "utils::scale");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 4);
    mtlbx_name_matches_free(&m);
    m = resolve(f, "utils::sc");
    cr_assert_eq(m.how, MTLBX_NAME_PREFIX);
    cr_assert_eq(m.v[0].function, 4);
    mtlbx_name_matches_free(&m);
    mtlbx_close(f);
    ib_free(&b);
}

Test(names, a_miss_suggests_the_closest_first)
{
    struct imagebuf b = { 0 };
    mtlbx_file *f = open_fixture(&b);
    /* Two letters swapped: a few edits away. */
    struct mtlbx_name_matches m = resolve(f, "sotfmax_float");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_geq(m.n, 1);
    cr_assert_eq(m.v[0].function, 2);
    mtlbx_name_matches_free(&m);
    /* A typo in the start of a longer name. */
    m = resolve(f, "gemm_nt_flaot");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_geq(m.n, 1);
    cr_assert_eq(m.v[0].function, 0);
    mtlbx_name_matches_free(&m);
    /* A part of the name (not its start), any case. */
    m = resolve(f, "MAIN");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 3);
    mtlbx_name_matches_free(&m);
    /* Nothing alike: no suggestion. */
    m = resolve(f, "zzzzzzzzzzzzzzzzzzzz");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.n, 0);
    mtlbx_name_matches_free(&m);
    m = resolve(f, "");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    mtlbx_name_matches_free(&m);
    mtlbx_close(f);
    ib_free(&b);
}

static int find(const char *text, const char *name, size_t *at)
{
    *at = (size_t)-1;
    return mtlbx_source_find_in_text((const uint8_t *)text, strlen(text), name, at);
}

Test(source_find, definition_beats_calls_and_prototypes)
{
    const char *t = "void blur(float x);\n"                 /* prototype */
                    "float y = blur(2);\n"                   /* call */
                    "kernel void k() { blur(1); }\n"         /* call */
                    "[[kernel]] void blur(float x,\n"
                    "                     float y) {\n"
                    "}\n";
    size_t at;
    cr_assert_eq(find(t, "blur", &at), 2);
    cr_assert_eq(at, strstr(t, "[[kernel]] void blur") - t + strlen("[[kernel]] void "));
    cr_assert_eq(find("void blur(float x);\nx = blur(1);\n", "blur", &at), 1);
    cr_assert_eq(at, 5);
    cr_assert_eq(find("x = blur(1);\nreturn blur(2);\n", "blur", &at), 0);
    /* A longer identifier holding the name is not the name. */
    cr_assert_eq(find("kernel void blurry(int a) {}\n", "blur", &at), 0);
    cr_assert_eq(find("", "blur", &at), 0);
    cr_assert_eq(find("kernel void blur(", "blur", &at), 0);
}

Test(source_find, host_name_instantiations)
{
    size_t at;
    const char *t = "template [[host_name(\"gemm_f32\")]] kernel void gemm<float>(device float *);\n";
    cr_assert_eq(find(t, "gemm_f32", &at), 2);
    cr_assert_eq(at, strchr(t, '"') - t + 1);
    /* In a macro: "gemm_" #name names every instantiation. */
    const char *m = "#define inst(n) template [[host_name(\"gemm_\" #n)]] kernel void gemm<n>();\n";
    cr_assert_eq(find(m, "gemm", &at), 2);
}
