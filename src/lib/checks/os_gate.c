/* The findings of `check --os PLATFORM:VERSION` (checks/os_gate.h):
 * one writer for the program (check, find: src/cli/gate/os_option.c) and
 * the API (mtlbx_check_os), so both say the same thing in the same words.
 * The verdict is the requirement's (requirements.c, deployment.c). */
#include "config.h"
#include "container/library.h"
#include "checks/deployment.h"
#include "checks/os_gate.h"
#include "checks/requirements.h"
#include "checks/requires_text.h"
#include "container/escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

struct gate {
    mtlbx_finding_fn emit;
    void *ctx;
    bool ok;
};

static void say(struct gate *g, enum mtlbx_severity sev, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(struct gate *g, enum mtlbx_severity sev, uint64_t at, const char *fmt, ...)
{
    if (!g->ok)
        return;
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(&text, fmt, ap);
    va_end(ap);
    g->ok = rc >= 0 && g->emit(g->ctx, sev, at, text);
    free(text);
}

static bool over(const struct mtlbx_requires *r, struct mtlbx_os_version limit)
{
    return r->has_version && mbx_os_version_cmp(r->version, limit) > 0;
}

/* A triple that asks for a newer minor than the limit, of its release:
 * Metal on macOS loads it (measured); elsewhere that is not known. */
static void newer_minor(struct gate *g, uint64_t at, const struct mtlbx_requires *r, struct mtlbx_os_version limit)
{
    const char *os = mbx_os_name(r->os);
    for (size_t i = 0; i < r->n_reasons; i++) {
        const struct mtlbx_req_reason *x = &r->reasons[i];
        if (x->rule != MTLBX_REQ_DEPLOYMENT || r->os == MTLBX_OS_MACOS ||
            mbx_triple_accepts(r->os, limit, x->of) != MTLBX_TRIPLE_NEWER_MINOR)
            continue;
        say(g, MTLBX_WARNING, at, "library's target triple asks for %s %u.%u, a newer minor than %s %u.%u: Metal on "
            "macOS loads a newer minor of the same release (measured on macOS 26.3), on %s it is not known", os,
            x->of.major, x->of.minor, os, limit.major, limit.minor, os);
    }
}

bool mbx_os_gate_library(const mtlbx_library *lib, enum mtlbx_os named, struct mtlbx_os_version limit,
                           bool functions, mtlbx_finding_fn emit, void *ctx)
{
    struct gate g = { emit, ctx, true };
    struct mtlbx_requires r;
    mbx_library_requires(lib, &r);
    uint64_t at = lib->header.base;
    const char *os = mbx_os_name(r.os);
    if (!os) {
        say(&g, MTLBX_WARNING, at,
            "library: its platform is not known (no target OS, no target triple), so no --os applies");
        return g.ok;
    }
    if (named != r.os) {
        say(&g, MTLBX_WARNING, at, "library for %s: no --os names %s", os, os);
        return g.ok;
    }
    char target[64], cause[160], unknown[200];
    if (!r.has_version)
        say(&g, MTLBX_WARNING, at, "library for %s: the version it needs is not known", os);
    if (over(&r, limit)) {
        req_cause_text(&r, cause, sizeof cause);
        say(&g, MTLBX_ERROR, at, "library needs %s (%s), more than %s %u.%u",
            req_target_text(&r, target, sizeof target), cause, os, limit.major, limit.minor);
    }
    newer_minor(&g, at, &r, limit);
    if (r.n_unknown) {
        unknown[0] = '\0';
        req_unknown_text(&r, unknown, sizeof unknown);
        say(&g, MTLBX_WARNING, at, "library uses %s, newer than the requirement tables: whether %s %u.%u loads it "
            "is not known", unknown, os, limit.major, limit.minor);
    }
    for (size_t i = 0; g.ok && functions && over(&r, limit) && i < lib->n_functions; i++) {
        struct mtlbx_requires fr;
        mbx_function_requires(lib, i, &fr);
        if (!over(&fr, limit))
            continue;
        const struct mtlbx_function *fn = mbx_function_peek(lib, i);
        char *name = fn ? mbx_escape_dup(fn->name.ptr, fn->name.len, 0) : NULL;
        if (!name) {
            g.ok = false;
            break;
        }
        req_cause_text(&fr, cause, sizeof cause);
        say(&g, MTLBX_ERROR, fn->entry_offset, "function %s needs %s (%s), more than %s %u.%u", name,
            req_target_text(&fr, target, sizeof target), cause, os, limit.major, limit.minor);
        free(name);
    }
    return g.ok;
}
