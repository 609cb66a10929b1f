/* An outside program over the installed libmtlbx's writer (issues 32 and
 * 33, LIBRARY.md "The writer"): built by tests/api/writer.sh with nothing
 * but `pkg-config --cflags --libs mtlbx`, it uses only <mtlbx.h>.
 *
 *   writer_consumer pack LIB OUT MODDIR [some]
 *       LIB's modules, as mtlbx_function_module gives them, into a new
 *       library for LIB's own target (its header's target OS and version),
 *       written with mtlbx_writer_write_filename to OUT; each module is
 *       also written to MODDIR/NNNNN.air (function-list order) for the
 *       script to pack with `mtlbx pack` and compare byte for byte. OUT,
 *       opened again with mtlbx_open_filename, must read without a finding
 *       and hold the same functions (name, type, AIR and MSL versions,
 *       HASH, module bytes) and container version as LIB, and be the bytes
 *       mtlbx_writer_write_memory gives. With "some", modules the writer
 *       refuses are left out (each refusal must say why), else each must
 *       be taken. Exit 3: LIB is not a plain executable library with a
 *       target and a function (nothing to do).
 *   writer_consumer hostile LIB DIR
 *       the refusals of LIBRARY.md (a module that is not AIR bitcode,
 *       every truncation and every one-byte change of LIB's first module
 *       the writer takes, two functions with one name, an unknown target
 *       or key), each MTLBX_FAILED with a one-line reason, never a crash;
 *       and the writes in DIR (empty): whole or none, nothing left behind
 *       on a failure (a full disk: RLIMIT_FSIZE), an existing file
 *       replaced only whole.
 * Exit 0; 1 with lines on stderr for what failed. */
#include <mtlbx.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "writer_consumer: " __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                                       \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *len = n;
    return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* The entries of dir but . and .., joined by spaces. */
static void entries(const char *dir, char *out, size_t size)
{
    DIR *d = opendir(dir);
    out[0] = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? " " : "", e->d_name);
    if (d)
        closedir(d);
}

/* "macOS:14.0.0" from LIB's header, or 0 when it is not a plain executable
 * library with a target and a function. */
static int own_target(mtlbx *h, char *target, size_t size)
{
    if (mtlbx_library_count(h) != 1 || mtlbx_library_int(h, 0, MTLBX_OFFSET) != 0 ||
        mtlbx_function_count(h, 0) < 1)
        return 0;
    const char *type = mtlbx_library_string(h, 0, MTLBX_FILE_TYPE);
    const char *os = mtlbx_library_string(h, 0, MTLBX_TARGET_OS);
    const char *version = mtlbx_library_string(h, 0, MTLBX_OS_VERSION);
    if (!same(type, "executable") || !os || !version || strcmp(os, "unknown") == 0)
        return 0;
    snprintf(target, size, "%s:%s", os, version);
    return 1;
}

/* A refusal: MTLBX_FAILED and one line of reason. */
static void refused(mtlbx_writer *w, int rc, const char *what)
{
    const char *why = mtlbx_writer_error_string(w);
    CHECK(rc == MTLBX_FAILED, "%s: status %d, not MTLBX_FAILED (%s)", what, rc, why);
    CHECK(why && *why && !strchr(why, '\n'), "%s: refused without a one-line reason (\"%s\")", what,
          why ? why : "(null)");
}

static int pack(const char *path, const char *out, const char *moddir, int some)
{
    mtlbx *h = mtlbx_new();
    char target[64];
    if (!h || mtlbx_open_filename(h, path) == MTLBX_FATAL || !own_target(h, target, sizeof target)) {
        mtlbx_free(h);
        return 3;
    }
    mtlbx_writer *w = mtlbx_writer_new();
    CHECK(w && mtlbx_writer_target(w, target) == MTLBX_OK, "%s: target %s: %s", path, target,
          mtlbx_writer_error_string(w));
    int64_t n = mtlbx_function_count(h, 0), taken = 0;
    char *kept = calloc((size_t)n, 1);
    for (int64_t i = 0; kept && i < n; i++) {
        size_t len = 0;
        const void *module = mtlbx_function_module(h, 0, i, &len);
        const char *name = mtlbx_function_string(h, 0, i, MTLBX_NAME);
        int rc = mtlbx_writer_add_function(w, module, len);
        if (rc != MTLBX_OK && some) {
            refused(w, rc, name);
            continue;
        }
        CHECK(rc == MTLBX_OK, "%s: function %s is refused: %s", path, name, mtlbx_writer_error_string(w));
        if (rc != MTLBX_OK)
            continue;
        kept[i] = 1;
        char p[4096];
        snprintf(p, sizeof p, "%s/%05lld.air", moddir, (long long)taken++);
        write_file(p, module, len);
    }
    CHECK(taken >= (some ? 3 : n), "%s: the writer took %lld of %lld modules", path, (long long)taken,
          (long long)n);
    const void *bytes = NULL;
    size_t size = 0;
    CHECK(mtlbx_writer_write_memory(w, &bytes, &size) == MTLBX_OK, "%s: write_memory: %s", path,
          mtlbx_writer_error_string(w));
    CHECK(mtlbx_writer_write_filename(w, out) == MTLBX_OK, "%s: write_filename: %s", path,
          mtlbx_writer_error_string(w));
    size_t flen = 0;
    unsigned char *file = read_file(out, &flen);
    CHECK(file && bytes && flen == size && memcmp(file, bytes, size) == 0,
          "%s: the file written is not the bytes write_memory gave", path);
    free(file);

    /* Read back by the library, as any reader would. */
    mtlbx *g = mtlbx_new();
    int rc = g ? mtlbx_open_filename(g, out) : MTLBX_FATAL;
    CHECK(rc == MTLBX_OK, "%s packed: opens with status %d: %s", path, rc, g ? mtlbx_error_string(g) : "");
    CHECK(rc != MTLBX_FATAL && mtlbx_diag_count(g) == 0, "%s packed: has findings: %s", path,
          mtlbx_diag(g, 0, NULL, NULL));
    CHECK(rc != MTLBX_FATAL && mtlbx_verify(g) == MTLBX_OK, "%s packed: a HASH is not its module's", path);
    CHECK(rc != MTLBX_FATAL && mtlbx_function_count(g, 0) == taken, "%s packed: %lld functions, %lld added", path,
          (long long)mtlbx_function_count(g, 0), (long long)taken);
    static const int lib_keys[] = { MTLBX_CONTAINER_VERSION, MTLBX_PLATFORM, MTLBX_FILE_TYPE, MTLBX_TARGET_OS,
                                    MTLBX_OS_VERSION };
    for (size_t k = 0; rc != MTLBX_FATAL && k < sizeof lib_keys / sizeof *lib_keys; k++) {
        const char *a = mtlbx_library_string(h, 0, lib_keys[k]), *b = mtlbx_library_string(g, 0, lib_keys[k]);
        CHECK(same(a, b), "%s packed: library key %d is %s, the original's %s", path, lib_keys[k], b ? b : "null",
              a ? a : "null");
    }
    static const int fn_keys[] = { MTLBX_TYPE, MTLBX_AIR_VERSION, MTLBX_MSL_VERSION, MTLBX_HASH };
    for (int64_t i = 0, j = 0; rc != MTLBX_FATAL && kept && i < n; i++) {
        if (!kept[i])
            continue;
        const char *name = mtlbx_function_string(h, 0, i, MTLBX_NAME);
        CHECK(same(mtlbx_function_string(g, 0, j, MTLBX_NAME), name), "%s packed: function %lld is not %s", path,
              (long long)j, name);
        CHECK(mtlbx_function_find(g, 0, name) == j, "%s packed: %s is not found at %lld", path, name, (long long)j);
        for (size_t k = 0; k < sizeof fn_keys / sizeof *fn_keys; k++) {
            const char *a = mtlbx_function_string(h, 0, i, fn_keys[k]), *b = mtlbx_function_string(g, 0, j, fn_keys[k]);
            CHECK(same(a, b), "%s packed: %s: key %d is %s, the original's %s", path, name, fn_keys[k],
                  b ? b : "null", a ? a : "null");
        }
        size_t la = 0, lb = 0;
        const void *ma = mtlbx_function_module(h, 0, i, &la), *mb = mtlbx_function_module(g, 0, j, &lb);
        CHECK(ma && mb && la == lb && memcmp(ma, mb, la) == 0, "%s packed: %s: the module differs", path, name);
        CHECK(mtlbx_function_int(g, 0, j, MTLBX_HASH_OK) == 1, "%s packed: %s: HASH_OK is not 1", path, name);
        j++;
    }
    free(kept);
    mtlbx_free(g);
    mtlbx_writer_free(w);
    mtlbx_free(h);
    return failures ? 1 : 0;
}

/* The first module of h the writer takes for `target`, copied; NULL none. */
static unsigned char *first_taken(mtlbx *h, const char *target, size_t *len)
{
    for (int64_t i = 0; i < mtlbx_function_count(h, 0); i++) {
        const void *m = mtlbx_function_module(h, 0, i, len);
        mtlbx_writer *w = mtlbx_writer_new();
        int ok = m && w && mtlbx_writer_target(w, target) == MTLBX_OK &&
                 mtlbx_writer_add_function(w, m, *len) == MTLBX_OK;
        mtlbx_writer_free(w);
        unsigned char *copy = ok ? malloc(*len) : NULL;
        if (copy) {
            memcpy(copy, m, *len);
            return copy;
        }
    }
    return NULL;
}

/* One hostile module for a new writer: taken (then written and read back
 * without a crash) or refused with a reason. */
static void try_module(const char *target, const unsigned char *air, size_t len, const char *what)
{
    mtlbx_writer *w = mtlbx_writer_new();
    if (!w || mtlbx_writer_target(w, target) != MTLBX_OK) {
        CHECK(0, "%s: no writer for %s", what, target);
        mtlbx_writer_free(w);
        return;
    }
    int rc = mtlbx_writer_add_function(w, air, len);
    if (rc != MTLBX_OK) {
        refused(w, rc, what);
    } else {
        const void *out = NULL;
        size_t n = 0;
        rc = mtlbx_writer_write_memory(w, &out, &n);
        if (rc == MTLBX_OK) {
            mtlbx *g = mtlbx_new();
            int st = mtlbx_open_memory(g, out, n);
            CHECK(st == MTLBX_OK || st == MTLBX_WARN, "%s: taken, written, and the library does not open: %s",
                  what, mtlbx_error_string(g));
            mtlbx_verify(g);
            mtlbx_free(g);
        } else {
            refused(w, rc, what);
        }
    }
    mtlbx_writer_free(w);
}

static int hostile(const char *path, const char *dir)
{
    mtlbx *h = mtlbx_new();
    char target[64];
    if (!h || mtlbx_open_filename(h, path) == MTLBX_FATAL || !own_target(h, target, sizeof target)) {
        fprintf(stderr, "writer_consumer: %s is not an executable library with a target\n", path);
        mtlbx_free(h);
        return 1;
    }
    size_t len = 0;
    unsigned char *air = first_taken(h, target, &len);
    if (!air) {
        fprintf(stderr, "writer_consumer: the writer takes no module of %s\n", path);
        mtlbx_free(h);
        return 1;
    }
    char out[4096], seen[8192], what[64];
    snprintf(out, sizeof out, "%s/out.metallib", dir);

    /* LIBRARY.md's refusals, on one writer that stays usable after each. */
    mtlbx_writer *w = mtlbx_writer_new();
    refused(w, mtlbx_writer_write_filename(w, out), "a write before a target");
    refused(w, mtlbx_writer_target(w, "amigaOS:1.0"), "target amigaOS:1.0");
    refused(w, mtlbx_writer_target(w, "macOS"), "target macOS (no version)");
    refused(w, mtlbx_writer_target(w, NULL), "target NULL");
    refused(w, mtlbx_writer_add_function(w, "not a module at all", 19), "a module that is not AIR bitcode");
    refused(w, mtlbx_writer_add_function(w, NULL, 0), "an empty module");
    CHECK(mtlbx_writer_add_function(w, air, len) == MTLBX_OK, "the module is refused: %s",
          mtlbx_writer_error_string(w));
    CHECK(*mtlbx_writer_error_string(w) == 0, "a call that succeeded left the error \"%s\"",
          mtlbx_writer_error_string(w));
    refused(w, mtlbx_writer_add_function(w, air, len), "two functions with one name");
    refused(w, mtlbx_writer_set(w, 12345, "x"), "key 12345");
    refused(w, mtlbx_writer_set(w, MTLBX_HASH, "00"), "key MTLBX_HASH (computed, never set)");
    refused(w, mtlbx_writer_set(w, MTLBX_PLATFORM, "Amiga"), "platform Amiga");
    refused(w, mtlbx_writer_set(w, MTLBX_UUID, "xyz"), "UUID xyz");
    refused(w, mtlbx_writer_add_source(w, "", "x", 1), "a source with no name");
    entries(dir, seen, sizeof seen);
    CHECK(!*seen, "refused calls left files behind: %s", seen);

    /* Writes: whole, replaced whole, and nothing on a failure. */
    CHECK(mtlbx_writer_target(w, target) == MTLBX_OK, "target %s: %s", target, mtlbx_writer_error_string(w));
    CHECK(mtlbx_writer_write_filename(w, out) == MTLBX_OK, "write_filename: %s", mtlbx_writer_error_string(w));
    size_t first_len = 0;
    unsigned char *first = read_file(out, &first_len);
    CHECK(mtlbx_writer_set(w, MTLBX_NAME, "@rpath/grown.metallib") == MTLBX_OK, "set MTLBX_NAME: %s",
          mtlbx_writer_error_string(w));
    CHECK(mtlbx_writer_write_filename(w, out) == MTLBX_OK, "write_filename again: %s", mtlbx_writer_error_string(w));
    size_t second_len = 0;
    unsigned char *second = read_file(out, &second_len);
    const void *mem = NULL;
    size_t mem_len = 0;
    CHECK(mtlbx_writer_write_memory(w, &mem, &mem_len) == MTLBX_OK && second && mem_len == second_len &&
              memcmp(mem, second, mem_len) == 0 && second_len > first_len,
          "the file written over the first is not the grown library whole");
    entries(dir, seen, sizeof seen);
    CHECK(strcmp(seen, "out.metallib") == 0, "after two writes the folder holds: %s", seen);

    /* A full disk: the file size limit stops the write partway. */
    struct rlimit old, small = { second_len / 2, 0 };
    signal(SIGXFSZ, SIG_IGN);
    if (getrlimit(RLIMIT_FSIZE, &old) == 0 && old.rlim_cur > second_len) {
        small.rlim_max = old.rlim_max;
        setrlimit(RLIMIT_FSIZE, &small);
        CHECK(mtlbx_writer_set(w, MTLBX_NAME, "@rpath/third.metallib") == MTLBX_OK, "set MTLBX_NAME");
        refused(w, mtlbx_writer_write_filename(w, out), "a write past the file size limit");
        setrlimit(RLIMIT_FSIZE, &old);
        size_t now_len = 0;
        unsigned char *now = read_file(out, &now_len);
        CHECK(now && now_len == second_len && memcmp(now, second, now_len) == 0,
              "a failed write changed the file it was to replace");
        free(now);
        entries(dir, seen, sizeof seen);
        CHECK(strcmp(seen, "out.metallib") == 0, "a failed write left behind: %s", seen);
    } else {
        CHECK(0, "the file size limit is below the library's %zu bytes already", second_len);
    }
    char p[4096];
    snprintf(p, sizeof p, "%s/no/such/folder/x.metallib", dir);
    refused(w, mtlbx_writer_write_filename(w, p), "a write into a folder that does not exist");
    refused(w, mtlbx_writer_write_filename(w, dir), "a write onto a folder");
    refused(w, mtlbx_writer_write_filename(w, ""), "a write to \"\"");
    entries(dir, seen, sizeof seen);
    CHECK(strcmp(seen, "out.metallib") == 0, "failed writes left behind: %s", seen);
    free(first);
    free(second);
    mtlbx_writer_free(w);
    mtlbx_writer_free(NULL);
    CHECK(mtlbx_writer_error_string(NULL) != NULL, "mtlbx_writer_error_string(NULL) is NULL");

    /* Hostile modules: every truncation, every byte changed. */
    for (size_t n = 0; n < len; n++) {
        snprintf(what, sizeof what, "the module cut at %zu", n);
        try_module(target, air, n, what);
    }
    unsigned char *bad = malloc(len);
    for (size_t i = 0; bad && i < len; i++) {
        static const unsigned char flips[] = { 0xFF, 0x01, 0x80 };
        for (size_t k = 0; k < sizeof flips; k++) {
            memcpy(bad, air, len);
            bad[i] ^= flips[k];
            snprintf(what, sizeof what, "the module with byte %zu ^ 0x%02x", i, flips[k]);
            try_module(target, bad, len, what);
        }
    }
    free(bad);
    free(air);
    mtlbx_free(h);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "pack") == 0)
        return pack(argv[2], argv[3], argv[4], argc > 5 && strcmp(argv[5], "some") == 0);
    if (argc == 4 && strcmp(argv[1], "hostile") == 0)
        return hostile(argv[2], argv[3]);
    fprintf(stderr, "usage: writer_consumer pack LIB OUT MODDIR [some] | hostile LIB DIR\n");
    return 1;
}
