/* Running a tool (llvm-dis on a module, diff on two disassemblies): no
 * shell (posix_spawn with an argument vector, so no byte of a path or of
 * the file is ever parsed as shell syntax), the input fed on stdin, stdout
 * and stderr drained with poll() so that neither side can deadlock on a
 * full pipe, a deadline after which the child's whole process group is
 * killed, an output cap, and always a waitpid() so no zombie is left.
 * SIGPIPE is blocked in the calling thread only while writing (a child that
 * exits early turns into EPIPE, not into our death), and a SIGPIPE raised
 * meanwhile is consumed before the mask is restored.
 */
#include "config.h"
#include "run_tool.h"
#include "fatal_cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Stored stderr; the rest is drained and dropped. */
#define STDERR_KEEP 4096

static bool is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Looks for `name` on PATH; with `versioned` also "name-N", preferring
 * plain `name` in a directory, else the highest N there. */
static char *search_path(const char *name, bool versioned)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    size_t nl = strlen(name);
    for (const char *p = path; *p;) {
        const char *colon = strchr(p, ':');
        size_t dl = colon ? (size_t)(colon - p) : strlen(p);
        char dir[4096];
        if (dl == 0)
            snprintf(dir, sizeof dir, ".");
        else if (dl < sizeof dir)
            snprintf(dir, sizeof dir, "%.*s", (int)dl, p);
        else
            dir[0] = 0;
        if (dir[0]) {
            char cand[4352];
            snprintf(cand, sizeof cand, "%s/%s", dir, name);
            if (is_executable(cand))
                return strdup(cand);
            if (versioned) {
                DIR *d = opendir(dir);
                long best = -1;
                if (d) {
                    struct dirent *e;
                    while ((e = readdir(d))) {
                        if (strncmp(e->d_name, name, nl) != 0 || e->d_name[nl] != '-')
                            continue;
                        char *end;
                        const char *num = e->d_name + nl + 1;
                        if (*num < '0' || *num > '9')
                            continue;
                        long v = strtol(num, &end, 10);
                        if (*end || v <= best)
                            continue;
                        snprintf(cand, sizeof cand, "%s/%s", dir, e->d_name);
                        if (is_executable(cand))
                            best = v;
                    }
                    closedir(d);
                }
                if (best >= 0) {
                    snprintf(cand, sizeof cand, "%s/%s-%ld", dir, name, best);
                    return strdup(cand);
                }
            }
        }
        if (!colon)
            break;
        p = colon + 1;
    }
    return NULL;
}

/* A name with a '/' is a path; a bare name is looked up on PATH. */
static char *resolve(const char *what)
{
    if (strchr(what, '/'))
        return is_executable(what) ? strdup(what) : NULL;
    return search_path(what, false);
}

char *find_llvm_dis(const char *explicit_path)
{
    if (explicit_path && *explicit_path)
        return resolve(explicit_path);
    const char *env = getenv("MTLBX_LLVM_DIS");
    if (env && *env)
        return resolve(env);
    return search_path("llvm-dis", true);
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Keeps only printable ASCII of the first stderr line: the message is
 * shown on a terminal and llvm-dis may quote bytes of the module. */
static void first_line(char *dst, size_t n, const char *src, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < n; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c == '\n') {
            if (o)
                break;
            continue;
        }
        dst[o++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    }
    dst[o] = 0;
}

static void kill_group(pid_t pid)
{
    /* The child leads its own process group, so a wrapper script's own
     * children (a `sleep`) die with it instead of holding our pipes. */
    if (kill(-pid, SIGKILL) != 0)
        kill(pid, SIGKILL);
}

void tool_result_free(struct tool_result *res)
{
    if (!res)
        return;
    free(res->output);
    res->output = NULL;
    res->output_len = 0;
}

char *find_tool(const char *name) { return resolve(name); }

int run_llvm_dis(const char *llvm_dis, const uint8_t *module, size_t len,
                 unsigned timeout_ms, size_t max_output, struct tool_result *res)
{
    return run_llvm_dis_cancellable(llvm_dis, module, len, timeout_ms, max_output, NULL, res);
}

/* How often a cancellable run looks at its flag while waiting. */
#define CANCEL_POLL_MS 20
/* How often a run without a pidfd looks whether the child has exited. */
#define EXIT_POLL_MS 20

static bool cancel_requested(const atomic_bool *cancel)
{
    return cancel && atomic_load(cancel);
}

static int run_tool_cancellable(const char *label, char *const argv[], const uint8_t *input, size_t len,
                                unsigned timeout_ms, size_t max_output, const atomic_bool *cancel,
                                struct tool_result *res);

/* ------------------------------------------- a newer llvm-dis as fallback -- */

/* What LLVM's bitcode reader says when the module is bitcode it does not
 * understand, as an older LLVM says of newer bitcode (Debian 12's LLVM 14
 * on some Xcode modules: "Invalid record"). Not "Invalid bitcode
 * signature": that is no bitcode at all, which no llvm-dis reads. */
static const char *const REJECTIONS[] = {
    "Invalid record", "Unknown attribute kind", "Invalid type", "Invalid value", "Malformed block",
    "Invalid abbrev", "Unknown metadata", "Invalid bitcode version", "Unsupported",
};

static bool rejected(const struct tool_result *res)
{
    if (res->exit_status <= 0 || res->timed_out || res->truncated || res->cancelled || res->left_running)
        return false;
    for (size_t k = 0; k < sizeof REJECTIONS / sizeof *REJECTIONS; k++)
        if (strstr(res->message, REJECTIONS[k]))
            return true;
    return false;
}

struct candidate {
    long version;
    char *path;
    char *real;
};

static int by_version_down(const void *p, const void *q)
{
    const struct candidate *a = p, *b = q;
    return (a->version < b->version) - (a->version > b->version);
}

/* Adds `path` (an executable) unless its file is one already listed. */
static void add_candidate(struct candidate *c, size_t *n, size_t max, const char *path, long version)
{
    if (*n >= max || !is_executable(path))
        return;
    char *real = realpath(path, NULL);
    if (!real)
        return;
    for (size_t k = 0; k < *n; k++)
        if (strcmp(c[k].real, real) == 0) {
            free(real);
            return;
        }
    char *copy = strdup(path);
    if (!copy) {
        free(real);
        return;
    }
    c[(*n)++] = (struct candidate){ version, copy, real };
}

/* The number after "llvm-dis-" or "llvm-" in a name, or -1. */
static long version_after(const char *name, const char *prefix)
{
    size_t pl = strlen(prefix);
    if (strncmp(name, prefix, pl) != 0 || name[pl] < '0' || name[pl] > '9')
        return -1;
    char *end;
    long v = strtol(name + pl, &end, 10);
    return *end ? -1 : v;
}

#define MAX_CANDIDATES 16

size_t find_other_llvm_dis(const char *chosen, char **out, size_t max)
{
    struct candidate c[MAX_CANDIDATES + 1];
    size_t n = 0;
    /* The chosen one first, so that nothing equal to it is listed. */
    if (chosen)
        add_candidate(c, &n, MAX_CANDIDATES, chosen, LONG_MAX);
    size_t skip = n;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *colon = strchr(p, ':');
        size_t dl = colon ? (size_t)(colon - p) : strlen(p);
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", dl ? (int)dl : 1, dl ? p : ".");
        DIR *d = dl < sizeof dir ? opendir(dir) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d))) {
            long v = version_after(e->d_name, "llvm-dis-");
            char cand[4352];
            if (v >= 0 && snprintf(cand, sizeof cand, "%s/%s", dir, e->d_name) < (int)sizeof cand)
                add_candidate(c, &n, MAX_CANDIDATES, cand, v);
        }
        if (d)
            closedir(d);
        if (!colon)
            break;
        p = colon + 1;
    }
    /* Debian's versioned LLVM packages, whether or not on PATH. */
    DIR *d = opendir("/usr/lib");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        long v = version_after(e->d_name, "llvm-");
        char cand[600];
        if (v >= 0 && snprintf(cand, sizeof cand, "/usr/lib/%s/bin/llvm-dis", e->d_name) < (int)sizeof cand)
            add_candidate(c, &n, MAX_CANDIDATES, cand, v);
    }
    if (d)
        closedir(d);
    qsort(c + skip, n - skip, sizeof *c, by_version_down);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i >= skip && k < max)
            out[k++] = c[i].path;
        else
            free(c[i].path);
        free(c[i].real);
    }
    return k;
}

/* llvm-dis writes at least a "; ModuleID" line for any module it reads:
 * one that exits 0 and prints nothing (or only blanks) has failed, and an
 * empty page or an empty `dis` with exit 0 would say the module holds
 * nothing. Returns the status the run should have (rc, or -1 with
 * res->message set). */
static int said_nothing(int rc, struct tool_result *res)
{
    if (rc != 0 || res->cancelled)
        return rc;
    for (size_t i = 0; i < res->output_len; i++) {
        char c = res->output[i];
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return rc;
    }
    snprintf(res->message, sizeof res->message, "llvm-dis exited with status 0 but printed nothing");
    return -1;
}

int run_llvm_dis_cancellable(const char *llvm_dis, const uint8_t *module, size_t len,
                             unsigned timeout_ms, size_t max_output, const atomic_bool *cancel,
                             struct tool_result *res)
{
    if (!llvm_dis) {
        memset(res, 0, sizeof *res);
        res->exit_status = -1;
        snprintf(res->message, sizeof res->message, "llvm-dis not found");
        return -1;
    }
    /* "-o -" keeps the output on stdout whatever the input name. */
    char *argv[] = { (char *)llvm_dis, (char *)"-o", (char *)"-", (char *)"-", NULL };
    int rc = said_nothing(run_tool_cancellable("llvm-dis", argv, module, len, timeout_ms, max_output, cancel, res),
                          res);
    if (rc == 0 || !rejected(res))
        return rc;
    /* Rejected: another llvm-dis installed (the newest first) may read it. */
    char *others[MAX_CANDIDATES];
    size_t n = find_other_llvm_dis(llvm_dis, others, MAX_CANDIDATES);
    for (size_t k = 0; k < n; k++) {
        if (rc == 0 || cancel_requested(cancel)) {
            free(others[k]);
            continue;
        }
        struct tool_result alt;
        argv[0] = others[k];
        if (said_nothing(run_tool_cancellable("llvm-dis", argv, module, len, timeout_ms, max_output, cancel, &alt),
                         &alt) == 0) {
            snprintf(alt.read_by, sizeof alt.read_by, "%s", others[k]);
            snprintf(alt.message, sizeof alt.message, "%.150s rejected the module (%.120s); read by %.150s",
                     llvm_dis, res->message, others[k]);
            tool_result_free(res);
            *res = alt;
            rc = 0;
        } else {
            tool_result_free(&alt);
        }
        free(others[k]);
    }
    return rc;
}

int run_tool(const char *label, char *const argv[], const uint8_t *input, size_t len,
             unsigned timeout_ms, size_t max_output, struct tool_result *res)
{
    return run_tool_cancellable(label, argv, input, len, timeout_ms, max_output, NULL, res);
}

/* Whether the child has exited, leaving it a zombie (WNOWAIT): its pid and
 * process group id cannot be reused while leftover grandchildren are
 * killed. */
static bool child_exited(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int w;
    while ((w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | WNOHANG)) < 0 && errno == EINTR)
        ;
    return w < 0 || si.si_pid == pid;
}

/* A descriptor that polls readable when the child exits (Linux 5.3), so
 * the loop wakes at once; -1 where there is none, and then the loop looks
 * every EXIT_POLL_MS. */
static int exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

static int run_tool_cancellable(const char *label, char *const argv[], const uint8_t *input, size_t len,
                                unsigned timeout_ms, size_t max_output, const atomic_bool *cancel,
                                struct tool_result *res)
{
    const uint8_t *module = input;
    memset(res, 0, sizeof *res);
    res->exit_status = -1;
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
        snprintf(res->message, sizeof res->message, "pipe: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (in[i] >= 0) close(in[i]);
            if (out[i] >= 0) close(out[i]);
            if (err[i] >= 0) close(err[i]);
        }
        return -1;
    }

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawnattr_init(&attr);
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGINT);
    sigaddset(&dfl, SIGTERM);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &dfl);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    /* Registered for fatal_cleanup_run() before any signal can land: it
     * leads its own group, so Ctrl-C or SIGTERM to us would not reach it. */
    sigset_t fatal_old;
    fatal_cleanup_block(&fatal_old);
    int sp = posix_spawn(&pid, argv[0], &fa, &attr, argv, environ);
    int child_slot = sp == 0 ? fatal_cleanup_add_child(pid) : -1;
    fatal_cleanup_unblock(&fatal_old);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (sp != 0) {
        snprintf(res->message, sizeof res->message, "cannot run %s: %s", label, strerror(sp));
        close(in[1]);
        close(out[0]);
        close(err[0]);
        return -1;
    }
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);

    sigset_t pipe_set, old_mask, pending_before;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending_before);
    bool had_pending = sigismember(&pending_before, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);

    size_t cap = 65536, olen = 0;
    char *obuf = malloc(cap + 1);
    char ebuf[STDERR_KEEP];
    size_t elen = 0;
    size_t written = 0;
    int fd_in = in[1], fd_out = out[0], fd_err = err[0];
    uint64_t deadline = now_ms() + timeout_ms;
    bool killed = false;
    /* Once the child has exited, its pipes get TOOL_DRAIN_MS more: a
     * process it left behind may hold them open (a wrapper's `sleep &`),
     * and waiting for that would turn a finished run into a time-out. */
    int pidfd = exit_fd(pid);
    bool exited = false;
    uint64_t drain_deadline = 0;
    if (!obuf) {
        snprintf(res->message, sizeof res->message, "out of memory");
        kill_group(pid);
        killed = true;
    }
    if (len == 0 && fd_in >= 0) {
        close(fd_in);
        fd_in = -1;
    }
    while (!killed && (fd_out >= 0 || fd_err >= 0)) {
        uint64_t now = now_ms();
        if (!exited && child_exited(pid)) {
            exited = true;
            drain_deadline = now + TOOL_DRAIN_MS;
            if (pidfd >= 0) {
                close(pidfd);
                pidfd = -1;
            }
        }
        if (exited && now >= drain_deadline) {
            /* What it wrote before exiting has been read; the rest of its
             * process group is killed below (it is still a zombie). */
            res->left_running = true;
            break;
        }
        if (cancel_requested(cancel)) {
            res->cancelled = true;
            snprintf(res->message, sizeof res->message, "%s cancelled", label);
            kill_group(pid);
            killed = true;
            break;
        }
        if (now >= deadline) {
            res->timed_out = true;
            snprintf(res->message, sizeof res->message, "%s timed out after %u ms", label, timeout_ms);
            kill_group(pid);
            killed = true;
            break;
        }
        struct pollfd pfd[4];
        int np = 0, iin = -1, iout = -1, ierr = -1;
        if (fd_in >= 0) { iin = np; pfd[np++] = (struct pollfd){ .fd = fd_in, .events = POLLOUT }; }
        if (fd_out >= 0) { iout = np; pfd[np++] = (struct pollfd){ .fd = fd_out, .events = POLLIN }; }
        if (fd_err >= 0) { ierr = np; pfd[np++] = (struct pollfd){ .fd = fd_err, .events = POLLIN }; }
        if (pidfd >= 0)
            pfd[np++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
        uint64_t until = exited ? drain_deadline : deadline;
        uint64_t wait = until > now ? until - now : 0;
        uint64_t slice = cancel ? CANCEL_POLL_MS : 1000;
        if (!exited && pidfd < 0 && slice > EXIT_POLL_MS)
            slice = EXIT_POLL_MS;
        int pr = poll(pfd, (nfds_t)np, wait > slice ? (int)slice : (int)wait);
        if (pr < 0) {
            if (errno == EINTR)
                continue;
            snprintf(res->message, sizeof res->message, "poll: %s", strerror(errno));
            kill_group(pid);
            killed = true;
            break;
        }
        if (iin >= 0 && pfd[iin].revents) {
            size_t chunk = len - written > 65536 ? 65536 : len - written;
            ssize_t w = write(fd_in, module + written, chunk);
            if (w > 0)
                written += (size_t)w;
            /* EPIPE: the child stopped reading; its exit status tells why. */
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == len) {
                close(fd_in);
                fd_in = -1;
            }
        }
        if (iout >= 0 && pfd[iout].revents) {
            if (olen == cap && cap < max_output) {
                size_t ncap = cap > max_output / 2 ? max_output : cap * 2;
                char *nb = realloc(obuf, ncap + 1);
                if (nb) {
                    obuf = nb;
                    cap = ncap;
                }
            }
            ssize_t r;
            if (olen < cap) {
                r = read(fd_out, obuf + olen, cap - olen);
                if (r > 0)
                    olen += (size_t)r;
            } else {
                /* Full: one more byte means the cap is really exceeded
                 * (output of exactly max_output bytes is fine). */
                char extra;
                r = read(fd_out, &extra, 1);
                if (r > 0) {
                    res->truncated = true;
                    snprintf(res->message, sizeof res->message,
                             "%s output exceeds %zu bytes; stopped", label, olen);
                    kill_group(pid);
                    killed = true;
                    break;
                }
            }
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
                close(fd_out);
                fd_out = -1;
            }
        }
        if (ierr >= 0 && pfd[ierr].revents) {
            char tmp[4096];
            ssize_t r = read(fd_err, tmp, sizeof tmp);
            if (r > 0) {
                size_t keep = (size_t)r < sizeof ebuf - elen ? (size_t)r : sizeof ebuf - elen;
                memcpy(ebuf + elen, tmp, keep);
                elen += keep;
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(fd_err);
                fd_err = -1;
            }
        }
    }
    if (pidfd >= 0)
        close(pidfd);
    if (fd_in >= 0)
        close(fd_in);
    if (fd_out >= 0)
        close(fd_out);
    if (fd_err >= 0)
        close(fd_err);

    /* Both pipes closed does not mean the child has exited: wait until the
     * deadline, then kill. The final waitpid always reaps it. */
    int status = -1;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        /* WNOWAIT: the exited child stays a zombie, so its pid (and process
         * group id) cannot be reused while we kill leftover grandchildren. */
        int w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | (killed ? 0 : WNOHANG));
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            break;
        if (si.si_pid == pid) {
            kill(-pid, SIGKILL);
            break;
        }
        if (!killed && cancel_requested(cancel)) {
            res->cancelled = true;
            snprintf(res->message, sizeof res->message, "%s cancelled", label);
            kill_group(pid);
            killed = true;
            continue;
        }
        if (now_ms() >= deadline) {
            res->timed_out = true;
            snprintf(res->message, sizeof res->message, "%s timed out after %u ms", label, timeout_ms);
            kill_group(pid);
            killed = true;
            continue;
        }
        struct timespec ts = { 0, 5 * 1000000L };
        nanosleep(&ts, NULL);
    }
    pid_t reaped;
    while ((reaped = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    fatal_cleanup_forget_child(child_slot);
    if (reaped != pid)
        status = -1;

    /* Consume a SIGPIPE we caused, then restore the caller's mask. */
    if (!had_pending) {
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE) == 1) {
            struct timespec zero = { 0, 0 };
            sigtimedwait(&pipe_set, NULL, &zero);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);

    if (res->cancelled) {
        /* Nothing partial survives a cancel. */
        free(obuf);
        obuf = NULL;
        olen = 0;
    }
    if (obuf)
        obuf[olen] = 0;
    res->output = obuf;
    res->output_len = olen;
    if (status != -1 && WIFEXITED(status))
        res->exit_status = WEXITSTATUS(status);
    if (killed)
        return -1;
    if (res->left_running)
        snprintf(res->message, sizeof res->message,
                 "%s exited, but a process it started kept its output open; stopped reading %u ms after the "
                 "exit and killed that process",
                 label, TOOL_DRAIN_MS);
    if (res->exit_status != 0) {
        char line[sizeof res->message];
        first_line(line, sizeof line, ebuf, elen);
        if (res->exit_status < 0)
            snprintf(res->message, sizeof res->message, "%s was killed by signal %d%s%.400s", label,
                     status != -1 && WIFSIGNALED(status) ? WTERMSIG(status) : 0, line[0] ? ": " : "", line);
        else
            snprintf(res->message, sizeof res->message, "%s exited with status %d%s%.400s", label,
                     res->exit_status, line[0] ? ": " : "", line);
        return -1;
    }
    return 0;
}

/* `diff -u` of two texts: A goes through an unlinked temporary file (named
 * /dev/fd/N for diff, so nothing is left behind whatever happens), B on
 * stdin. Exit 0 (same) and 1 (different) are both answers. */
bool run_unified_diff(const char *diff_path, const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len,
                      const char *label_a, const char *label_b, struct tool_result *out)
{
    memset(out, 0, sizeof *out);
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/mtlbx-compare.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(out->message, sizeof out->message, "cannot make a temporary file in %s", tmp && *tmp ? tmp : "/tmp");
        return false;
    }
    unlink(path);
    bool ok = true;
    for (size_t done = 0; ok && done < a_len;) {
        ssize_t w = write(fd, a + done, a_len - done);
        if (w <= 0)
            ok = false;
        else
            done += (size_t)w;
    }
    if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        snprintf(out->message, sizeof out->message, "cannot write a temporary file (disk full?)");
        return false;
    }
    char fd_path[32];
    snprintf(fd_path, sizeof fd_path, "/dev/fd/%d", fd);
    char *argv[] = { (char *)diff_path, "-u", "--label", (char *)label_a, "--label", (char *)label_b, fd_path, "-",
                     NULL };
    int rc = run_tool("diff", argv, b, b_len, LLVM_DIS_TIMEOUT_MS,
                      LLVM_DIS_MAX_OUTPUT, out);
    close(fd);
    return rc == 0 || (out->exit_status == 1 && !out->timed_out && !out->truncated);
}
