/* mtlbx_verify and mtlbx_check_os: what the program's `ls --verify` and
 * `check --os` answer, as statuses and findings of the handle. */
#include "config.h"

#include "api/handle.h"
#include "checks/requires_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mtlbx_verify(mtlbx *h)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return MTLBX_FAILED;
    }
    size_t mismatches = 0;
    for (size_t l = 0; l < h->n_libraries; l++)
        mismatches += mtlbx_library_verify_all(h->libraries[l].lib, 0);
    /* Hashing reads the file again (pread): a file cut short under it
     * cannot be answered for. */
    if (mtlbx_file_changed(h->file))
        return api_fail(h, MTLBX_FATAL, 0, -1, "%s: the file changed or shrank while it was being read",
                        mtlbx_file_path(h->file));
    if (!api_diag_sync(h, true))
        return api_fail(h, MTLBX_FAILED, ENOMEM, -1, "out of memory");
    if (mismatches)
        return api_fail(h, MTLBX_WARN, 0, -1, "%zu %s not match %s HASH", mismatches,
                        mismatches == 1 ? "module does" : "modules do", mismatches == 1 ? "its" : "their");
    return MTLBX_OK;
}

/* "macOS:14.0" (a patch level is allowed and adds nothing): false when it
 * is not PLATFORM:VERSION. As `check --os` reads its value. */
static bool parse_os(const char *s, enum mtlbx_os *os, struct mtlbx_os_version *v)
{
    const char *colon = s ? strchr(s, ':') : NULL;
    if (!colon || (*os = mtlbx_os_parse(s, (size_t)(colon - s))) == MTLBX_OS_NONE)
        return false;
    unsigned long part[3] = { 0, 0, 0 };
    const char *p = colon + 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        if (*p < '0' || *p > '9')
            return false;
        part[k] = strtoul(p, &end, 10);
        if (part[k] > UINT16_MAX)
            return false;
        p = end;
        if (*p != '.')
            break;
        p++;
    }
    if (*p)
        return false;
    *v = (struct mtlbx_os_version){ (uint16_t)part[0], (uint16_t)part[1] };
    return true;
}

/* One finding of the gate, kept in the handle's list. */
static bool gate_finding(mtlbx *h, int severity, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool gate_finding(mtlbx *h, int severity, uint64_t offset, const char *fmt, ...)
{
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(&text, fmt, ap);
    va_end(ap);
    bool ok = rc >= 0 && api_diag_add(h, severity, (int64_t)offset, text);
    free(text);
    return ok;
}

static bool over(const struct mtlbx_requires *r, struct mtlbx_os_version limit)
{
    return r->has_version && mtlbx_os_version_cmp(r->version, limit) > 0;
}

/* The findings of `check --os` for one library and one platform, in its
 * words (src/cli/requires_cli.c, os_gate_library): the library's, then one
 * per function that needs more. *n counts them. False when out of memory. */
static bool gate_library(mtlbx *h, const mtlbx_library *lib, enum mtlbx_os named, struct mtlbx_os_version limit,
                         size_t *n)
{
    const int ERR = MTLBX_SEVERITY_ERROR, WARN = MTLBX_SEVERITY_WARNING;
    struct mtlbx_requires r;
    mtlbx_library_requires(lib, &r);
    uint64_t at = mtlbx_library_header(lib)->base;
    const char *os = mtlbx_os_name(r.os);
    size_t before = h->n_diags;
    bool ok = true;
    char target[64], cause[160], unknown[200];
    if (!os) {
        ok = gate_finding(h, WARN, at,
                          "library: its platform is not known (no target OS, no target triple), so no --os applies");
    } else if (r.os != named) {
        ok = gate_finding(h, WARN, at, "library for %s: no --os names %s", os, os);
    } else {
        if (!r.has_version)
            ok = gate_finding(h, WARN, at, "library for %s: the version it needs is not known", os);
        if (ok && over(&r, limit)) {
            req_cause_text(&r, cause, sizeof cause);
            ok = gate_finding(h, ERR, at, "library needs %s (%s), more than %s %u.%u",
                              req_target_text(&r, target, sizeof target), cause, os, limit.major, limit.minor);
        }
        if (ok && r.n_unknown) {
            unknown[0] = '\0';
            req_unknown_text(&r, unknown, sizeof unknown);
            ok = gate_finding(h, WARN, at, "library uses %s, newer than the requirement tables: whether %s %u.%u "
                              "loads it is not known", unknown, os, limit.major, limit.minor);
        }
        for (size_t i = 0; ok && over(&r, limit) && i < mtlbx_library_function_count(lib); i++) {
            struct mtlbx_requires fr;
            mtlbx_function_requires(lib, i, &fr);
            if (!over(&fr, limit))
                continue;
            const struct mtlbx_function *fn = mtlbx_function_peek(lib, i);
            char *name = fn ? mtlbx_escape_dup(fn->name.ptr, fn->name.len, 0) : NULL;
            req_cause_text(&fr, cause, sizeof cause);
            ok = name && gate_finding(h, ERR, fn->entry_offset, "function %s needs %s (%s), more than %s %u.%u", name,
                                      req_target_text(&fr, target, sizeof target), cause, os, limit.major,
                                      limit.minor);
            free(name);
        }
    }
    *n += h->n_diags - before;
    return ok;
}

int mtlbx_check_os(mtlbx *h, const char *os)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return MTLBX_FAILED;
    }
    enum mtlbx_os named;
    struct mtlbx_os_version limit;
    if (!parse_os(os, &named, &limit))
        return api_fail(h, MTLBX_FAILED, EINVAL, -1, "%s: expected PLATFORM:VERSION, e.g. macOS:14.0 (platforms: "
                        "macOS, iOS, tvOS, macCatalyst, visionOS, watchOS)", os ? os : "(null)");
    /* The file's own findings first, so that the gate's follow them. */
    if (!api_diag_sync(h, true))
        return api_fail(h, MTLBX_FAILED, ENOMEM, -1, "out of memory");
    size_t n = 0;
    for (size_t l = 0; l < h->n_libraries; l++)
        if (!gate_library(h, h->libraries[l].lib, named, limit, &n))
            return api_fail(h, MTLBX_FAILED, ENOMEM, -1, "out of memory");
    if (n)
        return api_fail(h, MTLBX_WARN, 0, -1, "%zu %s: the file does not load on %s, or that is not known", n,
                        n == 1 ? "finding" : "findings", os);
    return MTLBX_OK;
}
