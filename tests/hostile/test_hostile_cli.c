/* Hostile input against the real binary ($MTLBX_BIN): special files and
 * unreadable ones, a file that shrinks while mapped (SIGBUS), outputs that
 * already exist, interrupted writes, names built to attack a terminal or
 * a path, tar members that try to leave the output directory, and an
 * llvm-dis that is missing, fails, floods or hangs. Every bad input must
 * end with a one-line message naming the file on stderr and the contract's
 * exit status (CONTRACT.md), never a crash, a hang or a write outside the
 * directory asked for. Images are built in code (test_hostile_img.c). */
#include "config.h"

#include "imagebuf.h"
#include "test_hostile_img.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------- running -- */

struct run {
    int status;                /* exit status, or 128 + signal */
    bool signalled;
    char *out, *err;
    size_t out_len, err_len;
};

static char tmp_root[256];

static void make_root(void)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/mtlbx-hostile-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp_root));
}

static void remove_tree(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", path, path);
    if (system(cmd) != 0)
        cr_log_warn("could not remove %s", path);
}

static char *slurp_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    *len = 0;
    if (!fp)
        return strdup("");
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, fp)) > 0) {
        n += got;
        if (cap - n < 2)
            buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    fclose(fp);
    *len = n;
    return buf;
}

struct run_opts {
    rlim_t fsize;              /* RLIMIT_FSIZE for the child, 0: none */
    bool ignore_xfsz;          /* SIGXFSZ ignored: writes fail with EFBIG */
    int timeout_s;             /* killed after this (0: 60) */
    const char *env;           /* one NAME=VALUE to add, or NULL */
    bool as_nobody;            /* as root: run as uid/gid 65534 */
};

/* Runs $MTLBX_BIN with args, stdin from /dev/null, stdout and stderr to
 * files under the test's root (no pipe to fill up, whatever it prints). */
static struct run run_mtlbx_opts(const struct run_opts *o, const char *const *args)
{
    const char *bin = testenv("MTLBX_BIN");
    cr_assert_not_null(bin, "MTLBX_BIN is not set");
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)bin;
    for (; *args && n < 31; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    char out_path[400], err_path[400];
    snprintf(out_path, sizeof out_path, "%s/.stdout", tmp_root);
    snprintf(err_path, sizeof err_path, "%s/.stderr", tmp_root);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(in, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        if (o && o->fsize) {
            struct rlimit rl = { o->fsize, o->fsize };
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        signal(SIGXFSZ, o && o->ignore_xfsz ? SIG_IGN : SIG_DFL);
        if (o && o->env)
            putenv((char *)o->env);
        if (o && o->as_nobody && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(126);
        execv(bin, argv);
        _exit(127);
    }
    int limit = o && o->timeout_s ? o->timeout_s : 60, status = 0;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            cr_assert_fail("mtlbx %s did not finish within %d s", argv[1], limit);
        }
        usleep(2000);
    }
    struct run r = { 0 };
    if (WIFEXITED(status)) {
        r.status = WEXITSTATUS(status);
    } else {
        r.signalled = true;
        r.status = 128 + WTERMSIG(status);
    }
    r.out = slurp_file(out_path, &r.out_len);
    r.err = slurp_file(err_path, &r.err_len);
    return r;
}

#define RUN(...) run_mtlbx_opts(NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

/* Exactly one line, "mtlbx: ...", that names `path`. */
static void assert_one_line_naming(const struct run *r, const char *path)
{
    cr_assert(r->err_len > 0 && r->err[r->err_len - 1] == '\n', "stderr: [%s]", r->err);
    cr_assert_null(memchr(r->err, '\n', r->err_len - 1), "more than one line: [%s]", r->err);
    cr_assert_eq(strncmp(r->err, "mtlbx: ", 7), 0, "stderr: [%s]", r->err);
    cr_assert_not_null(strstr(r->err, path), "stderr does not name %s: [%s]", path, r->err);
}

/* Terminal-inert: valid UTF-8, and no control byte but newline and tab. */
static bool inert(const char *s, size_t len)
{
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; i < len;) {
        uint8_t c = p[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
                return false;
            i++;
            continue;
        }
        size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!n || i + n > len || (c == 0xC2 && p[i + 1] < 0xA0)) /* C1 controls are C2 80..9F */
            return false;
        for (size_t k = 1; k < n; k++)
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
        i += n;
    }
    return true;
}

static void path_in_root(char *out, size_t n, const char *rel)
{
    snprintf(out, n, "%s/%s", tmp_root, rel);
}

static void write_image(const char *rel, const struct imagebuf *b, char *path, size_t n)
{
    path_in_root(path, n, rel);
    cr_assert(hi_write_file(path, b->data, b->len), "cannot write %s", path);
}

/* Everything under dir: regular files and directories only (no link,
 * device or FIFO was ever created), returned as a count of files. */
static size_t count_regular_files(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[2048];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        cr_assert_eq(lstat(p, &st), 0);
        cr_assert(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode), "%s is neither a file nor a directory", p);
        files += S_ISDIR(st.st_mode) ? count_regular_files(p) : 1;
    }
    closedir(d);
    return files;
}

static void setup(void) { make_root(); }
static void teardown(void) { remove_tree(tmp_root); }

/* ------------------------------------------------- special files -- */

/* How refused_by_every_reader runs the commands (NULL: as we are). */
static const struct run_opts *reader_opts;

static void refused_by_every_reader(const char *path)
{
    static const char *const cmds[] = { "info", "ls", "check", "dump", "extract", "sources" };
    struct stat st;
    bool folder = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        if (folder && !strcmp(cmds[c], "check"))
            continue; /* check takes folders, as find does (issue 34): below */
        char out[400];
        path_in_root(out, sizeof out, "never-written");
        const struct run_opts *o = reader_opts;
        struct run r = !strcmp(cmds[c], "dump")
                           ? run_mtlbx_opts(o, (const char *const[]){ "dump", "--json", path, NULL })
                       : !strcmp(cmds[c], "extract") || !strcmp(cmds[c], "sources")
                           ? run_mtlbx_opts(o, (const char *const[]){ cmds[c], path, "-o", out, NULL })
                           : run_mtlbx_opts(o, (const char *const[]){ cmds[c], path, NULL });
        if (o && o->as_nobody && r.status == 127)
            cr_skip_test("uid 65534 cannot execute %s (a private build directory)", testenv("MTLBX_BIN"));
        cr_assert_eq(r.status, 2, "%s %s: exit %d", cmds[c], path, r.status);
        assert_one_line_naming(&r, path);
        cr_assert_eq(r.out_len, 0, "%s %s wrote to stdout", cmds[c], path);
        cr_assert_neq(access(out, F_OK), 0, "%s %s created its output directory", cmds[c], path);
        run_free(&r);
    }
}

Test(special, directory_fifo_dev_zero_and_empty_file, .init = setup, .fini = teardown, .timeout = 60)
{
    char p[400];
    path_in_root(p, sizeof p, "a-directory");
    cr_assert_eq(mkdir(p, 0755), 0);
    refused_by_every_reader(p);
    /* check walks a folder as find does: an empty one is clean. */
    struct run r = RUN("check", p);
    cr_assert_eq(r.status, 0, "check on an empty folder: exit %d", r.status);
    cr_assert_eq(r.out_len + r.err_len, 0, "check on an empty folder said something");
    run_free(&r);
    /* A FIFO with no writer: opening it for reading would block forever. */
    path_in_root(p, sizeof p, "a-fifo");
    cr_assert_eq(mkfifo(p, 0644), 0);
    refused_by_every_reader(p);
    refused_by_every_reader("/dev/zero");
    refused_by_every_reader("/dev/null");
    path_in_root(p, sizeof p, "empty.metallib");
    cr_assert(hi_write_file(p, "", 0));
    refused_by_every_reader(p);
    path_in_root(p, sizeof p, "does-not-exist.metallib");
    refused_by_every_reader(p);
}

/* Mode 000. Root reads it anyway, so as root the commands run as nobody
 * (uid 65534) instead: the refusal is then the same one a user meets. */
Test(special, file_without_read_permission, .init = setup, .fini = teardown, .timeout = 30)
{
    struct imagebuf b = { 0 };
    static const struct test_function fn[] = { { .name = "f", .type = 2 } };
    ib_library(&b, &(struct test_library){ .n_functions = 1, .functions = fn });
    char p[400];
    write_image("locked.metallib", &b, p, sizeof p);
    cr_assert_eq(chmod(p, 0), 0);
    static const struct run_opts nobody = { .as_nobody = true };
    if (geteuid() == 0) {
        /* nobody must be able to reach the file and write the captures. */
        cr_assert_eq(chmod(tmp_root, 0777), 0);
        reader_opts = &nobody;
    }
    refused_by_every_reader(p);
    reader_opts = NULL;
    ib_free(&b);
}

/* A library whose one module is `mib` MiB, so hashing it takes a while.
 * With `far_bitcode` its bitstream (after the "BC" C0 DE that ib_module
 * writes) opens a top-level FUNCTION block of 0x01010101 words, which the
 * interface decoder skips by its length: it then reads the mapping 64 MiB
 * into the module. (The payload is a string: no zero byte; the reader
 * ignores the alignment bits, here all ones.) */
static void big_library(struct imagebuf *b, size_t mib, bool far_bitcode)
{
    size_t n = mib << 20;
    char *payload = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        payload[i] = (char)('a' + i % 23);
    payload[n] = '\0';
    if (far_bitcode) {
        /* abbrev 1 ENTER_SUBBLOCK, id vbr8 12, width vbr4 2, padding; length */
        static const uint8_t enter_function[8] = { 0x31, 0xC8, 0xFF, 0xFF, 0x01, 0x01, 0x01, 0x01 };
        memcpy(payload, enter_function, sizeof enter_function);
    }
    struct test_function fn = { .name = "big", .type = 2, .payload = payload };
    ib_library(b, &(struct test_library){ .n_functions = 1, .functions = &fn, .ext = TEST_EXT_EMPTY });
    free(payload);
}

static bool mapped_by(pid_t pid, const char *path)
{
    char maps[64];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    size_t len;
    char *m = slurp_file(maps, &len);
    bool yes = strstr(m, path) != NULL;
    free(m);
    return yes;
}

/* The file shrinks under a running command (`check`, `textconv`), made deterministic without
 * LD_PRELOAD: the child runs under ptrace, stopping at every system call;
 * at the first stop where /proc/PID/maps shows the file mapped (the exit
 * of its mmap), the file is cut to 1 MiB while the child cannot run, and
 * the child is released. Everything but the module lies in the first
 * page, so parsing sees an intact library; the rest of the 192 MiB module
 * that check then hashes is gone, so the hash faults (SIGBUS), and the
 * CLI's guard must turn that into one line naming the file and exit 2. A poll of /proc from outside (no ptrace) raced the
 * hashing on a loaded machine. */
/* 384 functions of 512 KiB each (192 MiB): small enough that sig and
 * dump read them through a pread window (mbx_interface_read),
 * not the mapping. */
static void many_modules_library(struct imagebuf *b)
{
    enum { N = 384, SIZE = 512 << 10 };
    struct test_function *fns = calloc(N, sizeof *fns);
    char (*names)[16] = calloc(N, sizeof *names);
    char *payload = malloc(SIZE + 1);
    for (size_t i = 0; i < SIZE; i++)
        payload[i] = (char)('a' + i % 23);
    payload[SIZE] = '\0';
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "f%zu", i);
        fns[i] = (struct test_function){ .name = names[i], .type = 2, .payload = payload };
    }
    ib_library(b, &(struct test_library){ .n_functions = N, .functions = fns, .ext = TEST_EXT_EMPTY });
    free(payload);
    free(names);
    free(fns);
}

static void shrinks_under_argv(const char *const *args, bool far_bitcode, bool many);

static void shrinks_under(const char *command, bool far_bitcode)
{
    const char *args[] = { command, NULL };
    shrinks_under_argv(args, far_bitcode, false);
}

/* args: the command and its options, before the file. */
static void shrinks_under_argv(const char *const *args, bool far_bitcode, bool many)
{
    struct imagebuf b = { 0 };
    if (many)
        many_modules_library(&b);
    else
        big_library(&b, 192, far_bitcode);
    char p[400];
    write_image("shrinking.metallib", &b, p, sizeof p);
    ib_free(&b);
    const char *bin = testenv("MTLBX_BIN");
    cr_assert_not_null(bin);
    char err_path[400];
    path_in_root(err_path, sizeof err_path, ".stderr");
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fo = open("/dev/null", O_WRONLY);
        dup2(fo, 1);
        dup2(fe, 2);
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        raise(SIGSTOP);
        const char *argv[8] = { bin };
        int n = 1;
        for (; args[n - 1] && n < 6; n++)
            argv[n] = args[n - 1];
        argv[n] = p;
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFSTOPPED(status), "the child did not stop for tracing");
    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
    bool cut = false, gone = false;
    int deliver = 0;
    while (!cut) {
        if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)deliver) != 0)
            break;
        deliver = 0;
        if (waitpid(pid, &status, 0) != pid || WIFEXITED(status) || WIFSIGNALED(status)) {
            gone = true;
            break;
        }
        if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
            if (mapped_by(pid, p)) {
                int fd = open(p, O_WRONLY);
                cr_assert_eq(ftruncate(fd, 1 << 20), 0);
                close(fd);
                cut = true;
            }
        } else if (WSTOPSIG(status) != SIGTRAP) {
            deliver = WSTOPSIG(status);   /* not ours: pass it on */
        }
    }
    if (!gone) {
        ptrace(PTRACE_DETACH, pid, NULL, NULL);
        cr_assert_eq(waitpid(pid, &status, 0), pid);
    }
    size_t len;
    char *err = slurp_file(err_path, &len);
    cr_assert(cut, "the file never showed up mapped in /proc/%d/maps", (int)pid);
    cr_assert(WIFEXITED(status), "killed by signal %d instead of exiting", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    cr_assert_eq(WEXITSTATUS(status), 2, "exit %d, stderr: %s", WEXITSTATUS(status), err);
    struct run r = { .status = 2, .err = err, .err_len = len, .out = strdup("") };
    assert_one_line_naming(&r, p);
    cr_assert_not_null(strstr(err, "changed or shrank"), "%s", err);
    run_free(&r);
}

Test(special, file_truncated_while_mapped_is_sigbus_exit_2, .init = setup, .fini = teardown, .timeout = 120)
{
    shrinks_under("check", false);
}

/* sig and dump --interfaces read modules through a pread window: a
 * module the window comes up short on is read through the mapping, so
 * that the guard reports the file as before, not each function. */
Test(special, sig_of_a_file_truncated_while_mapped_exits_2, .init = setup, .fini = teardown, .timeout = 120)
{
    const char *args[] = { "sig", NULL };
    shrinks_under_argv(args, false, true);
}

Test(special, dump_interfaces_of_a_file_truncated_while_mapped_exits_2, .init = setup, .fini = teardown,
     .timeout = 120)
{
    const char *args[] = { "dump", "--json", "--interfaces", NULL };
    shrinks_under_argv(args, false, true);
}

/* textconv opened its file without the guard and died by SIGBUS (exit
 * 135, half its text printed) when decoding the module read the mapping
 * past the new end: every command opens through cli_open(_quiet). */
Test(special, textconv_of_a_file_truncated_while_mapped_exits_2, .init = setup, .fini = teardown, .timeout = 120)
{
    shrinks_under("textconv", true);
}

/* --------------------------------------------- outputs and atomicity -- */

static const struct test_function two_fns[] = {
    { .name = "alpha", .type = 2, .payload = "alpha's module" },
    { .name = "beta", .type = 2, .payload = "beta's module" },
};

Test(outputs, extract_refuses_an_existing_file_without_force, .init = setup, .fini = teardown)
{
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 2, .functions = two_fns, .ext = TEST_EXT_EMPTY });
    char lib[400], out[400], victim[450];
    write_image("two.metallib", &b, lib, sizeof lib);
    path_in_root(out, sizeof out, "out");
    cr_assert_eq(mkdir(out, 0755), 0);
    snprintf(victim, sizeof victim, "%s/alpha.air", out);
    cr_assert(hi_write_file(victim, "precious\n", 9));

    struct run r = RUN("extract", lib, "-o", out);
    cr_assert_eq(r.status, 2, "exit %d, stderr %s", r.status, r.err);
    cr_assert_not_null(strstr(r.err, "alpha.air"), "the refusal names the file: %s", r.err);
    size_t len;
    char *kept = slurp_file(victim, &len);
    cr_assert_str_eq(kept, "precious\n", "an existing file was overwritten without --force");
    free(kept);
    run_free(&r);
    /* The other module is still written; --force then replaces. */
    char beta[450];
    snprintf(beta, sizeof beta, "%s/beta.air", out);
    cr_assert_eq(access(beta, F_OK), 0);
    r = RUN("extract", lib, "-o", out, "--force");
    cr_assert_eq(r.status, 0, "exit %d, stderr %s", r.status, r.err);
    kept = slurp_file(victim, &len);
    cr_assert_neq(strcmp(kept, "precious\n"), 0);
    free(kept);
    run_free(&r);
    ib_free(&b);
}

Test(outputs, sources_refuses_an_existing_member_without_force, .init = setup, .fini = teardown)
{
    static const struct hi_member m[] = { { "/src/k.metal", 'f', "kernel void k() {}\n" } };
    struct imagebuf payload = { 0 }, b = { 0 };
    hi_tar_bz2(&payload, m, 1);
    hi_library_with_payload(&b, payload.data, payload.len, 0);
    char lib[400], out[400];
    write_image("src.metallib", &b, lib, sizeof lib);
    path_in_root(out, sizeof out, "out");
    struct run r = RUN("sources", lib, "-o", out);
    cr_assert_eq(r.status, 0, "exit %d, stderr %s", r.status, r.err);
    run_free(&r);
    char member[500];
    snprintf(member, sizeof member, "%s/0/src/k.metal", out);
    cr_assert(hi_write_file(member, "mine\n", 5));
    r = RUN("sources", lib, "-o", out);
    cr_assert_eq(r.status, 2, "exit %d", r.status);
    size_t len;
    char *kept = slurp_file(member, &len);
    cr_assert_str_eq(kept, "mine\n");
    free(kept);
    run_free(&r);
    r = RUN("sources", lib, "-o", out, "--force");
    cr_assert_eq(r.status, 0, "exit %d, stderr %s", r.status, r.err);
    kept = slurp_file(member, &len);
    cr_assert_str_eq(kept, "kernel void k() {}\n");
    free(kept);
    run_free(&r);
    ib_free(&payload);
    ib_free(&b);
}

/* Entries of dir, except "." and ".." and, in the test root, the
 * captured .stdout and .stderr. */
static size_t visible_entries(const char *dir, char *first, size_t n)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (!strcmp(dir, tmp_root) && (!strcmp(e->d_name, ".stdout") || !strcmp(e->d_name, ".stderr")))
            continue;
        if (count++ == 0 && first)
            snprintf(first, n, "%s", e->d_name);
    }
    closedir(d);
    return count;
}

/* A write cut off half-way must never leave a partial file under the
 * final name. RLIMIT_FSIZE makes the cut real and deterministic: the
 * 1 MiB module cannot be written past 64 KiB. With SIGXFSZ at its default
 * the kernel used to kill mtlbx in the middle of write(), leaving its
 * temporary file behind (issue 35 item 10); the writer now blocks SIGXFSZ
 * while it writes, so the write fails with EFBIG as it does with the
 * signal ignored: either way mtlbx reports it, exits 2 and cleans up. */
Test(outputs, an_interrupted_write_leaves_no_partial_file, .init = setup, .fini = teardown, .timeout = 60)
{
    struct imagebuf b = { 0 };
    big_library(&b, 1, false);
    char lib[400], out[400], final[450];
    write_image("big.metallib", &b, lib, sizeof lib);
    ib_free(&b);
    path_in_root(out, sizeof out, "out");
    cr_assert_eq(mkdir(out, 0755), 0);
    snprintf(final, sizeof final, "%s/big.air", out);

    for (int ignore = 0; ignore < 2; ignore++) {
        struct run_opts limited = { .fsize = 64 << 10, .ignore_xfsz = ignore };
        struct run r = run_mtlbx_opts(&limited, (const char *const[]){ "extract", lib, "-o", out, NULL });
        cr_assert(!r.signalled && r.status == 2, "SIGXFSZ %s: status %d, stderr %s",
                  ignore ? "ignored" : "at its default", r.status, r.err);
        cr_assert_neq(access(final, F_OK), 0, "a partial file is under the final name");
        cr_assert_not_null(strstr(r.err, "big.air: write failed: File too large"), "%s", r.err);
        run_free(&r);
        /* Nothing stays behind: no temporary, no partial file. */
        char name[256] = "";
        cr_assert_eq(visible_entries(out, name, sizeof name), 0, "left in the output directory: %s", name);
    }
    struct run r;
    /* And with room, the same command writes the whole file. */
    r = RUN("extract", lib, "-o", out);
    cr_assert_eq(r.status, 0, "exit %d, stderr %s", r.status, r.err);
    struct stat st;
    cr_assert_eq(stat(final, &st), 0);
    cr_assert_gt(st.st_size, 1 << 20);
    run_free(&r);
}

/* ------------------------------------------------------ hostile names -- */

static char long_name[5001];

static struct test_function named[8];
static const char *const names[] = {
    "esc\x1b[2J\x1b]0;pwned\x07title",
    "c1\xc2\x9b" "31mred",
    "bad\xff\xfeutf8\xc0\xaf",
    "../a",
    "a/b",
    "..",
    "ctl\r\n\tx",
    long_name,
};

static void hostile_names_library(struct imagebuf *b)
{
    memset(long_name, 'L', sizeof long_name - 1);
    for (size_t i = 0; i < 8; i++)
        named[i] = (struct test_function){ .name = names[i], .type = 2 };
    ib_library(b, &(struct test_library){ .n_functions = 8, .functions = named, .ext = TEST_EXT_EMPTY });
}

Test(names, terminal_output_and_json_stay_inert, .init = setup, .fini = teardown, .timeout = 60)
{
    struct imagebuf b = { 0 };
    hostile_names_library(&b);
    char lib[400];
    write_image("names.metallib", &b, lib, sizeof lib);
    static const char *const cmds[][3] = { { "ls", NULL }, { "info", NULL }, { "check", NULL },
                                           { "dump", "--json" } };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        struct run r = cmds[c][1] ? RUN(cmds[c][0], cmds[c][1], lib) : RUN(cmds[c][0], lib);
        cr_assert(r.status == 0 || r.status == 1, "%s: exit %d, %s", cmds[c][0], r.status, r.err);
        cr_assert(inert(r.out, r.out_len), "%s %s: stdout is not inert", cmds[c][0], cmds[c][1] ? cmds[c][1] : "");
        cr_assert(inert(r.err, r.err_len), "%s: stderr is not inert", cmds[c][0]);
        if (cmds[c][1]) {
            json_error_t je;
            json_t *j = json_loadb(r.out, r.out_len, 0, &je);
            cr_assert_not_null(j, "dump --json is not JSON: %s at %d", je.text, je.position);
            json_decref(j);
        }
        run_free(&r);
    }
    ib_free(&b);
}

/* Extracted under such names, every file is a direct child of the output
 * directory, with a sanitised name, and nothing lands anywhere else. */
Test(names, extracted_files_stay_inside_with_sanitised_names, .init = setup, .fini = teardown, .timeout = 60)
{
    struct imagebuf b = { 0 };
    hostile_names_library(&b);
    char lib[400], out[400];
    write_image("names.metallib", &b, lib, sizeof lib);
    path_in_root(out, sizeof out, "deep");
    cr_assert_eq(mkdir(out, 0755), 0);
    path_in_root(out, sizeof out, "deep/out");
    struct run r = RUN("extract", lib, "-o", out);
    cr_assert(r.status == 0 || r.status == 2, "exit %d: %s", r.status, r.err);
    cr_assert(inert(r.out, r.out_len) && inert(r.err, r.err_len));
    run_free(&r);
    DIR *d = opendir(out);
    cr_assert_not_null(d);
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        files++;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", out, e->d_name);
        struct stat st;
        cr_assert_eq(lstat(p, &st), 0);
        cr_assert(S_ISREG(st.st_mode), "%s is not a regular file", p);
        cr_assert(inert(e->d_name, strlen(e->d_name)), "unsanitised name written");
        cr_assert_null(strpbrk(e->d_name, "\t"), "a tab in a written name");
        cr_assert_leq(strlen(e->d_name), 255);
    }
    closedir(d);
    cr_assert_eq(files, 8, "one file per function (collisions renamed), got %zu", files);
    /* Nothing beside "out" in its parent, nothing beside "deep" and the
     * library in the root. */
    char parent[400];
    path_in_root(parent, sizeof parent, "deep");
    cr_assert_eq(visible_entries(parent, NULL, 0), 1);
    cr_assert_eq(visible_entries(tmp_root, NULL, 0), 2);
    ib_free(&b);
}

/* --------------------------------------------------- tar members -- */

/* Dangerous members under `sources -o`: only regular files are written,
 * all under DIR; "..", links, devices, FIFOs and a repeated path are
 * refused with a message each, and the exit status says so. A symlink
 * planted in DIR beforehand is never followed. */
Test(tar, sources_writes_regular_files_under_dir_only, .init = setup, .fini = teardown, .timeout = 60)
{
    char outside[400], abs_name[500];
    path_in_root(outside, sizeof outside, "outside");
    cr_assert_eq(mkdir(outside, 0755), 0);
    /* An absolute member naming a real place: it must land under DIR. */
    snprintf(abs_name, sizeof abs_name, "%s/abs.metal", outside);
    struct hi_member m[] = {
        { "/src/ok.metal", 'f', "ok\n" },
        { "../../x", 'f', "up\n" },
        { "/src/../../../x", 'f', "up2\n" },
        { abs_name, 'f', "abs\n" },
        { "/etc/x", 'f', "etc\n" },
        { "/src/link", 'l', "/etc/passwd" },
        { "/src/hard", 'h', "/etc/passwd" },
        { "/src/null", 'c', NULL },
        { "/src/fifo", 'p', NULL },
        { "/src/dup.metal", 'f', "first\n" },
        { "/src/dup.metal", 'f', "second\n" },
        { "/planted/through.metal", 'f', "through\n" },
        { "/src/esc\x1b[31m.metal", 'f', "esc\n" },
    };
    struct imagebuf payload = { 0 }, b = { 0 };
    hi_tar_bz2(&payload, m, sizeof m / sizeof m[0]);
    hi_library_with_payload(&b, payload.data, payload.len, 0);
    char lib[400], base[400], out[450], planted[500];
    write_image("tar.metallib", &b, lib, sizeof lib);
    path_in_root(base, sizeof base, "a");
    cr_assert_eq(mkdir(base, 0755), 0);
    path_in_root(base, sizeof base, "a/b");
    cr_assert_eq(mkdir(base, 0755), 0);
    snprintf(out, sizeof out, "%s/out", base);
    cr_assert_eq(mkdir(out, 0755), 0);
    snprintf(planted, sizeof planted, "%s/0", out);
    cr_assert_eq(mkdir(planted, 0755), 0);
    snprintf(planted, sizeof planted, "%s/0/planted", out);
    cr_assert_eq(symlink(outside, planted), 0);
    bool etc_x_existed = access("/etc/x", F_OK) == 0;

    struct run r = RUN("sources", lib, "-o", out);
    cr_assert_eq(r.status, 2, "exit %d, stderr %s", r.status, r.err);
    cr_assert(inert(r.out, r.out_len) && inert(r.err, r.err_len));
    /* One refusal line per refused member, each naming the file. */
    size_t lines = 0;
    for (size_t i = 0; i < r.err_len; i++)
        lines += r.err[i] == '\n';
    cr_assert_geq(lines, 8, "refusals: %s", r.err);
    for (const char *l = r.err; *l; l = strchr(l, '\n') + 1)
        cr_assert_eq(strncmp(l, "mtlbx: ", 7), 0, "%s", l);
    cr_assert_not_null(strstr(r.err, "link"), "%s", r.err);
    run_free(&r);

    /* Nothing left DIR: not above it, not through the planted link, not
     * at the absolute path, not in /etc. */
    char p[700];
    path_in_root(p, sizeof p, "a/x");
    cr_assert_neq(access(p, F_OK), 0, "../../x escaped");
    path_in_root(p, sizeof p, "x");
    cr_assert_neq(access(p, F_OK), 0, "../../../x escaped");
    cr_assert_eq(visible_entries(outside, NULL, 0), 0, "written through the planted symlink or to the absolute path");
    cr_assert_eq(access("/etc/x", F_OK) == 0, etc_x_existed, "/etc/x was created");
    struct stat st;
    cr_assert_eq(lstat(planted, &st), 0);
    cr_assert(S_ISLNK(st.st_mode), "the planted link was replaced");
    /* Under DIR (minus the planted link): regular files only. */
    cr_assert_eq(unlink(planted), 0);
    size_t files = count_regular_files(out);
    cr_assert_geq(files, 2);
    snprintf(p, sizeof p, "%s/0/src/ok.metal", out);
    cr_assert_eq(access(p, F_OK), 0);
    snprintf(p, sizeof p, "%s/0/src/dup.metal", out);
    size_t len;
    char *dup = slurp_file(p, &len);
    cr_assert_str_eq(dup, "first\n", "the repeated path replaced the first member");
    free(dup);
    ib_free(&payload);
    ib_free(&b);
}

/* --------------------------------------------------------- llvm-dis -- */

static void fake_tool(char *path, size_t n, const char *name, const char *script)
{
    path_in_root(path, n, name);
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "#!/bin/sh\n%s\n", script);
    fclose(fp);
    cr_assert_eq(chmod(path, 0755), 0);
}

static void dis_library(char *lib, size_t n)
{
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 2, .functions = two_fns, .ext = TEST_EXT_EMPTY });
    write_image("dis.metallib", &b, lib, n);
    ib_free(&b);
}

Test(dis, missing_and_failing_llvm_dis, .init = setup, .fini = teardown, .timeout = 60)
{
    char lib[400], tool[400];
    dis_library(lib, sizeof lib);
    path_in_root(tool, sizeof tool, "no-such-llvm-dis");
    struct run r = RUN("--llvm-dis", tool, "dis", lib, "alpha");
    cr_assert_eq(r.status, 2, "exit %d", r.status);
    assert_one_line_naming(&r, lib);
    run_free(&r);

    fake_tool(tool, sizeof tool, "failing-llvm-dis",
              "cat >/dev/null; echo 'error: Invalid bitcode \033[31msignature' >&2; exit 3");
    r = RUN("--llvm-dis", tool, "dis", lib, "alpha");
    cr_assert_eq(r.status, 2, "exit %d", r.status);
    assert_one_line_naming(&r, lib);
    cr_assert(inert(r.err, r.err_len), "the tool's ESC reached the terminal: %s", r.err);
    run_free(&r);
}

/* 200 MB of output: the cap (64 MiB) stops it and the program stays
 * responsive: it finishes quickly instead of buffering everything. */
Test(dis, llvm_dis_that_prints_megabytes, .init = setup, .fini = teardown, .timeout = 120)
{
    char lib[400], tool[400];
    dis_library(lib, sizeof lib);
    fake_tool(tool, sizeof tool, "chatty-llvm-dis",
              "cat >/dev/null; yes 'define void @f() { ret void } ; \033]0;title\007' | head -c 200000000");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct run r = RUN("--llvm-dis", tool, "dis", lib, "alpha");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert(r.status == 0 || r.status == 2, "exit %d", r.status);
    cr_assert_leq(r.out_len, (size_t)64 << 20, "output past the cap: %zu bytes", r.out_len);
    cr_assert_null(memchr(r.out, 0x1b, r.out_len), "an ESC from the tool reached stdout");
    cr_assert_null(memchr(r.out, 0x07, r.out_len), "a BEL from the tool reached stdout");
    cr_assert_lt(t1.tv_sec - t0.tv_sec, 60);
    run_free(&r);
}

/* A tool that never exits, and leaves a grandchild holding its stdout
 * open: the timeout (30 s) must kill the whole group and return. */
Test(dis, llvm_dis_that_hangs_is_timed_out, .init = setup, .fini = teardown, .timeout = 120)
{
    char lib[400], tool[400];
    dis_library(lib, sizeof lib);
    fake_tool(tool, sizeof tool, "hanging-llvm-dis", "sleep 1000 & cat >/dev/null; sleep 1000");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct run_opts o = { .timeout_s = 90 };
    struct run r = run_mtlbx_opts(&o, (const char *const[]){ "--llvm-dis", tool, "dis", lib, "alpha", NULL });
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert_eq(r.status, 2, "exit %d", r.status);
    assert_one_line_naming(&r, lib);
    cr_assert_lt(t1.tv_sec - t0.tv_sec, 60, "took %ld s", (long)(t1.tv_sec - t0.tv_sec));
    run_free(&r);
}
