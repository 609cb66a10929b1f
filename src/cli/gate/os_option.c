/* The --os gate of check and find (os_option.h): the values parsed
 * and the findings written by the library (checks/os_spec.c,
 * checks/os_gate.c), as mtlbx_check_os has them. */
#include "config.h"

#include "cli/gate/os_option.h"
#include "cli/commands.h"
#include "checks/os_spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- the gate -- */

bool os_gate_parse(const struct cli_args *a, struct mbx_os_gate *g)
{
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < a->n_values; i++) {
        if (a->values[i].key != OPT_OS)
            continue;
        const char *v = a->values[i].value;
        enum mtlbx_os os = MTLBX_OS_NONE;
        enum mbx_os_gate_add rc = mbx_os_gate_add(g, v, &os);
        if (rc != MBX_OS_GATE_ADDED) {
            /* The value is the user's bytes: shown escaped, as paths are. */
            char *shown = cli_escape_str_dup(v);
            if (rc == MBX_OS_GATE_BAD)
                fprintf(stderr, "%s: --os %s: expected PLATFORM:VERSION, e.g. macos:15.0 (platforms: "
                                MTLBX_OS_SPEC_PLATFORMS "), or declared\n", cli_program_name(), shown ? shown : "?");
            else
                fprintf(stderr, "%s: --os %s: %s is named twice\n", cli_program_name(), shown ? shown : "?",
                        mbx_os_name(os));
            free(shown);
            return false;
        }
    }
    return true;
}

/* The library's findings, one gate_finding each. */
struct gate_list {
    struct gate_finding **out;
    size_t *n;
};

static bool push_finding(void *ctx, enum mtlbx_severity sev, uint64_t offset, const char *message)
{
    struct gate_list *l = ctx;
    return mbx_gate_push(l->out, l->n, sev, offset, "%s", message);
}

bool os_gate_library(const struct mbx_os_gate *g, const mtlbx_library *lib, bool functions,
                     struct gate_finding **out, size_t *n)
{
    struct gate_list l = { out, n };
    return mbx_os_gate_targets(g, lib, functions, push_finding, &l);
}
