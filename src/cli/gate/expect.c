/* check --expect LIST (expect.h). */
#include "config.h"

#include "cli/gate/expect.h"
#include "cli/commands.h"
#include "gate/archive_members.h"
#include "program/release_pairs.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A text LIST bigger than this is refused (a million names is ~50 MB). */
#define LIST_MAX_BYTES ((size_t)64 << 20)

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

struct building {
    struct expect *e;
    size_t cap_exact, cap_globs;
};

static bool add_name(struct building *b, const char *s, size_t len, bool may_glob)
{
    struct expect *e = b->e;
    char *copy = strndup(s, len);
    if (copy && may_glob && strpbrk(copy, "*?["))
        return push(&e->globs, &e->n_globs, &b->cap_globs, copy);
    return push(&e->exact, &e->n_exact, &b->cap_exact, copy);
}

static bool add_library(struct building *b, const mtlbx_library *lib)
{
    for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
        const struct mtlbx_function *fn = mbx_function_peek(lib, i);
        if (fn && fn->name.len && !add_name(b, (const char *)fn->name.ptr, fn->name.len, false))
            return false;
    }
    return true;
}

static bool add_file(struct building *b, mtlbx_file *f)
{
    bool ok = true;
    for (size_t l = 0; ok && l < mbx_file_library_count(f); l++)
        ok = add_library(b, mbx_library_at(f, l));
    return ok;
}

/* One name or glob a line; '#' comment lines, blank lines and the
 * spaces around a name do not count. */
static bool add_text(struct building *b, const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        size_t s = i, end = e;
        while (s < end && (text[s] == ' ' || text[s] == '\t'))
            s++;
        while (end > s && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
            end--;
        if (end > s && text[s] != '#' && !add_name(b, text + s, end - s, true))
            return false;
        i = e + 1;
    }
    return true;
}

static void problem_stderr(void *ctx, const char *path, const char *message)
{
    (void)ctx;
    cli_error(path, NULL, "%s", message);
}

/* LIST is a folder, an archive or a Mach-O host: every library in it. */
static bool load_release(struct building *b, const char *list)
{
    b->e->from_library = true;
    struct release_side side = { .problem = problem_stderr };
    release_side_collect(list, &side);
    bool ok = !side.failed;
    for (size_t i = 0; ok && i < side.n; i++) {
        mtlbx_file *f = cli_open(side.v[i].open);
        ok = f && add_file(b, f);
        mbx_close(f);
    }
    release_side_free(&side);
    return ok;
}

static bool load_text(struct building *b, const char *list)
{
    FILE *in = fopen(list, "rb");
    if (!in) {
        cli_error(list, NULL, "--expect: %s", strerror(errno));
        return false;
    }
    char *text = malloc(LIST_MAX_BYTES + 1);
    size_t len = text ? fread(text, 1, LIST_MAX_BYTES + 1, in) : 0;
    bool ok = text && !ferror(in) && len <= LIST_MAX_BYTES;
    if (!ok)
        cli_error(list, NULL, "--expect: %s", !text ? "out of memory" : ferror(in) ? strerror(errno)
                                                                    : "a list of names over 64 MiB");
    fclose(in);
    ok = ok && add_text(b, text, len);
    free(text);
    return ok;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool expect_load(struct expect *e, const char *list)
{
    memset(e, 0, sizeof *e);
    struct building b = { e, 0, 0 };
    if (!(e->list = strdup(list)))
        return false;
    /* A build when it opens as one (a metallib, a host, a folder or an
     * archive); anything that is not a metallib at all is a text list. */
    bool ok;
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (release_is_release(list)) {
        ok = load_release(&b, list);
    } else {
        int rc = cli_open_quiet(list, &f, &err);
        if (rc == MTLBX_E_NONE) {
            e->from_library = true;
            ok = add_file(&b, f);
        } else if (rc == MTLBX_E_NOT_METALLIB && !metallib_name(list)) {
            ok = load_text(&b, list);
        } else {
            ok = false;
            cli_error(list, err.has_offset ? &err.offset : NULL, "--expect: %s", err.message);
        }
        mbx_close(f);
    }
    if (!ok) {
        expect_free(e);
        return false;
    }
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
    if (!e->exact_found || !e->glob_found) {
        cli_error(list, NULL, "--expect: out of memory");
        expect_free(e);
        return false;
    }
    return true;
}

void expect_reset(struct expect *e)
{
    memset(e->exact_found, 0, e->n_exact * sizeof *e->exact_found);
    memset(e->glob_found, 0, e->n_globs * sizeof *e->glob_found);
}

size_t expect_count(const struct expect *e)
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

void expect_library(struct expect *e, const mtlbx_library *lib)
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

void expect_missing(const struct expect *e, expect_missing_fn fn, void *ctx)
{
    for (size_t i = 0; i < e->n_exact; i++)
        if (!e->exact_found[i])
            fn(ctx, e->exact[i], false);
    for (size_t i = 0; i < e->n_globs; i++)
        if (!e->glob_found[i])
            fn(ctx, e->globs[i], true);
}

void expect_free(struct expect *e)
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
