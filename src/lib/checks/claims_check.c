/* What the container claims, held to what its modules say (checks/validate.h,
 * "claims"): plain `check` (CONTRACT.md "The release gate", last
 * paragraph, and "Requirements"). Metal loads by the module, so a
 * function list that names a function its module does not define, calls
 * a kernel a vertex function or gives the wrong AIR or MSL version makes
 * every tool that reads the list alone (sig, requires, a linker) answer
 * wrong with confidence; and a header whose deployment target is not the
 * modules' triple tells a reader a version Metal does not check. */
#include "config.h"
#include "container/cursor.h"
#include "container/library.h"
#include "container/report.h"
#include "container/span.h"
#include "checks/deployment.h"
#include "checks/requirements.h"
#include "checks/validate.h"
#include "container/escape.h"
#include "container/nouns.h"
#include "container/textf.h"
#include "container/value_names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

/* Is a module's stage (the X of air.X) one a function list's TYPE can
 * name? Other lists (air.ci: Core Image) are not a TYPE to compare. */
static bool stage_is_type(const char *stage)
{
    char buf[24];
    for (uint8_t t = 0; mbx_function_type_known(t) && t < 255; t++)
        if (strcmp(stage, mbx_function_type_name(t, buf, sizeof buf)) == 0)
            return true;
    return false;
}

/* The function's name, escaped, made on the first finding only: most
 * functions have none, and check asks for every one. */
static const char *shown(const struct mtlbx_function *fn, char **name)
{
    if (!*name)
        *name = mbx_escape_dup(fn->name.ptr, fn->name.len, 0);
    return *name ? *name : "?";
}

/* One finding formatted and handed to `report` (a message too long for
 * the buffer is allocated: names are unbounded). */
static void say(mbx_claim_report_fn report, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(mbx_claim_report_fn report, void *ctx, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    char *text = mbx_vformat(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (text) {
        report(ctx, text);
        if (text != buf)
            free(text);
    } else if (buf[0]) {
        report(ctx, buf); /* out of memory: what fitted */
    }
}

size_t mbx_claims_compare(const struct mtlbx_function *fn, const struct mtlbx_interface *iface,
                          mbx_claim_report_fn report, void *ctx)
{
    if (!fn || !iface || iface->module.failed)
        return 0;
    size_t n_found = 0;
    char *name = NULL;
    if (iface->stage && !span_eq(iface->symbol, fn->name)) {
        char *symbol = mbx_escape_dup(iface->symbol.ptr, iface->symbol.len, 0);
        const char *n = shown(fn, &name);
        say(report, ctx, "function %s: NAME is %s, but its module defines no function of that name (its entry is %s)",
            n, n, symbol ? symbol : "?");
        free(symbol);
        n_found++;
    }
    char tb[24];
    const char *type = mbx_function_type_name(fn->type, tb, sizeof tb);
    if (iface->stage && (fn->present & MTLBX_F_TYPE) && stage_is_type(iface->stage) && strcmp(iface->stage, type) != 0) {
        say(report, ctx, "function %s: TYPE is %s, but its module declares it a %s function (air.%s)",
            shown(fn, &name), type, iface->stage, iface->stage);
        n_found++;
    }
    if ((fn->present & MTLBX_F_VERS) && iface->has_air_version &&
        (iface->air_version[0] != fn->air_major || iface->air_version[1] != fn->air_minor)) {
        say(report, ctx, "function %s: AIR version is %u.%u in the function list, %u.%u in its module (!air.version)",
            shown(fn, &name), fn->air_major, fn->air_minor, iface->air_version[0], iface->air_version[1]);
        n_found++;
    }
    if ((fn->present & MTLBX_F_VERS) && iface->has_language_version &&
        (iface->language_version[0] != fn->msl_major || iface->language_version[1] != fn->msl_minor)) {
        say(report, ctx,
            "function %s: MSL version is %u.%u in the function list, %u.%u in its module (!air.language_version)",
            shown(fn, &name), fn->msl_major, fn->msl_minor, iface->language_version[0], iface->language_version[1]);
        n_found++;
    }
    free(name);
    return n_found;
}

struct lib_report {
    mtlbx_library *lib;
    uint64_t offset;
};

static void to_library(void *ctx, const char *msg)
{
    struct lib_report *r = ctx;
    lib_error(r->lib, r->offset, "%s", msg);
}

void claims_check_function(mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface)
{
    const struct mtlbx_function *fn = library_function(lib, i);
    if (!fn)
        return;
    struct lib_report r = { lib, fn->entry_offset };
    mbx_claims_compare(fn, iface, to_library, &r);
}

void mbx_library_check_deployment(mtlbx_library *lib)
{
    struct mtlbx_deployment d;
    mbx_library_deployment(lib, &d);
    enum mtlbx_os os;
    struct mtlbx_os_version v;
    if (!d.from_triple || !mbx_library_deployment_target(lib, &os, &v))
        return;
    if (os == d.os && mbx_os_version_cmp(v, d.asks) == 0)
        return;
    char n[48];
    lib_warning(lib, lib->header.base + 12,
                "the header's deployment target (os_version) is %s %u.%u, the modules' target triple says %s %u.%u "
                "(%s, %s): Metal decides by the triple", mbx_os_name(os), v.major, v.minor,
                mbx_os_name(d.os) ? mbx_os_name(d.os) : "another OS", d.asks.major, d.asks.minor, d.triple,
                mbx_count_noun(d.triple_functions, "module", "modules", n, sizeof n));
}
