/* See dir_swap.h. The move into place is the library's atomic_dir_put
 * (src/lib/writer/atomic_file.c, where every rename into place is): an
 * exchange with an existing folder, NOREPLACE for a new one. What this
 * file adds is the program's part: which folder may be replaced, the
 * temporary folder, the parents made, and their registration with
 * fatal_cleanup while they exist. */
#include "config.h"
#include "dir_swap.h"
#include "fatal_cleanup.h"
#include "safe_write.h"
#include "writer/atomic_file.h"
#include "container/textf.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdbool.h>

/* 1 when the folder holds nothing, 0 when it holds something, -1 when it
 * cannot be read. */
static int dir_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int empty = 1;
    for (struct dirent *e; empty && (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = 0;
    closedir(d);
    return empty;
}

/* The path without trailing slashes (but "/" stays). */
static char *trimmed(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return strndup(dir, n);
}

static char *parent_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* Whether the file `keep` lies under the folder `dir` (both real paths). */
static bool inside(const char *keep, const char *dir)
{
    char *k = keep ? realpath(keep, NULL) : NULL;
    size_t dl = strlen(dir);
    bool in = k && strncmp(k, dir, dl) == 0 && (k[dl] == '/' || dl == 1);
    free(k);
    return in;
}

/* The target as it stands: missing, an empty folder, or one --force may
 * replace. Resolves it to its real path when it exists. */
static int check_target(struct dir_swap *s, bool force, const char *keep, char *err, size_t err_size)
{
    struct stat st;
    if (lstat(s->target, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        mbx_set_err(err, err_size, "%s", strerror(errno));
        return -1;
    }
    /* A symbolic link to a folder is the user's way of naming it: the
     * folder it names is the one replaced. */
    if (stat(s->target, &st) != 0 || !S_ISDIR(st.st_mode)) {
        mbx_set_err(err, err_size, "exists and is not a folder; nothing written");
        return -1;
    }
    char *real = realpath(s->target, NULL);
    if (!real) {
        mbx_set_err(err, err_size, "%s", strerror(errno));
        return -1;
    }
    free(s->target);
    s->target = real;
    s->exists = true;
    if (strcmp(real, "/") == 0) {
        mbx_set_err(err, err_size, "the root folder is never replaced; nothing written");
        return -1;
    }
    int empty = dir_empty(real);
    if (empty < 0) {
        mbx_set_err(err, err_size, "cannot read the folder: %s", strerror(errno));
        return -1;
    }
    if (empty)
        return 0;
    if (!force) {
        mbx_set_err(err, err_size, "a folder with files in it exists (use --force to replace it); nothing written");
        return -1;
    }
    char *manifest = malloc(strlen(real) + 32);
    bool ours = manifest && (sprintf(manifest, "%s/manifest.json", real), lstat(manifest, &st) == 0) &&
                S_ISREG(st.st_mode);
    free(manifest);
    if (!ours) {
        mbx_set_err(err, err_size, "the folder holds no manifest.json: it is not one unpack wrote, and --force "
                               "replaces only those; nothing written");
        return -1;
    }
    if (inside(keep, real)) {
        mbx_set_err(err, err_size, "the folder holds the input file; not replaced");
        return -1;
    }
    return 0;
}

/* parent/.mtlbx-tmp-XXXXXXXX, made with mode 0777 less the umask. */
static int make_tmp(struct dir_swap *s, const char *parent, char *err, size_t err_size)
{
    size_t pl = strlen(parent);
    s->tmp = malloc(pl + 32);
    if (!s->tmp) {
        mbx_set_err(err, err_size, "out of memory");
        return -1;
    }
    unsigned long seed = (unsigned long)getpid() * 2654435761u ^ (unsigned long)time(NULL) ^ (unsigned long)(uintptr_t)s;
    sigset_t old;
    fatal_cleanup_block(&old);
    for (int attempt = 0; attempt < 100; attempt++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        snprintf(s->tmp, pl + 32, "%s/.mtlbx-tmp-%08lx", parent, (seed >> 16) & 0xFFFFFFFFUL);
        if (mkdir(s->tmp, 0777) == 0) {
            s->tree_slot = fatal_cleanup_add_tree(s->tmp);
            fatal_cleanup_unblock(&old);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    fatal_cleanup_unblock(&old);
    mbx_set_err(err, err_size, "cannot create a temporary folder beside it: %s", strerror(e));
    free(s->tmp);
    s->tmp = NULL;
    return -1;
}

int dir_swap_begin(struct dir_swap *s, const char *dir, bool force, const char *keep, char *err, size_t err_size)
{
    memset(s, 0, sizeof *s);
    s->tree_slot = s->made_slot = -1;
    if (!(s->target = trimmed(dir))) {
        mbx_set_err(err, err_size, "out of memory");
        return -1;
    }
    if (check_target(s, force, keep, err, err_size) != 0) {
        dir_swap_abort(s);
        return -1;
    }
    char *parent = parent_of(s->target);
    if (!parent) {
        mbx_set_err(err, err_size, "out of memory");
        dir_swap_abort(s);
        return -1;
    }
    /* The parents made are registered before the temporary folder inside
     * them exists: a signal in between removes them too. */
    sigset_t old;
    fatal_cleanup_block(&old);
    int rc = s->exists ? 0 : make_output_dir_made(parent, &s->made, err, err_size);
    if (s->made)
        s->made_slot = fatal_cleanup_add_tree(s->made);
    fatal_cleanup_unblock(&old);
    if (rc == 0)
        rc = make_tmp(s, parent, err, err_size);
    free(parent);
    if (rc != 0)
        dir_swap_abort(s);
    return rc;
}

int dir_swap_commit(struct dir_swap *s, char *err, size_t err_size)
{
    char *old = NULL;
    sigset_t mask;
    /* The swap and the registrations change together: a signal sees the
     * temporary name registered while it holds something to remove. */
    fatal_cleanup_block(&mask);
    if (atomic_dir_put(s->tmp, s->target, s->exists, &old) != 0) {
        int e = errno;
        fatal_cleanup_unblock(&mask);
        mbx_set_err(err, err_size, "cannot put the folder in place: %s", strerror(e));
        dir_swap_abort(s);
        return -1;
    }
    /* The old folder, if any, is under `old` (or, when its name could not
     * be copied, still under the temporary name): registered for removal
     * in place of the temporary one. */
    if (s->exists && !old) {
        old = s->tmp;
        s->tmp = NULL;
    }
    fatal_cleanup_forget_tree(s->tree_slot);
    fatal_cleanup_forget_tree(s->made_slot);
    s->tree_slot = s->made_slot = -1;
    int old_slot = old ? fatal_cleanup_add_tree(old) : -1;
    fatal_cleanup_unblock(&mask);
    int rc = 0;
    if (old && fatal_cleanup_remove_tree(old) != 0) {
        mbx_set_err(err, err_size, "the old folder (moved to %s) could not be removed whole", old);
        rc = 1;
    }
    fatal_cleanup_forget_tree(old_slot);
    free(old);
    free(s->tmp);
    free(s->made);
    free(s->target);
    s->tmp = s->made = s->target = NULL;
    return rc;
}

void dir_swap_abort(struct dir_swap *s)
{
    if (s->tmp)
        fatal_cleanup_remove_tree(s->tmp);
    fatal_cleanup_forget_tree(s->tree_slot);
    if (s->made)
        fatal_cleanup_remove_tree(s->made);
    fatal_cleanup_forget_tree(s->made_slot);
    s->tree_slot = s->made_slot = -1;
    free(s->tmp);
    free(s->made);
    free(s->target);
    s->tmp = s->made = s->target = NULL;
}
