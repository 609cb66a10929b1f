/* The release gate's verdict and words (declared_gate.h). */
#include "config.h"

#include "gate/declared_gate.h"
#include "container/file.h"
#include "container/header.h"
#include "checks/deployment.h"
#include "checks/load_stamps.h"
#include "checks/requirements.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends to buf ("; " between reasons). */
static void reason(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reason(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 3 >= size)
        return;
    if (len) {
        memcpy(buf + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static void raise_to(struct mtlbx_os_version *needs, bool *any, struct mtlbx_os_version v)
{
    if (!*any || mbx_os_version_cmp(v, *needs) > 0)
        *needs = v;
    *any = true;
}

/* "(3 of 5 functions)" when not all of them have it; "" otherwise. */
static const char *share(size_t k, size_t n, char *buf, size_t size)
{
    if (!n || k >= n)
        return "";
    snprintf(buf, size, " (%zu of %zu functions)", k, n);
    return buf;
}

bool mbx_declared_gate_library(uint64_t at, const struct mtlbx_load_stamps *st, const struct floor *fl,
                           struct gate_finding **out, size_t *n)
{
    const char *os = mbx_os_name(st->os);
    if (!os)
        return mbx_gate_push(out, n, MTLBX_WARNING, at,
                         "library: its platform is not known (no target OS, no target triple), so no declared "
                         "minimum applies");
    if (!fl->found && fl->other_platforms)
        return mbx_gate_push(out, n, MTLBX_WARNING, at,
                         "library for %s: its package declares a minimum only for other platforms: %s", os,
                         fl->others);
    if (!fl->found)
        return mbx_gate_push(out, n, MTLBX_WARNING, at,
                         "library for %s: nothing declares the oldest %s it must load on; looked at %s", os, os,
                         fl->looked);
    const struct mtlbx_os_version floor = fl->version;
    char why[900] = "", k[64];
    struct mtlbx_os_version needs = floor;
    bool over = false;

    /* The stamp Metal decides by: the triple, for this platform. */
    bool triple = st->has_triple && st->triple_has_version && st->triple_os == st->os;
    bool header = !triple && st->has_header_target && st->header_os == st->os;
    struct mtlbx_os_version asks = triple ? st->triple_version : st->header_version;
    if (triple || header) {
        enum mtlbx_triple_verdict v = mbx_triple_accepts(st->os, floor, asks);
        char stamp[200];
        if (triple)
            snprintf(stamp, sizeof stamp, "target triple %s%s", st->triple,
                     share(st->triple_functions, st->triples_read, k, sizeof k));
        else
            snprintf(stamp, sizeof stamp, "deployment target %s %u.%u in the header (no module's target triple "
                     "could be read, so it stands in for the triple)", os, asks.major, asks.minor);
        if (v == MTLBX_TRIPLE_REFUSED) {
            /* The release it needs: the major, or 10.x (each was a major). */
            char release[16];
            if (st->os == MTLBX_OS_MACOS && asks.major == 10)
                snprintf(release, sizeof release, "10.%u", asks.minor);
            else
                snprintf(release, sizeof release, "%u", asks.major);
            reason(why, sizeof why, "%s, which Metal refuses below %s %s (\"Unsupported target triple\")", stamp, os,
                   release);
            raise_to(&needs, &over, asks);
        } else if (v == MTLBX_TRIPLE_NEWER_MINOR && st->os != MTLBX_OS_MACOS &&
                   !mbx_gate_push(out, n, MTLBX_WARNING, at,
                              "library's %s asks for %s %u.%u, a newer minor than the %s %u.%u its package "
                              "declares (%s): Metal on macOS loads a newer minor of the same major (measured on "
                              "macOS 26.3), on %s it is not known",
                              stamp, os, asks.major, asks.minor, os, floor.major, floor.minor, fl->source, os)) {
            return false;
        }
    }
    /* "This library is using language version 4.0 which is not supported on this OS" */
    struct mtlbx_os_version first;
    char unknown[160] = "";
    if (st->has_msl) {
        enum mtlbx_table_answer a = mbx_msl_needs(st->os, st->msl, &first);
        if (a == MTLBX_TABLE_FOUND && mbx_os_version_cmp(first, floor) > 0) {
            reason(why, sizeof why, "language version %u.%u%s, first supported on %s %u.%u", st->msl.major,
                   st->msl.minor, share(st->msl_functions, st->n_functions, k, sizeof k), os, first.major,
                   first.minor);
            raise_to(&needs, &over, first);
        } else if (a == MTLBX_TABLE_UNKNOWN) {
            snprintf(unknown, sizeof unknown, "language version %u.%u", st->msl.major, st->msl.minor);
        }
    }
    /* "deployment target (0x00020008) that is not supported": the AIR version */
    if (st->has_air) {
        enum mtlbx_table_answer a = mbx_air_needs(st->os, st->air, &first);
        unsigned packed = (unsigned)st->air.major << 16 | st->air.minor;
        if (a == MTLBX_TABLE_FOUND && mbx_os_version_cmp(first, floor) > 0) {
            reason(why, sizeof why, "deployment target 0x%08x (AIR %u.%u)%s, first supported on %s %u.%u", packed,
                   st->air.major, st->air.minor, share(st->air_functions, st->n_functions, k, sizeof k), os,
                   first.major, first.minor);
            raise_to(&needs, &over, first);
        } else if (a == MTLBX_TABLE_UNKNOWN) {
            size_t len = strlen(unknown);
            snprintf(unknown + len, sizeof unknown - len, "%sdeployment target 0x%08x (AIR %u.%u)",
                     len ? " and " : "", packed, st->air.major, st->air.minor);
        }
    }
    if (over && !mbx_gate_push(out, n, MTLBX_ERROR, at, "library needs %s %u.%u, more than the %s %u.%u its package "
                           "declares (%s): %s", os, needs.major, needs.minor, os, floor.major, floor.minor,
                           fl->source, why))
        return false;
    if (unknown[0] && !mbx_gate_push(out, n, MTLBX_WARNING, at, "library uses %s, newer than the requirement tables: "
                                 "whether %s %u.%u (%s) loads it is not known", unknown, os, floor.major, floor.minor,
                                 fl->source))
        return false;
    /* A header that disagrees with the triple is plain check's warning
     * (checks/claims_check.c), said once for every check. */
    return true;
}

bool mbx_gate_push(struct gate_finding **out, size_t *n, enum mtlbx_severity sev, uint64_t offset, const char *fmt, ...)
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

/* ------------------------------------------------- waiting libraries -- */

void mbx_gate_wait_add(struct gate_wait *w, const char *name, const char *member, const struct mtlbx_macho_slice *slice,
                   const mtlbx_file *f, bool every_module, size_t tag)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8;
        struct gate_subject *g = realloc(w->v, cap * sizeof *g);
        if (!g) {
            w->out_of_memory = true;
            return;
        }
        w->v = g;
        w->cap = cap;
    }
    struct gate_subject *s = &w->v[w->n];
    size_t n_libs = mbx_file_library_count(f);
    *s = (struct gate_subject){ strdup(name), tag, strdup(member), slice != NULL, { 0 }, n_libs,
                                calloc(n_libs ? n_libs : 1, sizeof *s->libs) };
    if (slice)
        s->slice = *slice;
    if (!s->name || !s->member || !s->libs) {
        free(s->name);
        free(s->member);
        free(s->libs);
        w->out_of_memory = true;
        return;
    }
    for (size_t l = 0; l < n_libs; l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        s->libs[l].at = mbx_library_header(lib)->base;
        mbx_library_load_stamps(lib, every_module, &s->libs[l].stamps);
    }
    w->n++;
}

/* The Mach-O host of HOST!SEGMENT,SECTION (HOST!ARCH!SEGMENT,SECTION in a
 * universal file): the name without them. */
static char *host_of(const struct gate_subject *s)
{
    char *h = strdup(s->name);
    for (int cut = s->slice.record_offset ? 2 : 1; h && cut > 0; cut--) {
        char *bang = strrchr(h, '!');
        if (bang)
            *bang = '\0';
    }
    return h;
}

bool mbx_gate_wait_finish(struct gate_wait *w, const struct package *p, gate_emit_fn emit, void *ctx)
{
    bool ok = !w->out_of_memory;
    for (size_t i = 0; i < w->n; i++) {
        const struct gate_subject *s = &w->v[i];
        char *host = s->has_slice ? host_of(s) : NULL;
        for (size_t l = 0; l < s->n_libs; l++) {
            struct floor fl;
            mbx_package_floor(p, s->member, s->has_slice ? &s->slice : NULL, host ? host : "", s->libs[l].stamps.os, &fl);
            struct gate_finding *g = NULL;
            size_t n = 0;
            ok &= mbx_declared_gate_library(s->libs[l].at, &s->libs[l].stamps, &fl, &g, &n);
            for (size_t k = 0; k < n; k++) {
                emit(ctx, s->tag, s->name, &g[k]);
                free(g[k].message);
            }
            free(g);
        }
        free(host);
    }
    w->out_of_memory |= !ok;
    return ok;
}

void mbx_gate_wait_free(struct gate_wait *w)
{
    for (size_t i = 0; i < w->n; i++) {
        free(w->v[i].name);
        free(w->v[i].member);
        free(w->v[i].libs);
    }
    free(w->v);
    memset(w, 0, sizeof *w);
}
