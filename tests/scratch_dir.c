/* See scratch_dir.h. */
#include "config.h"

#include "scratch_dir.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *pt_join(const char *a, const char *b)
{
    char *p = NULL;
    cr_assert(asprintf(&p, "%s/%s", a, b) > 0);
    return p;
}

char *pt_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *t = pt_join(base && *base ? base : "/tmp", "mtlbx-pullout.XXXXXX");
    cr_assert_not_null(mkdtemp(t), "mkdtemp failed");
    return t;
}

void pt_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = pt_join(path, e->d_name);
        pt_rmtree(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

uint8_t *pt_slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 65536, n = 0;
    uint8_t *buf = malloc(cap + 1);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    fclose(fp);
    buf[n] = 0;
    *len = n;
    return buf;
}
