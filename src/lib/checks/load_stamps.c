/* The stamps Metal checks when it loads a library (checks/load_stamps.h, "load
 * stamps"): the modules' target triple (deployment.c's), the MSL and AIR
 * versions, and the header's deployment target beside them. */
#include "config.h"
#include "container/cursor.h"
#include "container/library.h"
#include "checks/deployment.h"
#include "checks/load_stamps.h"
#include "checks/requirements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

static void note_version(bool *has, struct mtlbx_os_version *max, size_t *count, struct mtlbx_os_version v)
{
    int c = *has ? mbx_os_version_cmp(v, *max) : 1;
    if (c > 0) {
        *has = true;
        *max = v;
        *count = 1;
    } else if (c == 0) {
        (*count)++;
    }
}

void mbx_library_load_stamps(const mtlbx_library *lib, bool every_module, struct mtlbx_load_stamps *out)
{
    (void)every_module; /* the deployment target reads every module once, for every answer alike */
    memset(out, 0, sizeof *out);
    out->os = mbx_library_os(lib);
    out->has_header_target = mbx_library_deployment_target(lib, &out->header_os, &out->header_version);
    out->n_functions = lib->n_functions;
    struct function_cursor cur = { 0 };
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_function *fn = function_cursor_at((mtlbx_library *)lib, &cur, i);
        if (!fn)
            break;
        if (fn->present & MTLBX_F_VERS) {
            note_version(&out->has_msl, &out->msl, &out->msl_functions,
                         (struct mtlbx_os_version){ fn->msl_major, fn->msl_minor });
            note_version(&out->has_air, &out->air, &out->air_functions,
                         (struct mtlbx_os_version){ fn->air_major, fn->air_minor });
        }
    }
    function_cursor_free(&cur);
    /* The triple: the one rule's (deployment.c), so that the release gate
     * and --os X read the same stamp. */
    struct mtlbx_deployment d;
    mbx_library_deployment(lib, &d);
    if (d.from_triple) {
        out->has_triple = out->triple_has_version = true;
        snprintf(out->triple, sizeof out->triple, "%s", d.triple);
        out->triple_os = d.os;
        out->triple_version = d.asks;
        out->triple_functions = d.triple_functions;
        out->triples_read = d.triples_read;
        out->triples_differ = d.triples_differ;
    }
}
