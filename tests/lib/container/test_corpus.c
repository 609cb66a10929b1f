/* Integration tests over ../shared/corpus: the real binary's output is
 * compared with the reference parser's expected/FILE.json on every key of
 * the CONTRACT schema (diagnostics: an error must appear exactly when the
 * reference has one). Without the corpus the whole program skips (77). */
#include "config.h"

#include "jsoncmp.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *corpus_dir(void) { return testenv("MTLBX_CORPUS"); }

struct expected_file {
    char name[256];
    json_t *json;
};

static struct expected_file *expected;
static size_t n_expected;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const struct expected_file *)a)->name, ((const struct expected_file *)b)->name);
}

static void load_expected(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/expected", corpus_dir());
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || len - 5 >= sizeof expected->name)
            continue;
        expected = realloc(expected, (n_expected + 1) * sizeof *expected);
        struct expected_file *x = &expected[n_expected++];
        memcpy(x->name, e->d_name, len - 5);
        x->name[len - 5] = '\0';
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_error_t jerr;
        x->json = json_load_file(path, 0, &jerr);
        cr_assert_not_null(x->json, "%s: %s", path, jerr.text);
    }
    closedir(d);
    qsort(expected, n_expected, sizeof *expected, cmp_name);
    cr_assert_geq(n_expected, 1, "no expected/*.json in %s", dir);
}

static void free_expected(void)
{
    for (size_t i = 0; i < n_expected; i++)
        json_decref(expected[i].json);
    free(expected);
    expected = NULL;
    n_expected = 0;
}

TestSuite(corpus, .init = load_expected, .fini = free_expected, .timeout = 600);

static int run_mtlbx(const char *const *args, char **out, size_t *out_len, char **err)
{
    char file_arg[8192];
    const char *argv[16] = { testenv("MTLBX_BIN") };
    size_t n = 1;
    for (; args[n - 1] && n < 15; n++) {
        argv[n] = args[n - 1];
        if (strchr(args[n - 1], '@') == args[n - 1]) { /* @NAME: a corpus file */
            snprintf(file_arg, sizeof file_arg, "%s/%s", corpus_dir(), args[n - 1] + 1);
            argv[n] = file_arg;
        }
    }
    argv[n] = NULL;
    size_t err_len;
    return run_capture((char *const *)argv, out, out_len, err, &err_len);
}

static int expected_status(const struct expected_file *x)
{
    json_t *st = json_object_get(x->json, "exit_status");
    return st ? (int)json_integer_value(st) : 0;
}

Test(corpus, dump_json_matches_the_reference_for_every_file)
{
    size_t bad_files = 0;
    for (size_t i = 0; i < n_expected; i++) {
        struct expected_file *x = &expected[i];
        char *out, *err;
        size_t out_len;
        const char *args[] = { "dump", "--json", NULL, NULL };
        char at[300];
        snprintf(at, sizeof at, "@%s", x->name);
        args[2] = at;
        int status = run_mtlbx(args, &out, &out_len, &err);
        int want = expected_status(x);
        if (want) {
            if (status != want) {
                cr_log_error("%s: exit %d, expected %d", x->name, status, want);
                bad_files++;
            }
        } else {
            json_error_t jerr;
            json_t *got = status == 0 ? json_loads(out, 0, &jerr) : NULL;
            if (!got) {
                cr_log_error("%s: exit %d, no JSON: %s", x->name, status, err);
                bad_files++;
            } else {
                /* "path" is as given: the reference was run from the corpus dir. */
                json_t *w = json_deep_copy(x->json);
                json_object_del(w, "path");
                bad_files += json_contract_compare(x->name, "", got, w) != 0;
                json_decref(w);
                json_decref(got);
            }
        }
        free(out);
        free(err);
    }
    cr_assert_eq(bad_files, 0, "%zu of %zu corpus files differ from the reference (see the log)", bad_files,
                 n_expected);
}

/* expected-more/FILE.json: the "Every byte decoded" keys, as a sparse
 * document (every key in it present with the same value). */
Test(corpus, dump_json_has_every_key_of_expected_more)
{
    size_t bad_files = 0, compared = 0;
    for (size_t i = 0; i < n_expected; i++) {
        if (expected_status(&expected[i]))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/expected-more/%s.json", corpus_dir(), expected[i].name);
        json_error_t jerr;
        json_t *want = json_load_file(path, 0, &jerr);
        cr_assert_not_null(want, "%s: %s", path, jerr.text);
        char *out, *err, at[300];
        size_t out_len;
        snprintf(at, sizeof at, "@%s", expected[i].name);
        const char *args[] = { "dump", "--json", at, NULL };
        int status = run_mtlbx(args, &out, &out_len, &err);
        json_t *got = status == 0 ? json_loads(out, 0, &jerr) : NULL;
        if (!got) {
            cr_log_error("%s: exit %d, no JSON: %s", expected[i].name, status, err);
            bad_files++;
        } else {
            bad_files += json_contract_compare(expected[i].name, "", got, want) != 0;
            compared++;
        }
        json_decref(got);
        json_decref(want);
        free(out);
        free(err);
    }
    cr_assert_eq(bad_files, 0, "%zu corpus files differ from expected-more (see the log)", bad_files);
    cr_assert_geq(compared, 1);
}

/* dump --json --layout: regions in file order tiling [0, size) with no gap
 * and no overlap, and on files from Apple's tools not one unclaimed byte. */
Test(corpus, layout_tiles_every_file_exactly)
{
    size_t files = 0;
    for (size_t i = 0; i < n_expected; i++) {
        if (expected_status(&expected[i]))
            continue;
        char *out, *err, at[300];
        size_t out_len;
        snprintf(at, sizeof at, "@%s", expected[i].name);
        const char *args[] = { "dump", "--json", "--layout", at, NULL };
        int status = run_mtlbx(args, &out, &out_len, &err);
        json_error_t jerr;
        json_t *doc = status == 0 ? json_loads(out, 0, &jerr) : NULL;
        cr_expect_not_null(doc, "%s: exit %d, no JSON: %s", expected[i].name, status, err);
        json_t *layout = json_object_get(doc, "layout");
        cr_expect(json_is_array(layout) && json_array_size(layout) > 0, "%s: no layout", expected[i].name);
        json_int_t pos = 0, size = json_integer_value(json_object_get(doc, "size"));
        size_t k, unclaimed = 0;
        json_t *r;
        json_array_foreach(layout, k, r) {
            json_int_t off = json_integer_value(json_object_get(r, "offset"));
            json_int_t len = json_integer_value(json_object_get(r, "size"));
            const char *what = json_string_value(json_object_get(r, "what"));
            if (off != pos || len <= 0 || !what) {
                cr_log_error("%s: region %zu at %lld (size %lld) but %lld expected", expected[i].name, k,
                             (long long)off, (long long)len, (long long)pos);
                pos = -1;
                break;
            }
            unclaimed += strcmp(what, "unclaimed") == 0;
            pos += len;
        }
        cr_expect_eq(pos, size, "%s: the layout covers %lld of %lld bytes", expected[i].name, (long long)pos,
                     (long long)size);
        cr_expect_eq(unclaimed, 0, "%s: %zu unclaimed regions", expected[i].name, unclaimed);
        files++;
        json_decref(doc);
        free(out);
        free(err);
    }
    cr_assert_geq(files, 1);
}

Test(corpus, check_is_clean_on_valid_files_and_refuses_the_rest)
{
    for (size_t i = 0; i < n_expected; i++) {
        char *out, *err, at[300];
        size_t out_len;
        snprintf(at, sizeof at, "@%s", expected[i].name);
        const char *args[] = { "check", at, NULL };
        int status = run_mtlbx(args, &out, &out_len, &err);
        int want = expected_status(&expected[i]) ? 2 : 0;
        cr_expect_eq(status, want, "%s: check exited %d, expected %d: %s%s", expected[i].name, status, want, out, err);
        if (want == 2)
            cr_expect(strstr(err, expected[i].name) && strstr(err, "not a metallib"),
                      "%s: the message must name the file: %s", expected[i].name, err);
        else
            cr_expect_eq(out_len, 0, "%s: findings on a valid file: %s", expected[i].name, out);
        free(out);
        free(err);
    }
}

Test(corpus, ls_verify_lists_every_function_with_matching_hashes)
{
    for (size_t i = 0; i < n_expected; i++) {
        if (expected_status(&expected[i]))
            continue;
        size_t want = 0;
        json_t *lib;
        size_t l;
        json_array_foreach(json_object_get(expected[i].json, "libraries"), l, lib)
            want += json_array_size(json_object_get(lib, "functions"));
        char *out, *err, at[300];
        size_t out_len, lines = 0, oks = 0;
        snprintf(at, sizeof at, "@%s", expected[i].name);
        const char *args[] = { "ls", at, "--verify", NULL };
        int status = run_mtlbx(args, &out, &out_len, &err);
        for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
            if (line[0] == '#')
                continue;
            lines++;
            oks += strstr(line, "  ok  ") != NULL;
        }
        cr_expect_eq(status, 0, "%s: ls --verify exited %d: %s", expected[i].name, status, err);
        cr_expect_eq(lines, want, "%s: %zu lines for %zu functions", expected[i].name, lines, want);
        cr_expect_eq(oks, want, "%s: %zu of %zu hashes ok", expected[i].name, oks, want);
        free(out);
        free(err);
    }
}

Test(corpus, info_and_the_non_terminal_default_agree)
{
    for (size_t i = 0; i < n_expected; i++) {
        char *out1, *out2, *err, at[300];
        size_t len1, len2;
        snprintf(at, sizeof at, "@%s", expected[i].name);
        const char *info[] = { "info", at, NULL }, *bare[] = { at, NULL };
        int s1 = run_mtlbx(info, &out1, &len1, &err);
        free(err);
        int s2 = run_mtlbx(bare, &out2, &len2, &err);
        free(err);
        int want = expected_status(&expected[i]);
        cr_expect_eq(s1, want, "%s: info exited %d", expected[i].name, s1);
        cr_expect_eq(s2, want, "%s: mtlbx FILE exited %d", expected[i].name, s2);
        cr_expect_str_eq(out1, out2, "%s: without a terminal, mtlbx FILE must print info", expected[i].name);
        free(out1);
        free(out2);
    }
}

int main(int argc, char *argv[])
{
    const char *dir = corpus_dir();
    char marker[4096];
    struct stat st;
    snprintf(marker, sizeof marker, "%s/expected", dir ? dir : "");
    if (!dir || stat(marker, &st) != 0) {
        fprintf(stderr, "SKIP: corpus tests: no corpus at '%s' (set MTLBX_CORPUS or put shared/ beside the "
                        "repository)\n", dir ? dir : "(unset)");
        return 77;
    }
    if (!testenv("MTLBX_BIN")) {
        fprintf(stderr, "SKIP: MTLBX_BIN is not set (run through make check)\n");
        return 77;
    }
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true))
        result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}
