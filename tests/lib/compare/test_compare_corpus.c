/* `mtlbx diff --json` on pairs of real libraries from the corpus (versions
 * of the same kernels built by successive Metal.jl toolchains, ANGLE
 * builds, fat runtime libraries for several platforms) checked against a
 * diff computed here, independently, from the two `mtlbx dump --json`
 * documents: functions paired by name and occurrence (the k-th of a name
 * with the k-th: issue 35), the fields of CONTRACT.md compared as JSON
 * values, header keys, source member names (real libraries repeat them:
 * one archive per compiled file, each holding common.h).
 * With --verify every field must agree exactly; without it, hash_ok counts
 * only where the stored hashes or the module sizes differ (the documented
 * trade-off).
 * Exits 77 (skip) when the corpus or the binary is missing. */
#include "config.h"

#include "testenv.h"

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const pairs[][2] = {
    { "metaljl-kernel.11", "metaljl-kernel.12" },       { "metaljl-kernel.12", "metaljl-kernel.13" },
    { "metaljl-kernel.13", "metaljl-kernel.26" },       { "metaljl-kernel.11", "metaljl-kernel.26" },
    { "metaljl-kernels.11", "metaljl-kernels.12" },     { "metaljl-kernels.13", "metaljl-kernels.26" },
    { "metaljl-constants.11", "metaljl-constants.13" }, { "metaljl-constants.12", "metaljl-constants.26" },
    { "metaljl-debuginfo.11", "metaljl-debuginfo.12" }, { "metaljl-debuginfo.13", "metaljl-debuginfo.26" },
    { "metaljl-sources.11", "metaljl-sources.12" },     { "metaljl-sources.12", "metaljl-sources.26" },
    { "angle-mac-msl21-v124", "angle-mac-msl21-debug-hsrc" },
    { "angle-2019-ios-v123-nomdsz", "angle-mac-msl21-v124" },
    { "metalangle-tvos-msl21", "angle-mac-msl21-v124" },
    { "libtracepoint-rt-ios-fat", "libtracepoint-rt-osx-fat" },
    { "libtracepoint-rt-osx-fat", "libtracepoint-rt-xros" },
    { "metalfloat64-dynamic-7fn", "metalfloat64-dynamic-empty" },
    { "yuao-test", "yuao-empty" },
};

static const char *const header_keys[] = { "requires", "container_version", "platform", "file_type", "stub", "target_os",
                                           "os_version", "uuid", "header_extension", "dynamic_header" };
static const char *const function_keys[] = { "hash", "hash_ok", "type", "air_version", "language_version",
                                             "tags", "constants", "vertex_attributes" };

static char *corpus_file(const char *base)
{
    char *p = NULL;
    cr_assert(asprintf(&p, "%s/%s.metallib", testenv("MTLBX_CORPUS"), base) > 0);
    return p;
}

static json_t *run_json(char *const argv[], int want_status)
{
    char *out, *err;
    size_t ol, el;
    int st = run_capture(argv, &out, &ol, &err, &el);
    if (want_status >= 0)
        cr_assert_eq(st, want_status, "%s %s %s: exit %d: %s", argv[1], argv[2], argv[3], st, err);
    else
        cr_assert(st == 0 || st == 1, "%s %s %s: exit %d: %s", argv[1], argv[2], argv[3], st, err);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    cr_assert(j, "%s %s: bad JSON: %s", argv[1], argv[2], je.text);
    free(out);
    free(err);
    return j;
}

static json_t *dump(const char *path)
{
    char *argv[] = { (char *)testenv("MTLBX_BIN"), "dump", "--json", (char *)path, NULL };
    return run_json(argv, 0);
}

/* A name and its occurrence as one key, "NAME\x01KKKKKKKKKK": keys sort
 * as the diff's lists do (by name, then occurrence) for names without
 * control characters, which the corpus's are. */
static char *key_of(const char *name, long k)
{
    char *key = NULL;
    cr_assert(asprintf(&key, "%s\x01%010ld", name, k) > 0);
    return key;
}

/* Adds the next occurrence of name to m (name -> count) and returns its key. */
static char *next_key(json_t *counts, const char *name)
{
    long k = json_integer_value(json_object_get(counts, name)) + 1;
    json_object_set_new(counts, name, json_integer(k));
    return key_of(name, k);
}

/* Every function of a library, keyed by name and occurrence. */
static json_t *by_name(json_t *lib)
{
    json_t *m = json_object(), *counts = json_object(), *fn;
    size_t k;
    json_array_foreach(lib ? json_object_get(lib, "functions") : NULL, k, fn) {
        char *key = next_key(counts, json_string_value(json_object_get(fn, "name")));
        json_object_set(m, key, fn);
        free(key);
    }
    json_decref(counts);
    return m;
}

/* A list of names from the diff, with its parallel "<list>_occurrences"
 * (absent: every one the first of its name), as keys. */
static json_t *keys_of(json_t *names, json_t *occurrences)
{
    json_t *keys = json_array(), *n;
    size_t k;
    if (occurrences)
        cr_assert_eq(json_array_size(occurrences), json_array_size(names), "occurrences not parallel to names");
    json_array_foreach(names, k, n) {
        long occ = occurrences ? (long)json_integer_value(json_array_get(occurrences, k)) : 1;
        cr_assert(occ >= 1, "occurrence %ld", occ);
        char *key = key_of(json_string_value(n), occ);
        json_array_append_new(keys, json_string(key));
        free(key);
    }
    return keys;
}

static int cmp_str(const void *p, const void *q)
{
    return strcmp(json_string_value(*(json_t *const *)p), json_string_value(*(json_t *const *)q));
}

static json_t *sorted(json_t *names)
{
    size_t n = json_array_size(names);
    json_t **v = malloc((n ? n : 1) * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = json_array_get(names, k);
    qsort(v, n, sizeof *v, cmp_str);
    json_t *out = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append(out, v[k]);
    free(v);
    json_decref(names);
    return out;
}

/* Names in x that are not in y, sorted. */
static json_t *only_in(json_t *x, json_t *y)
{
    json_t *names = json_array();
    const char *name;
    json_t *v;
    json_object_foreach(x, name, v)
        if (!json_object_get(y, name))
            json_array_append_new(names, json_string(name));
    return sorted(names);
}

/* Changes as the diff gives them, each {"name", "fields", "occurrence"
 * when a later one}, as {"key", "fields"}. */
static json_t *changes_by_key(json_t *changed)
{
    json_t *out = json_array(), *c;
    size_t k;
    json_array_foreach(changed, k, c) {
        json_t *occ = json_object_get(c, "occurrence");
        cr_assert(!occ || json_integer_value(occ) >= 2, "occurrence key for a first one");
        char *key = key_of(json_string_value(json_object_get(c, "name")), occ ? (long)json_integer_value(occ) : 1);
        json_array_append_new(out, json_pack("{s:s,s:O}", "key", key, "fields", json_object_get(c, "fields")));
        free(key);
    }
    return out;
}

static json_t *expected_changed(json_t *ma, json_t *mb, bool verify)
{
    json_t *changed = json_array(), *fa;
    const char *name;
    json_t *names = json_array();
    json_object_foreach(ma, name, fa)
        if (json_object_get(mb, name))
            json_array_append_new(names, json_string(name));
    names = sorted(names);
    size_t k;
    json_t *jn;
    json_array_foreach(names, k, jn) {
        json_t *x = json_object_get(ma, json_string_value(jn)), *y = json_object_get(mb, json_string_value(jn));
        bool same_hash = json_equal(json_object_get(x, "hash"), json_object_get(y, "hash"));
        json_t *mx = json_object_get(x, "module"), *my = json_object_get(y, "module");
        bool same_span = json_is_null(mx) == json_is_null(my) &&
                         (json_is_null(mx) || json_equal(json_object_get(mx, "size"), json_object_get(my, "size")));
        json_t *fields = json_array();
        for (size_t f = 0; f < sizeof function_keys / sizeof *function_keys; f++) {
            json_t *va = json_object_get(x, function_keys[f]), *vb = json_object_get(y, function_keys[f]);
            if (strcmp(function_keys[f], "hash_ok") == 0 && !verify && same_hash && same_span)
                continue;
            if (!json_equal(va, vb))
                json_array_append_new(fields, json_pack("{s:s,s:O,s:O}", "field", function_keys[f], "a", va, "b", vb));
        }
        if (json_array_size(fields))
            json_array_append_new(changed, json_pack("{s:O,s:o}", "key", jn, "fields", fields));
        else
            json_decref(fields);
    }
    json_decref(names);
    return changed;
}

/* The dumps hold no interfaces (that is `dump --interfaces`), so the
 * interface field is checked on its own terms and then removed: it appears
 * only where the hashes differ, its two sides differ, and it names what
 * changed; a function changed in nothing else leaves the list. */
static void strip_interfaces(json_t *fns, const char *a, const char *b)
{
    json_t *changed = json_object_get(fns, "changed");
    for (size_t k = json_array_size(changed); k-- > 0;) {
        json_t *c = json_array_get(changed, k), *fields = json_object_get(c, "fields");
        bool hash_differs = false;
        size_t f;
        json_t *field;
        json_array_foreach(fields, f, field)
            hash_differs |= strcmp(json_string_value(json_object_get(field, "field")), "hash") == 0;
        for (size_t i = json_array_size(fields); i-- > 0;) {
            field = json_array_get(fields, i);
            if (strcmp(json_string_value(json_object_get(field, "field")), "interface") != 0)
                continue;
            cr_assert(hash_differs, "%s %s: interface changed with the same hash", a, b);
            cr_assert_not(json_equal(json_object_get(field, "a"), json_object_get(field, "b")),
                          "%s %s: interface field with equal sides", a, b);
            cr_assert_gt(json_array_size(json_object_get(field, "changes")), 0, "%s %s: no changes named", a, b);
            json_array_remove(fields, i);
        }
        if (json_array_size(fields) == 0)
            json_array_remove(changed, k);
    }
}

/* The added and removed lists of a diff object (functions or sources) as
 * sorted keys, with its renames (same stored HASH, or same member bytes)
 * put back as the dumps, which pair by name only, see them: one removed
 * and one added, after checking what the dumps can (the two hashes, or
 * sizes). */
static void unfold_renamed(json_t *obj, json_t *by_a, json_t *by_b, const char *key, const char *a, const char *b,
                           json_t **added, json_t **removed)
{
    *added = keys_of(json_object_get(obj, "added"), json_object_get(obj, "added_occurrences"));
    *removed = keys_of(json_object_get(obj, "removed"), json_object_get(obj, "removed_occurrences"));
    json_t *renamed = json_object_get(obj, "renamed"), *r;
    size_t k;
    json_array_foreach(renamed, k, r) {
        json_t *oa = json_object_get(r, "a_occurrence"), *ob = json_object_get(r, "b_occurrence");
        char *ka = key_of(json_string_value(json_object_get(r, "a")), oa ? (long)json_integer_value(oa) : 1);
        char *kb = key_of(json_string_value(json_object_get(r, "b")), ob ? (long)json_integer_value(ob) : 1);
        json_t *x = json_object_get(by_a, ka), *y = json_object_get(by_b, kb);
        cr_assert(x && y, "%s %s: a rename of names not in the dumps", a, b);
        cr_assert(json_equal(key ? json_object_get(x, key) : x, key ? json_object_get(y, key) : y),
                  "%s %s: renamed but not the same %s", a, b, key ? key : "size");
        json_array_append_new(*removed, json_string(ka));
        json_array_append_new(*added, json_string(kb));
        free(ka), free(kb);
    }
    *added = sorted(*added);
    *removed = sorted(*removed);
}

/* Every member of every archive, keyed by name and occurrence (archive
 * order, then member order). */
static json_t *member_names(json_t *lib)
{
    json_t *m = json_object(), *counts = json_object(), *arch, *mem;
    size_t k, j;
    json_t *src = lib ? json_object_get(lib, "sources") : NULL;
    json_array_foreach(src ? json_object_get(src, "archives") : NULL, k, arch)
        json_array_foreach(json_object_get(arch, "members"), j, mem) {
            char *key = next_key(counts, json_string_value(json_object_get(mem, "name")));
            json_object_set(m, key, json_object_get(mem, "size"));
            free(key);
        }
    json_decref(counts);
    return m;
}

static void check_pair(const char *a, const char *b, bool verify)
{
    char *pa = corpus_file(a), *pb = corpus_file(b);
    json_t *da = dump(pa), *db = dump(pb);
    char *argv[] = { (char *)testenv("MTLBX_BIN"), "diff", pa, pb, "--json", verify ? "--verify" : NULL, NULL };
    json_t *d = run_json(argv, -1);
    json_t *la = json_object_get(da, "libraries"), *lb = json_object_get(db, "libraries");
    size_t n = json_array_size(la) > json_array_size(lb) ? json_array_size(la) : json_array_size(lb);
    json_t *libs = json_object_get(d, "libraries");
    cr_assert_eq(json_array_size(libs), n, "%s %s: library count", a, b);
    bool identical = json_array_size(la) == json_array_size(lb);
    for (size_t l = 0; l < n; l++) {
        json_t *x = json_array_get(la, l), *y = json_array_get(lb, l), *got = json_array_get(libs, l);
        /* Header keys. */
        json_t *header = json_array();
        for (size_t k = 0; x && y && k < sizeof header_keys / sizeof *header_keys; k++)
            if (!json_equal(json_object_get(x, header_keys[k]), json_object_get(y, header_keys[k])))
                json_array_append_new(header, json_pack("{s:s,s:O,s:O}", "field", header_keys[k], "a",
                                                        json_object_get(x, header_keys[k]), "b",
                                                        json_object_get(y, header_keys[k])));
        cr_assert(json_equal(header, json_object_get(got, "header")), "%s %s: header\nexpected %s\ngot %s", a, b,
                  json_dumps(header, JSON_COMPACT), json_dumps(json_object_get(got, "header"), JSON_COMPACT));
        /* Functions, by name and occurrence. */
        json_t *ma = by_name(x), *mb = by_name(y);
        json_t *exp = json_pack("{s:o,s:o,s:o}", "added", only_in(mb, ma), "removed", only_in(ma, mb), "changed",
                                expected_changed(ma, mb, verify));
        json_t *fns = json_object_get(got, "functions");
        strip_interfaces(fns, a, b);
        json_t *fa, *fr;
        unfold_renamed(fns, ma, mb, "hash", a, b, &fa, &fr);
        json_t *seen = json_pack("{s:o,s:o,s:o}", "added", fa, "removed", fr, "changed",
                                 changes_by_key(json_object_get(fns, "changed")));
        cr_assert(json_equal(exp, seen), "%s %s (verify %d): functions\nexpected %s\ngot      %s", a, b, verify,
                  json_dumps(exp, JSON_COMPACT), json_dumps(seen, JSON_COMPACT));
        json_decref(seen);
        /* Source members by name and occurrence; a different size must be
         * a change. */
        json_t *sa = member_names(x), *sb = member_names(y), *src = json_object_get(got, "sources");
        json_t *added = only_in(sb, sa), *removed = only_in(sa, sb), *sadded, *sremoved;
        unfold_renamed(src, sa, sb, NULL, a, b, &sadded, &sremoved);
        cr_assert(json_equal(added, sadded), "%s %s: sources added\nexpected %s\ngot      %s", a, b,
                  json_dumps(added, JSON_COMPACT), json_dumps(sadded, JSON_COMPACT));
        cr_assert(json_equal(removed, sremoved), "%s %s: sources removed", a, b);
        json_decref(sadded), json_decref(sremoved);
        json_t *changed_keys = keys_of(json_object_get(src, "changed"), json_object_get(src, "changed_occurrences"));
        const char *mname;
        json_t *size;
        json_object_foreach(sa, mname, size) {
            json_t *other = json_object_get(sb, mname), *c;
            size_t k;
            bool listed = false;
            json_array_foreach(changed_keys, k, c)
                listed |= strcmp(json_string_value(c), mname) == 0;
            if (other && !json_equal(size, other))
                cr_assert(listed, "%s %s: member %s changed size but is not listed", a, b, mname);
            if (listed)
                cr_assert(other, "%s %s: changed member %s is not in B", a, b, mname);
        }
        json_decref(changed_keys);
        identical = identical && json_array_size(header) == 0 && json_array_size(json_object_get(fns, "added")) == 0 &&
                    json_array_size(json_object_get(fns, "removed")) == 0 &&
                    json_array_size(json_object_get(fns, "changed")) == 0 &&
                    json_array_size(json_object_get(src, "added")) == 0 &&
                    json_array_size(json_object_get(src, "removed")) == 0 &&
                    json_array_size(json_object_get(src, "changed")) == 0;
        json_decref(header), json_decref(ma), json_decref(mb), json_decref(exp);
        json_decref(sa), json_decref(sb), json_decref(added), json_decref(removed);
    }
    cr_assert_eq(json_is_true(json_object_get(d, "identical")), identical, "%s %s: identical", a, b);
    json_decref(da), json_decref(db), json_decref(d);
    free(pa), free(pb);
}

static bool corpus_present(void)
{
    const char *c = testenv("MTLBX_CORPUS"), *bin = testenv("MTLBX_BIN");
    char *p = NULL;
    if (!c || !bin || asprintf(&p, "%s/metaljl-kernel.11.metallib", c) < 0)
        return false;
    bool ok = access(p, R_OK) == 0 && access(bin, X_OK) == 0;
    free(p);
    return ok;
}

Test(compare_corpus, verified_diff_matches_the_dumps)
{
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        check_pair(pairs[k][0], pairs[k][1], true);
        check_pair(pairs[k][1], pairs[k][0], true);
    }
}

Test(compare_corpus, stored_hash_diff_matches_the_dumps)
{
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
        check_pair(pairs[k][0], pairs[k][1], false);
}

Test(compare_corpus, every_file_against_itself_is_identical)
{
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
        check_pair(pairs[k][0], pairs[k][0], true);
}

int main(int argc, char **argv)
{
    if (!corpus_present()) {
        fprintf(stderr, "SKIP: the corpus (MTLBX_CORPUS) or the binary (MTLBX_BIN) is missing\n");
        return 77;
    }
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true))
        result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}
