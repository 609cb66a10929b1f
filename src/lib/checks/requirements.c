/* Requirements: the first OS version that accepts a function or a library
 * (CONTRACT.md "Requirements", FORMAT.md §23). Three rules, each with its
 * reason: the deployment target (the modules' triples: deployment.c),
 * the OS that first accepts the
 * function's MSL version (VERS) and the one that first reads its AIR
 * version. The tables are data/requirements.tsv, compiled in through the
 * generated requirements_table.h; a version newer than them (or missing
 * from them) is named as unknown, never guessed, and one older than their
 * first row adds no constraint. */
#include "config.h"
#include "container/cursor.h"
#include "bitcode/bitcode.h"
#include "checks/deployment.h"
#include "checks/requirements.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdbool.h>

struct req_msl_row {
    uint16_t major, minor;
    struct mtlbx_os_version os[5];   /* macOS, iOS, tvOS, macCatalyst, visionOS */
};
struct req_air_row {
    uint16_t major, minor, msl_major, msl_minor;
};
#include "requirements_table.h"
#include "container/library.h"

#define N_MSL (sizeof REQ_MSL / sizeof *REQ_MSL)
#define N_AIR (sizeof REQ_AIR / sizeof *REQ_AIR)

/* ---------------------------------------------------------- the rules -- */

enum lookup { FOUND, OLDER, NOT_IN_TABLE };

static int msl_column(enum mtlbx_os os)
{
    switch (os) {
    case MTLBX_OS_MACOS: return 0;
    case MTLBX_OS_IOS: return 1;
    case MTLBX_OS_TVOS: return 2;
    case MTLBX_OS_MACCATALYST: return 3;
    case MTLBX_OS_VISIONOS: return 4;
    default: return -1; /* watchOS and unknown: no table */
    }
}

static struct mtlbx_os_version ver(uint16_t major, uint16_t minor)
{
    return (struct mtlbx_os_version){ major, minor };
}

static enum lookup msl_row(struct mtlbx_os_version v, size_t *row)
{
    bool older = true;
    for (size_t i = 0; i < N_MSL; i++) {
        int c = mbx_os_version_cmp(v, ver(REQ_MSL[i].major, REQ_MSL[i].minor));
        if (c == 0) {
            *row = i;
            return FOUND;
        }
        older &= c < 0;
    }
    return older ? OLDER : NOT_IN_TABLE;
}

/* The MSL version that introduced an AIR version. */
static enum lookup air_msl(struct mtlbx_os_version v, struct mtlbx_os_version *msl)
{
    bool older = true;
    for (size_t i = 0; i < N_AIR; i++) {
        int c = mbx_os_version_cmp(v, ver(REQ_AIR[i].major, REQ_AIR[i].minor));
        if (c == 0) {
            *msl = ver(REQ_AIR[i].msl_major, REQ_AIR[i].msl_minor);
            return FOUND;
        }
        older &= c < 0;
    }
    return older ? OLDER : NOT_IN_TABLE;
}

enum mtlbx_table_answer mbx_msl_needs(enum mtlbx_os os, struct mtlbx_os_version msl, struct mtlbx_os_version *needs)
{
    size_t row;
    switch (msl_row(msl, &row)) {
    case FOUND:
        if (msl_column(os) < 0)
            return MTLBX_TABLE_NO_PLATFORM;
        *needs = REQ_MSL[row].os[msl_column(os)];
        return MTLBX_TABLE_FOUND;
    case OLDER:
        return MTLBX_TABLE_OLDER;
    default:
        return MTLBX_TABLE_UNKNOWN;
    }
}

enum mtlbx_table_answer mbx_air_needs(enum mtlbx_os os, struct mtlbx_os_version air, struct mtlbx_os_version *needs)
{
    struct mtlbx_os_version msl;
    switch (air_msl(air, &msl)) {
    case FOUND:
        return mbx_msl_needs(os, msl, needs);
    case OLDER:
        return MTLBX_TABLE_OLDER;
    default:
        return MTLBX_TABLE_UNKNOWN;
    }
}

static void add_reason(struct mtlbx_requires *r, enum mtlbx_req_rule rule, struct mtlbx_os_version of,
                       struct mtlbx_os_version needs)
{
    if (r->n_reasons < MTLBX_REQ_MAX_REASONS)
        r->reasons[r->n_reasons++] = (struct mtlbx_req_reason){ rule, of, needs, 0, false };
    if (!r->has_version || mbx_os_version_cmp(needs, r->version) > 0)
        r->version = needs;
    r->has_version = true;
}

static void add_unknown(struct mtlbx_requires *r, enum mtlbx_req_rule rule, struct mtlbx_os_version v)
{
    for (size_t i = 0; i < r->n_unknown; i++)
        if (r->unknown[i].rule == rule && mbx_os_version_cmp(r->unknown[i].version, v) == 0)
            return;
    if (r->n_unknown < MTLBX_REQ_MAX_UNKNOWN)
        r->unknown[r->n_unknown++] = (struct mtlbx_req_unknown){ rule, v };
    else
        r->unknown_dropped++;
}

/* The deployment-target reason: what the triple asks, and the release
 * that loads it. */
static void add_deployment(struct mtlbx_requires *out, struct mtlbx_os_version asks, bool from_header)
{
    add_reason(out, MTLBX_REQ_DEPLOYMENT, asks, mbx_os_release(out->os, asks));
    out->reasons[out->n_reasons - 1].header = from_header;
}

/* Empties *out without clearing its arrays: a library's requirement asks
 * for every function's twice, and the arrays are most of the struct. */
static void requires_reset(struct mtlbx_requires *out, enum mtlbx_os os)
{
    out->os = os;
    out->has_version = false;
    out->version = (struct mtlbx_os_version){ 0, 0 };
    out->n_reasons = out->n_unknown = out->unknown_dropped = out->n_functions = 0;
}

/* What an MSL and an AIR version need on out->os, added to out. */
static void versions_require(struct mtlbx_os_version msl, struct mtlbx_os_version air, struct mtlbx_requires *out)
{
    int col = msl_column(out->os);
    size_t row;
    switch (msl_row(msl, &row)) {
    case FOUND:
        if (col >= 0)
            add_reason(out, MTLBX_REQ_MSL, msl, REQ_MSL[row].os[col]);
        break;
    case NOT_IN_TABLE:
        add_unknown(out, MTLBX_REQ_MSL, msl);
        break;
    case OLDER:
        break;
    }
    struct mtlbx_os_version air_lang;
    switch (air_msl(air, &air_lang)) {
    case FOUND:
        if (col >= 0 && msl_row(air_lang, &row) == FOUND)
            add_reason(out, MTLBX_REQ_AIR, air, REQ_MSL[row].os[col]);
        break;
    case NOT_IN_TABLE:
        add_unknown(out, MTLBX_REQ_AIR, air);
        break;
    case OLDER:
        break;
    }
}

static void function_requires(const mtlbx_library *lib, size_t i, struct mtlbx_requires *out)
{
    requires_reset(out, mbx_library_os(lib));
    struct mtlbx_os_version asks;
    bool from_header;
    if (mbx_function_deployment(lib, i, &asks, &from_header))
        add_deployment(out, asks, from_header);
    if (i >= lib->n_functions)
        return;
    const struct mtlbx_function *fn = library_function(lib, i);
    versions_require(ver(fn->msl_major, fn->msl_minor), ver(fn->air_major, fn->air_minor), out);
}

void mbx_function_requires(const mtlbx_library *lib, size_t i, struct mtlbx_requires *out)
{
    function_requires(lib, i, out);
}

void mbx_versions_require(enum mtlbx_os os, struct mtlbx_os_version msl, struct mtlbx_os_version air,
                            struct mtlbx_requires *out)
{
    requires_reset(out, os);
    versions_require(msl, air, out);
}

/* Deployment first, then MSL, then AIR, each by version. */
static int reason_cmp(const void *a, const void *b)
{
    const struct mtlbx_req_reason *x = a, *y = b;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    return mbx_os_version_cmp(x->of, y->of);
}

static int unknown_cmp(const void *a, const void *b)
{
    const struct mtlbx_req_unknown *x = a, *y = b;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    return mbx_os_version_cmp(x->version, y->version);
}

static void library_requires(const mtlbx_library *lib, const struct mtlbx_deployment *d, struct mtlbx_requires *out);

void mbx_library_requires(const mtlbx_library *lib, struct mtlbx_requires *out)
{
    mtlbx_library *mut = (mtlbx_library *)lib; /* a cache of immutable facts */
    struct mtlbx_deployment d;
    mbx_library_deployment(lib, &d); /* before the lock: it takes it */
    pthread_mutex_lock(&mut->lock);
    if (!mut->req_cached) {
        library_requires(lib, &d, &mut->req);
        mut->req_cached = true;
    }
    *out = mut->req;
    pthread_mutex_unlock(&mut->lock);
}

static void library_requires(const mtlbx_library *lib, const struct mtlbx_deployment *d, struct mtlbx_requires *out)
{
    memset(out, 0, sizeof *out);
    requires_reset(out, mbx_library_os(lib));
    struct mtlbx_requires fr;
    /* The highest version first, then the reasons that give it */
    bool has_dt = d->known;
    struct mtlbx_os_version dt = mbx_os_release(out->os, d->asks);
    if (has_dt) {
        out->has_version = true;
        out->version = dt;
    }
    for (size_t i = 0; i < lib->n_functions; i++) {
        function_requires(lib, i, &fr);
        for (size_t k = 0; k < fr.n_unknown; k++)
            add_unknown(out, fr.unknown[k].rule, fr.unknown[k].version);
        if (fr.has_version && (!out->has_version || mbx_os_version_cmp(fr.version, out->version) > 0)) {
            out->version = fr.version;
            out->has_version = true;
        }
    }
    if (!out->has_version)
        return;
    if (has_dt && mbx_os_version_cmp(dt, out->version) == 0)
        out->reasons[out->n_reasons++] =
            (struct mtlbx_req_reason){ MTLBX_REQ_DEPLOYMENT, d->asks, dt, 0, !d->from_triple };
    for (size_t i = 0; i < lib->n_functions; i++) {
        function_requires(lib, i, &fr);
        if (!fr.has_version || mbx_os_version_cmp(fr.version, out->version) != 0)
            continue;
        out->n_functions++;
        for (size_t k = 0; k < fr.n_reasons; k++) {
            const struct mtlbx_req_reason *r = &fr.reasons[k];
            if (r->rule == MTLBX_REQ_DEPLOYMENT || mbx_os_version_cmp(r->needs, out->version) != 0)
                continue;
            size_t j = 0;
            while (j < out->n_reasons &&
                   !(out->reasons[j].rule == r->rule && mbx_os_version_cmp(out->reasons[j].of, r->of) == 0))
                j++;
            if (j == out->n_reasons) {
                if (j == MTLBX_REQ_MAX_REASONS)
                    continue; /* cannot happen: reasons are rows of the tables */
                out->reasons[out->n_reasons++] = *r;
            }
            out->reasons[j].n_functions++;
        }
    }
    qsort(out->reasons, out->n_reasons, sizeof *out->reasons, reason_cmp);
    qsort(out->unknown, out->n_unknown, sizeof *out->unknown, unknown_cmp);
}

bool mbx_requires_equal(const struct mtlbx_requires *a, const struct mtlbx_requires *b)
{
    if (a->os != b->os || a->has_version != b->has_version || a->n_reasons != b->n_reasons ||
        a->n_unknown != b->n_unknown || a->unknown_dropped != b->unknown_dropped ||
        (a->has_version && mbx_os_version_cmp(a->version, b->version) != 0))
        return false;
    for (size_t i = 0; i < a->n_reasons; i++)
        if (a->reasons[i].rule != b->reasons[i].rule ||
            mbx_os_version_cmp(a->reasons[i].of, b->reasons[i].of) != 0 ||
            mbx_os_version_cmp(a->reasons[i].needs, b->reasons[i].needs) != 0)
            return false;
    for (size_t i = 0; i < a->n_unknown; i++)
        if (a->unknown[i].rule != b->unknown[i].rule ||
            mbx_os_version_cmp(a->unknown[i].version, b->unknown[i].version) != 0)
            return false;
    return true;
}

/* ------------------------------------------------------------ text -- */

const char *mbx_req_reason_text(enum mtlbx_os os, const struct mtlbx_req_reason *r, char *buf, size_t size)
{
    const char *name = mbx_os_name(os) ? mbx_os_name(os) : "unknown OS";
    if (r->rule == MTLBX_REQ_DEPLOYMENT && r->header)
        snprintf(buf, size, "deployment target %s %u.%u in the header (no module's target triple could be read)",
                 name, r->of.major, r->of.minor);
    else if (r->rule == MTLBX_REQ_DEPLOYMENT && mbx_os_version_cmp(r->of, r->needs) != 0)
        snprintf(buf, size, "deployment target %s %u.%u (Metal loads it on %s %u.%u, a newer minor of the same "
                 "release)", name, r->of.major, r->of.minor, name, r->needs.major, r->needs.minor);
    else if (r->rule == MTLBX_REQ_DEPLOYMENT)
        snprintf(buf, size, "deployment target %s %u.%u", name, r->needs.major, r->needs.minor);
    else
        snprintf(buf, size, "%s %u.%u needs %s %u.%u", r->rule == MTLBX_REQ_MSL ? "MSL" : "AIR", r->of.major,
                 r->of.minor, name, r->needs.major, r->needs.minor);
    return buf;
}

const char *mbx_req_unknown_text(const struct mtlbx_req_unknown *u, char *buf, size_t size)
{
    snprintf(buf, size, "%s %u.%u", u->rule == MTLBX_REQ_AIR ? "AIR" : "MSL", u->version.major,
             u->version.minor);
    return buf;
}
