/* extract, sources and dis run as the real binary on the real corpus
 * (../shared/corpus), checked against expected/FILE.json:
 *   - sources --list names exactly the expected members, in order;
 *   - sources -o writes every regular member with its expected size, and
 *     refuses to overwrite without --force;
 *   - extract writes, for every function of every file, exactly the module
 *     bytes at the expected offset and size, whose SHA-256 is the expected
 *     HASH wherever the reference found it matching;
 *   - dis prints LLVM assembly for one function of every file that has
 *     functions (skipped without llvm-dis).
 * The whole program exits 77 (skip) when the corpus or the binary is
 * missing. Output goes only to mktemp directories. */
#include "config.h"

#include "scratch_dir.h"
#include "testenv.h"
#include "program/member_plan.h"
#include "program/name_set.h"
#include "program/run_tool.h"
#include "program/safe_write.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <gcrypt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *corpus_dir(void) { return testenv("MTLBX_CORPUS"); }
static const char *bin(void) { return testenv("MTLBX_BIN"); }

/* Corpus files with their expected JSON, sorted by name. */
struct entry {
    char *file;     /* corpus path */
    char *base;
    json_t *exp;
};

static size_t load_corpus(struct entry **out)
{
    char *edir = pt_join(corpus_dir(), "expected");
    struct dirent **names;
    int n = scandir(edir, &names, NULL, alphasort);
    cr_assert_geq(n, 0, "cannot read %s", edir);
    struct entry *v = calloc((size_t)n + 1, sizeof *v);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        const char *nm = names[i]->d_name;
        size_t l = strlen(nm);
        if (l > 5 && !strcmp(nm + l - 5, ".json")) {
            char *jp = pt_join(edir, nm);
            json_error_t je;
            json_t *j = json_load_file(jp, 0, &je);
            cr_assert_not_null(j, "%s: %s", jp, je.text);
            v[k].base = strndup(nm, l - 5);
            v[k].file = pt_join(corpus_dir(), v[k].base);
            v[k].exp = j;
            k++;
            free(jp);
        }
        free(names[i]);
    }
    free(names);
    free(edir);
    *out = v;
    return k;
}

static void free_corpus(struct entry *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].file);
        free(v[i].base);
        json_decref(v[i].exp);
    }
    free(v);
}

static bool not_metallib(const struct entry *e)
{
    return json_object_get(e->exp, "exit_status") != NULL;
}

static bool is_fat(const struct entry *e)
{
    json_t *fat = json_object_get(e->exp, "fat");
    return fat && !json_is_null(fat);
}

static int run(char *const argv[], char **out, char **err)
{
    size_t ol, el;
    return run_capture(argv, out, &ol, err, &el);
}

/* ------------------------------------------------------------- sources -- */

Test(cli_sources, list_names_exactly_the_expected_members)
{
    struct entry *v;
    size_t n = load_corpus(&v);
    size_t with = 0;
    for (size_t i = 0; i < n; i++) {
        if (not_metallib(&v[i]))
            continue;
        char *want = strdup("");
        bool any = false;
        size_t li;
        json_t *lib;
        json_array_foreach(json_object_get(v[i].exp, "libraries"), li, lib) {
            json_t *src = json_object_get(lib, "sources");
            if (!src || json_is_null(src))
                continue;
            any = true;
            size_t ai;
            json_t *ar;
            json_array_foreach(json_object_get(src, "archives"), ai, ar) {
                size_t mi;
                json_t *m;
                json_array_foreach(json_object_get(ar, "members"), mi, m) {
                    char *line = NULL, *next = NULL;
                    char slice[32] = "";
                    if (is_fat(&v[i]))
                        snprintf(slice, sizeof slice, "slice%zu/", li);
                    cr_assert(asprintf(&line, "%s%s\t%lld\t%s\n", slice,
                                       json_string_value(json_object_get(ar, "id")),
                                       (long long)json_integer_value(json_object_get(m, "size")),
                                       json_string_value(json_object_get(m, "name"))) > 0);
                    cr_assert(asprintf(&next, "%s%s", want, line) > 0);
                    free(want);
                    free(line);
                    want = next;
                }
            }
        }
        char *out, *err;
        char *argv[] = { (char *)bin(), "sources", "--list", v[i].file, NULL };
        int rc = run(argv, &out, &err);
        if (any) {
            with++;
            cr_expect_eq(rc, 0, "%s: exit %d: %s", v[i].base, rc, err);
            cr_expect_str_eq(out, want, "%s", v[i].base);
        } else {
            cr_expect_eq(rc, 1, "%s has no sources: exit %d", v[i].base, rc);
            cr_expect_str_empty(out, "%s", v[i].base);
            cr_expect(strstr(err, "no embedded sources") != NULL, "%s: %s", v[i].base, err);
        }
        free(out);
        free(err);
        free(want);
    }
    cr_expect_geq(with, 8, "the corpus has 8 libraries with sources");
    free_corpus(v, n);
}

Test(cli_sources, extract_writes_every_member_and_refuses_overwrite, .timeout = 120)
{
    struct entry *v;
    size_t n = load_corpus(&v);
    for (size_t i = 0; i < n; i++) {
        if (not_metallib(&v[i]))
            continue;
        bool any = false;
        size_t li;
        json_t *lib;
        json_array_foreach(json_object_get(v[i].exp, "libraries"), li, lib) {
            json_t *s = json_object_get(lib, "sources");
            any |= s && !json_is_null(s);
        }
        if (!any)
            continue;
        char *d = pt_tmpdir();
        char *outdir = pt_join(d, "out");
        char *out, *err;
        char *argv[] = { (char *)bin(), "sources", v[i].file, "-o", outdir, NULL };
        int rc = run(argv, &out, &err);
        cr_expect_eq(rc, 0, "%s: exit %d: %s", v[i].base, rc, err);
        size_t lines = 0;
        for (char *p = out; *p; p++)
            lines += *p == '\n';
        free(out);
        free(err);
        size_t members = 0;
        json_array_foreach(json_object_get(v[i].exp, "libraries"), li, lib) {
            json_t *src = json_object_get(lib, "sources");
            if (!src || json_is_null(src))
                continue;
            struct name_set used = { .nocase = true };
            size_t ai;
            json_t *ar;
            json_array_foreach(json_object_get(src, "archives"), ai, ar) {
                const char *id = json_string_value(json_object_get(ar, "id"));
                char *safe = safe_component((const uint8_t *)id, strlen(id));
                char *adir = name_set_unique(&used, safe, "");
                size_t mi;
                json_t *m;
                json_array_foreach(json_object_get(ar, "members"), mi, m) {
                    char *norm = member_plan_path(json_string_value(json_object_get(m, "name")));
                    char *rel = NULL;
                    char slice[32] = "";
                    if (is_fat(&v[i]))
                        snprintf(slice, sizeof slice, "slice%zu/", li);
                    cr_assert(asprintf(&rel, "%s/%s%s/%s", outdir, slice, adir, norm) > 0);
                    struct stat st;
                    cr_expect_eq(stat(rel, &st), 0, "%s: %s missing", v[i].base, rel);
                    cr_expect_eq((long long)st.st_size,
                                 (long long)json_integer_value(json_object_get(m, "size")), "%s", rel);
                    members++;
                    free(rel);
                    free(norm);
                }
                free(safe);
                free(adir);
            }
            name_set_free(&used);
        }
        cr_expect_eq(lines, members, "%s: one stdout line per written file", v[i].base);
        /* Again: every file exists, so every member is refused. */
        rc = run(argv, &out, &err);
        cr_expect_eq(rc, 2, "%s: rewriting without --force must fail", v[i].base);
        cr_expect_str_empty(out);
        cr_expect(strstr(err, "exists") != NULL, "%s", err);
        free(out);
        free(err);
        char *fargv[] = { (char *)bin(), "sources", v[i].file, "-o", outdir, "--force", NULL };
        rc = run(fargv, &out, &err);
        cr_expect_eq(rc, 0, "%s: --force: %s", v[i].base, err);
        free(out);
        free(err);
        pt_rmtree(d);
        free(outdir);
        free(d);
    }
    free_corpus(v, n);
}

/* ------------------------------------------------------------- extract -- */

static void hex(const uint8_t *d, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

Test(cli_extract, modules_are_the_hashed_bytes, .timeout = 180)
{
    struct entry *v;
    size_t n = load_corpus(&v);
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        if (not_metallib(&v[i]))
            continue;
        size_t flen;
        uint8_t *fbytes = pt_slurp(v[i].file, &flen);
        cr_assert_not_null(fbytes, "%s", v[i].file);
        char *d = pt_tmpdir();
        char *out, *err;
        char *argv[] = { (char *)bin(), "extract", v[i].file, "-o", d, NULL };
        int rc = run(argv, &out, &err);
        size_t total = 0, li;
        json_t *lib;
        json_array_foreach(json_object_get(v[i].exp, "libraries"), li, lib)
            total += json_array_size(json_object_get(lib, "functions"));
        cr_expect_eq(rc, total ? 0 : 1, "%s: exit %d: %s", v[i].base, rc, err);
        json_array_foreach(json_object_get(v[i].exp, "libraries"), li, lib) {
            struct name_set used = { .nocase = true };
            size_t fi;
            json_t *fn;
            json_array_foreach(json_object_get(lib, "functions"), fi, fn) {
                const char *name = json_string_value(json_object_get(fn, "name"));
                char *safe = safe_component((const uint8_t *)name, strlen(name));
                char *file = name_set_unique(&used, safe, ".air");
                char *rel = NULL;
                if (is_fat(&v[i]))
                    cr_assert(asprintf(&rel, "%s/slice%zu/%s", d, li, file) > 0);
                else
                    cr_assert(asprintf(&rel, "%s/%s", d, file) > 0);
                json_t *mod = json_object_get(fn, "module");
                uint64_t off = (uint64_t)json_integer_value(json_object_get(mod, "offset"));
                uint64_t size = (uint64_t)json_integer_value(json_object_get(mod, "size"));
                size_t glen = 0;
                uint8_t *got = pt_slurp(rel, &glen);
                cr_expect_not_null(got, "%s: %s was not written", v[i].base, rel);
                if (got) {
                    cr_expect_eq(glen, size, "%s: %s size", v[i].base, name);
                    cr_expect(off + size <= flen && glen == size && memcmp(got, fbytes + off, size) == 0,
                              "%s: %s bytes differ from the file at %llu", v[i].base, name,
                              (unsigned long long)off);
                    if (json_is_true(json_object_get(fn, "hash_ok"))) {
                        uint8_t dg[32];
                        char hx[65];
                        gcry_md_hash_buffer(GCRY_MD_SHA256, dg, got, glen);
                        hex(dg, 32, hx);
                        cr_expect_str_eq(hx, json_string_value(json_object_get(fn, "hash")), "%s: %s",
                                         v[i].base, name);
                    }
                    checked++;
                }
                free(got);
                free(rel);
                free(file);
                free(safe);
            }
            name_set_free(&used);
        }
        free(out);
        free(err);
        free(fbytes);
        pt_rmtree(d);
        free(d);
    }
    cr_expect_gt(checked, 1000, "checked %zu modules", checked);
    free_corpus(v, n);
}

Test(cli_extract, selection_refusal_and_force)
{
    char *file = pt_join(corpus_dir(), "metaljl-kernels.26.metallib");
    char *d = pt_tmpdir();
    char *out, *err;
    char *one[] = { (char *)bin(), "extract", file, "-o", d, "-f", "bar", NULL };
    cr_expect_eq(run(one, &out, &err), 0, "%s", err);
    char *want = NULL;
    cr_assert(asprintf(&want, "%s/bar.air\n", d) > 0);
    cr_expect_str_eq(out, want);
    char *foo = pt_join(d, "foo.air");
    cr_expect_neq(access(foo, F_OK), 0, "only the selected function is written");
    free(out);
    free(err);
    cr_expect_eq(run(one, &out, &err), 2, "existing file without --force");
    cr_expect(strstr(err, "exists") != NULL, "%s", err);
    free(out);
    free(err);
    char *forced[] = { (char *)bin(), "extract", "--force", file, "-o", d, "-f", "bar", NULL };
    cr_expect_eq(run(forced, &out, &err), 0, "%s", err);
    free(out);
    free(err);
    char *none[] = { (char *)bin(), "extract", file, "-o", d, "-f", "no_such_function", NULL };
    cr_expect_eq(run(none, &out, &err), 1);
    cr_expect(strstr(err, "no function named 'no_such_function'") != NULL, "%s", err);
    free(out);
    free(err);
    char *bad[] = { (char *)bin(), "extract", file, "--bogus", NULL };
    cr_expect_eq(run(bad, &out, &err), 2);
    free(out);
    free(err);
    free(want);
    free(foo);
    pt_rmtree(d);
    free(d);
    free(file);
}

/* ----------------------------------------------------------------- dis -- */

Test(cli_dis, every_file_with_functions_disassembles, .timeout = 300)
{
    char *tool = find_llvm_dis(NULL);
    if (!tool)
        cr_skip_test("llvm-dis not found: set MTLBX_LLVM_DIS or install llvm");
    struct entry *v;
    size_t n = load_corpus(&v);
    size_t done = 0;
    for (size_t i = 0; i < n; i++) {
        if (not_metallib(&v[i]))
            continue;
        const char *name = NULL;
        size_t li;
        json_t *lib;
        json_array_foreach(json_object_get(v[i].exp, "libraries"), li, lib) {
            json_t *fns = json_object_get(lib, "functions");
            if (!name && json_array_size(fns))
                name = json_string_value(json_object_get(json_array_get(fns, 0), "name"));
        }
        if (!name)
            continue;
        char *out, *err;
        char *argv[] = { (char *)bin(), "--llvm-dis", tool, "dis", v[i].file, (char *)name, NULL };
        int rc = run(argv, &out, &err);
        cr_expect_eq(rc, 0, "%s %s: exit %d: %s", v[i].base, name, rc, err);
        cr_expect(strstr(out, "define") || strstr(out, "target triple"), "%s: no LLVM assembly", v[i].base);
        done++;
        free(out);
        free(err);
    }
    cr_expect_geq(done, 40, "disassembled %zu files", done);
    free_corpus(v, n);
    free(tool);
}

Test(cli_dis, errors_have_their_exit_status)
{
    char *file = pt_join(corpus_dir(), "metaljl-kernels.26.metallib");
    char *out, *err;
    char *nofn[] = { (char *)bin(), "dis", file, "no_such_function", NULL };
    cr_expect_eq(run(nofn, &out, &err), 1, "%s", err);
    free(out);
    free(err);
    char *notool[] = { (char *)bin(), "--llvm-dis", "/nonexistent/llvm-dis", "dis", file, "foo", NULL };
    cr_expect_eq(run(notool, &out, &err), 2);
    cr_expect(strstr(err, "llvm-dis not found") != NULL, "%s", err);
    free(out);
    free(err);
    char *failing[] = { (char *)bin(), "--llvm-dis", "/bin/false", "dis", file, "foo", NULL };
    cr_expect_eq(run(failing, &out, &err), 2);
    cr_expect(strstr(err, "status 1") != NULL, "%s", err);
    free(out);
    free(err);
    free(file);
}

/* Criterion's initialize/finalize pair keeps 48 bytes to the end; in a
 * sanitizer build that would fail this program. The code under test runs
 * in the mtlbx child, which keeps its own leak checking. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "detect_leaks=0"; }

/* Skip everything (exit 77) when there is nothing to test against. */
int main(int argc, char *argv[])
{
    struct stat st;
    char *exp = NULL;
    if (corpus_dir() && asprintf(&exp, "%s/expected", corpus_dir()) < 0)
        exp = NULL;
    if (!exp || stat(exp, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "SKIP: corpus not found (set MTLBX_CORPUS to ../shared/corpus)\n");
        free(exp);
        return 77;
    }
    free(exp);
    if (!bin() || access(bin(), X_OK) != 0) {
        fprintf(stderr, "SKIP: the mtlbx binary is not built (MTLBX_BIN)\n");
        return 77;
    }
    gcry_check_version(NULL);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true))
        result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}
