/* mtlbx_gate_*: the release gate of `mtlbx check` through the library
 * (the Python module's mtlbx.check). Each path added is checked at once
 * by the walk and checker the program's check runs (gate/gate_run.h):
 * files, folders, archives (wheels, .ipa, .zip, tars), Mach-O hosts,
 * ARCHIVE!MEMBER, --os PLATFORM:VERSION and declared, --expect. Its
 * findings are kept as values, sorted as check prints them (--json's
 * order), and what check says on stderr (a file it cannot open or read
 * whole) is kept as a problem, with the call's MTLBX_FAILED. */
#include "config.h"

#include "mtlbx.h"
#include "gate/archive_members.h"
#include "gate/gate_run.h"
#include "container/macho.h"
#include "checks/os_spec.h"
#include "container/grow.h"
#include "gate/gate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

struct gate_item {
    size_t file;               /* index into names */
    enum mtlbx_severity severity;
    uint64_t offset;
    char *message;
    const char *rule;          /* MBX_RULE_*: static */
};

struct gate_name {
    char *name;                /* as check prints it: PATH, ARCHIVE!MEMBER, HOST!SEGMENT,SECTION */
    size_t member;             /* where the member's name starts in it (0: a file of its own) */
};

struct gate_problem {
    char *path;
    bool has_offset;
    uint64_t offset;
    char *message;
};

struct mtlbx_gate {
    struct mbx_os_gate os;
    struct expect expect;
    bool has_expect;
    struct gate_name *names;
    size_t n_names, cap_names;
    struct gate_item *v;
    size_t n, cap;
    size_t job_first;          /* the first item of the job at hand */
    bool job_out_of_memory;
    struct gate_problem *problems;
    size_t n_problems, cap_problems;
    int open_errno;            /* the system's errno of the last open that failed */
    char error[512];
    int error_errno;
};

mtlbx_gate *mtlbx_gate_new(void)
{
    return calloc(1, sizeof(mtlbx_gate));
}

void mtlbx_gate_free(mtlbx_gate *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        free(g->v[i].message);
    free(g->v);
    for (size_t i = 0; i < g->n_names; i++)
        free(g->names[i].name);
    free(g->names);
    for (size_t i = 0; i < g->n_problems; i++) {
        free(g->problems[i].path);
        free(g->problems[i].message);
    }
    free(g->problems);
    if (g->has_expect)
        mbx_expect_free(&g->expect);
    free(g);
}

static int fail(mtlbx_gate *g, int sys_errno, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(mtlbx_gate *g, int sys_errno, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
    g->error_errno = sys_errno;
    return MTLBX_FAILED;
}

static void clear_error(mtlbx_gate *g)
{
    g->error[0] = 0;
    g->error_errno = 0;
}

const char *mtlbx_gate_error_string(const mtlbx_gate *g)
{
    return g ? g->error : "no gate";
}

int mtlbx_gate_errno(const mtlbx_gate *g)
{
    return g ? g->error_errno : EINVAL;
}

int mtlbx_gate_os(mtlbx_gate *g, const char *os)
{
    if (!g || !os)
        return MTLBX_FAILED;
    clear_error(g);
    struct mbx_os_gate next = g->os;
    enum mtlbx_os named = MTLBX_OS_NONE;
    switch (mbx_os_gate_add(&next, os, &named)) {
    case MBX_OS_GATE_ADDED:
        g->os = next;
        return MTLBX_OK;
    case MBX_OS_GATE_TWICE:
        return fail(g, EINVAL, "%s: %s is named twice", os, mbx_os_name(named));
    default:
        return fail(g, EINVAL, "%s: expected PLATFORM:VERSION, e.g. macOS:14.0 (platforms: " MTLBX_OS_SPEC_PLATFORMS
                    "), or declared", os);
    }
}

/* ------------------------------------------------ the sink of the run -- */

static size_t on_file(void *ctx, const char *name)
{
    mtlbx_gate *g = ctx;
    if (!grow_array((void **)&g->names, &g->cap_names, g->n_names + 1, sizeof *g->names))
        goto out_of_memory;
    char *copy = strdup(name);
    if (!copy)
        goto out_of_memory;
    size_t cut = mbx_member_path_split(name);
    g->names[g->n_names] = (struct gate_name){ copy, cut ? cut + 1 : 0 };
    return g->n_names++;
out_of_memory:
    g->job_out_of_memory = true;
    return SIZE_MAX;
}

static bool on_finding(void *ctx, size_t file, enum mtlbx_severity sev, uint64_t offset, const char *message,
                       const char *rule)
{
    mtlbx_gate *g = ctx;
    char *copy = NULL;
    if (!grow_array((void **)&g->v, &g->cap, g->n + 1, sizeof *g->v) || !(copy = strdup(message))) {
        g->job_out_of_memory = true;
        return false;
    }
    g->v[g->n++] = (struct gate_item){ file, sev, offset, copy, rule };
    return true;
}

/* check's order (check_report.c): by library as found, then by offset,
 * errors first, then by message. */
static int item_cmp(const void *a, const void *b)
{
    const struct gate_item *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return mbx_gate_order(x->offset, x->severity, x->message, y->offset, y->severity, y->message);
}

/* A job done. Its findings sorted as check prints them; a job that ran
 * out of memory keeps none, as check prints none of it (its problem
 * says so). */
static bool on_flush(void *ctx)
{
    mtlbx_gate *g = ctx;
    if (g->job_out_of_memory) {
        for (size_t i = g->job_first; i < g->n; i++)
            free(g->v[i].message);
        g->n = g->job_first;
    } else if (g->n > g->job_first + 1) {
        qsort(g->v + g->job_first, g->n - g->job_first, sizeof *g->v, item_cmp);
    }
    g->job_first = g->n;
    g->job_out_of_memory = false;
    return true;
}

static void on_problem(void *ctx, const char *path, const uint64_t *offset, const char *message)
{
    mtlbx_gate *g = ctx;
    /* The system's errno: an open's, or ENOMEM for check's "out of
     * memory" lines (Python raises MemoryError, OSError for the rest). */
    int sys_errno = g->open_errno ? g->open_errno : strstr(message, "out of memory") ? ENOMEM : 0;
    g->open_errno = 0;
    /* The first problem of the call is its error (what check's first
     * line on stderr says). */
    if (!g->error[0]) {
        if (offset)
            fail(g, sys_errno, "%s:%llu: %s", path, (unsigned long long)*offset, message);
        else
            fail(g, sys_errno, "%s: %s", path, message);
    }
    if (!grow_array((void **)&g->problems, &g->cap_problems, g->n_problems + 1, sizeof *g->problems))
        return; /* the call fails all the same: its error is set */
    struct gate_problem p = { strdup(path), offset != NULL, offset ? *offset : 0, strdup(message) };
    if (!p.path || !p.message) {
        free(p.path);
        free(p.message);
        return;
    }
    g->problems[g->n_problems++] = p;
}

/* The open of the program's check, with the system's errno kept for the
 * error (Python raises FileNotFoundError for a path that is not there). */
static int on_open(void *ctx, const char *path, mtlbx_file **out, struct mtlbx_error *err)
{
    int rc = mbx_open_any(path, out, err);
    if (rc != MTLBX_E_NONE)
        ((mtlbx_gate *)ctx)->open_errno = err->sys_errno;
    return rc;
}

static struct mbx_gate_sink sink_of(mtlbx_gate *g)
{
    return (struct mbx_gate_sink){ on_file, on_finding, on_flush, on_problem, on_open, g };
}

/* -------------------------------------------------------- the calls -- */

int mtlbx_gate_expect(mtlbx_gate *g, const char *list)
{
    if (!g || !list)
        return MTLBX_FAILED;
    clear_error(g);
    struct mbx_gate_sink sink = sink_of(g);
    struct expect e;
    bool ok = mbx_gate_run_expect(&e, list, &sink);
    if (!ok)
        return MTLBX_FAILED;
    if (g->has_expect)
        mbx_expect_free(&g->expect);
    g->expect = e;
    g->has_expect = true;
    return MTLBX_OK;
}

int mtlbx_gate_expect_text(mtlbx_gate *g, const char *name, const char *text, size_t len)
{
    if (!g || !name || (!text && len))
        return MTLBX_FAILED;
    clear_error(g);
    struct expect e;
    if (!mbx_expect_begin(&e, name) || !mbx_expect_add_text(&e, text ? text : "", len) || !mbx_expect_finish(&e)) {
        mbx_expect_free(&e);
        return fail(g, ENOMEM, "%s: out of memory", name);
    }
    if (g->has_expect)
        mbx_expect_free(&g->expect);
    g->expect = e;
    g->has_expect = true;
    return MTLBX_OK;
}

int mtlbx_gate_add_path(mtlbx_gate *g, const char *path)
{
    if (!g || !path)
        return MTLBX_FAILED;
    clear_error(g);
    size_t first = g->n;
    struct mbx_gate_run run = { .gate = &g->os, .expect = g->has_expect ? &g->expect : NULL, .sink = sink_of(g) };
    mbx_gate_run_operand(&run, path);
    mbx_gate_run_free(&run);
    if (run.unopened)
        return g->error[0] ? MTLBX_FAILED : fail(g, 0, "%s: not all of it could be read", path);
    return g->n > first ? MTLBX_WARN : MTLBX_OK;
}

size_t mtlbx_gate_finding_count(const mtlbx_gate *g)
{
    return g ? g->n : 0;
}

const char *mtlbx_gate_finding(const mtlbx_gate *g, size_t i, const char **file, int64_t *offset, int *severity,
                               const char **rule)
{
    if (!g || i >= g->n)
        return NULL;
    const struct gate_item *it = &g->v[i];
    if (file)
        *file = g->names[it->file].name;
    if (offset)
        *offset = (int64_t)it->offset;
    if (severity)
        *severity = it->severity == MTLBX_ERROR ? MTLBX_SEVERITY_ERROR : MTLBX_SEVERITY_WARNING;
    if (rule)
        *rule = it->rule;
    return it->message;
}

const char *mtlbx_gate_finding_member(const mtlbx_gate *g, size_t i)
{
    if (!g || i >= g->n)
        return NULL;
    const struct gate_name *nm = &g->names[g->v[i].file];
    return nm->member ? nm->name + nm->member : "";
}

size_t mtlbx_gate_problem_count(const mtlbx_gate *g)
{
    return g ? g->n_problems : 0;
}

const char *mtlbx_gate_problem(const mtlbx_gate *g, size_t i, const char **path, int64_t *offset)
{
    if (!g || i >= g->n_problems)
        return NULL;
    const struct gate_problem *p = &g->problems[i];
    if (path)
        *path = p->path;
    if (offset)
        *offset = p->has_offset ? (int64_t)p->offset : -1;
    return p->message;
}
