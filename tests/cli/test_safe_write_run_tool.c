/* The helpers behind extract, sources and dis: safe names, writes that
 * never leave DIR nor clobber a file, the output-name set, and running
 * llvm-dis without a shell, with a deadline and an output cap. Every test
 * writes only inside its own mktemp directory. */
#include "config.h"

#include "scratch_dir.h"
#include "program/member_plan.h"
#include "program/name_set.h"
#include "program/run_tool.h"
#include "program/safe_write.h"
#include "container/sources.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <stdbool.h>

static void expect_content(const char *dir, const char *rel, const char *want)
{
    char *p = pt_join(dir, rel);
    size_t len = 0;
    char *got = (char *)pt_slurp(p, &len);
    cr_expect_not_null(got, "%s should exist", rel);
    if (got)
        cr_expect_str_eq(got, want, "%s", rel);
    free(got);
    free(p);
}

/* No ".mtlbx-tmp-*" anywhere below dir. */
static size_t count_temps(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (!strncmp(e->d_name, ".mtlbx-tmp", 10))
            n++;
        char *p = pt_join(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            n += count_temps(p);
        free(p);
    }
    if (d)
        closedir(d);
    return n;
}

/* ------------------------------------------------------ safe_component -- */

static void expect_component(const char *in, size_t len, const char *want)
{
    char *c = safe_component((const uint8_t *)in, len);
    cr_assert_not_null(c);
    cr_expect_str_eq(c, want, "safe_component(%s)", want);
    free(c);
}

Test(safe_component, makes_one_harmless_component)
{
    expect_component("kernel_main", 11, "kernel_main");
    expect_component("../../x", 7, ".._.._x");
    expect_component("/etc/passwd", 11, "_etc_passwd");
    expect_component(".", 1, "_");
    expect_component("..", 2, "__");
    expect_component("", 0, "_");
    expect_component("a\0b", 3, "a_b");
    expect_component("tab\there\x1b[31m", 13, "tab_here_[31m");
    expect_component("del\x7f", 4, "del_");
    expect_component("back\\slash", 10, "back_slash");
    expect_component("ns::name", 8, "ns::name");
    expect_component("caf\xc3\xa9", 5, "caf\xc3\xa9");   /* valid UTF-8 stays */
    expect_component("bad\xff\xfe", 5, "bad__");         /* invalid bytes go */
    expect_component("c1\xc2\x9b", 4, "c1__");          /* C1 CSI acts on terminals */
    char big[300];
    memset(big, 'a', sizeof big);
    char *c = safe_component((const uint8_t *)big, sizeof big);
    cr_expect_eq(strlen(c), 200);
    free(c);
    /* Truncation never splits a UTF-8 character. */
    char wide[300];
    memcpy(wide, "xxx", 3); /* odd prefix: the cut would fall mid-character */
    for (size_t i = 3; i + 1 < sizeof wide; i += 2) {
        wide[i] = (char)0xc3;
        wide[i + 1] = (char)0xa9;
    }
    c = safe_component((const uint8_t *)wide, 299);
    cr_expect_leq(strlen(c), 200);
    cr_expect_eq((strlen(c) - 3) % 2, 0);
    free(c);
}

/* ------------------------------------------------------------ name_set -- */

Test(name_set, unique_names_are_deterministic)
{
    struct name_set s = { .nocase = true };
    char *a = name_set_unique(&s, "foo", ".air");
    char *b = name_set_unique(&s, "foo", ".air");
    char *c = name_set_unique(&s, "FOO", ".air");
    char *d = name_set_unique(&s, "foo~4", ".air");
    cr_expect_str_eq(a, "foo.air");
    cr_expect_str_eq(b, "foo~2.air");
    cr_expect_str_eq(c, "FOO~3.air");
    cr_expect_str_eq(d, "foo~4.air");
    char *e = name_set_unique(&s, "foo", ".air");
    cr_expect_str_eq(e, "foo~5.air", "foo~4 is taken by a real name");
    for (int i = 0; i < 5000; i++) {
        char n[32];
        snprintf(n, sizeof n, "f%d", i);
        cr_assert(name_set_add(&s, n));
    }
    cr_expect(name_set_has(&s, "F4999"));
    cr_expect_not(name_set_has(&s, "f5000"));
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    name_set_free(&s);
    struct name_set cs = { 0 };
    cr_assert(name_set_add(&cs, "a/b"));
    cr_expect(name_set_has(&cs, "a/b"));
    cr_expect_not(name_set_has(&cs, "A/b"));
    name_set_free(&cs);
}

Test(name_set, folds_unicode_case_and_normalises)
{
    /* Full case folding: ß is "ss", so these are one name on APFS. */
    struct name_set s = { .nocase = true };
    char *a = name_set_unique(&s, "Stra\xc3\x9f" "e", ".air");
    char *b = name_set_unique(&s, "STRASSE", ".air");
    cr_expect_str_eq(a, "Stra\xc3\x9f" "e.air");
    cr_expect_str_eq(b, "STRASSE~2.air");
    /* Beyond ASCII: Greek and Cyrillic capitals. */
    char *c = name_set_unique(&s, "\xce\xa3\xce\xb9\xce\xb3\xce\xbc\xce\xb1", ""); /* Σιγμα */
    char *d = name_set_unique(&s, "\xcf\x83\xce\xb9\xce\xb3\xce\xbc\xce\xb1", ""); /* σιγμα */
    char *e = name_set_unique(&s, "\xd0\x96", "");     /* Ж */
    char *f = name_set_unique(&s, "\xd0\xb6", "");     /* ж */
    cr_expect_str_eq(d, "\xcf\x83\xce\xb9\xce\xb3\xce\xbc\xce\xb1~2");
    cr_expect_str_eq(f, "\xd0\xb6~2");
    /* É precomposed (U+00C9) and decomposed (E + U+0301), and é. */
    char *g = name_set_unique(&s, "\xc3\x89t\xc3\xa9", ".air");
    char *h = name_set_unique(&s, "E\xcc\x81te\xcc\x81", ".air");
    char *k = name_set_unique(&s, "\xc3\xa9t\xc3\xa9", ".air");
    cr_expect_str_eq(g, "\xc3\x89t\xc3\xa9.air");
    cr_expect_str_eq(h, "E\xcc\x81te\xcc\x81~2.air");
    cr_expect_str_eq(k, "\xc3\xa9t\xc3\xa9~3.air");
    cr_expect(name_set_has(&s, "strasse.AIR"));
    cr_expect_not(name_set_has(&s, "strase.air"));
    /* Not UTF-8: still a set, folded as ASCII. */
    cr_assert(name_set_add(&s, "X\xff"));
    cr_expect(name_set_has(&s, "x\xff"));
    free(a), free(b), free(c), free(d), free(e), free(f), free(g), free(h), free(k);
    name_set_free(&s);
}

Test(name_set, one_file_naming_rule)
{
    /* What extract and the explorer's E both call: safe, then unique. */
    struct name_set s = { .nocase = true };
    char *a = name_set_unique_file(&s, (const uint8_t *)"a/b", 3, ".air");
    char *b = name_set_unique_file(&s, (const uint8_t *)"A_B", 3, ".air");
    cr_expect_str_eq(a, "a_b.air");
    cr_expect_str_eq(b, "A_B~2.air");
    free(a), free(b);
    name_set_free(&s);
}

/* --------------------------------------------------------- member_plan -- */

Test(member_plan, a_repeated_member_path_is_never_written_twice)
{
    /* The explorer's W used to write both "dup.txt" members, the second
     * replacing the first after the overwrite prompt. */
    struct mtlbx_member m[] = {
        { .name = "dup.txt", .type = MTLBX_MEMBER_FILE },
        { .name = "dir", .type = MTLBX_MEMBER_DIR },
        { .name = "./dup.txt", .type = MTLBX_MEMBER_FILE },   /* the same place */
        { .name = "Dup.txt", .type = MTLBX_MEMBER_FILE },     /* another file on Linux */
        { .name = "dir//a", .type = MTLBX_MEMBER_FILE },
        { .name = "/dir/./a", .type = MTLBX_MEMBER_FILE },    /* the same place */
        { .name = "dir/a", .type = MTLBX_MEMBER_SYMLINK },    /* not written at all */
    };
    struct mtlbx_archive a = { .members = m, .n_members = sizeof m / sizeof *m };
    bool dup[sizeof m / sizeof *m];
    cr_assert_eq(member_plan_duplicates(&a, dup), 2);
    bool want[] = { false, false, true, false, false, true, false };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        cr_expect_eq(dup[i], want[i], "member %zu (%s)", i, m[i].name);
    char *p = member_plan_path("/a/./b//c");
    cr_expect_str_eq(p, "a/b/c");
    free(p);
}

/* ---------------------------------------------------------- safe_write -- */

Test(safe_write, writes_then_refuses_then_forces)
{
    char *d = pt_tmpdir();
    char err[256], out[4096];
    cr_assert_eq(safe_write_file(d, "x.air", "one", 3, false, err, sizeof err, out, sizeof out), 0, "%s", err);
    char *want = pt_join(d, "x.air");
    cr_expect_str_eq(out, want);
    expect_content(d, "x.air", "one");
    cr_expect_eq(safe_write_file(d, "x.air", "two", 3, false, err, sizeof err, NULL, 0), -1);
    cr_expect(strstr(err, "exists") != NULL, "%s", err);
    expect_content(d, "x.air", "one");
    cr_expect_eq(safe_write_file(d, "x.air", "three", 5, true, err, sizeof err, NULL, 0), 0, "%s", err);
    expect_content(d, "x.air", "three");
    cr_expect_eq(count_temps(d), 0);
    free(want);
    pt_rmtree(d);
    free(d);
}

/* A file-size limit (ulimit -f) with SIGXFSZ at its default used to kill
 * the process in the middle of write(), leaving the temporary file (issue
 * 35 item 10). The writer blocks SIGXFSZ while it writes: the write fails
 * with EFBIG, the call says so and removes its temporary, the process
 * lives on with no SIGXFSZ left pending, and a file under the limit is
 * still written. (Criterion runs each test in its own process.) */
Test(safe_write, a_file_size_limit_is_an_error_not_a_death)
{
    char *d = pt_tmpdir();
    struct rlimit rl = { 4096, 4096 };
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
    signal(SIGXFSZ, SIG_DFL);
    static char big[65536];
    char err[256];
    cr_assert_eq(safe_write_file(d, "big.air", big, sizeof big, false, err, sizeof err, NULL, 0), -1);
    cr_expect(strstr(err, "File too large") != NULL, "%s", err);
    cr_assert_eq(safe_write_under(d, "a/b.metal", big, sizeof big, false, err, sizeof err, NULL, 0), -1);
    cr_expect(strstr(err, "File too large") != NULL, "%s", err);
    cr_expect_eq(count_temps(d), 0);
    char *p = pt_join(d, "big.air");
    cr_expect_neq(access(p, F_OK), 0, "a partial file under the final name");
    free(p);
    sigset_t pending;
    sigpending(&pending);
    cr_expect_eq(sigismember(&pending, SIGXFSZ), 0, "SIGXFSZ left pending");
    cr_expect_eq(safe_write_file(d, "small.air", "ok", 2, false, err, sizeof err, NULL, 0), 0, "%s", err);
    expect_content(d, "small.air", "ok");
    pt_rmtree(d);
    free(d);
}

Test(safe_write, rejects_unsafe_names)
{
    char *d = pt_tmpdir();
    char err[256];
    static const char *bad[] = { "../x", "a/b", "..", ".", "", "x\ny" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect_eq(safe_write_file(d, bad[i], "z", 1, true, err, sizeof err, NULL, 0), -1, "%s", bad[i]);
    cr_expect_eq(count_temps(d), 0);
    pt_rmtree(d);
    free(d);
}

Test(safe_write, never_writes_through_a_symlink)
{
    char *d = pt_tmpdir();
    char *victim = pt_join(d, "victim");
    char *inner = pt_join(d, "out");
    mkdir(inner, 0777);
    FILE *fp = fopen(victim, "w");
    fputs("precious", fp);
    fclose(fp);
    char *link = pt_join(inner, "x.air");
    cr_assert_eq(symlink(victim, link), 0);
    char err[256];
    cr_expect_eq(safe_write_file(inner, "x.air", "evil", 4, false, err, sizeof err, NULL, 0), -1);
    expect_content(d, "victim", "precious");
    /* With force the link itself is replaced, the target is untouched. */
    cr_expect_eq(safe_write_file(inner, "x.air", "new", 3, true, err, sizeof err, NULL, 0), 0, "%s", err);
    expect_content(d, "victim", "precious");
    struct stat st;
    cr_expect_eq(lstat(link, &st), 0);
    cr_expect(S_ISREG(st.st_mode));
    expect_content(inner, "x.air", "new");
    cr_expect_eq(count_temps(d), 0);
    free(victim);
    free(inner);
    free(link);
    pt_rmtree(d);
    free(d);
}

Test(safe_write_under, keeps_every_path_inside_dir)
{
    char *d = pt_tmpdir();
    char *out = pt_join(d, "out");
    mkdir(out, 0777);
    char err[256], shown[4096];
    cr_expect_eq(safe_write_under(out, "../../x", "z", 1, true, err, sizeof err, NULL, 0), -1);
    cr_expect(strstr(err, "..") != NULL, "%s", err);
    cr_expect_eq(safe_write_under(out, "a/../b", "z", 1, true, err, sizeof err, NULL, 0), -1);
    cr_expect_eq(safe_write_under(out, "a/\x1b]0;x/b", "z", 1, true, err, sizeof err, NULL, 0), -1);
    cr_expect_eq(safe_write_under(out, "/", "z", 1, true, err, sizeof err, NULL, 0), -1);
    /* Absolute paths lose their leading '/'; "." and "//" vanish. */
    cr_expect_eq(safe_write_under(out, "/etc/x", "abs", 3, false, err, sizeof err, shown, sizeof shown), 0, "%s", err);
    char *want = pt_join(out, "etc/x");
    cr_expect_str_eq(shown, want);
    expect_content(out, "etc/x", "abs");
    cr_expect_eq(safe_write_under(out, "./a/.//b/c.metal", "deep", 4, false, err, sizeof err, NULL, 0), 0, "%s", err);
    expect_content(out, "a/b/c.metal", "deep");
    /* Nothing appeared beside DIR. */
    char *x = pt_join(d, "x");
    char *b = pt_join(d, "b");
    cr_expect_neq(access(x, F_OK), 0);
    cr_expect_neq(access(b, F_OK), 0);
    cr_expect_eq(count_temps(d), 0);
    free(want);
    free(x);
    free(b);
    free(out);
    pt_rmtree(d);
    free(d);
}

Test(safe_write_under, symlinked_subdir_pointing_out_is_refused)
{
    char *d = pt_tmpdir();
    char *out = pt_join(d, "out");
    char *outside = pt_join(d, "outside");
    mkdir(out, 0777);
    mkdir(outside, 0777);
    char *link = pt_join(out, "inc");
    cr_assert_eq(symlink(outside, link), 0);
    char err[256];
    cr_expect_eq(safe_write_under(out, "inc/evil.h", "z", 1, true, err, sizeof err, NULL, 0), -1);
    cr_expect(strstr(err, "symbolic link") != NULL, "%s", err);
    char *evil = pt_join(outside, "evil.h");
    cr_expect_neq(access(evil, F_OK), 0, "nothing may land outside DIR");
    /* A file where a directory is needed. */
    cr_assert_eq(safe_write_under(out, "f", "file", 4, false, err, sizeof err, NULL, 0), 0, "%s", err);
    cr_expect_eq(safe_write_under(out, "f/g", "z", 1, true, err, sizeof err, NULL, 0), -1);
    expect_content(out, "f", "file");
    /* Existing file under a subdirectory: refused, then forced. */
    cr_assert_eq(safe_write_under(out, "s/t", "1", 1, false, err, sizeof err, NULL, 0), 0, "%s", err);
    cr_expect_eq(safe_write_under(out, "s/t", "2", 1, false, err, sizeof err, NULL, 0), -1);
    expect_content(out, "s/t", "1");
    cr_expect_eq(safe_write_under(out, "s/t", "3", 1, true, err, sizeof err, NULL, 0), 0, "%s", err);
    expect_content(out, "s/t", "3");
    cr_expect_eq(count_temps(d), 0);
    free(evil);
    free(link);
    free(out);
    free(outside);
    pt_rmtree(d);
    free(d);
}

/* ------------------------------------------------------------ run_tool -- */

/* A fake llvm-dis: a shell script in dir (the script is ours; the runner
 * itself never uses a shell). */
static char *script(const char *dir, const char *name, const char *body)
{
    char *p = pt_join(dir, name);
    FILE *fp = fopen(p, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "#!/bin/sh\n%s\n", body);
    fclose(fp);
    chmod(p, 0755);
    return p;
}

static void expect_no_children(void)
{
    int st;
    errno = 0;
    cr_expect_eq(waitpid(-1, &st, WNOHANG), -1, "no child may be left behind");
    cr_expect_eq(errno, ECHILD);
}

Test(run_tool, echoes_stdin_to_stdout)
{
    char *d = pt_tmpdir();
    char *cat = script(d, "cat-dis", "exec cat");
    /* 3 MB in, 3 MB out: both pipes must be serviced at once. */
    size_t n = 3u << 20;
    uint8_t *in = malloc(n);
    for (size_t i = 0; i < n; i++)
        in[i] = (uint8_t)('a' + i % 26);
    struct tool_result r;
    cr_expect_eq(run_llvm_dis(cat, in, n, 20000, 8u << 20, &r), 0, "%s", r.message);
    cr_expect_eq(r.output_len, n);
    cr_expect(r.output && memcmp(r.output, in, n) == 0);
    cr_expect_eq(r.exit_status, 0);
    tool_result_free(&r);
    expect_no_children();
    free(in);
    free(cat);
    pt_rmtree(d);
    free(d);
}

Test(run_tool, missing_binary_fails)
{
    struct tool_result r;
    cr_expect_eq(run_llvm_dis("/nonexistent/llvm-dis", (const uint8_t *)"x", 1, 1000, 1024, &r), -1);
    cr_expect(r.message[0]);
    tool_result_free(&r);
    cr_expect_null(find_llvm_dis("/nonexistent/llvm-dis"));
    expect_no_children();
}

Test(run_tool, nonzero_exit_reports_stderr)
{
    char *d = pt_tmpdir();
    char *bad = script(d, "bad-dis", "cat >/dev/null; echo 'error: Invalid bitcode signature' >&2; exit 3");
    struct tool_result r;
    cr_expect_eq(run_llvm_dis(bad, (const uint8_t *)"BC", 2, 5000, 1024, &r), -1);
    cr_expect_eq(r.exit_status, 3);
    cr_expect(strstr(r.message, "status 3") && strstr(r.message, "Invalid bitcode"), "%s", r.message);
    tool_result_free(&r);
    expect_no_children();
    free(bad);
    pt_rmtree(d);
    free(d);
}

/* An llvm-dis that exits 0 and prints nothing, or only blanks, has failed
 * (issue 35 item 9): dis printed nothing and exited 0. */
Test(run_tool, llvm_dis_that_prints_nothing_has_failed)
{
    char *d = pt_tmpdir();
    const char *bodies[] = { "cat >/dev/null; exit 0", "cat >/dev/null; printf ' \\n\\n\\t'; exit 0" };
    for (size_t k = 0; k < 2; k++) {
        char name[16];
        snprintf(name, sizeof name, "silent%zu", k);
        char *silent = script(d, name, bodies[k]);
        struct tool_result r;
        cr_expect_eq(run_llvm_dis(silent, (const uint8_t *)"BC", 2, 5000, 1024, &r), -1, "%s", bodies[k]);
        cr_expect_str_eq(r.message, "llvm-dis exited with status 0 but printed nothing");
        tool_result_free(&r);
        free(silent);
    }
    expect_no_children();
    pt_rmtree(d);
    free(d);
}

Test(run_tool, hang_is_killed_at_the_deadline, .timeout = 30)
{
    char *d = pt_tmpdir();
    char *hang = script(d, "hang-dis", "sleep 60");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct tool_result r;
    cr_expect_eq(run_llvm_dis(hang, (const uint8_t *)"x", 1, 500, 1024, &r), -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_expect(r.timed_out);
    cr_expect(strstr(r.message, "timed out") != NULL, "%s", r.message);
    cr_expect_lt(s, 5.0, "took %.1fs", s);
    tool_result_free(&r);
    expect_no_children();
    /* A child that closes its pipes but keeps running is also caught. */
    char *quiet = script(d, "quiet-dis", "exec >/dev/null 2>&1 </dev/null; sleep 60");
    cr_expect_eq(run_llvm_dis(quiet, (const uint8_t *)"x", 1, 500, 1024, &r), -1);
    cr_expect(r.timed_out);
    tool_result_free(&r);
    expect_no_children();
    free(quiet);
    free(hang);
    pt_rmtree(d);
    free(d);
}

Test(run_tool, flood_is_truncated_at_the_cap, .timeout = 30)
{
    char *d = pt_tmpdir();
    char *flood = script(d, "flood-dis", "exec yes 'define void @f() { ret void }'");
    struct tool_result r;
    cr_expect_eq(run_llvm_dis(flood, (const uint8_t *)"x", 1, 20000, 1u << 20, &r), -1);
    cr_expect(r.truncated);
    cr_expect_eq(r.output_len, 1u << 20);
    cr_expect(strstr(r.message, "exceeds") != NULL, "%s", r.message);
    tool_result_free(&r);
    expect_no_children();
    /* Exactly the cap is not truncation. */
    char *exact = script(d, "exact-dis", "head -c 4096 /dev/zero");
    cr_expect_eq(run_llvm_dis(exact, (const uint8_t *)"x", 1, 5000, 4096, &r), 0, "%s", r.message);
    cr_expect_not(r.truncated);
    cr_expect_eq(r.output_len, 4096);
    tool_result_free(&r);
    free(exact);
    free(flood);
    pt_rmtree(d);
    free(d);
}

Test(run_tool, child_ignoring_stdin_does_not_kill_us_with_sigpipe)
{
    char *d = pt_tmpdir();
    char *early = script(d, "early-dis", "echo ok");
    size_t n = 8u << 20;
    uint8_t *in = calloc(1, n);
    struct tool_result r;
    int rc = run_llvm_dis(early, in, n, 10000, 1024, &r);
    cr_expect_eq(rc, 0, "%s", r.message);
    cr_expect_str_eq(r.output, "ok\n");
    tool_result_free(&r);
    expect_no_children();
    free(in);
    free(early);
    pt_rmtree(d);
    free(d);
}

Test(run_tool, find_llvm_dis_order)
{
    char *d = pt_tmpdir();
    char *fake = script(d, "my-dis", "exit 0");
    char *p = find_llvm_dis(fake);
    cr_expect_str_eq(p, fake, "explicit path first");
    free(p);
    setenv("MTLBX_LLVM_DIS", fake, 1);
    p = find_llvm_dis(NULL);
    cr_expect_str_eq(p, fake, "then $MTLBX_LLVM_DIS");
    free(p);
    unsetenv("MTLBX_LLVM_DIS");
    /* PATH: plain llvm-dis, else the highest llvm-dis-N. */
    char *v9 = script(d, "llvm-dis-9", "exit 0");
    char *v14 = script(d, "llvm-dis-14", "exit 0");
    setenv("PATH", d, 1);
    p = find_llvm_dis(NULL);
    cr_expect_str_eq(p, v14);
    free(p);
    char *plain = script(d, "llvm-dis", "exit 0");
    p = find_llvm_dis(NULL);
    cr_expect_str_eq(p, plain);
    free(p);
    /* A bare name is looked up on PATH. */
    p = find_llvm_dis("llvm-dis-9");
    cr_expect_str_eq(p, v9);
    free(p);
    free(plain);
    free(v9);
    free(v14);
    free(fake);
    pt_rmtree(d);
    free(d);
}

Test(safe_write, output_dir_is_created_with_parents_and_must_be_a_directory)
{
    char *d = pt_tmpdir();
    char *out = pt_join(d, "out");
    char err[256];
    cr_expect_eq(make_output_dir(out, err, sizeof err), 0, "%s", err);
    cr_expect_eq(make_output_dir(out, err, sizeof err), 0, "an existing directory is fine");
    /* Missing parents are created (mkdir -p), with the umask applied. */
    char *deep = pt_join(d, "no/such//parent/");
    mode_t old_mask = umask(027);
    cr_expect_eq(make_output_dir(deep, err, sizeof err), 0, "%s", err);
    umask(old_mask);
    struct stat st;
    char *mid = pt_join(d, "no/such");
    cr_assert_eq(stat(mid, &st), 0, "the parents exist");
    cr_expect(S_ISDIR(st.st_mode));
    cr_expect_eq(st.st_mode & 0777, 0750, "mode 0777 less the umask, got %o", st.st_mode & 0777);
    cr_expect_eq(make_output_dir(deep, err, sizeof err), 0, "an existing tree is fine");
    char *file = pt_join(d, "file");
    FILE *fp = fopen(file, "w");
    fclose(fp);
    cr_expect_eq(make_output_dir(file, err, sizeof err), -1);
    cr_expect(strstr(err, "not a directory") != NULL, "%s", err);
    /* A file on the way is not replaced by a directory. */
    char *under_file = pt_join(file, "sub/dir");
    cr_expect_eq(make_output_dir(under_file, err, sizeof err), -1);
    cr_expect(strstr(err, "cannot create") != NULL, "%s", err);
    cr_expect_eq(stat(file, &st), 0);
    cr_expect(S_ISREG(st.st_mode), "the file is still a file");
    free(under_file);
    free(mid);
    free(file);
    free(deep);
    free(out);
    pt_rmtree(d);
    free(d);
}
