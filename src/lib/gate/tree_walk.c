/* The folder walk of tree_walk.h: directories are opened relative to
 * their parent with O_NOFOLLOW, files are opened with O_NOFOLLOW |
 * O_NONBLOCK (a FIFO never blocks) and only their first ARCHIVE_HEAD bytes
 * are read. */
#include "config.h"

#include "tree_walk.h"
#include "archive_members.h"
#include "macho_members.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct dir_id {
    dev_t dev;
    ino_t ino;
};

struct walk {
    walk_fn fn;
    void *ctx;
    struct walk_progress *progress;
    const volatile int *cancel;
    char *path;                /* ROOT/REL of the current entry */
    size_t path_cap;
    size_t rel_start;          /* where REL begins in path */
    struct dir_id *seen;       /* open-addressed set of visited folders */
    size_t seen_cap, seen_n;
    bool stopped;
};

static size_t id_hash(struct dir_id id)
{
    uint64_t h = (uint64_t)id.ino * 0x9E3779B97F4A7C15ull ^ (uint64_t)id.dev;
    return (size_t)(h ^ (h >> 29));
}

/* Adds a folder; false if it was already visited (a loop) or no memory. */
static bool seen_add(struct walk *w, struct dir_id id)
{
    if (2 * (w->seen_n + 1) > w->seen_cap) {
        size_t cap = w->seen_cap ? 2 * w->seen_cap : 256;
        struct dir_id *v = calloc(cap, sizeof *v);
        if (!v)
            return false;
        for (size_t i = 0; i < w->seen_cap; i++)
            if (w->seen[i].ino || w->seen[i].dev)
                for (size_t j = id_hash(w->seen[i]) & (cap - 1);; j = (j + 1) & (cap - 1))
                    if (!v[j].ino && !v[j].dev) {
                        v[j] = w->seen[i];
                        break;
                    }
        free(w->seen);
        w->seen = v;
        w->seen_cap = cap;
    }
    for (size_t j = id_hash(id) & (w->seen_cap - 1);; j = (j + 1) & (w->seen_cap - 1)) {
        if (!w->seen[j].ino && !w->seen[j].dev) {
            w->seen[j] = id;
            w->seen_n++;
            return true;
        }
        if (w->seen[j].ino == id.ino && w->seen[j].dev == id.dev)
            return false;
    }
}

static int emit(struct walk *w, enum walk_kind kind, uint64_t size, const char *problem)
{
    if (kind == WALK_PROBLEM)
        atomic_fetch_add(&w->progress->problems, 1);
    size_t len = strlen(w->path);
    struct walk_entry e = { kind, w->path, w->rel_start <= len ? w->path + w->rel_start : "", size, problem };
    if (w->fn(w->ctx, &e))
        w->stopped = true;
    return 0;
}

/* Sets path to PREFIX/name; returns the old length to restore. */
static size_t push_name(struct walk *w, const char *name, bool *ok)
{
    size_t old = strlen(w->path), n = strlen(name);
    bool slash = old > 0 && w->path[old - 1] != '/';
    if (old + n + 2 > w->path_cap) {
        size_t cap = (old + n + 2) * 2;
        char *p = realloc(w->path, cap);
        if (!p) {
            *ok = false;
            return old;
        }
        w->path = p;
        w->path_cap = cap;
    }
    if (slash)
        w->path[old++] = '/';
    memcpy(w->path + old, name, n + 1);
    *ok = true;
    return old - slash;
}

/* A regular file already open: read its first bytes and report what it
 * is. `named`: the user named it (the root), so a file that is neither a
 * metallib nor an archive is reported rather than passed over. */
static void classify_file(struct walk *w, int fd, const struct stat *st, const char *name, bool named)
{
    uint8_t head[ARCHIVE_HEAD];
    ssize_t n;
    do
        n = pread(fd, head, sizeof head, 0);
    while (n < 0 && errno == EINTR);
    atomic_fetch_add(&w->progress->files, 1);
    if (n < 0) {
        emit(w, WALK_PROBLEM, 0, strerror(errno));
        return;
    }
    if (n >= 4 && mbx_metallib_magic(head)) {
        atomic_fetch_add(&w->progress->metallibs, 1);
        emit(w, WALK_METALLIB, (uint64_t)st->st_size, NULL);
    } else if (mbx_archive_content(head, (size_t)n) || mbx_macho_content(head, (size_t)n)) {
        atomic_fetch_add(&w->progress->archives, 1);
        emit(w, WALK_ARCHIVE, (uint64_t)st->st_size, NULL);
    } else if (named || mbx_metallib_name(name)) {
        /* Opening it says what it is not ("not a metallib: magic ..."). */
        emit(w, WALK_METALLIB, (uint64_t)st->st_size, NULL);
    }
}

struct name_entry {
    char *name;
    unsigned char type;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct name_entry *)a)->name, ((const struct name_entry *)b)->name);
}

/* Reads the names of the folder open at dfd (dfd stays open). */
static struct name_entry *read_names(int dfd, size_t *count, int *error)
{
    *count = 0;
    *error = 0;
    struct name_entry *v = NULL;
    size_t n = 0, cap = 0;
    /* getdents64 through a small struct of our own would avoid the DIR's
     * dup(), but readdir is the portable way; the dup costs little. */
    int copy = dup(dfd);
    DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
    if (!d) {
        *error = errno;
        if (copy >= 0)
            close(copy);
        return NULL;
    }
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' && (de->d_name[1] == '\0' || (de->d_name[1] == '.' && de->d_name[2] == '\0')))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            struct name_entry *g = realloc(v, cap * sizeof *v);
            if (!g) {
                errno = ENOMEM;
                break;
            }
            v = g;
        }
        if (!(v[n].name = strdup(de->d_name)))
            break;
        v[n++].type = de->d_type;
        errno = 0;
    }
    *error = errno;
    closedir(d);
    if (n)
        qsort(v, n, sizeof *v, by_name);
    *count = n;
    return v;
}

static void walk_dir(struct walk *w, int dfd, int depth);

/* One entry of the folder open at dfd; path already names it. */
static void walk_entry_at(struct walk *w, int dfd, const struct name_entry *ne, int depth)
{
    if (ne->type == DT_LNK || ne->type == DT_FIFO || ne->type == DT_CHR || ne->type == DT_BLK ||
        ne->type == DT_SOCK)
        return;
    int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | (ne->type == DT_DIR ? O_DIRECTORY : O_NONBLOCK);
    int fd = openat(dfd, ne->name, flags);
    if (fd < 0) {
        if (errno != ELOOP) /* a symbolic link (d_type unknown): not followed */
            emit(w, WALK_PROBLEM, 0, strerror(errno));
        return;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        emit(w, WALK_PROBLEM, 0, strerror(errno));
        close(fd);
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        if (depth + 1 >= TREE_WALK_MAX_DEPTH)
            emit(w, WALK_PROBLEM, 0, "folders nested too deeply: not entered");
        else if (seen_add(w, (struct dir_id){ st.st_dev, st.st_ino }))
            walk_dir(w, fd, depth + 1);
    } else if (S_ISREG(st.st_mode)) {
        classify_file(w, fd, &st, ne->name, false);
    }
    close(fd);
}

static void walk_dir(struct walk *w, int dfd, int depth)
{
    size_t n;
    int error;
    struct name_entry *names = read_names(dfd, &n, &error);
    if (error)
        emit(w, WALK_PROBLEM, 0, strerror(error));
    for (size_t i = 0; i < n; i++) {
        if (!w->stopped && !(w->cancel && *w->cancel)) {
            bool ok;
            size_t old = push_name(w, names[i].name, &ok);
            if (ok) {
                walk_entry_at(w, dfd, &names[i], depth);
                w->path[old] = '\0';
            }
        }
        free(names[i].name);
    }
    free(names);
}

int mbx_tree_walk(const char *root, walk_fn fn, void *ctx, struct walk_progress *progress, const volatile int *cancel)
{
    struct walk w = { .fn = fn, .ctx = ctx, .progress = progress, .cancel = cancel };
    w.path_cap = strlen(root) + 256;
    if (!(w.path = malloc(w.path_cap)))
        return 1;
    strcpy(w.path, root);
    w.rel_start = strlen(root);
    int fd = open(root, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        emit(&w, WALK_PROBLEM, 0, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        /* Relative names start after ROOT/ (or after ROOT when it ends in /). */
        if (w.rel_start && root[w.rel_start - 1] != '/')
            w.rel_start++;
        seen_add(&w, (struct dir_id){ st.st_dev, st.st_ino });
        walk_dir(&w, fd, 0);
    } else if (S_ISREG(st.st_mode)) {
        const char *slash = strrchr(root, '/');
        classify_file(&w, fd, &st, slash ? slash + 1 : root, true);
    } else {
        /* A FIFO or a device named by the user: said, not skipped. */
        char why[80];
        snprintf(why, sizeof why, "not a regular file or folder (%s)", mbx_special_file_kind(st.st_mode));
        emit(&w, WALK_PROBLEM, 0, why);
    }
    if (fd >= 0)
        close(fd);
    bool stopped = w.stopped || (cancel && *cancel);
    free(w.path);
    free(w.seen);
    return stopped ? 1 : 0;
}
