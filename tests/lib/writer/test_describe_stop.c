/* Reading a library into the writer's model can take seconds at a million
 * functions, and the explorer's w runs it as a job that Esc stops: the
 * describe pass (mbx_writer_describe_tick) reports every 4,096 functions
 * how far it is, and stops there when asked, with "stopped" and nothing
 * half-kept. The library, of 9,000 functions, is written by
 * tests/hostile_mkbig.py into a temporary folder. */
#include "config.h"

#include "writer/writer.h"
#include "testenv.h"
#include "container/file.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUNCTIONS 9000

static char dir[] = "/tmp/mtlbx-describe-XXXXXX";
static mtlbx_file *file;

static void make_library(void)
{
    const char *src = testenv("MTLBX_SRCDIR");
    if (system("command -v python3 >/dev/null 2>&1") != 0)
        cr_skip_test("no python3 to write the library");
    cr_assert_not_null(mkdtemp(dir));
    char cmd[8192], path[4096];
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/hostile_mkbig.py' '%s/k.metallib' %d 0", src ? src : ".", dir,
             FUNCTIONS);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(path, sizeof path, "%s/k.metallib", dir);
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &file, &err), MTLBX_E_NONE, "%s: %s", path, err.message);
}

static void remove_library(void)
{
    mbx_close(file);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)system(cmd);
}

TestSuite(describe_stop, .init = make_library, .fini = remove_library);

struct ticks {
    int calls, stop_at;
    uint64_t done[8], total;
};

static int tick(void *ctx, uint64_t done, uint64_t total)
{
    struct ticks *t = ctx;
    if (t->calls < 8)
        t->done[t->calls] = done;
    t->total = total;
    return ++t->calls == t->stop_at;
}

Test(describe_stop, reports_every_4096_functions)
{
    mtlbx_writer *w = mbx_writer_new();
    struct ticks t = { 0 };
    cr_assert_eq(mbx_writer_describe_tick(w, file, 0, tick, &t), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    cr_assert_eq(t.calls, 2);
    cr_assert_eq(t.done[0], 4096);
    cr_assert_eq(t.done[1], 8192);
    cr_assert_eq(t.total, FUNCTIONS);
    mtlbx_writer_free(w);
}

Test(describe_stop, stops_when_asked)
{
    mtlbx_writer *w = mbx_writer_new();
    struct ticks t = { .stop_at = 1 };
    cr_assert_eq(mbx_writer_describe_tick(w, file, 0, tick, &t), MTLBX_WRITER_FAILED);
    cr_assert_str_eq(mtlbx_writer_error_string(w), "stopped");
    cr_assert_eq(t.calls, 1, "it went on after the stop");
    mtlbx_writer_free(w);
    /* The file is still read whole by a pass that is not stopped. */
    w = mbx_writer_new();
    cr_assert_eq(mbx_writer_describe(w, file, 0), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    mtlbx_writer_free(w);
}
