/* Issue 40, causes 2 and 3, through <mtlbx.h> alone: what
 * mtlbx_writer_write_filename does to a host process and to what is at
 * its path.
 *
 *   hostile_lib_write LIB DIR
 *
 * A writer is made of LIB's modules for LIB's own target. Then, in DIR
 * (empty):
 *   - a FIFO, a folder, a socket and (as root, where mknod works) a
 *     character device at the path are refused (MTLBX_FAILED, one line),
 *     each still what it was, nothing else left in DIR;
 *   - under a file-size limit below the library's length, with SIGXFSZ at
 *     its default action (which ends the process), the write is refused,
 *     the process lives, no .mtlbx-tmp-* is left, no SIGXFSZ is left
 *     pending and the signal mask is the one the host had;
 *   - with the limit raised again the same writer writes the file.
 * Exit 0; 1 with a line on stderr for each broken promise; 3 when LIB
 * cannot be packed (not an executable library with a target). */
#include <mtlbx.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "hostile_lib_write: " __VA_ARGS__);                                                        \
            fputc('\n', stderr);                                                                                       \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

/* The names in DIR, sorted by readdir order, joined with ' '. */
static void entries(const char *dir, char *out, size_t size)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    out[0] = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && n < size)
            n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "", e->d_name);
    if (d)
        closedir(d);
}

static int has_temporary(const char *dir)
{
    char seen[8192];
    entries(dir, seen, sizeof seen);
    return strstr(seen, ".mtlbx-tmp-") != NULL;
}

static void refused(mtlbx_writer *w, int rc, const char *what)
{
    const char *why = mtlbx_writer_error_string(w);
    CHECK(rc == MTLBX_FAILED, "%s: status %d, not MTLBX_FAILED (%s)", what, rc, why);
    CHECK(why && *why && !strchr(why, '\n'), "%s: refused without a one-line reason", what);
}

static mtlbx_writer *writer_of(const char *path)
{
    mtlbx *h = mtlbx_new();
    if (!h || mtlbx_open_filename(h, path) == MTLBX_FATAL || mtlbx_library_count(h) != 1) {
        mtlbx_free(h);
        return NULL;
    }
    const char *os = mtlbx_library_string(h, 0, MTLBX_TARGET_OS);
    const char *version = mtlbx_library_string(h, 0, MTLBX_OS_VERSION);
    char target[64];
    mtlbx_writer *w = mtlbx_writer_new();
    int taken = 0;
    if (w && os && version && strcmp(os, "unknown") != 0) {
        snprintf(target, sizeof target, "%s:%s", os, version);
        if (mtlbx_writer_target(w, target) == MTLBX_OK)
            for (int64_t i = 0; i < mtlbx_function_count(h, 0); i++) {
                size_t len = 0;
                const void *m = mtlbx_function_module(h, 0, i, &len);
                taken += m && mtlbx_writer_add_function(w, m, len) == MTLBX_OK;
            }
    }
    mtlbx_free(h);
    if (!taken) {
        mtlbx_writer_free(w);
        return NULL;
    }
    return w;
}

static void special_targets(mtlbx_writer *w, const char *dir)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/fifo", dir);
    if (mkfifo(p, 0600) == 0) {
        refused(w, mtlbx_writer_write_filename(w, p), "a FIFO at the path");
        CHECK(lstat(p, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO is no longer a FIFO");
    }
    snprintf(p, sizeof p, "%s/folder", dir);
    if (mkdir(p, 0700) == 0) {
        refused(w, mtlbx_writer_write_filename(w, p), "a folder at the path");
        CHECK(lstat(p, &st) == 0 && S_ISDIR(st.st_mode), "the folder is no longer a folder");
    }
    snprintf(p, sizeof p, "%s/sock", dir);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (s >= 0 && strlen(p) < sizeof a.sun_path) {
        strcpy(a.sun_path, p);
        if (bind(s, (struct sockaddr *)&a, sizeof a) == 0) {
            refused(w, mtlbx_writer_write_filename(w, p), "a socket at the path");
            CHECK(lstat(p, &st) == 0 && S_ISSOCK(st.st_mode), "the socket is no longer a socket");
        }
    }
    if (s >= 0)
        close(s);
    /* /dev/full's numbers (1, 7): as root in a container this is how
     * `-o /dev/null` would have been replaced. */
    snprintf(p, sizeof p, "%s/device", dir);
    if (mknod(p, S_IFCHR | 0600, makedev(1, 7)) == 0) {
        refused(w, mtlbx_writer_write_filename(w, p), "a character device at the path");
        CHECK(lstat(p, &st) == 0 && S_ISCHR(st.st_mode), "the device is no longer a device");
        unlink(p);
    } else {
        printf("note: mknod is not allowed here (%s): the device case is not run\n", strerror(errno));
    }
    CHECK(!has_temporary(dir), "a refused write left a temporary file");
}

static void size_limit(mtlbx_writer *w, const char *dir)
{
    const void *mem = NULL;
    size_t len = 0;
    CHECK(mtlbx_writer_write_memory(w, &mem, &len) == MTLBX_OK, "write_memory: %s", mtlbx_writer_error_string(w));
    char out[4096];
    snprintf(out, sizeof out, "%s/out.metallib", dir);

    /* The host's state, which the call must leave as it was. */
    signal(SIGXFSZ, SIG_DFL);
    sigset_t before, after, pending;
    sigemptyset(&before);
    sigaddset(&before, SIGUSR1); /* something of the host's own */
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    pthread_sigmask(SIG_SETMASK, NULL, &before);

    struct rlimit old, small;
    if (getrlimit(RLIMIT_FSIZE, &old) != 0 || (old.rlim_cur != RLIM_INFINITY && old.rlim_cur <= len)) {
        CHECK(0, "the file-size limit is below the library's %zu bytes already", len);
        return;
    }
    small = (struct rlimit){ len / 2, old.rlim_max };
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit: %s", strerror(errno));
    /* A process killed by SIGXFSZ here never reaches the checks below:
     * the script sees the death (exit 153) and says so. */
    refused(w, mtlbx_writer_write_filename(w, out), "a write past the file-size limit");
    setrlimit(RLIMIT_FSIZE, &old);
    struct stat st;
    CHECK(stat(out, &st) != 0, "a refused write left the output");
    CHECK(!has_temporary(dir), "a write past the file-size limit left a temporary file");
    sigpending(&pending);
    CHECK(!sigismember(&pending, SIGXFSZ), "a SIGXFSZ is left pending for the host");
    pthread_sigmask(SIG_SETMASK, NULL, &after);
    CHECK(sigismember(&after, SIGUSR1) && !sigismember(&after, SIGXFSZ), "the host's signal mask changed");

    CHECK(mtlbx_writer_write_filename(w, out) == MTLBX_OK, "the write within the limit: %s",
          mtlbx_writer_error_string(w));
    CHECK(stat(out, &st) == 0 && (size_t)st.st_size == len, "the library written is not %zu bytes", len);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hostile_lib_write LIB DIR\n");
        return 2;
    }
    mtlbx_writer *w = writer_of(argv[1]);
    if (!w) {
        fprintf(stderr, "hostile_lib_write: %s: no module to pack\n", argv[1]);
        return 3;
    }
    special_targets(w, argv[2]);
    size_limit(w, argv[2]);
    mtlbx_writer_free(w);
    return failures ? 1 : 0;
}
