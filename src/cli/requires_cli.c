/* The --os gate of check and find (requires_cli.h); the wording of
 * requirements is util/requires_text.c's. */
#include "config.h"

#include "cli/requires_cli.h"
#include "commands.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- the gate -- */

static bool parse_version(const char *s, struct mtlbx_os_version *v)
{
    char *end;
    unsigned long major = strtoul(s, &end, 10), minor = 0;
    if (end == s || major > UINT16_MAX)
        return false;
    if (*end == '.') {
        const char *m = end + 1;
        minor = strtoul(m, &end, 10);
        if (end == m || minor > UINT16_MAX)
            return false;
        if (*end == '.') { /* a patch level adds nothing: requirements are major.minor */
            const char *p = end + 1;
            strtoul(p, &end, 10);
            if (end == p)
                return false;
        }
    }
    if (*end)
        return false;
    *v = (struct mtlbx_os_version){ (uint16_t)major, (uint16_t)minor };
    return true;
}

bool os_gate_parse(const struct cli_args *a, struct os_gate *g)
{
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < a->n_values; i++) {
        if (a->values[i].key != OPT_OS)
            continue;
        const char *v = a->values[i].value, *colon = strchr(v, ':');
        enum mtlbx_os os = colon ? mtlbx_os_parse(v, (size_t)(colon - v)) : MTLBX_OS_NONE;
        struct mtlbx_os_version ver;
        bool bad = !colon || os == MTLBX_OS_NONE || !parse_version(colon + 1, &ver);
        bool twice = !bad && g->named[os] && mtlbx_os_version_cmp(g->version[os], ver) != 0;
        if (bad || twice) {
            /* The value is the user's bytes: shown escaped, as paths are. */
            char *shown = mtlbx_escape_dup((const uint8_t *)v, strlen(v), MTLBX_ESC_TERMINAL);
            if (bad)
                fprintf(stderr, "%s: --os %s: expected PLATFORM:VERSION, e.g. macos:15.0 (platforms: macos, ios, "
                                "tvos, maccatalyst, visionos, watchos)\n", cli_program_name(), shown ? shown : "?");
            else
                fprintf(stderr, "%s: --os %s: %s is named twice\n", cli_program_name(), shown ? shown : "?",
                        mtlbx_os_name(os));
            free(shown);
            return false;
        }
        g->on = g->named[os] = true;
        g->version[os] = ver;
    }
    return true;
}

static bool push(struct gate_finding **out, size_t *n, enum mtlbx_severity sev, uint64_t offset, const char *fmt,
                 ...) __attribute__((format(printf, 5, 6)));
static bool push(struct gate_finding **out, size_t *n, enum mtlbx_severity sev, uint64_t offset, const char *fmt,
                 ...)
{
    struct gate_finding *g = realloc(*out, (*n + 1) * sizeof **out);
    if (!g)
        return false;
    *out = g;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(&g[*n].message, fmt, ap);
    va_end(ap);
    if (rc < 0)
        return false;
    g[*n].severity = sev;
    g[*n].offset = offset;
    (*n)++;
    return true;
}

static bool over(const struct mtlbx_requires *r, struct mtlbx_os_version limit)
{
    return r->has_version && mtlbx_os_version_cmp(r->version, limit) > 0;
}

bool os_gate_library(const struct os_gate *g, const mtlbx_library *lib, bool functions,
                     struct gate_finding **out, size_t *n)
{
    struct mtlbx_requires r;
    mtlbx_library_requires(lib, &r);
    uint64_t at = mtlbx_library_header(lib)->base;
    const char *os = mtlbx_os_name(r.os);
    if (!os)
        return push(out, n, MTLBX_WARNING, at,
                    "library: its platform is not known (no target OS, no target triple), so no --os applies");
    if (!g->named[r.os])
        return push(out, n, MTLBX_WARNING, at, "library for %s: no --os names %s", os, os);
    struct mtlbx_os_version limit = g->version[r.os];
    char target[64], cause[160], unknown[200];
    if (!r.has_version &&
        !push(out, n, MTLBX_WARNING, at, "library for %s: the version it needs is not known", os))
        return false;
    if (over(&r, limit)) {
        req_cause_text(&r, cause, sizeof cause);
        if (!push(out, n, MTLBX_ERROR, at, "library needs %s (%s), more than %s %u.%u",
                  req_target_text(&r, target, sizeof target), cause, os, limit.major, limit.minor))
            return false;
    }
    if (r.n_unknown) {
        unknown[0] = '\0';
        req_unknown_text(&r, unknown, sizeof unknown);
        if (!push(out, n, MTLBX_WARNING, at, "library uses %s, newer than the requirement tables: whether %s %u.%u "
                  "loads it is not known", unknown, os, limit.major, limit.minor))
            return false;
    }
    for (size_t i = 0; functions && over(&r, limit) && i < mtlbx_library_function_count(lib); i++) {
        struct mtlbx_requires fr;
        mtlbx_function_requires(lib, i, &fr);
        if (!over(&fr, limit))
            continue;
        const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
        char *name = mtlbx_escape_dup(fn->name.ptr, fn->name.len, 0);
        req_cause_text(&fr, cause, sizeof cause);
        bool ok = name && push(out, n, MTLBX_ERROR, fn->entry_offset, "function %s needs %s (%s), more than %s %u.%u",
                               name, req_target_text(&fr, target, sizeof target), cause, os, limit.major,
                               limit.minor);
        free(name);
        if (!ok)
            return false;
    }
    return true;
}
