/* Requirements as the commands show them (info, sig, find, diff) and the
 * deployment gate that `check --os` and `find --os` share. The values come
 * from the parser library (mbx_function_requires and
 * mbx_library_requires); this is only their wording. */
#ifndef MTLBX_REQUIRES_CLI_H
#define MTLBX_REQUIRES_CLI_H

#include "cli/cmdline.h"
#include "checks/requires_text.h"
#include "gate/gate.h"
#include "gate/declared_gate.h"

#include <stddef.h>

/* --os PLATFORM:VERSION, repeatable (at most one per platform), and
 * --os declared (the package's own minimum: declared_gate.h): the
 * library's struct mbx_os_gate (gate/gate.h). */
/* From the command's OPT_OS values; false after a usage message on stderr. */
bool os_gate_parse(const struct cli_args *a, struct mbx_os_gate *g);

/* The findings for one library: with `functions`, one per function that
 * needs more than the named version of its platform (check), else only the
 * library's own (find). Appended to *out (grown with realloc); false when
 * out of memory. */
bool os_gate_library(const struct mbx_os_gate *g, const mtlbx_library *lib, bool functions,
                     struct gate_finding **out, size_t *n);

#endif
