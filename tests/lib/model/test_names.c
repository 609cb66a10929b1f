/* Unit tests of the two lookups that answer "which function" and "where
 * is it defined": mbx_resolve_function_name (exact, glob, unique prefix,
 * ambiguous prefix, did-you-mean) on a library built in code, and
 * mbx_source_find_in_text (definitions, prototypes, calls, host_name)
 * on small texts; and the bounded demangler under both. The hostile
 * inputs of issue 35 run under a timeout each: before, each took from
 * tens of seconds to hours. */
#include "config.h"

#include "imagebuf.h"
#include "libcheck.h"
#include "bitcode/demangle.h"
#include "model/names.h"
#include "model/source_locate.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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
    cr_assert(mbx_resolve_function_name(f, p, &m));
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
    mbx_name_matches_free(&m);

    m = resolve(f, "soft");
    cr_assert_eq(m.how, MTLBX_NAME_PREFIX);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 2);
    mbx_name_matches_free(&m);

    m = resolve(f, "gemm_");
    cr_assert_eq(m.how, MTLBX_NAME_AMBIGUOUS);
    cr_assert_eq(m.n, 2);
    cr_assert_eq(m.v[0].function, 0);
    cr_assert_eq(m.v[1].function, 1);
    mbx_name_matches_free(&m);

    m = resolve(f, "*_float32");
    cr_assert_eq(m.how, MTLBX_NAME_GLOB);
    cr_assert_eq(m.n, 2);
    mbx_name_matches_free(&m);

    m = resolve(f, "gemm_n[t]_*");
    cr_assert_eq(m.how, MTLBX_NAME_GLOB);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 0);
    mbx_name_matches_free(&m);
    mbx_close(f);
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
    mbx_name_matches_free(&m);
    m = resolve(f, "utils::sc");
    cr_assert_eq(m.how, MTLBX_NAME_PREFIX);
    cr_assert_eq(m.v[0].function, 4);
    mbx_name_matches_free(&m);
    mbx_close(f);
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
    mbx_name_matches_free(&m);
    /* A typo in the start of a longer name. */
    m = resolve(f, "gemm_nt_flaot");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_geq(m.n, 1);
    cr_assert_eq(m.v[0].function, 0);
    mbx_name_matches_free(&m);
    /* A part of the name (not its start), any case. */
    m = resolve(f, "MAIN");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 3);
    mbx_name_matches_free(&m);
    /* Nothing alike: no suggestion. */
    m = resolve(f, "zzzzzzzzzzzzzzzzzzzz");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.n, 0);
    mbx_name_matches_free(&m);
    m = resolve(f, "");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    mbx_name_matches_free(&m);
    mbx_close(f);
    ib_free(&b);
}

static int find(const char *text, const char *name, size_t *at)
{
    *at = (size_t)-1;
    return mbx_source_find_in_text((const uint8_t *)text, strlen(text), name, at);
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

/* ------------------------------------------------------------ issue 35 -- */

/* _Z1fSt4pairI1aS0_ES_IS1_S1_E...: each level one more parameter, the
 * pair of the level before with itself, so the demangled text doubles a
 * level (2^48 pairs for 48 levels, from 525 bytes). malloc'd. */
static char *demangle_bomb(int depth)
{
    char *s = malloc(32 + (size_t)depth * 16);
    cr_assert(s);
    size_t at = (size_t)sprintf(s, "_Z1fSt4pairI1aS0_E");
    for (int sub = 2; sub < depth + 2; sub++) {
        char ref[16];
        /* S<seq-id>_ names substitution sub, counted from S_ = 0; the
         * seq-id is sub - 1 in base 36. */
        int v = sub - 1, n = 0;
        char digits[8];
        do
            digits[n++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
        while ((v /= 36) > 0);
        int r = 0;
        ref[r++] = 'S';
        while (n)
            ref[r++] = digits[--n];
        ref[r++] = '_';
        ref[r] = '\0';
        at += (size_t)sprintf(s + at, "S_I%s%sE", ref, ref);
    }
    return s;
}

static enum mtlbx_demangle_status demangle(const char *name, char **out)
{
    return mbx_demangle_bounded((struct mtlbx_bytes){ (const uint8_t *)name, strlen(name) }, out);
}

Test(demangle, bounded_in_its_output_and_as_before_otherwise, .timeout = 10)
{
    char *d;
    cr_assert_eq(demangle("_ZN5utils5scaleEDv3_ff", &d), MTLBX_DEMANGLED);
    cr_assert_str_eq(d, "utils::scale(float __vector(3), float)");
    free(d);
    cr_assert_eq(demangle("_ZNSt6vectorIiSaIiEE9push_backERKi", &d), MTLBX_DEMANGLED);
    cr_assert_str_eq(d, "std::vector<int, std::allocator<int> >::push_back(int const&)");
    free(d);
    /* Three levels print whole; 48 would be 2^48 pairs. */
    char *small = demangle_bomb(3), *bomb = demangle_bomb(48);
    cr_assert_eq(demangle(small, &d), MTLBX_DEMANGLED);
    cr_assert(strstr(d, "std::pair<std::pair<std::pair<a, a>, std::pair<a, a> >,"), "%s", d);
    free(d);
    cr_assert_eq(demangle(bomb, &d), MTLBX_DEMANGLE_TOO_LONG);
    cr_assert_null(d);
    cr_assert_null(mbx_demangle((struct mtlbx_bytes){ (const uint8_t *)bomb, strlen(bomb) }));
    free(small);
    free(bomb);
    cr_assert_eq(demangle("gemm_f32", &d), MTLBX_DEMANGLE_NOT_MANGLED);
    cr_assert_eq(demangle("_Zq", &d), MTLBX_DEMANGLE_NOT_MANGLED);
    cr_assert_null(d);
    /* Past the input bound, whatever it would give. */
    char *huge = malloc(MTLBX_DEMANGLE_INPUT_MAX + 16);
    snprintf(huge, MTLBX_DEMANGLE_INPUT_MAX + 16, "_Z%dx", MTLBX_DEMANGLE_INPUT_MAX);
    memset(huge + strlen(huge) - 1, 'x', MTLBX_DEMANGLE_INPUT_MAX + 15 - strlen(huge));
    huge[MTLBX_DEMANGLE_INPUT_MAX + 15] = '\0';
    cr_assert_eq(demangle(huge, &d), MTLBX_DEMANGLE_TOO_LONG);
    free(huge);
}

Test(names, an_exact_name_is_matched_without_demangling, .timeout = 10)
{
    char *bomb = demangle_bomb(48);
    const struct test_function f[] = {
        { .name = bomb, .type = 2 },
        { .name = "_ZNK5utils5scaleEv", .type = 3 },    /* utils::scale() const */
        { .name = "_ZSt4swapRiS_", .type = 3 },         /* std::swap(int&, int&) */
        { .name = "_ZL6helperv", .type = 3 },           /* helper(), internal linkage */
        { .name = "_Z5scaleIfEvT_", .type = 3 },        /* void scale<float>(float) */
        { .name = "_ZN5utils5scaleEi", .type = 3 },     /* utils::scale(int) */
    };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 6, .functions = f, .ext = TEST_EXT_EMPTY });
    mtlbx_file *file = open_buf(&b);
    /* Not there: before, every name was demangled to look for it, and
     * the first one's text doubles 48 times. */
    struct mtlbx_name_matches m = resolve(file, "foo");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.undemangled, 1, "the bomb is said to be compared as stored: %zu", m.undemangled);
    mbx_name_matches_free(&m);
    /* Its name is f, which its encoding says without demangling. */
    m = resolve(file, "f");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 0);
    mbx_name_matches_free(&m);
    m = resolve(file, "utils::scale");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.n, 2);
    cr_assert_eq(m.v[0].function, 1);
    cr_assert_eq(m.v[1].function, 5);
    mbx_name_matches_free(&m);
    m = resolve(file, "utils::scale(int)");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 5);
    mbx_name_matches_free(&m);
    m = resolve(file, "std::swap");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.v[0].function, 2);
    mbx_name_matches_free(&m);
    m = resolve(file, "helper");
    cr_assert_eq(m.how, MTLBX_NAME_EXACT);
    cr_assert_eq(m.v[0].function, 3);
    mbx_name_matches_free(&m);
    /* A template's demangled text is "void scale<float>(float)": no
     * exact "scale" (the encoding says so too). */
    m = resolve(file, "scale");
    cr_assert_neq(m.how, MTLBX_NAME_EXACT);
    mbx_name_matches_free(&m);
    /* Globs and prefixes see the demangled names, bounded. */
    m = resolve(file, "f*");
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.undemangled, 1);
    mbx_name_matches_free(&m);
    m = resolve(file, "std::sw");
    cr_assert_eq(m.how, MTLBX_NAME_PREFIX);
    cr_assert_eq(m.v[0].function, 2);
    mbx_name_matches_free(&m);
    mbx_close(file);
    ib_free(&b);
    free(bomb);
}

Test(names, did_you_mean_is_linear_in_the_names, .timeout = 10)
{
    /* 100 names of 20,000 letters and a pattern half as long that none
     * holds: the substring test compared at every place (10^8 steps a
     * name, minutes in all). */
    enum { N = 100, LEN = 20000 };
    char *name = malloc(LEN + 1), *p = malloc(LEN / 2 + 2);
    memset(name, 'a', LEN);
    name[LEN] = '\0';
    memset(p, 'a', LEN / 2);
    strcpy(p + LEN / 2, "b");
    struct test_function f[N];
    for (size_t i = 0; i < N; i++)
        f[i] = (struct test_function){ .name = name, .type = 2 };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = N, .functions = f, .ext = TEST_EXT_EMPTY });
    mtlbx_file *file = open_buf(&b);
    struct mtlbx_name_matches m = resolve(file, p);
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    mbx_name_matches_free(&m);
    mbx_close(file);
    ib_free(&b);
    /* ...and it still finds a typo in a 250-letter name (four blocks of
     * the bit-parallel distance). */
    name[250] = '\0';
    memcpy(name, "steel_gemm_", 11);
    memcpy(p, name, 251);
    p[100] = 'x', p[200] = 'y';
    const struct test_function g[] = { { .name = "other", .type = 2 }, { .name = name, .type = 2 } };
    ib_library(&b, &(struct test_library){ .n_functions = 2, .functions = g, .ext = TEST_EXT_EMPTY });
    file = open_buf(&b);
    m = resolve(file, p);
    cr_assert_eq(m.how, MTLBX_NAME_MISSING);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.v[0].function, 1);
    mbx_name_matches_free(&m);
    mbx_close(file);
    ib_free(&b);
    free(name);
    free(p);
}

Test(source_find, gnu_style_and_comments)
{
    size_t at;
    /* The name starts its line. */
    const char *gnu = "kernel void\nfoo(device float *out,\n    uint id)\n{\n    out[id] = 1;\n}\n";
    cr_assert_eq(find(gnu, "foo", &at), 2);
    cr_assert_eq(at, strstr(gnu, "foo(") - gnu);
    /* A call at the start of a line is still a call. */
    cr_assert_eq(find("x = 1 +\nfoo(2);\n{\n}\n", "foo", &at), 0);
    cr_assert_eq(find("{\n    foo(a, b);\n}\n", "foo", &at), 0);
    /* A definition commented out is none: the real one is found. */
    const char *commented = "/* The old one:\nkernel void bar(device float *o) { o[0] = 0; }\n*/\n"
                            "// kernel void bar(device float *o) { o[0] = 2; }\n"
                            "kernel void bar(device float *o,\n                uint id)\n{\n}\n";
    cr_assert_eq(find(commented, "bar", &at), 2);
    cr_assert_eq(at, strstr(commented, "kernel void bar(device float *o,\n") - commented + strlen("kernel void "));
    /* Only in a comment: nothing. */
    cr_assert_eq(find("// void bar(int x) { }\n/* void bar(int x) { } */\n", "bar", &at), 0);
    /* A comment between the name and its list, a string holding "//". */
    const char *mixed = "constant char *u = \"http://x\";\nvoid baz /* here */ (int x) {\n}\n";
    cr_assert_eq(find(mixed, "baz", &at), 2);
    cr_assert_eq(at, strstr(mixed, "baz") - mixed);
}

/* n bytes of `unit` repeated, NUL-terminated. */
static char *repeat(const char *unit, size_t n)
{
    size_t u = strlen(unit);
    char *s = malloc(n + 1);
    cr_assert(s);
    for (size_t i = 0; i < n; i++)
        s[i] = unit[i % u];
    s[n] = '\0';
    return s;
}

Test(source_find, linear_in_the_text, .timeout = 10)
{
    size_t at;
    /* 16 MiB of 'a' and a name of 40,000 'a' then 'b': the name was
     * compared at every place (24 s before). */
    char *text = repeat("a", (size_t)16 << 20), *name = repeat("a", 40001);
    name[40000] = 'b';
    cr_assert_eq(mbx_source_find_in_text((const uint8_t *)text, strlen(text), name, &at), 0);
    free(text);
    free(name);
    /* 4 MiB of "x f(": each list was followed 8 KiB ahead (20 s before). */
    text = repeat("x f(", (size_t)4 << 20);
    cr_assert_eq(mbx_source_find_in_text((const uint8_t *)text, strlen(text), "f", &at), 0);
    free(text);
    /* ...and a definition behind a long run of unclosed lists. */
    char *calls = repeat("x f(", (size_t)1 << 20);
    const char *def = ";\nvoid f(int x) {\n}\n";
    text = malloc(strlen(calls) + strlen(def) + 1);
    strcpy(text, calls);
    strcat(text, def);
    cr_assert_eq(mbx_source_find_in_text((const uint8_t *)text, strlen(text), "f", &at), 2);
    cr_assert_eq(at, strlen(calls) + strlen(";\nvoid "));
    free(calls);
    free(text);
}
