/* The interface reader (bitcode/interface_reader.c): a module that many
 * functions share is read once through it, from any number of threads,
 * and each function still gets its own entry. The library is
 * tests/hostile_mkrunaway.py's shared.metallib: 2,000 functions on one
 * 1.5 MB module. Decoded alone, each function reads the whole module
 * again (over a minute on the project's machines); through one reader the
 * pass takes well under a second, so the time bound below catches a reader
 * that stops sharing. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "model/msl.h"
#include "container/functions.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SHARERS 2000
#define THREADS 3

static char dir[] = "/tmp/mtlbx-reader-XXXXXX";
static mtlbx_file *file;
static mtlbx_library *lib;

static void make_shared(void)
{
    const char *src = getenv("MTLBX_SRCDIR");
    if (system("command -v python3 >/dev/null 2>&1") != 0)
        cr_skip_test("no python3 to write the library");
    cr_assert_not_null(mkdtemp(dir));
    char cmd[8192], path[4096];
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/hostile_mkrunaway.py' '%s' %d", src ? src : ".", dir, SHARERS);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(path, sizeof path, "%s/shared.metallib", dir);
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &file, &err), MTLBX_E_NONE, "%s: %s", path, err.message);
    lib = mbx_library_at(file, 0);
    cr_assert_eq(mbx_library_function_count(lib), SHARERS);
}

static void remove_shared(void)
{
    mbx_close(file);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)system(cmd);
}

TestSuite(interface_reader, .init = make_shared, .fini = remove_shared);

/* Function i's own entry: the first argument is named a<i>_0_xxx... */
static bool is_own(const struct mtlbx_interface *it, size_t i)
{
    char want[32];
    int n = snprintf(want, sizeof want, "a%zu_0_", i);
    return it && !it->module.failed && it->stage && it->n_inputs == 8 && it->inputs[0].has_name &&
           it->inputs[0].name.len >= (size_t)n && memcmp(it->inputs[0].name.ptr, want, (size_t)n) == 0;
}

struct share {
    mtlbx_interface_reader *rd;
    size_t first;              /* this thread takes first, first + THREADS, ... */
    size_t own;                /* functions that got their own entry */
};

static void *decode_every_third(void *arg)
{
    struct share *s = arg;
    mtlbx_read_window *w = mbx_read_window_new();
    for (size_t i = s->first; i < SHARERS; i += THREADS) {
        struct mtlbx_interface *it = mbx_interface_read(s->rd, lib, i, w, NULL);
        s->own += is_own(it, i);
        mbx_interface_free(it);
    }
    mbx_read_window_free(w);
    return NULL;
}

Test(interface_reader, one_reader_serves_many_threads_reading_the_shared_module_once)
{
    mtlbx_interface_reader *rd = mbx_interface_reader_new(lib);
    cr_assert_not_null(rd);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct share s[THREADS];
    pthread_t tid[THREADS];
    for (size_t t = 0; t < THREADS; t++) {
        s[t] = (struct share){ rd, t, 0 };
        cr_assert_eq(pthread_create(&tid[t], NULL, decode_every_third, &s[t]), 0);
    }
    size_t own = 0;
    for (size_t t = 0; t < THREADS; t++) {
        pthread_join(tid[t], NULL);
        own += s[t].own;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    mbx_interface_reader_free(rd);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_expect_eq(own, SHARERS, "%zu of %d functions got their own entry", own, SHARERS);
    /* Generous for ASan on a loaded machine; reading the module once per
     * function takes minutes. */
    cr_expect_lt(secs, 20.0, "2,000 functions on one module took %.1f s", secs);
}

/* The reader is an optimisation, never a source of answers: a NULL
 * reader, or one made for another library, decodes alone, to the same
 * interface. */
Test(interface_reader, no_reader_or_another_librarys_decodes_alone_to_the_same)
{
    mtlbx_interface_reader *rd = mbx_interface_reader_new(lib);
    const char *src = getenv("MTLBX_SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/sample.metallib", src ? src : ".");
    mtlbx_file *other;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &other, &err), MTLBX_E_NONE, "%s", err.message);
    mtlbx_interface_reader *rd_other = mbx_interface_reader_new(mbx_library_at(other, 0));
    cr_assert(rd && rd_other);
    size_t picks[] = { 0, 1, 999, SHARERS - 1 };
    for (size_t k = 0; k < sizeof picks / sizeof *picks; k++) {
        size_t i = picks[k];
        struct mtlbx_interface *shared = mbx_interface_read(rd, lib, i, NULL, NULL);
        struct mtlbx_interface *alone = mbx_interface_read(NULL, lib, i, NULL, NULL);
        struct mtlbx_interface *wrong = mbx_interface_read(rd_other, lib, i, NULL, NULL);
        cr_expect(is_own(shared, i) && is_own(alone, i) && is_own(wrong, i), "function %zu", i);
        char *a = mbx_msl_declaration(shared, mbx_function_at(lib, i)->name, "kernel", NULL, MTLBX_MSL_SOURCE);
        char *b = mbx_msl_declaration(alone, mbx_function_at(lib, i)->name, "kernel", NULL, MTLBX_MSL_SOURCE);
        char *c = mbx_msl_declaration(wrong, mbx_function_at(lib, i)->name, "kernel", NULL, MTLBX_MSL_SOURCE);
        cr_assert(a && b && c);
        cr_expect_str_eq(a, b, "function %zu", i);
        cr_expect_str_eq(a, c, "function %zu", i);
        free(a), free(b), free(c);
        mbx_interface_free(shared);
        mbx_interface_free(alone);
        mbx_interface_free(wrong);
    }
    mbx_interface_reader_free(rd_other);
    mbx_interface_reader_free(rd);
    mbx_close(other);
    cr_expect_null(mbx_interface_reader_new(NULL));
    mbx_interface_reader_free(NULL);
}
