/* Tab completion of file paths (see pathcomplete.h). */
#include "config.h"

#include "ui/text/pathcomplete.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_NAMES 4096

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t path_complete(const char *in, char *out, size_t out_size, char *matches, size_t matches_size)
{
    snprintf(out, out_size, "%s", in);
    if (matches && matches_size)
        matches[0] = '\0';
    const char *slash = strrchr(in, '/');
    size_t dir_len = slash ? (size_t)(slash - in) + 1 : 0;
    const char *base = in + dir_len;
    size_t base_len = strlen(base);
    /* The directory to read: as typed, "~/" from $HOME, "." for none. */
    char dir[4096];
    const char *home = getenv("HOME");
    if (dir_len == 0)
        snprintf(dir, sizeof dir, ".");
    else if (in[0] == '~' && in[1] == '/' && home && *home)
        snprintf(dir, sizeof dir, "%s/%.*s", home, (int)(dir_len - 2), in + 2);
    else
        snprintf(dir, sizeof dir, "%.*s", (int)dir_len, in);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < MAX_NAMES;) {
        const char *nm = e->d_name;
        if (!strcmp(nm, ".") || !strcmp(nm, "..") || strncmp(nm, base, base_len) != 0)
            continue;
        if (nm[0] == '.' && base[0] != '.')
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        char *copy = strdup(nm);
        if (!grown || !copy) {
            free(copy);
            names = grown ? grown : names;
            break;
        }
        names = grown;
        names[n++] = copy;
    }
    closedir(d);
    if (n == 0) {
        free(names);
        return 0;
    }
    qsort(names, n, sizeof *names, by_name);
    /* The longest prefix all matches share. */
    size_t common = strlen(names[0]);
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < common && names[i][k] == names[0][k])
            k++;
        common = k;
    }
    bool is_dir = false;
    if (n == 1) {
        char full[8192];
        struct stat st;
        snprintf(full, sizeof full, "%s/%s", dir, names[0]);
        is_dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
    }
    snprintf(out, out_size, "%.*s%.*s%s", (int)dir_len, in, (int)common, names[0], is_dir ? "/" : "");
    if (matches && matches_size) {
        size_t used = 0;
        for (size_t i = 0; i < n && used + 1 < matches_size; i++)
            used += (size_t)snprintf(matches + used, matches_size - used, "%s%s", i ? " " : "", names[i]);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return n;
}
