/* Tab completion of paths in the explorer's path prompts, on a real
 * scratch directory. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/text/pathcomplete.h"

static char root[256];

static void touch(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f, "%s", p);
    fclose(f);
}

static void setup(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/mtlbx-pc.XXXXXX", t && *t ? t : "/tmp");
    cr_assert_not_null(mkdtemp(root));
    char p[512];
    snprintf(p, sizeof p, "%s/shaders", root);
    mkdir(p, 0777);
    touch("shader.metallib");
    touch("sample.metallib");
    touch(".hidden");
    touch("shaders/one.air");
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(pathcomplete, .init = setup, .fini = teardown);

Test(pathcomplete, common_prefix_then_unique_file_then_directory_slash)
{
    char in[600], out[600], names[256];
    snprintf(in, sizeof in, "%s/s", root);
    cr_expect_eq(path_complete(in, out, sizeof out, names, sizeof names), 3);
    char want[600];
    snprintf(want, sizeof want, "%s/s", root);
    cr_expect_str_eq(out, want, "s: sample, shader, shaders share only 's'");
    cr_expect_str_eq(names, "sample.metallib shader.metallib shaders");

    snprintf(in, sizeof in, "%s/sh", root);
    cr_expect_eq(path_complete(in, out, sizeof out, NULL, 0), 2);
    snprintf(want, sizeof want, "%s/shader", root);
    cr_expect_str_eq(out, want);

    snprintf(in, sizeof in, "%s/sa", root);
    cr_expect_eq(path_complete(in, out, sizeof out, NULL, 0), 1);
    snprintf(want, sizeof want, "%s/sample.metallib", root);
    cr_expect_str_eq(out, want);

    snprintf(in, sizeof in, "%s/shaders", root);
    path_complete(in, out, sizeof out, NULL, 0);
    cr_expect(strstr(out, "shaders") != NULL);

    snprintf(in, sizeof in, "%s/shaders/", root);
    cr_expect_eq(path_complete(in, out, sizeof out, NULL, 0), 1);
    snprintf(want, sizeof want, "%s/shaders/one.air", root);
    cr_expect_str_eq(out, want);
}

Test(pathcomplete, hidden_only_when_asked_and_no_match_keeps_the_text)
{
    char in[600], out[600];
    snprintf(in, sizeof in, "%s/", root);
    cr_expect_eq(path_complete(in, out, sizeof out, NULL, 0), 3, "three visible entries, not .hidden");
    snprintf(in, sizeof in, "%s/.h", root);
    cr_expect_eq(path_complete(in, out, sizeof out, NULL, 0), 1);
    snprintf(in, sizeof in, "%s/zz", root);
    cr_expect_eq(path_complete(in, out, sizeof out, NULL, 0), 0);
    cr_expect_str_eq(out, in);
}

Test(pathcomplete, relative_to_the_current_directory_and_home)
{
    char out[600], keep[512];
    cr_assert_not_null(getcwd(keep, sizeof keep));
    cr_assert_eq(chdir(root), 0);
    cr_expect_eq(path_complete("sa", out, sizeof out, NULL, 0), 1);
    cr_expect_str_eq(out, "sample.metallib");
    cr_assert_eq(chdir(keep), 0);
    setenv("HOME", root, 1);
    cr_expect_eq(path_complete("~/shaders/o", out, sizeof out, NULL, 0), 1);
    cr_expect_str_eq(out, "~/shaders/one.air", "the tilde stays as typed");
}
