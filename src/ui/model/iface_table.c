/* The interface pane's text: a function's bindings as a table (index,
 * kind, access, type as MSL spells it, name), a struct argument's members
 * under it with offset and size, the function-constant guard of an
 * argument, the outputs, the function constants it uses, and the MSL
 * declaration. Lines are whole; the page wraps them
 * to the screen, so nothing is ever cut. Every byte from the file is
 * escaped here. */
#include "config.h"

#include "ui/model/iface_table.h"
#include "model/msl.h"
#include "ui/text/textfmt.h"
#include "container/functions.h"
#include "container/value_names.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
    char **v;
    unsigned char *heading;
    size_t n, cap;
    bool oom;
};

static void add(struct lines *l, bool heading, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(struct lines *l, bool heading, const char *fmt, ...)
{
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        unsigned char *h = v ? realloc(l->heading, cap) : NULL;
        if (v)
            l->v = v;
        if (!v || !h) {
            l->oom = true;
            return;
        }
        l->heading = h;
        l->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        l->oom = true;
        return;
    }
    l->heading[l->n] = heading;
    l->v[l->n++] = s;
}

static char *esc(struct mtlbx_bytes b)
{
    char *s = textfmt_escape_dup(b.ptr, b.len);
    return s ? s : strdup("?");
}

struct cells {
    char idx[24], kind[160], access[16];
    char *type, *name, *guard;
};

static void guard_of(const struct mtlbx_air_argument *a, const struct mtlbx_metadata *md, struct cells *c)
{
    c->guard = NULL;
    char *decl = mbx_msl_argument(a, md);
    const char *g = decl ? strstr(decl, "function_constant(") : NULL;
    if (g) {
        const char *end = strchr(g, ')');
        size_t len = end ? (size_t)(end - g) + 1 : strlen(g);
        c->guard = strndup(g, len);
    }
    free(decl);
}

static void cells_of(const struct mtlbx_air_argument *a, size_t k, const struct mtlbx_metadata *md,
                     struct cells *c)
{
    if (a->has_index)
        snprintf(c->idx, sizeof c->idx, "%" PRIu32, a->index);
    else
        snprintf(c->idx, sizeof c->idx, "%zu", k);
    /* Threadgroup memory is an air.buffer: MSL's word for its binding. */
    char *kind = mbx_argument_is_threadgroup_memory(a) ? strdup("threadgroup") : a->kind.len ? esc(a->kind)
                                                                                                 : strdup("-");
    if (a->has_location)
        snprintf(c->kind, sizeof c->kind, "%.120s(%" PRId64 ")", kind ? kind : "?", a->location);
    else
        snprintf(c->kind, sizeof c->kind, "%.150s", kind ? kind : "?");
    free(kind);
    snprintf(c->access, sizeof c->access, "%s", a->access ? a->access : "-");
    /* As MSL spells it: "device const float4*" */
    c->type = a->has_type ? mbx_msl_argument_type(a) : strdup("-");
    c->name = a->has_name ? esc(a->name) : strdup("-");
    guard_of(a, md, c);
}

static void cells_free(struct cells *c)
{
    free(c->type);
    free(c->name);
    free(c->guard);
}

static int width_of(const char *s)
{
    return s ? (int)strlen(s) : 0;
}

/* Whether an argument is a built-in input (thread_position_in_grid):
 * no binding and no access, only a kind, a type and a name. */
static bool builtin(const struct mtlbx_air_argument *a)
{
    return !a->has_location && !a->access && !mbx_argument_is_threadgroup_memory(a);
}

/* The rows of one group, columns as wide as their widest cell, up to a
 * limit (a longer cell only pushes its own row, which the page then
 * wraps). Built-ins have no access column: their kinds are long
 * (thread_position_in_threadgroup), and beside the bound arguments'
 * short ones (buffer(0)) they pushed every column out of line and the
 * names past 80 columns. */
static void rows(struct lines *l, const struct mtlbx_air_argument *args, size_t n, struct cells *c, bool builtins)
{
    int wi = 1, wk = 4, wa = 6, wt = 4;
    size_t shown = 0;
#define WIDEN(w, s, cap) do { int x_ = width_of(s); if (x_ > (w) && x_ <= (cap)) (w) = x_; } while (0)
    for (size_t k = 0; k < n; k++) {
        WIDEN(wi, c[k].idx, 6);      /* both groups: their # columns in line */
        if (builtin(&args[k]) != builtins)
            continue;
        shown++;
        WIDEN(wk, c[k].kind, builtins ? 40 : 18);
        WIDEN(wa, c[k].access, 10);
        WIDEN(wt, c[k].type, 32);
#undef WIDEN
    }
    if (!shown)
        return;
    if (builtins)
        add(l, true, "  %-*s  %-*s  %-*s  %s", wi, "#", wk, "built-in", wt, "type", "name");
    else
        add(l, true, "  %-*s  %-*s  %-*s  %-*s  %s", wi, "#", wk, "kind", wa, "access", wt, "type", "name");
    for (size_t k = 0; k < n; k++) {
        if (builtin(&args[k]) != builtins)
            continue;
        if (builtins)
            add(l, false, "  %-*s  %-*s  %-*s  %s", wi, c[k].idx, wk, c[k].kind, wt, c[k].type ? c[k].type : "?",
                c[k].name ? c[k].name : "?");
        else
            add(l, false, "  %-*s  %-*s  %-*s  %-*s  %s", wi, c[k].idx, wk, c[k].kind, wa, c[k].access, wt,
                c[k].type ? c[k].type : "?", c[k].name ? c[k].name : "?");
        if (c[k].guard)
            add(l, false, "  %*s  guarded by %s", wi, "", c[k].guard);
        struct mtlbx_struct_member m;
        bool any = false;
        for (size_t i = 0; mbx_argument_member(&args[k], i, &m); i++) {
            if (!any)
                add(l, false, "  %*s    %8s %6s  member", wi, "", "offset", "size");
            any = true;
            char *type = esc(m.type), *name = esc(m.name);
            char count[32] = "";
            if (m.count)
                snprintf(count, sizeof count, "[%" PRId64 "]", m.count);
            add(l, false, "  %*s    %8" PRId64 " %6" PRId64 "  %s %s%s", wi, "", m.offset, m.size, type ? type : "?",
                name ? name : "?", count);
            free(type);
            free(name);
        }
    }
}

/* One table (arguments or outputs): the bound ones, then the built-ins. */
static void table(struct lines *l, const char *title, const struct mtlbx_air_argument *args, size_t n,
                  const struct mtlbx_metadata *md)
{
    if (n == 0)
        return;
    add(l, true, "%s (%zu)", title, n);
    struct cells *c = calloc(n, sizeof *c);
    if (!c) {
        l->oom = true;
        return;
    }
    for (size_t k = 0; k < n; k++)
        cells_of(&args[k], k, md, &c[k]);
    rows(l, args, n, c, false);
    rows(l, args, n, c, true);
    for (size_t k = 0; k < n; k++)
        cells_free(&c[k]);
    free(c);
    add(l, false, "%s", "");
}

/* The function constants the function uses (its CNST list), as the
 * declaration below declares them. */
static void constants_table(struct lines *l, const struct mtlbx_metadata *md)
{
    if (!md || !md->n_constants)
        return;
    add(l, true, "Function constants (%zu)", md->n_constants);
    add(l, true, "  %5s  %-8s  %s", "index", "type", "name");
    for (size_t i = 0; i < md->n_constants; i++) {
        const struct mtlbx_constant *c = &md->constants[i];
        char tbuf[24], *name = esc(c->name);
        add(l, false, "  %5u  %-8s  %s%s", (unsigned)c->index, mbx_data_type_name(c->type, tbuf, sizeof tbuf),
            name ? name : "?", c->active ? "" : "  (optional)");
        free(name);
    }
    add(l, false, "%s", "");
}

int iface_table_build(mtlbx_model *m, const mtlbx_library *lib, size_t fn, char ***lines, unsigned char **heading,
                      size_t *n)
{
    struct lines l = { 0 };
    const struct mtlbx_function *f = mbx_function_at(lib, fn);
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, fn);
    const struct mtlbx_interface *iface = NULL;
    const char *error = NULL;
    int state = mbx_function_interface_cached(m, lib, fn, &iface, &error);
    char buf[32];
    const char *type = f->present & MTLBX_F_TYPE ? mbx_function_type_name(f->type, buf, sizeof buf) : "-";
    if (state == MTLBX_IFACE_NOT_DECODED) {
        add(&l, false, "decoding the interface...");
    } else if (state != MTLBX_IFACE_OK || !iface || !iface->stage) {
        add(&l, true, "No interface");
        add(&l, false, "%s", error ? error : "no AIR entry names this function (a visible or extern function)");
        add(&l, false, "%s", "");
    } else {
        if (iface->n_inputs == 0)
            add(&l, false, "no arguments");
        table(&l, "Arguments", iface->inputs, iface->n_inputs, md);
        table(&l, "Outputs", iface->outputs, iface->n_outputs, md);
    }
    constants_table(&l, md);
    if (state == MTLBX_IFACE_OK || state == MTLBX_IFACE_FAILED) {
        char *decl = mbx_msl_declaration(state == MTLBX_IFACE_OK ? iface : NULL, f->name, type, md,
                                           MTLBX_MSL_ONE_PER_LINE | MTLBX_MSL_CONSTANTS);
        if (decl) {
            add(&l, true, "Declaration");
            for (char *p = decl, *nl; p && *p; p = nl ? nl + 1 : NULL) {
                nl = strchr(p, '\n');
                add(&l, false, "  %.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
            }
            free(decl);
        }
    }
    if (l.oom) {
        iface_table_free(l.v, l.heading, l.n);
        *lines = NULL;
        *heading = NULL;
        *n = 0;
        return -1;
    }
    *lines = l.v;
    *heading = l.heading;
    *n = l.n;
    return state;
}

void iface_table_free(char **lines, unsigned char *heading, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    free(heading);
}
