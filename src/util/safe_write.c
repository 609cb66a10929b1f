/* Writing extracted bytes without ever harming the user's files.
 *
 * Three promises, each kept by the kernel rather than by a check-then-act
 * race: (1) nothing lands outside the directory asked for: every directory
 * below DIR is opened with O_NOFOLLOW|O_DIRECTORY relative to its parent
 * (openat/mkdirat), so a symlink planted inside DIR cannot redirect us;
 * (2) an existing file is never replaced unless `force`: the finished
 * temporary file is moved into place with renameat2(RENAME_NOREPLACE), or
 * link()+unlink() where the filesystem lacks it, both of which fail if the
 * name exists (a plain rename would overwrite); (3) a reader never sees a
 * half-written file: data goes to an O_EXCL temporary in the same
 * directory first, and the temporary is removed on every failure path.
 * No fsync: atomic visibility is what matters here, and syncing every one
 * of thousands of extracted modules would make extraction crawl.
 */
#include "config.h"
#include "safe_write.h"
#include "fatal_cleanup.h"
#include "mtlbx_private.h"

#include <errno.h>
#include <gcrypt.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_COMPONENT 200
#define MAX_DEPTH 64

static void set_err(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 if invalid or a
 * character no name may hold (mtlbx_codepoint_unsafe: controls, bidi and
 * invisible format characters). */
static size_t utf8_len(const uint8_t *p, size_t n)
{
    uint8_t c = p[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || mtlbx_codepoint_unsafe(cp))
        return 0;
    return len;
}

char *safe_component(const uint8_t *bytes, size_t len)
{
    char *out = malloc(MAX_COMPONENT + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len && o < MAX_COMPONENT;) {
        uint8_t c = bytes[i];
        size_t l = utf8_len(bytes + i, len - i);
        if (l == 1 && (c < 0x20 || c == 0x7F || c == '/' || c == '\\')) {
            /* Separators and controls: '/' would leave the directory, a
             * control could act on a terminal when the path is shown. */
            out[o++] = '_';
            i++;
        } else if (l == 0) {
            /* Invalid, or an unsafe character: '_' for each of its bytes. */
            out[o++] = '_';
            i++;
        } else {
            if (o + l > MAX_COMPONENT)
                break; /* truncate on a character boundary */
            memcpy(out + o, bytes + i, l);
            o += l;
            i += l;
        }
    }
    out[o] = 0;
    /* "", "." and ".." name no file of their own. */
    if (o == 0 || strcmp(out, ".") == 0 || strcmp(out, "..") == 0) {
        memset(out, '_', o ? o : 1);
        out[o ? o : 1] = 0;
    }
    return out;
}

static bool component_ok(const char *name)
{
    if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
        strlen(name) > NAME_MAX)
        return false;
    /* Member names from an archive land here unchanged: refuse what
     * safe_component would have replaced (invalid UTF-8, C1 controls such
     * as 0x9B, bidi and invisible characters), as the man page says. */
    const uint8_t *p = (const uint8_t *)name;
    for (size_t i = 0, n = strlen(name); i < n;) {
        size_t l = utf8_len(p + i, n - i);
        if (l == 0 || p[i] == '/' || p[i] < 0x20 || p[i] == 0x7F)
            return false;
        i += l;
    }
    return true;
}

static int write_all(int fd, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len) {
        ssize_t w = write(fd, p, len > ((size_t)1 << 30) ? ((size_t)1 << 30) : len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Copies through a buffer that is hashed as it is written, so the digest
 * is of exactly the bytes in the file, whatever the source does meanwhile.
 * -1 on a write error, -2 when the digest is not `sha256`. */
static int write_hashed(int fd, const uint8_t *data, size_t len, const uint8_t *sha256, char *err,
                        size_t err_size)
{
    enum { CHUNK = 1 << 20 };
    gcry_md_hd_t h;
    gcry_check_version(NULL);
    uint8_t *buf = malloc(CHUNK);
    if (!buf || gcry_md_open(&h, GCRY_MD_SHA256, 0) != 0) {
        free(buf);
        set_err(err, err_size, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t off = 0; off < len && rc == 0; off += CHUNK) {
        size_t n = len - off < CHUNK ? len - off : CHUNK;
        memcpy(buf, data + off, n);
        gcry_md_write(h, buf, n);
        if (write_all(fd, buf, n) != 0) {
            set_err(err, err_size, "write failed: %s", strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0 && memcmp(gcry_md_read(h, GCRY_MD_SHA256), sha256, 32) != 0) {
        set_err(err, err_size, "the file changed while it was read (what was copied does not match its hash)");
        rc = -2;
    }
    gcry_md_close(h);
    free(buf);
    return rc;
}

/* A file-size limit (ulimit -f) makes a write past it raise SIGXFSZ,
 * whose default action ends the process without a word and leaves the
 * temporary file half-written. With SIGXFSZ blocked in the writing thread
 * the write fails with EFBIG instead, an error like a full disk: said in
 * one line, the temporary removed. The signal it leaves pending is taken
 * back (unless one was pending before), so nothing else sees it. */
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

/* Fills and closes the temporary file. */
static int write_temp(int fd, const void *data, size_t len, const uint8_t *sha256, char *err, size_t err_size)
{
    sigset_t old;
    bool was_pending;
    xfsz_block(&old, &was_pending);
    int rc = sha256 ? write_hashed(fd, data, len, sha256, err, err_size) : write_all(fd, data, len);
    int e = errno;
    xfsz_unblock(&old, was_pending);
    errno = e;
    if (rc != 0) {
        if (rc == -1 && !sha256)
            set_err(err, err_size, "write failed: %s", strerror(errno));
        close(fd);
        return rc;
    }
    if (close(fd) != 0) {
        set_err(err, err_size, "write failed: %s", strerror(errno));
        return -1;
    }
    return 0;
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

/* The first half of an atomic write: refuses an existing NAME (unless
 * force; never the input), then creates and registers the temporary. */
static int temp_begin(int dfd, const char *name, bool force, const struct safe_write_guard *guard, char *tmp,
                      size_t tmp_size, int *slot, char *err, size_t err_size)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (guard && guard->has_input && (uint64_t)st.st_dev == guard->input_dev &&
            (uint64_t)st.st_ino == guard->input_ino) {
            set_err(err, err_size, "that is the input file; not replaced");
            return -1;
        }
        if (!force) {
            set_err(err, err_size, "file exists (use --force to replace it)");
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            set_err(err, err_size, "a directory is in the way");
            return -1;
        }
    } else if (errno != ENOENT) {
        set_err(err, err_size, "%s", strerror(errno));
        return -1;
    }

    /* The temporary starts with '.' and names this program, so a crash
     * mid-write leaves something recognisable; every error path removes it. */
    int fd = -1;
    /* Created and registered with the fatal signals blocked, so Ctrl-C,
     * SIGTERM or SIGHUP at any moment of a long write removes it. */
    sigset_t old_mask;
    fatal_cleanup_block(&old_mask);
    unsigned long seed = (unsigned long)getpid() ^ (unsigned long)time(NULL) ^
                         (unsigned long)(uintptr_t)tmp;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        snprintf(tmp, tmp_size, ".mtlbx-tmp-%08lx", (seed >> 16) & 0xFFFFFFFFUL);
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            set_err(err, err_size, "cannot create a temporary file: %s", strerror(errno));
            fatal_cleanup_unblock(&old_mask);
            return -1;
        }
    }
    if (fd < 0) {
        set_err(err, err_size, "cannot create a temporary file: too many name collisions");
        fatal_cleanup_unblock(&old_mask);
        return -1;
    }
    *slot = fatal_cleanup_add_temp(dfd, tmp);
    fatal_cleanup_unblock(&old_mask);
    return fd;
}

/* The second half: moves the finished temporary into place (rc 0), or
 * removes it (rc != 0, or the move fails). */
static int temp_finish(int dfd, const char *tmp, const char *name, bool force, int slot, int rc, char *err,
                       size_t err_size)
{
    if (rc == 0) {
        /* With force a plain rename replaces the old entry atomically; it
         * never writes through a symlink, it replaces the link itself. */
        rc = force ? renameat(dfd, tmp, dfd, name) : move_noreplace(dfd, tmp, name);
        if (rc != 0) {
            int e = errno;
            if (e == EEXIST)
                set_err(err, err_size, "file exists (use --force to replace it)");
            else
                set_err(err, err_size, "%s", strerror(e));
        }
    }
    if (rc != 0)
        unlinkat(dfd, tmp, 0);
    fatal_cleanup_forget_temp(slot);
    return rc;
}

/* The core: writes DIRFD/NAME atomically. NAME must be a checked component. */
static int write_at(int dfd, const char *name, const void *data, size_t len, bool force,
                    const struct safe_write_guard *guard, char *err, size_t err_size)
{
    char tmp[64];
    int slot = -1;
    int fd = temp_begin(dfd, name, force, guard, tmp, sizeof tmp, &slot, err, err_size);
    if (fd < 0)
        return -1;
    int rc = write_temp(fd, data, len, guard ? guard->sha256 : NULL, err, err_size);
    return temp_finish(dfd, tmp, name, force, slot, rc, err, err_size);
}

static int open_dir(const char *dir, char *err, size_t err_size)
{
    /* The directory the user named may itself be a symlink: that is their
     * choice. Only what lies below it is guarded. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        set_err(err, err_size, "cannot open directory: %s", strerror(errno));
    return dfd;
}

static void fill_path(char *out, size_t n, const char *dir, const char *rel)
{
    if (!out || !n)
        return;
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    if (dl == 1 && dir[0] == '/')
        snprintf(out, n, "/%s", rel);
    else
        snprintf(out, n, "%.*s/%s", (int)dl, dir, rel);
}

int safe_write_file(const char *dir, const char *name, const void *data, size_t len,
                    bool force, char *err, size_t err_size, char *path_out, size_t path_size)
{
    return safe_write_file_guarded(dir, name, data, len, force, NULL, err, err_size, path_out, path_size);
}

int safe_write_under(const char *dir, const char *relative_path, const void *data, size_t len,
                     bool force, char *err, size_t err_size, char *path_out, size_t path_size)
{
    return safe_write_under_guarded(dir, relative_path, data, len, force, NULL, err, err_size, path_out,
                                    path_size);
}

int safe_write_file_guarded(const char *dir, const char *name, const void *data, size_t len, bool force,
                            const struct safe_write_guard *guard, char *err, size_t err_size,
                            char *path_out, size_t path_size)
{
    if (!component_ok(name)) {
        set_err(err, err_size, "unsafe file name");
        return -1;
    }
    int dfd = open_dir(dir, err, err_size);
    if (dfd < 0)
        return -1;
    int rc = write_at(dfd, name, data, len, force, guard, err, err_size);
    close(dfd);
    if (rc == 0)
        fill_path(path_out, path_size, dir, name);
    return rc;
}

int safe_write_under_guarded(const char *dir, const char *relative_path, const void *data, size_t len,
                             bool force, const struct safe_write_guard *guard, char *err, size_t err_size,
                             char *path_out, size_t path_size)
{
    /* Split into components: empty parts (a leading '/', "//") and "."
     * vanish; ".." or a control byte refuses the whole path. */
    size_t rl = strlen(relative_path);
    if (rl >= PATH_MAX) {
        set_err(err, err_size, "path is too long");
        return -1;
    }
    char *copy = strdup(relative_path);
    if (!copy) {
        set_err(err, err_size, "out of memory");
        return -1;
    }
    char *parts[MAX_DEPTH];
    size_t np = 0;
    int rc = -1;
    for (char *p = copy; *p;) {
        char *slash = strchr(p, '/');
        if (slash)
            *slash = 0;
        if (*p && strcmp(p, ".") != 0) {
            if (strcmp(p, "..") == 0) {
                set_err(err, err_size, "path contains \"..\"");
                goto out;
            }
            if (!component_ok(p)) {
                set_err(err, err_size, "path contains a control character or an over-long name");
                goto out;
            }
            if (np == MAX_DEPTH) {
                set_err(err, err_size, "path is nested too deeply");
                goto out;
            }
            parts[np++] = p;
        }
        if (!slash)
            break;
        p = slash + 1;
    }
    if (np == 0) {
        set_err(err, err_size, "path names no file");
        goto out;
    }

    int dfd = open_dir(dir, err, err_size);
    if (dfd < 0)
        goto out;
    for (size_t i = 0; i + 1 < np; i++) {
        if (mkdirat(dfd, parts[i], 0777) != 0 && errno != EEXIST) {
            set_err(err, err_size, "cannot create a directory: %s", strerror(errno));
            close(dfd);
            goto out;
        }
        int sub = openat(dfd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            int e = errno;
            struct stat st;
            if (fstatat(dfd, parts[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
                set_err(err, err_size, "a symbolic link is in the way; not followed");
            else if (e == ENOTDIR)
                set_err(err, err_size, "a file is in the way of a directory");
            else
                set_err(err, err_size, "cannot open a directory: %s", strerror(e));
            close(dfd);
            goto out;
        }
        close(dfd);
        dfd = sub;
    }
    rc = write_at(dfd, parts[np - 1], data, len, force, guard, err, err_size);
    close(dfd);
    if (rc == 0 && path_out && path_size) {
        /* Rebuild the cleaned relative path for the caller's message. */
        char clean[PATH_MAX];
        size_t o = 0;
        for (size_t i = 0; i < np; i++) {
            int w = snprintf(clean + o, sizeof clean - o, "%s%s", i ? "/" : "", parts[i]);
            if (w < 0 || (size_t)w >= sizeof clean - o)
                break;
            o += (size_t)w;
        }
        fill_path(path_out, path_size, dir, clean);
    }
out:
    free(copy);
    return rc;
}

int safe_write_begin(const char *path, bool force, const struct safe_write_guard *guard, struct safe_write_temp *t,
                     char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    t->fd = t->dfd = t->slot = -1;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strlen(name) > NAME_MAX) {
        set_err(err, err_size, "not a file name");
        return -1;
    }
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    t->name = strdup(name);
    if (!dir || !t->name) {
        free(dir);
        free(t->name);
        t->name = NULL;
        set_err(err, err_size, "out of memory");
        return -1;
    }
    t->dfd = open_dir(dir, err, err_size);
    free(dir);
    if (t->dfd < 0) {
        free(t->name);
        t->name = NULL;
        return -1;
    }
    t->force = force;
    t->fd = temp_begin(t->dfd, t->name, force, guard, t->tmp, sizeof t->tmp, &t->slot, err, err_size);
    if (t->fd >= 0)
        xfsz_block(&t->old_mask, &t->xfsz_was_pending);
    if (t->fd < 0) {
        close(t->dfd);
        free(t->name);
        t->name = NULL;
        t->dfd = -1;
        return -1;
    }
    return 0;
}

int safe_write_commit(struct safe_write_temp *t, char *err, size_t err_size)
{
    int rc = 0;
    if (close(t->fd) != 0) {
        set_err(err, err_size, "write failed: %s", strerror(errno));
        rc = -1;
    }
    t->fd = -1;
    xfsz_unblock(&t->old_mask, t->xfsz_was_pending);
    rc = temp_finish(t->dfd, t->tmp, t->name, t->force, t->slot, rc, err, err_size);
    close(t->dfd);
    free(t->name);
    t->name = NULL;
    t->dfd = -1;
    return rc;
}

void safe_write_abort(struct safe_write_temp *t)
{
    if (t->dfd < 0)
        return;
    if (t->fd >= 0) {
        close(t->fd);
        xfsz_unblock(&t->old_mask, t->xfsz_was_pending);
    }
    temp_finish(t->dfd, t->tmp, t->name, t->force, t->slot, -1, NULL, 0);
    close(t->dfd);
    free(t->name);
    t->name = NULL;
    t->fd = t->dfd = -1;
}

int make_output_dir(const char *dir, char *err, size_t err_size)
{
    /* mkdir -p: each missing ancestor, then DIR itself, mode 0777 less the
     * umask. The path is the user's, so a symlink on it is followed. */
    char *path = strdup(dir);
    if (!path) {
        set_err(err, err_size, "out of memory");
        return -1;
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            set_err(err, err_size, "cannot create the output directory%s%s: %s", saved ? " " : "",
                    saved ? path : "", strerror(errno));
            free(path);
            return -1;
        }
        *p = saved;
        if (!saved)
            break;
        while (p[1] == '/')
            p++;
    }
    free(path);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        set_err(err, err_size, "the output path is not a directory");
        return -1;
    }
    return 0;
}
