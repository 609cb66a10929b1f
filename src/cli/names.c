/* Function NAME operands of dis, sig, src and extract -f: resolved by the
 * library's one rule (mbx_resolve_function_name: exact, glob, unique
 * prefix) and, on a miss, one error line that names the closest functions
 * or lists what an ambiguous prefix begins. */
#include "config.h"

#include "commands.h"

#include <stdlib.h>
#include <string.h>

/* Names listed in one error line; the rest are counted. */
#define LISTED_MAX 8

static char *shown_name(const mtlbx_file *f, struct mtlbx_function_ref r)
{
    struct mtlbx_bytes b = mbx_function_at(mbx_library_at(f, r.library), r.function)->name;
    return cli_escape_dup(b.ptr, b.len);
}

/* "a, b, c and 4 more" into buf. */
static void list_names(const mtlbx_file *f, const struct mtlbx_name_matches *m, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < m->n && k < LISTED_MAX; k++) {
        char *s = shown_name(f, m->v[k]);
        int w = snprintf(buf + used, size - used, "%s%s", k ? ", " : "", s ? s : "?");
        free(s);
        if (w < 0 || (size_t)w >= size - used)
            return;
        used += (size_t)w;
    }
    if (m->n > LISTED_MAX)
        snprintf(buf + used, size - used, " and %zu more", m->n - LISTED_MAX);
}

static void report(const char *path, const mtlbx_file *f, const char *name, const struct mtlbx_name_matches *m)
{
    char *q = cli_escape_str_dup(name);
    char list[2048];
    list_names(f, m, list, sizeof list);
    /* A name too long to demangle may be the one asked for: say so. */
    char note[160] = "";
    if (m->how == MTLBX_NAME_MISSING && m->undemangled)
        snprintf(note, sizeof note, " (%zu C++ %s too long to demangle, compared as stored)", m->undemangled,
                 m->undemangled == 1 ? "name is" : "names are");
    if (m->how == MTLBX_NAME_MISSING && m->n)
        cli_error(path, NULL, "no function named '%s'%s; did you mean %s?", q ? q : "?", note, list);
    else if (m->how == MTLBX_NAME_MISSING)
        cli_error(path, NULL, "no function named '%s'%s", q ? q : "?", note);
    else
        cli_error(path, NULL, "'%s' matches %zu functions: %s (give more of the name)", q ? q : "?", m->n, list);
    free(q);
}

int cli_resolve_functions(const char *path, const mtlbx_file *f, const char *name, bool one,
                          struct mtlbx_name_matches *out)
{
    if (!mbx_resolve_function_name(f, name, out)) {
        cli_error(path, NULL, "out of memory");
        return 2;
    }
    bool miss = out->how == MTLBX_NAME_MISSING || out->how == MTLBX_NAME_AMBIGUOUS ||
                (one && out->how == MTLBX_NAME_GLOB && out->n > 1);
    if (!miss)
        return 0;
    /* A name missing from a list that could not be read whole is no
     * answer: say that reading ran out of memory instead. */
    if (cli_complete(path, f)) {
        mbx_name_matches_free(out);
        return 2;
    }
    report(path, f, name, out);
    mbx_name_matches_free(out);
    return 1;
}

int cli_open_function(const struct cli_args *args, const char *path, const char *name, struct cli_function *out)
{
    memset(out, 0, sizeof *out);
    mtlbx_file **f = &out->file;
    *f = cli_open(path);
    if (!*f)
        return 2;
    long slice = -1;
    if (args && !cli_slice(args, path, *f, &slice)) {
        mbx_close(*f);
        *f = NULL;
        return 2;
    }
    struct mtlbx_name_matches m;
    int status = cli_resolve_functions(path, *f, name, true, &m);
    /* --slice N: the first match in library N. */
    size_t pick = 0;
    while (!status && slice >= 0 && pick < m.n && m.v[pick].library != (size_t)slice)
        pick++;
    if (!status && pick == m.n) {
        char *q = cli_escape_str_dup(name);
        cli_error(path, NULL, "no function named '%s' in slice %ld", q ? q : "?", slice);
        free(q);
        mbx_name_matches_free(&m);
        status = 1;
    }
    if (status) {
        mbx_close(*f);
        *f = NULL;
        return status;
    }
    out->lib = mbx_library_at(*f, m.v[pick].library);
    out->index = m.v[pick].function;
    mbx_name_matches_free(&m);
    out->fn = mbx_function_at(out->lib, out->index);
    out->shown_copy = cli_escape_dup(out->fn->name.ptr, out->fn->name.len);
    out->shown = out->shown_copy ? out->shown_copy : "?";
    return 0;
}

void cli_close_function(struct cli_function *cf)
{
    free(cf->shown_copy);
    mbx_close(cf->file);
    memset(cf, 0, sizeof *cf);
}
