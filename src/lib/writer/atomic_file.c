/* See atomic_file.h. Three promises, each kept by the kernel rather than
 * by a check-then-act race where it can be:
 * (1) a reader never sees a half-written file: the bytes go to an O_EXCL
 *     temporary in the target's directory, removed on every failure;
 * (2) an existing file is replaced only when the rules say so: otherwise
 *     the move is renameat2(RENAME_NOREPLACE), or link()+unlink() where
 *     the filesystem lacks it, both of which fail if the name exists
 *     (a plain rename would overwrite one that appeared meanwhile);
 * (3) only a regular file (or a link, replaced itself) is ever replaced:
 *     a device, FIFO, socket or directory at the target is refused, with
 *     or without `replace`, so `-o /dev/null` as root cannot turn the
 *     device into a file. It is checked when the write begins and again
 *     just before the move.
 *
 * A file-size limit (ulimit -f): a write past it raises SIGXFSZ, whose
 * default action ends the process with the temporary left behind. Two
 * defences, both invisible to the host: a length known up front is
 * compared with RLIMIT_FSIZE before anything is written; and SIGXFSZ is
 * blocked in the calling thread only, from begin to commit or abort, so a
 * write past the limit fails with EFBIG instead (the limit may be lowered
 * meanwhile, or the length unknown). The signal that write leaves pending
 * on the thread is taken back before the mask is restored (unless one was
 * pending before), so the host never receives a signal it did not cause.
 * No handler is installed: a library must not take the host's signals.
 *
 * atomic_dir_put is the same move for a folder (unpack's output): every
 * rename that puts something in place is in this file.
 *
 * No fsync: atomic visibility is the promise, and syncing each of the
 * thousands of files an unpack writes would make it crawl. */
#include "config.h"
#include "atomic_file.h"
#include "container/textf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdbool.h>

static void xfsz_block(sigset_t *old, bool *was_pending)
{
    sigset_t s, pending;
    sigemptyset(&s);
    sigaddset(&s, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &s, old);
    sigpending(&pending);
    *was_pending = sigismember(&pending, SIGXFSZ) == 1;
}

static void xfsz_unblock(const sigset_t *old, bool was_pending)
{
    sigset_t s, pending;
    sigemptyset(&s);
    sigaddset(&s, SIGXFSZ);
    sigpending(&pending);
    if (!was_pending && sigismember(&pending, SIGXFSZ) == 1) {
        struct timespec zero = { 0, 0 };
        sigtimedwait(&s, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* An existing entry at the target, against the rules. */
static int check_target(const struct stat *st, const struct atomic_file_rules *r, char *err, size_t err_size)
{
    if (r->has_keep && (uint64_t)st->st_dev == r->keep_dev && (uint64_t)st->st_ino == r->keep_ino) {
        mbx_set_err(err, err_size, "that is the input file; not replaced");
        return ATOMIC_FILE_FAILED;
    }
    if (S_ISDIR(st->st_mode)) {
        mbx_set_err(err, err_size, "a directory is in the way");
        return ATOMIC_FILE_FAILED;
    }
    if (!S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode)) {
        mbx_set_err(err, err_size, "not a regular file (%s); never replaced",
                S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
                : S_ISFIFO(st->st_mode)                      ? "a FIFO"
                : S_ISSOCK(st->st_mode)                      ? "a socket"
                                                             : "a special file");
        return ATOMIC_FILE_FAILED;
    }
    if (!r->replace) {
        mbx_set_err(err, err_size, "file exists");
        return ATOMIC_FILE_EXISTS;
    }
    return ATOMIC_FILE_OK;
}

static int check_name(int dfd, const char *name, const struct atomic_file_rules *r, char *err, size_t err_size)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        return check_target(&st, r, err, err_size);
    if (errno != ENOENT) {
        mbx_set_err(err, err_size, "%s", strerror(errno));
        return ATOMIC_FILE_FAILED;
    }
    return ATOMIC_FILE_OK;
}

static int check_size_limit(uint64_t size, char *err, size_t err_size)
{
    struct rlimit rl;
    if (size == 0 || getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        size <= (uint64_t)rl.rlim_cur)
        return ATOMIC_FILE_OK;
    mbx_set_err(err, err_size, "write failed: %s (%" PRIu64 " bytes past the file-size limit of %" PRIu64 ")",
            strerror(EFBIG), size, (uint64_t)rl.rlim_cur);
    return ATOMIC_FILE_FAILED;
}

static int open_temp(struct atomic_file *a, char *err, size_t err_size)
{
    /* A name nobody else uses, created O_EXCL, starting with '.' and
     * naming this program so a crash leaves something recognisable; mode
     * 0666 less the umask, as the file a plain open would create. */
    static _Atomic unsigned long counter;
    unsigned long seed = (unsigned long)getpid() * 2654435761u ^ (unsigned long)time(NULL) ^
                         (unsigned long)(uintptr_t)a ^ atomic_fetch_add(&counter, 1) * 40503u;
    for (int attempt = 0; attempt < 100; attempt++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        snprintf(a->tmp, sizeof a->tmp, ".mtlbx-tmp-%08lx", (seed >> 16) & 0xFFFFFFFFUL);
        a->fd = openat(a->dfd, a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (a->fd >= 0)
            return ATOMIC_FILE_OK;
        if (errno != EEXIST) {
            mbx_set_err(err, err_size, "cannot create a temporary file: %s", strerror(errno));
            return ATOMIC_FILE_FAILED;
        }
    }
    mbx_set_err(err, err_size, "cannot create a temporary file: too many name collisions");
    return ATOMIC_FILE_FAILED;
}

int atomic_file_begin(struct atomic_file *a, int dfd, const char *name, const struct atomic_file_rules *rules,
                      char *err, size_t err_size)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    a->dfd = dfd;
    a->rules = *rules;
    if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
        strlen(name) >= sizeof a->name || strlen(name) > NAME_MAX) {
        mbx_set_err(err, err_size, "not a file name");
        return ATOMIC_FILE_FAILED;
    }
    strcpy(a->name, name);
    int rc = check_name(dfd, name, rules, err, err_size);
    if (rc == ATOMIC_FILE_OK)
        rc = check_size_limit(rules->size, err, err_size);
    if (rc == ATOMIC_FILE_OK)
        rc = open_temp(a, err, err_size);
    if (rc != ATOMIC_FILE_OK) {
        a->fd = -1;
        return rc;
    }
    xfsz_block(&a->old_mask, &a->xfsz_was_pending);
    return ATOMIC_FILE_OK;
}

int atomic_file_begin_path(struct atomic_file *a, const char *path, const struct atomic_file_rules *rules,
                           char *err, size_t err_size)
{
    memset(a, 0, sizeof *a);
    a->fd = a->dfd = -1;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char dir[PATH_MAX];
    size_t dl = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    if (dl >= sizeof dir) {
        mbx_set_err(err, err_size, "path is too long");
        return ATOMIC_FILE_FAILED;
    }
    if (slash)
        memcpy(dir, path, dl);
    else
        dir[0] = '.';
    dir[dl] = 0;
    /* The directory is the user's to name: a symbolic link on it is
     * followed. Only the last component is guarded. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        mbx_set_err(err, err_size, "cannot open directory: %s", strerror(errno));
        return ATOMIC_FILE_FAILED;
    }
    int rc = atomic_file_begin(a, dfd, name, rules, err, err_size);
    if (rc != ATOMIC_FILE_OK) {
        close(dfd);
        a->dfd = -1;
        return rc;
    }
    a->own_dfd = true;
    return ATOMIC_FILE_OK;
}

/* Moves tmp to name inside dfd without replacing an existing entry. */
static int move_noreplace(int dfd, const char *tmp, const char *name)
{
#ifdef RENAME_NOREPLACE
    if (renameat2(dfd, tmp, dfd, name, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
#endif
    /* link() fails with EEXIST if name exists: the same guarantee. */
    if (linkat(dfd, tmp, dfd, name, 0) != 0)
        return -1;
    unlinkat(dfd, tmp, 0);
    return 0;
}

static void release(struct atomic_file *a)
{
    if (a->own_dfd && a->dfd >= 0)
        close(a->dfd);
    a->dfd = -1;
    a->own_dfd = false;
}

int atomic_file_commit(struct atomic_file *a, char *err, size_t err_size)
{
    if (a->fd < 0) {
        mbx_set_err(err, err_size, "nothing to commit");
        release(a);
        return ATOMIC_FILE_FAILED;
    }
    int rc = ATOMIC_FILE_OK;
    if (close(a->fd) != 0) {
        mbx_set_err(err, err_size, "write failed: %s", strerror(errno));
        rc = ATOMIC_FILE_FAILED;
    }
    a->fd = -1;
    xfsz_unblock(&a->old_mask, a->xfsz_was_pending);
    /* Again just before the move: what appeared meanwhile is judged as
     * what was there at the start. */
    if (rc == ATOMIC_FILE_OK)
        rc = check_name(a->dfd, a->name, &a->rules, err, err_size);
    if (rc == ATOMIC_FILE_OK) {
        /* A plain rename replaces the old entry atomically; it never
         * writes through a link, it replaces the link itself. */
        int r = a->rules.replace ? renameat(a->dfd, a->tmp, a->dfd, a->name)
                                 : move_noreplace(a->dfd, a->tmp, a->name);
        if (r != 0) {
            int e = errno;
            rc = e == EEXIST ? ATOMIC_FILE_EXISTS : ATOMIC_FILE_FAILED;
            mbx_set_err(err, err_size, "%s", e == EEXIST ? "file exists" : strerror(e));
        }
    }
    if (rc != ATOMIC_FILE_OK)
        unlinkat(a->dfd, a->tmp, 0);
    release(a);
    return rc;
}

void atomic_file_abort(struct atomic_file *a)
{
    if (a->fd >= 0) {
        close(a->fd);
        a->fd = -1;
        xfsz_unblock(&a->old_mask, a->xfsz_was_pending);
        unlinkat(a->dfd, a->tmp, 0);
    }
    release(a);
}

/* RENAME_NOREPLACE or RENAME_EXCHANGE refused by the filesystem (not
 * because of the names): the fallback applies. */
static bool flag_unsupported(int e)
{
    return e == EINVAL || e == ENOSYS || e == ENOTSUP;
}

int atomic_dir_put(const char *tmp, const char *target, bool exists, char **old)
{
    *old = NULL;
    if (!exists) {
#ifdef RENAME_NOREPLACE
        if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_NOREPLACE) == 0)
            return 0;
        if (!flag_unsupported(errno))
            return -1;
#endif
        return rename(tmp, target);
    }
#ifdef RENAME_EXCHANGE
    /* After the exchange the temporary name holds the old folder. */
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
        if (!(*old = strdup(tmp)))
            errno = ENOMEM; /* in place; the old folder stays under tmp's name */
        return 0;
    }
    if (!flag_unsupported(errno))
        return -1;
#endif
    size_t n = strlen(tmp) + 5;
    char *aside = malloc(n);
    if (!aside) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(aside, n, "%s-old", tmp);
    if (rename(target, aside) != 0) {
        free(aside);
        return -1;
    }
    if (rename(tmp, target) != 0) {
        int e = errno;
        rename(aside, target); /* put back: it is the user's again */
        free(aside);
        errno = e;
        return -1;
    }
    *old = aside;
    return 0;
}
