/* The project's own generated libraries (data/sample.metallib and
 * tests/fixtures/) against the expectations their generator wrote beside
 * them: an independent statement of what each file holds. */
#include "config.h"

#include "jsoncmp.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fixture_path(const char *name, char *out, size_t n)
{
    /* The sample lives in data/, its expectation with the fixtures. */
    if (strcmp(name, "sample.metallib") == 0)
        snprintf(out, n, "%s/data/%s", testenv("MTLBX_SRCDIR"), name);
    else
        snprintf(out, n, "%s/tests/fixtures/%s", testenv("MTLBX_SRCDIR"), name);
}

static int run(const char *cmd, const char *arg1, const char *file, char **out)
{
    char *err;
    size_t out_len, err_len;
    const char *argv[] = { testenv("MTLBX_BIN"), cmd, arg1 ? arg1 : file, arg1 ? file : NULL, NULL };
    int st = run_capture((char *const *)argv, out, &out_len, &err, &err_len);
    free(err);
    return st;
}

Test(fixtures, dump_json_matches_what_the_generator_wrote, .timeout = 120)
{
    cr_assert_not_null(testenv("MTLBX_SRCDIR"), "run through make check");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fixtures", testenv("MTLBX_SRCDIR"));
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no %s", dir);
    struct dirent *e;
    size_t files = 0, bad = 0;
    while ((e = readdir(d))) {
        const char *suffix = ".expected.json";
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len <= sl || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        char name[256], path[8192], expected_path[8192];
        snprintf(name, sizeof name, "%.*s", (int)(len - sl), e->d_name);
        fixture_path(name, path, sizeof path);
        snprintf(expected_path, sizeof expected_path, "%s/%s", dir, e->d_name);
        json_error_t jerr;
        json_t *want = json_load_file(expected_path, 0, &jerr);
        cr_assert_not_null(want, "%s: %s", expected_path, jerr.text);
        json_object_del(want, "path");
        char *out;
        int st = run("dump", "--json", path, &out);
        json_t *got = st == 0 ? json_loads(out, 0, &jerr) : NULL;
        if (!got) {
            cr_log_error("%s: dump exited %d", name, st);
            bad++;
        } else {
            bad += json_contract_compare(name, "", got, want) != 0;
            json_decref(got);
        }
        json_decref(want);
        free(out);
        files++;
    }
    closedir(d);
    cr_assert_geq(files, 8, "expected the sample and at least 7 fixtures, found %zu", files);
    cr_assert_eq(bad, 0, "%zu of %zu fixtures differ from their expectation", bad, files);
}

Test(fixtures, the_sample_is_clean_and_shows_every_feature)
{
    char path[8192], *out;
    fixture_path("sample.metallib", path, sizeof path);
    cr_assert_eq(run("check", NULL, path, &out), 0, "check found problems in the sample: %s", out);
    free(out);
    cr_assert_eq(run("ls", "--verify", path, &out), 0, "a hash in the sample does not match");
    /* The sample is what a newcomer sees first: it must show each
     * function type the explorer can draw. */
    static const char *const types[] = { " vertex ", " fragment ", " kernel ", " mesh ", " object ", NULL };
    for (const char *const *t = types; *t; t++)
        cr_expect_not_null(strstr(out, *t), "the sample has no%sfunction", *t);
    free(out);
    cr_assert_eq(run("dump", "--json", path, &out), 0);
    json_error_t jerr;
    json_t *doc = json_loads(out, 0, &jerr);
    free(out);
    cr_assert_not_null(doc);
    json_t *lib = json_array_get(json_object_get(doc, "libraries"), 0);
    cr_expect(json_is_string(json_object_get(lib, "uuid")), "no UUID");
    cr_expect(json_is_object(json_object_get(lib, "sources")), "no embedded sources");
    cr_expect(json_is_object(json_object_get(lib, "dynamic_header")), "no dynamic header");
    size_t i, constants = 0, attributes = 0;
    json_t *fn;
    json_array_foreach(json_object_get(lib, "functions"), i, fn) {
        constants += json_array_size(json_object_get(fn, "constants"));
        attributes += json_array_size(json_object_get(fn, "vertex_attributes"));
    }
    cr_expect_gt(constants, 0, "no function constants");
    cr_expect_gt(attributes, 0, "no vertex attributes");
    json_decref(doc);
}
