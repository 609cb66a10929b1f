/* check --expect LIST (expect.h): the names, and what each operand has
 * of them. */
#include "config.h"

#include "gate/expect.h"
#include "container/file.h"
#include "container/functions.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static bool push(char ***v, size_t *n, size_t *cap, char *s)
{
    if (!s)
        return false;
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        char **g = realloc(*v, c * sizeof *g);
        if (!g) {
            free(s);
            return false;
        }
        *v = g;
        *cap = c;
    }
    (*v)[(*n)++] = s;
    return true;
}

static bool add_name(struct expect *e, const char *s, size_t len, bool may_glob)
{
    char *copy = strndup(s, len);
    if (copy && may_glob && strpbrk(copy, "*?["))
        return push(&e->globs, &e->n_globs, &e->cap_globs, copy);
    return push(&e->exact, &e->n_exact, &e->cap_exact, copy);
}

static bool add_library(struct expect *e, const mtlbx_library *lib)
{
    for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
        const struct mtlbx_function *fn = mbx_function_peek(lib, i);
        if (fn && fn->name.len && !add_name(e, (const char *)fn->name.ptr, fn->name.len, false))
            return false;
    }
    return true;
}

bool mbx_expect_begin(struct expect *e, const char *list)
{
    memset(e, 0, sizeof *e);
    return (e->list = strdup(list)) != NULL;
}

bool mbx_expect_add_file(struct expect *e, mtlbx_file *f)
{
    e->from_library = true;
    bool ok = true;
    for (size_t l = 0; ok && l < mbx_file_library_count(f); l++)
        ok = add_library(e, mbx_library_at(f, l));
    return ok;
}

/* One name or glob a line; '#' comment lines, blank lines and the
 * spaces around a name do not count. */
bool mbx_expect_add_text(struct expect *e, const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t eol = i;
        while (eol < len && text[eol] != '\n')
            eol++;
        size_t s = i, end = eol;
        while (s < end && (text[s] == ' ' || text[s] == '\t'))
            s++;
        while (end > s && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
            end--;
        if (end > s && text[s] != '#' && !add_name(e, text + s, end - s, true))
            return false;
        i = eol + 1;
    }
    return true;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool mbx_expect_finish(struct expect *e)
{
    if (e->n_exact > 1) {
        qsort(e->exact, e->n_exact, sizeof *e->exact, by_string);
        size_t kept = 1;
        for (size_t i = 1; i < e->n_exact; i++) {
            if (strcmp(e->exact[i], e->exact[kept - 1]) == 0)
                free(e->exact[i]);
            else
                e->exact[kept++] = e->exact[i];
        }
        e->n_exact = kept;
    }
    e->exact_found = calloc(e->n_exact + 1, sizeof *e->exact_found);
    e->glob_found = calloc(e->n_globs + 1, sizeof *e->glob_found);
    return e->exact_found && e->glob_found;
}

void mbx_expect_reset(struct expect *e)
{
    memset(e->exact_found, 0, e->n_exact * sizeof *e->exact_found);
    memset(e->glob_found, 0, e->n_globs * sizeof *e->glob_found);
}

size_t mbx_expect_count(const struct expect *e)
{
    return e->n_exact + e->n_globs;
}

/* The exact name equal to these bytes, or -1. */
static long find_exact(const struct expect *e, const uint8_t *p, size_t len)
{
    size_t lo = 0, hi = e->n_exact;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = e->exact[mid];
        size_t sl = strlen(s), n = sl < len ? sl : len;
        int c = memcmp(s, p, n);
        if (!c)
            c = (sl > len) - (sl < len);
        if (!c)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

void mbx_expect_library(struct expect *e, const mtlbx_library *lib)
{
    size_t globs_left = 0;
    for (size_t g = 0; g < e->n_globs; g++)
        globs_left += !e->glob_found[g];
    for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
        const struct mtlbx_function *fn = mbx_function_peek(lib, i);
        if (!fn || !fn->name.len)
            continue;
        long k = find_exact(e, fn->name.ptr, fn->name.len);
        if (k >= 0)
            e->exact_found[k] = true;
        if (!globs_left)
            continue;
        if (fn->name.len + 1 > e->name_cap) {
            char *g = realloc(e->name_buf, fn->name.len + 1);
            if (!g) {
                e->out_of_memory = true;
                return;
            }
            e->name_buf = g;
            e->name_cap = fn->name.len + 1;
        }
        memcpy(e->name_buf, fn->name.ptr, fn->name.len);
        e->name_buf[fn->name.len] = '\0';
        for (size_t g = 0; g < e->n_globs; g++)
            if (!e->glob_found[g] && fnmatch(e->globs[g], e->name_buf, 0) == 0) {
                e->glob_found[g] = true;
                globs_left--;
            }
    }
}

void mbx_expect_missing(const struct expect *e, expect_missing_fn fn, void *ctx)
{
    for (size_t i = 0; i < e->n_exact; i++)
        if (!e->exact_found[i])
            fn(ctx, e->exact[i], false);
    for (size_t i = 0; i < e->n_globs; i++)
        if (!e->glob_found[i])
            fn(ctx, e->globs[i], true);
}

void mbx_expect_free(struct expect *e)
{
    for (size_t i = 0; i < e->n_exact; i++)
        free(e->exact[i]);
    for (size_t i = 0; i < e->n_globs; i++)
        free(e->globs[i]);
    free(e->exact);
    free(e->globs);
    free(e->exact_found);
    free(e->glob_found);
    free(e->name_buf);
    free(e->list);
    memset(e, 0, sizeof *e);
}
