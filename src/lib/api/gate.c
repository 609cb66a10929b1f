/* mtlbx_gate_*: the release gate of `mtlbx check` through the library
 * (the Python module's mtlbx.check). Each path added is checked at once by
 * the checker core the program uses (gate/gate.h), and its findings are
 * kept as values, sorted as check prints them (--json's order).
 *
 * This far the gate takes metallib files (plain or fat) and --os
 * PLATFORM:VERSION targets. Folders, archives (wheels, .ipa, .zip),
 * Mach-O hosts, --os declared and --expect are walked above the library
 * today (src/program, src/cli): they are refused here, with ENOTSUP and a
 * message that says so, never passed over as if they held no finding. */
#include "config.h"

#include "mtlbx.h"
#include "container/macho.h"
#include "checks/requirements.h"
#include "gate/gate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct gate_item {
    size_t file;               /* index into names */
    enum mtlbx_severity severity;
    uint64_t offset;
    char *message;
    const char *rule;          /* MBX_RULE_*: static */
};

struct mtlbx_gate {
    struct mbx_os_gate os;
    char **names;
    size_t n_names;
    struct gate_item *v;
    size_t n, cap;
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
        free(g->names[i]);
    free(g->names);
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
    g->error[0] = 0;
    g->error_errno = 0;
    if (strcmp(os, "declared") == 0)
        return fail(g, ENOTSUP, "declared: the package's declared minimum is not yet checked through the library "
                                "(mtlbx check --os declared does)");
    struct mbx_os_gate next = g->os;
    enum mtlbx_os named = MTLBX_OS_NONE;
    switch (mbx_os_gate_add(&next, os, &named)) {
    case MBX_OS_GATE_ADDED:
        g->os = next;
        return MTLBX_OK;
    case MBX_OS_GATE_TWICE:
        return fail(g, EINVAL, "%s: %s is named twice", os, mbx_os_name(named));
    default:
        return fail(g, EINVAL, "%s: expected PLATFORM:VERSION, e.g. macOS:14.0 (platforms: " MTLBX_OS_SPEC_PLATFORMS ")",
                    os);
    }
}

/* One finding of mbx_gate_check_file, kept. */
struct keep {
    mtlbx_gate *g;
    size_t file;
};

static bool keep_finding(void *ctx, enum mtlbx_severity sev, uint64_t offset, const char *message, const char *rule)
{
    struct keep *k = ctx;
    mtlbx_gate *g = k->g;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct gate_item *v = realloc(g->v, cap * sizeof *v);
        if (!v)
            return false;
        g->v = v;
        g->cap = cap;
    }
    char *copy = strdup(message);
    if (!copy)
        return false;
    g->v[g->n++] = (struct gate_item){ k->file, sev, offset, copy, rule };
    return true;
}

static int item_cmp(const void *a, const void *b)
{
    const struct gate_item *x = a, *y = b;
    return mbx_gate_order(x->offset, x->severity, x->message, y->offset, y->severity, y->message);
}

/* A file the program walks for the libraries inside (an archive, a
 * Mach-O host) by its first bytes, as its folder walk tells them apart;
 * anything else is opened, and a file that is not a metallib refused
 * as check refuses it. */
static bool walked_above(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return false; /* opening it says why */
    uint8_t m[512];
    ssize_t got = pread(fd, m, sizeof m, 0);
    close(fd);
    if (got <= 0)
        return false;
    bool metallib = got >= 4 && ((m[0] == 'M' && m[1] == 'T' && m[2] == 'L' && m[3] == 'B') ||
                                 (m[0] == 0xCB && m[1] == 0xFE && m[2] == 0xBA && m[3] == 0xBE));
    return !metallib && (mbx_archive_content(m, (size_t)got) || mbx_macho_magic(m, (size_t)got));
}

int mtlbx_gate_add_path(mtlbx_gate *g, const char *path)
{
    if (!g || !path)
        return MTLBX_FAILED;
    g->error[0] = 0;
    g->error_errno = 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return fail(g, ENOTSUP, "%s: a folder: folders are not yet checked through the library (mtlbx check does)",
                    path);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && walked_above(path))
        return fail(g, ENOTSUP, "%s: an archive or a Mach-O host: archives (wheels, .ipa, .zip) and Mach-O hosts "
                                "are not yet checked through the library (mtlbx check does)", path);
    char **names = realloc(g->names, (g->n_names + 1) * sizeof *names);
    if (!names)
        return fail(g, ENOMEM, "%s: out of memory", path);
    g->names = names;
    if (!(names[g->n_names] = strdup(path)))
        return fail(g, ENOMEM, "%s: out of memory", path);
    struct keep k = { g, g->n_names++ };
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (mbx_open_path(path, &f, &err) != MTLBX_E_NONE) {
        if (err.has_offset)
            return fail(g, err.sys_errno, "%s:%llu: %s", path, (unsigned long long)err.offset, err.message);
        return fail(g, err.sys_errno, "%s: %s", path, err.message);
    }
    size_t first = g->n;
    long n = mbx_gate_check_file(f, &g->os, keep_finding, &k);
    /* As check says them (cli_complete): a file cut short under the
     * reads, or one read only in part, is not answered for. */
    int rc = MTLBX_OK;
    if (n < 0 || mbx_file_out_of_memory(f, NULL))
        rc = fail(g, ENOMEM, "%s: out of memory: its findings are not all known", path);
    else if (mbx_file_changed(f))
        rc = fail(g, 0, "%s: the file changed or shrank while it was being read", path);
    mbx_close(f);
    if (g->n > first) /* (g->v is NULL before the first finding) */
        qsort(g->v + first, g->n - first, sizeof *g->v, item_cmp);
    return rc != MTLBX_OK ? rc : g->n > first ? MTLBX_WARN : MTLBX_OK;
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
        *file = g->names[it->file];
    if (offset)
        *offset = (int64_t)it->offset;
    if (severity)
        *severity = it->severity == MTLBX_ERROR ? MTLBX_SEVERITY_ERROR : MTLBX_SEVERITY_WARNING;
    if (rule)
        *rule = it->rule;
    return it->message;
}
