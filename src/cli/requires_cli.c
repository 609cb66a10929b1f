/* The --os gate of check and find (requires_cli.h); the wording of
 * requirements is checks/requires_text.c's. */
#include "config.h"

#include "cli/requires_cli.h"
#include "commands.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- the gate -- */

bool os_gate_parse(const struct cli_args *a, struct os_gate *g)
{
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < a->n_values; i++) {
        if (a->values[i].key != OPT_OS)
            continue;
        const char *v = a->values[i].value, *colon = strchr(v, ':');
        if (strcmp(v, "declared") == 0) {
            g->declared = true; /* the package's own minimum: declared_gate.c */
            continue;
        }
        enum mtlbx_os os = colon ? mtlbx_os_parse(v, (size_t)(colon - v)) : MTLBX_OS_NONE;
        struct mtlbx_os_version ver;
        bool bad = !colon || os == MTLBX_OS_NONE || !os_version_parse(colon + 1, &ver);
        bool twice = !bad && g->named[os] && mtlbx_os_version_cmp(g->version[os], ver) != 0;
        if (bad || twice) {
            /* The value is the user's bytes: shown escaped, as paths are. */
            char *shown = mtlbx_escape_dup((const uint8_t *)v, strlen(v), MTLBX_ESC_TERMINAL);
            if (bad)
                fprintf(stderr, "%s: --os %s: expected PLATFORM:VERSION, e.g. macos:15.0 (platforms: macos, ios, "
                                "tvos, maccatalyst, visionos, watchos), or declared\n", cli_program_name(),
                        shown ? shown : "?");
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

bool gate_push(struct gate_finding **out, size_t *n, enum mtlbx_severity sev, uint64_t offset, const char *fmt, ...)
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
    if (!os && g->declared)
        return true; /* said once, by the declared gate */
    if (!os)
        return gate_push(out, n, MTLBX_WARNING, at,
                    "library: its platform is not known (no target OS, no target triple), so no --os applies");
    if (!g->named[r.os]) /* with --os declared, the package's own minimum stands for it */
        return g->declared || gate_push(out, n, MTLBX_WARNING, at, "library for %s: no --os names %s", os, os);
    struct mtlbx_os_version limit = g->version[r.os];
    char target[64], cause[160], unknown[200];
    if (!r.has_version &&
        !gate_push(out, n, MTLBX_WARNING, at, "library for %s: the version it needs is not known", os))
        return false;
    if (over(&r, limit)) {
        req_cause_text(&r, cause, sizeof cause);
        if (!gate_push(out, n, MTLBX_ERROR, at, "library needs %s (%s), more than %s %u.%u",
                  req_target_text(&r, target, sizeof target), cause, os, limit.major, limit.minor))
            return false;
    }
    if (r.n_unknown) {
        unknown[0] = '\0';
        req_unknown_text(&r, unknown, sizeof unknown);
        if (!gate_push(out, n, MTLBX_WARNING, at, "library uses %s, newer than the requirement tables: whether %s %u.%u "
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
        bool ok = name && gate_push(out, n, MTLBX_ERROR, fn->entry_offset, "function %s needs %s (%s), more than %s %u.%u",
                               name, req_target_text(&fr, target, sizeof target), cause, os, limit.major,
                               limit.minor);
        free(name);
        if (!ok)
            return false;
    }
    return true;
}
