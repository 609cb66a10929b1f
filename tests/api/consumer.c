/* An outside program over the installed libmtlbx (issue 32): built by
 * tests/api/consumer.sh with nothing but `pkg-config --cflags --libs mtlbx`
 * from the scratch prefix, it uses only <mtlbx.h> and LIBRARY.md.
 *
 *   consumer FILE OUTDIR
 *
 * writes what the C API says about FILE, for compare_consumer.py to hold
 * against `mtlbx dump --json`, `mtlbx sig` and `mtlbx check --os`:
 *   OUTDIR/values.json      every getter's value, as JSON (strings escaped
 *                           here, NULL as null)
 *   OUTDIR/dump.json        mtlbx_json(h, 0)
 *   OUTDIR/dump-all.json    mtlbx_json(h, MTLBX_JSON_INTERFACES | MTLBX_JSON_LAYOUT)
 *   OUTDIR/declarations.txt each function's MTLBX_DECLARATION, as sig prints it
 * and checks on the way what needs no reference: a pointer handed out stays
 * the same (and its text unchanged) when asked again and after other calls,
 * the bulk getters agree with the one-function ones, a bad index or key is
 * NULL or -1 with an error, and mtlbx_free leaves nothing behind (the ASan
 * build's leak check). Exit 0; 1 with a line on stderr for what failed; 2
 * when FILE does not open (its status and error on stdout). */
#include <mtlbx.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "consumer: " __VA_ARGS__);                                                                 \
            fputc('\n', stderr);                                                                                       \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

/* A C string as a JSON string (bytes above 0x7F as they are: the file's
 * UTF-8), or null. */
static void put_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7F)
            fprintf(out, "\\u%04x", *p);
        else
            putc(*p, out);
    }
    putc('"', out);
}

static void put_int(FILE *out, int64_t v)
{
    if (v < 0)
        fputs("null", out);
    else
        fprintf(out, "%lld", (long long)v);
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void write_text(const char *dir, const char *name, const char *text)
{
    FILE *f = open_out(dir, name);
    if (text)
        fputs(text, f);
    fclose(f);
}

static const int library_keys[] = { MTLBX_CONTAINER_VERSION, MTLBX_PLATFORM, MTLBX_FILE_TYPE, MTLBX_TARGET_OS,
                                     MTLBX_OS_VERSION, MTLBX_UUID, MTLBX_REQUIRES };
static const char *const library_names[] = { "container_version", "platform", "file_type", "target_os",
                                             "os_version", "uuid", "requires" };
static const int function_keys[] = { MTLBX_NAME, MTLBX_TYPE, MTLBX_AIR_VERSION, MTLBX_MSL_VERSION, MTLBX_HASH,
                                      MTLBX_REQUIRES };
static const char *const function_names[] = { "name", "type", "air_version", "msl_version", "hash", "requires" };
#define N(a) (sizeof a / sizeof *a)

/* The bulk getters hold the same values as the one-function ones. */
static void check_bulk(mtlbx *h, int l, int64_t n)
{
    for (size_t k = 0; k < N(function_keys); k++) {
        size_t len = 0;
        const char *col = mtlbx_function_column(h, l, function_keys[k], &len);
        CHECK(col != NULL, "library %d: no column for %s: %s", l, function_names[k], mtlbx_error_string(h));
        if (!col)
            continue;
        const char *p = col;
        for (int64_t i = 0; i < n && p < col + len; i++) {
            const char *one = mtlbx_function_string(h, l, i, function_keys[k]);
            CHECK(strcmp(p, one ? one : "") == 0, "library %d function %lld: %s column \"%s\", getter \"%s\"", l,
                  (long long)i, function_names[k], p, one ? one : "(null)");
            p += strlen(p) + 1;
        }
        CHECK(p == col + len, "library %d: %s column is %zu bytes, its values end at %zu", l, function_names[k], len,
              (size_t)(p - col));
    }
    static const int int_keys[] = { MTLBX_MODULE_OFFSET, MTLBX_MODULE_SIZE, MTLBX_HASH_OK };
    int64_t *v = malloc(sizeof *v * (size_t)(n + 1));
    for (size_t k = 0; v && k < N(int_keys); k++) {
        int64_t got = mtlbx_function_ints(h, l, 0, n + 5, int_keys[k], v);
        CHECK(got == n, "library %d: mtlbx_function_ints wrote %lld of %lld", l, (long long)got, (long long)n);
        for (int64_t i = 0; i < got; i++)
            CHECK(v[i] == mtlbx_function_int(h, l, i, int_keys[k]), "library %d function %lld: int key %d differs",
                  l, (long long)i, int_keys[k]);
    }
    free(v);
}

/* What must be refused, and say so. */
static void check_refusals(mtlbx *h)
{
    int libs = mtlbx_library_count(h);
    CHECK(mtlbx_library_string(h, libs, MTLBX_PLATFORM) == NULL && *mtlbx_error_string(h),
          "a library past the last is not refused");
    CHECK(mtlbx_library_string(h, 0, MTLBX_NAME) == NULL, "a function key is taken by mtlbx_library_string");
    CHECK(mtlbx_function_string(h, 0, -1, MTLBX_NAME) == NULL, "function -1 is not refused");
    CHECK(mtlbx_function_string(h, 0, 0, 12345) == NULL, "key 12345 is not refused");
    CHECK(mtlbx_function_int(h, 0, 0, MTLBX_NAME) == -1, "a string key is taken by mtlbx_function_int");
    CHECK(mtlbx_library_int(h, 0, MTLBX_MODULE_SIZE) == -1, "a function key is taken by mtlbx_library_int");
    CHECK(mtlbx_open_filename(h, "/") == MTLBX_FAILED, "a second open is not refused");
    CHECK(mtlbx_diag(h, -1, NULL, NULL) == NULL, "finding -1 is not refused");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: consumer FILE OUTDIR\n");
        return 1;
    }
    const char *path = argv[1], *dir = argv[2];
    CHECK(mtlbx_version_number() == MTLBX_VERSION_NUMBER, "the library is %d, the header %d",
          mtlbx_version_number(), MTLBX_VERSION_NUMBER);
    CHECK(strcmp(mtlbx_version_string(), MTLBX_VERSION_STRING) == 0, "the library is %s, the header %s",
          mtlbx_version_string(), MTLBX_VERSION_STRING);
    mtlbx *h = mtlbx_new();
    if (!h)
        return 1;
    CHECK(*mtlbx_error_string(h) == '\0' && mtlbx_error_offset(h) == -1, "a new handle has an error");
    int rc = mtlbx_open_filename(h, path);
    if (rc == MTLBX_FATAL) {
        printf("fatal %d %lld %s\n", mtlbx_errno(h), (long long)mtlbx_error_offset(h), mtlbx_error_string(h));
        CHECK(mtlbx_library_count(h) == -1, "a handle whose open failed counts libraries");
        mtlbx_free(h);
        return failures ? 1 : 2;
    }
    CHECK(rc == MTLBX_OK || rc == MTLBX_WARN, "open returned %d", rc);

    /* First the documents: what the program prints. */
    const char *doc = mtlbx_json(h, 0);
    CHECK(doc != NULL, "mtlbx_json: %s", mtlbx_error_string(h));
    write_text(dir, "dump.json", doc);
    const char *all = mtlbx_json(h, MTLBX_JSON_INTERFACES | MTLBX_JSON_LAYOUT);
    CHECK(all != NULL, "mtlbx_json(INTERFACES | LAYOUT): %s", mtlbx_error_string(h));
    write_text(dir, "dump-all.json", all);
    CHECK(mtlbx_json(h, 0) == doc, "mtlbx_json gave another pointer the second time");

    FILE *out = open_out(dir, "values.json");
    FILE *decl = open_out(dir, "declarations.txt");
    int libs = mtlbx_library_count(h);
    fprintf(out, "{\"status\": %d, \"libraries\": [", rc == MTLBX_WARN ? 1 : 0);
    const char *first_name = NULL;
    for (int l = 0; l < libs; l++) {
        fprintf(out, "%s\n {", l ? "," : "");
        for (size_t k = 0; k < N(library_keys); k++) {
            fprintf(out, "\"%s\": ", library_names[k]);
            put_string(out, mtlbx_library_string(h, l, library_keys[k]));
            fputs(", ", out);
        }
        fprintf(out, "\"offset\": %lld, \"size\": %lld, \"functions\": [",
                (long long)mtlbx_library_int(h, l, MTLBX_OFFSET), (long long)mtlbx_library_int(h, l, MTLBX_SIZE));
        int64_t n = mtlbx_function_count(h, l);
        for (int64_t i = 0; i < n; i++) {
            fprintf(out, "%s\n  {", i ? "," : "");
            for (size_t k = 0; k < N(function_keys); k++) {
                fprintf(out, "\"%s\": ", function_names[k]);
                put_string(out, mtlbx_function_string(h, l, i, function_keys[k]));
                fputs(", ", out);
            }
            const char *name = mtlbx_function_string(h, l, i, MTLBX_NAME);
            if (!first_name)
                first_name = name;
            CHECK(mtlbx_function_find(h, l, name) <= i, "library %d function %lld: find(\"%s\") is %lld", l,
                  (long long)i, name, (long long)mtlbx_function_find(h, l, name));
            size_t len = 99;
            const void *module = mtlbx_function_module(h, l, i, &len);
            int64_t size = mtlbx_function_int(h, l, i, MTLBX_MODULE_SIZE);
            CHECK(module ? (int64_t)len == size : len == 0 && size == -1,
                  "library %d function %lld: module of %zu bytes, MODULE_SIZE %lld", l, (long long)i, len,
                  (long long)size);
            fprintf(out, "\"module_offset\": ");
            put_int(out, mtlbx_function_int(h, l, i, MTLBX_MODULE_OFFSET));
            fprintf(out, ", \"module_size\": ");
            put_int(out, size);
            fprintf(out, ", \"hash_ok\": %s, \"interface\": %s}",
                    mtlbx_function_int(h, l, i, MTLBX_HASH_OK) == 1 ? "true" : "false",
                    mtlbx_function_interface_json(h, l, i));
            const char *d = mtlbx_function_string(h, l, i, MTLBX_DECLARATION);
            if (d) /* as sig lays them out, without its "// requires" line */
                fprintf(decl, "%s%s", d, strchr(d, '\n') ? "\n\n" : "\n");
            else
                CHECK(*mtlbx_error_string(h) && mtlbx_error_offset(h) >= 0,
                      "library %d function %lld: no declaration, and no error with an offset", l, (long long)i);
        }
        fputs("],\n \"sources\": [", out);
        for (int64_t s = 0; s < mtlbx_source_count(h, l); s++) {
            size_t len = 0;
            const void *data = mtlbx_source_data(h, l, s, &len);
            fprintf(out, "%s{\"name\": ", s ? ", " : "");
            put_string(out, mtlbx_source_name(h, l, s));
            fprintf(out, ", \"size\": ");
            put_int(out, data ? (int64_t)len : -1);
            fputs("}", out);
        }
        fputs("]}", out);
        check_bulk(h, l, n);
    }
    int verified = mtlbx_verify(h);
    fprintf(out, "],\n\"verify\": %d, \"check_os\": [", verified == MTLBX_OK ? 0 : verified == MTLBX_WARN ? 1 : 2);
    /* Every finding check_os adds: the same as `check --os macos:14.0`. */
    int64_t before = mtlbx_diag_count(h);
    int gate = mtlbx_check_os(h, "macOS:14.0");
    for (int64_t i = before; i < mtlbx_diag_count(h); i++) {
        int sev = 0;
        int64_t off = -2;
        const char *m = mtlbx_diag(h, i, &sev, &off);
        fprintf(out, "%s[%d, %lld, ", i > before ? ", " : "", sev, (long long)off);
        put_string(out, m);
        fputs("]", out);
    }
    fprintf(out, "], \"check_os_status\": %d,\n\"diagnostics\": [", gate);
    for (int64_t i = 0; i < before; i++) {
        int sev = 0;
        int64_t off = -2;
        const char *m = mtlbx_diag(h, i, &sev, &off);
        fprintf(out, "%s[%d, %lld, ", i ? ", " : "", sev, (long long)off);
        put_string(out, m);
        fputs("]", out);
    }
    fputs("]}\n", out);
    fclose(out);
    fclose(decl);
    CHECK(mtlbx_check_os(h, "macOS") == MTLBX_FAILED && mtlbx_check_os(h, "amigaOS:1.0") == MTLBX_FAILED,
          "check_os takes what it should refuse");

    /* The gate, as `check --json --os macOS:14.0 --expect LIST` runs it
     * (compare_consumer.py runs the program): a list read from a file and
     * the same lines handed over as text find the same things. */
    char list[4096];
    snprintf(list, sizeof list, "%s/expected.txt", dir);
    static const char names[] = "# what the consumer expects\nno_such_function_in_any_library\n";
    FILE *lf = fopen(list, "w");
    CHECK(lf && fputs(names, lf) >= 0 && fclose(lf) == 0, "cannot write %s", list);
    mtlbx_gate *g = mtlbx_gate_new(), *gt = mtlbx_gate_new();
    CHECK(g && gt, "mtlbx_gate_new ran out of memory");
    if (g && gt) {
        CHECK(mtlbx_gate_os(g, "macOS:14.0") == MTLBX_OK && mtlbx_gate_os(gt, "macOS:14.0") == MTLBX_OK,
              "mtlbx_gate_os refuses macOS:14.0");
        CHECK(mtlbx_gate_os(g, "amigaOS:1.0") == MTLBX_FAILED && mtlbx_gate_errno(g) == EINVAL,
              "mtlbx_gate_os takes amigaOS:1.0");
        CHECK(mtlbx_gate_expect(g, list) == MTLBX_OK, "mtlbx_gate_expect(%s): %s", list,
              mtlbx_gate_error_string(g));
        CHECK(mtlbx_gate_expect_text(gt, list, names, sizeof names - 1) == MTLBX_OK,
              "mtlbx_gate_expect_text: %s", mtlbx_gate_error_string(gt));
        int gs = mtlbx_gate_add_path(g, path), gts = mtlbx_gate_add_path(gt, path);
        CHECK(gs == gts && mtlbx_gate_finding_count(g) == mtlbx_gate_finding_count(gt),
              "the list as a file and as text: status %d and %d, %zu and %zu findings", gs, gts,
              mtlbx_gate_finding_count(g), mtlbx_gate_finding_count(gt));
        FILE *gj = open_out(dir, "gate.json");
        fprintf(gj, "{\"status\": %d, \"findings\": [", gs);
        for (size_t i = 0; i < mtlbx_gate_finding_count(g); i++) {
            const char *file = NULL, *rule = NULL;
            int64_t off = -2;
            int sev = 0;
            const char *m = mtlbx_gate_finding(g, i, &file, &off, &sev, &rule);
            const char *mt = mtlbx_gate_finding(gt, i, NULL, NULL, NULL, NULL);
            CHECK(m && mt && strcmp(m, mt) == 0, "finding %zu differs between the list as a file and as text", i);
            fprintf(gj, "%s[", i ? ", " : "");
            put_string(gj, file);
            fprintf(gj, ", %lld, \"%s\", ", (long long)off, sev == MTLBX_SEVERITY_ERROR ? "error" : "warning");
            put_string(gj, m);
            fputs(", ", gj);
            put_string(gj, rule);
            fputs(", ", gj);
            put_string(gj, mtlbx_gate_finding_member(g, i));
            fputs("]", gj);
        }
        CHECK(mtlbx_gate_finding(g, mtlbx_gate_finding_count(g), NULL, NULL, NULL, NULL) == NULL &&
                  mtlbx_gate_finding_member(g, mtlbx_gate_finding_count(g)) == NULL,
              "a finding past the end is not NULL");
        fputs("], \"problems\": [", gj);
        for (size_t i = 0; i < mtlbx_gate_problem_count(g); i++) {
            const char *pp = NULL;
            int64_t off = -2;
            const char *m = mtlbx_gate_problem(g, i, &pp, &off);
            fprintf(gj, "%s[", i ? ", " : "");
            put_string(gj, pp);
            fprintf(gj, ", %lld, ", (long long)off);
            put_string(gj, m);
            fputs("]", gj);
        }
        fputs("]}\n", gj);
        CHECK(fclose(gj) == 0, "cannot write gate.json");
    }
    mtlbx_gate_free(g);
    mtlbx_gate_free(gt);
    mtlbx_gate_free(NULL);

    /* Nothing handed out moved or changed under the calls since. */
    if (libs > 0 && mtlbx_function_count(h, 0) > 0) {
        CHECK(mtlbx_function_string(h, 0, 0, MTLBX_NAME) == first_name, "a function's name moved");
        CHECK(mtlbx_json(h, 0) == doc, "the JSON document moved");
        check_refusals(h);
    }
    mtlbx_free(h);
    mtlbx_free(NULL);
    return failures ? 1 : 0;
}
