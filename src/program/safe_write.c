/* Writing extracted bytes without ever harming the user's files.
 *
 * The atomic write itself is the library's (src/lib/writer/atomic_file.c:
 * an O_EXCL temporary beside the target, moved into place whole, never
 * over a device, FIFO, socket or directory, never over an existing file
 * unless `force`, even one that appears meanwhile). What this file adds
 * is the program's part: (1) nothing lands outside the directory asked
 * for: every directory below DIR is opened with O_NOFOLLOW|O_DIRECTORY
 * relative to its parent (openat/mkdirat), so a symlink planted inside
 * DIR cannot redirect us; (2) every temporary is registered with
 * fatal_cleanup while it exists, so Ctrl-C, SIGTERM or SIGHUP at any
 * moment removes it; (3) the written bytes can be checked against a hash.
 */
#include "config.h"
#include "safe_write.h"
#include "fatal_cleanup.h"
#include "container/escape.h"
#include "container/textf.h"
#include "checks/sha256.h"
#include "writer/atomic_file.h"

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
#include <unistd.h>
#include <stdbool.h>

#define MAX_COMPONENT 200
#define MAX_DEPTH 64

/* Length of the valid UTF-8 sequence at p (1-4), or 0 if invalid or a
 * character no name may hold (mbx_codepoint_unsafe: controls, bidi and
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
        (cp >= 0xD800 && cp <= 0xDFFF) || mbx_codepoint_unsafe(cp))
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
        mbx_set_err(err, err_size, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t off = 0; off < len && rc == 0; off += CHUNK) {
        size_t n = len - off < CHUNK ? len - off : CHUNK;
        memcpy(buf, data + off, n);
        gcry_md_write(h, buf, n);
        if (write_all(fd, buf, n) != 0) {
            mbx_set_err(err, err_size, "write failed: %s", strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0 && memcmp(gcry_md_read(h, GCRY_MD_SHA256), sha256, 32) != 0) {
        mbx_set_err(err, err_size, "the file changed while it was read (what was copied does not match its hash)");
        rc = -2;
    }
    gcry_md_close(h);
    free(buf);
    return rc;
}

/* The user-facing reason for a refusal of the core. */
static void exists_hint(int rc, char *err, size_t err_size)
{
    if (rc == ATOMIC_FILE_EXISTS)
        mbx_set_err(err, err_size, "file exists (use --force to replace it)");
}

/* The first half of an atomic write: the core's begin, with the fatal
 * signals blocked until the temporary is registered, so no signal falls
 * between its creation and its registration. */
static int temp_begin(int dfd, const char *name, bool force, const struct safe_write_guard *guard,
                      struct atomic_file *a, int *slot, char *err, size_t err_size)
{
    struct atomic_file_rules rules = { .replace = force };
    if (guard && guard->has_input) {
        rules.has_keep = true;
        rules.keep_dev = guard->input_dev;
        rules.keep_ino = guard->input_ino;
    }
    sigset_t old_mask;
    fatal_cleanup_block(&old_mask);
    int rc = atomic_file_begin(a, dfd, name, &rules, err, err_size);
    *slot = rc == ATOMIC_FILE_OK ? fatal_cleanup_add_temp(dfd, a->tmp) : -1;
    /* The core blocked SIGXFSZ until commit and keeps the mask to restore
     * then: that is the mask from before the fatal signals were blocked
     * here, and until then only SIGXFSZ stays blocked. */
    sigset_t during = old_mask;
    if (rc == ATOMIC_FILE_OK) {
        a->old_mask = old_mask;
        sigaddset(&during, SIGXFSZ);
    }
    fatal_cleanup_unblock(&during);
    exists_hint(rc, err, err_size);
    return rc == ATOMIC_FILE_OK ? 0 : -1;
}

/* The second half: moves the finished temporary into place (rc 0), or
 * removes it (rc != 0, or the move fails); forgets its registration. */
static int temp_finish(struct atomic_file *a, int slot, int rc, char *err, size_t err_size)
{
    if (rc == 0) {
        int c = atomic_file_commit(a, err, err_size);
        exists_hint(c, err, err_size);
        rc = c == ATOMIC_FILE_OK ? 0 : -1;
    } else {
        atomic_file_abort(a);
    }
    fatal_cleanup_forget_temp(slot);
    return rc;
}

/* The core: writes DIRFD/NAME atomically. NAME must be a checked component. */
static int write_at(int dfd, const char *name, const void *data, size_t len, bool force,
                    const struct safe_write_guard *guard, char *err, size_t err_size)
{
    struct atomic_file a;
    int slot = -1;
    if (temp_begin(dfd, name, force, guard, &a, &slot, err, err_size) != 0)
        return -1;
    const uint8_t *sha = guard ? guard->sha256 : NULL;
    int rc = sha ? write_hashed(a.fd, data, len, sha, err, err_size) : write_all(a.fd, data, len);
    if (rc == -1 && !sha)
        mbx_set_err(err, err_size, "write failed: %s", strerror(errno));
    return temp_finish(&a, slot, rc, err, err_size);
}

static int open_dir(const char *dir, char *err, size_t err_size)
{
    /* The directory the user named may itself be a symlink: that is their
     * choice. Only what lies below it is guarded. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        mbx_set_err(err, err_size, "cannot open directory: %s", strerror(errno));
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
        mbx_set_err(err, err_size, "unsafe file name");
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
        mbx_set_err(err, err_size, "path is too long");
        return -1;
    }
    char *copy = strdup(relative_path);
    if (!copy) {
        mbx_set_err(err, err_size, "out of memory");
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
                mbx_set_err(err, err_size, "path contains \"..\"");
                goto out;
            }
            if (!component_ok(p)) {
                mbx_set_err(err, err_size, "path contains a control character or an over-long name");
                goto out;
            }
            if (np == MAX_DEPTH) {
                mbx_set_err(err, err_size, "path is nested too deeply");
                goto out;
            }
            parts[np++] = p;
        }
        if (!slash)
            break;
        p = slash + 1;
    }
    if (np == 0) {
        mbx_set_err(err, err_size, "path names no file");
        goto out;
    }

    int dfd = open_dir(dir, err, err_size);
    if (dfd < 0)
        goto out;
    for (size_t i = 0; i + 1 < np; i++) {
        if (mkdirat(dfd, parts[i], 0777) != 0 && errno != EEXIST) {
            mbx_set_err(err, err_size, "cannot create a directory: %s", strerror(errno));
            close(dfd);
            goto out;
        }
        int sub = openat(dfd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            int e = errno;
            struct stat st;
            if (fstatat(dfd, parts[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
                mbx_set_err(err, err_size, "a symbolic link is in the way; not followed");
            else if (e == ENOTDIR)
                mbx_set_err(err, err_size, "a file is in the way of a directory");
            else
                mbx_set_err(err, err_size, "cannot open a directory: %s", strerror(e));
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
        mbx_set_err(err, err_size, "not a file name");
        return -1;
    }
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) {
        mbx_set_err(err, err_size, "out of memory");
        return -1;
    }
    t->dfd = open_dir(dir, err, err_size);
    free(dir);
    if (t->dfd < 0)
        return -1;
    if (temp_begin(t->dfd, name, force, guard, &t->a, &t->slot, err, err_size) != 0) {
        close(t->dfd);
        t->dfd = -1;
        return -1;
    }
    t->fd = t->a.fd;
    return 0;
}

int safe_write_commit(struct safe_write_temp *t, char *err, size_t err_size)
{
    if (t->dfd < 0) {
        mbx_set_err(err, err_size, "nothing to commit");
        return -1;
    }
    int rc = temp_finish(&t->a, t->slot, 0, err, err_size);
    close(t->dfd);
    t->fd = t->dfd = -1;
    return rc;
}

void safe_write_abort(struct safe_write_temp *t)
{
    if (t->dfd < 0)
        return;
    temp_finish(&t->a, t->slot, -1, NULL, 0);
    close(t->dfd);
    t->fd = t->dfd = -1;
}

int make_output_dir(const char *dir, char *err, size_t err_size)
{
    return make_output_dir_made(dir, NULL, err, err_size);
}

int make_output_dir_made(const char *dir, char **made, char *err, size_t err_size)
{
    /* mkdir -p: each missing ancestor, then DIR itself, mode 0777 less the
     * umask. The path is the user's, so a symlink on it is followed. */
    if (made)
        *made = NULL;
    char *path = strdup(dir);
    if (!path) {
        mbx_set_err(err, err_size, "out of memory");
        return -1;
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) == 0) {
            if (made && !*made && !(*made = strdup(path))) {
                rmdir(path);
                mbx_set_err(err, err_size, "out of memory");
                free(path);
                return -1;
            }
        } else if (errno != EEXIST) {
            mbx_set_err(err, err_size, "cannot create the output directory%s%s: %s", saved ? " " : "",
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
        mbx_set_err(err, err_size, "the output path is not a directory");
        return -1;
    }
    return 0;
}
