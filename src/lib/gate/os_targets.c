/* The --os targets of the gate (gate.h): the values parsed, and each
 * library held against them by the checks layer's gate (checks/os_gate.c). */
#include "config.h"

#include "checks/os_gate.h"
#include "checks/os_spec.h"
#include "checks/requirements.h"
#include "gate/gate.h"

#include <string.h>
#include <stdbool.h>

enum mbx_os_gate_add mbx_os_gate_add(struct mbx_os_gate *g, const char *value, enum mtlbx_os *os)
{
    if (strcmp(value, "declared") == 0) {
        g->declared = true;
        return MBX_OS_GATE_ADDED;
    }
    struct mtlbx_os_spec spec;
    if (mbx_os_spec_parse(value, &spec) != MTLBX_OS_SPEC_OK)
        return MBX_OS_GATE_BAD;
    *os = spec.os;
    if (g->named[spec.os] && mbx_os_version_cmp(g->version[spec.os], spec.version) != 0)
        return MBX_OS_GATE_TWICE;
    g->on = g->named[spec.os] = true;
    g->version[spec.os] = spec.version;
    return MBX_OS_GATE_ADDED;
}

bool mbx_os_gate_targets(const struct mbx_os_gate *g, const mtlbx_library *lib, bool functions, mtlbx_finding_fn emit,
                         void *ctx)
{
    enum mtlbx_os os = mbx_library_os(lib);
    /* With --os declared, the package's own minimum stands for a platform
     * no --os names (and an unknown platform is said once, by it). */
    if (g->declared && (os == MTLBX_OS_NONE || !g->named[os]))
        return true;
    bool named = os != MTLBX_OS_NONE && g->named[os];
    return mbx_os_gate_library(lib, named ? os : MTLBX_OS_NONE,
                               named ? g->version[os] : (struct mtlbx_os_version){ 0, 0 }, functions, emit, ctx);
}
