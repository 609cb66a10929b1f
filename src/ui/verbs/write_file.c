/* Writing what the user asked for to a file, and the helpers every verb
 * shares: "~/x" paths, mkdir -p, and asking before overwriting. Calls
 * nothing above it in src/ui (a prompt and the status line only), so any
 * view may use it. */
#include "config.h"

#include "safe_write.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/prompt.h"
#include "container/nouns.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "~/x" means $HOME/x, as in a shell. */
void verb_expand_home(const char *in, char *out, size_t size)
{
    const char *home = getenv("HOME");
    if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && *home)
        snprintf(out, size, "%s%s", home, in + 1);
    else
        snprintf(out, size, "%s", in);
}

static void split_path(const char *path, char *dir, size_t dsize, char *name, size_t nsize)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dsize, ".");
        snprintf(name, nsize, "%s", path);
    } else if (slash == path) {
        snprintf(dir, dsize, "/");
        snprintf(name, nsize, "%s", slash + 1);
    } else {
        snprintf(dir, dsize, "%.*s", (int)(slash - path), path);
        snprintf(name, nsize, "%s", slash + 1);
    }
}

bool verb_write_bytes(struct explorer *ex, const char *typed, const void *data, size_t len)
{
    char path[2048], dir[2048], name[2048], err[256], final[4200];
    verb_expand_home(typed, path, sizeof path);
    split_path(path, dir, sizeof dir, name, sizeof name);
    if (!name[0]) {
        ex_error(ex, "%s names a directory; give a file name", typed);
        return false;
    }
    struct stat st;
    bool force = false;
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            ex_error(ex, "%s is a directory; give a file name", typed);
            return false;
        }
        char q[600];
        snprintf(q, sizeof q, "%.500s exists. Overwrite it?", typed);
        if (!prompt_yes_no(ex, q)) {
            ex_message(ex, "not written: %s exists", typed);
            return false;
        }
        force = true;
    }
    if (safe_write_file(dir, name, data, len, force, err, sizeof err, final, sizeof final) != 0) {
        ex_error(ex, "cannot write %s: %s", typed, err);
        return false;
    }
    ex_message(ex, "wrote %zu %s to %s", len, mbx_noun(len, "byte", "bytes"), final);
    return true;
}

bool verb_confirm_overwrite(struct explorer *ex, size_t existing, size_t total, const char *dir)
{
    if (existing == 0)
        return false;
    char q[400];
    snprintf(q, sizeof q, "%zu of %zu files already exist in %.200s. Overwrite them?",
             existing, total, dir);
    return prompt_yes_no(ex, q);
}

/* mkdir -p, for the directory the user named. */
bool verb_make_dirs(const char *path, char *err, size_t err_size)
{
    char tmp[2048];
    if (!path || !path[0]) {
        snprintf(err, err_size, "no directory given: type a path (. for here)");
        return false;
    }
    if (strlen(path) >= sizeof tmp) {
        snprintf(err, err_size, "directory path too long");
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
                snprintf(err, err_size, "cannot create %.200s: %s", tmp, strerror(errno));
                return false;
            }
            *p = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%.200s is not a directory", path);
        return false;
    }
    return true;
}
