/* Requirements as the commands show them (info, sig, find, diff) and the
 * deployment gate that `check --os` and `find --os` share. The values come
 * from the parser library (mtlbx_function_requires and
 * mtlbx_library_requires); this is only their wording. */
#ifndef MTLBX_REQUIRES_CLI_H
#define MTLBX_REQUIRES_CLI_H

#include "cli/cmdline.h"
#include "mtlbx.h"

#include <stddef.h>

/* "macOS 26.0", "macOS (version not known)" or "unknown". Returns buf. */
const char *req_target_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* What gives the version, short: "MSL 4.0, AIR 2.8" (the MSL and AIR
 * reasons), else "deployment target"; "" when nothing does. */
void req_cause_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* info's line after "Loads on  ": "macOS 26.0 or later (MSL 4.0, AIR 2.8:
 * 619 functions)", with the unknown versions named. */
void req_loads_on_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* Every reason, then the unknown versions: "deployment target macOS 14.0,
 * MSL 3.1 needs macOS 14.0; unknown: MSL 4.2". */
void req_reasons_text(const struct mtlbx_requires *r, char *buf, size_t size);

/* --os PLATFORM:VERSION, repeatable (at most one per platform). */
struct os_gate {
    bool on;
    bool named[MTLBX_OS_COUNT];
    struct mtlbx_os_version version[MTLBX_OS_COUNT];
};
/* From the command's OPT_OS values; false after a usage message on stderr. */
bool os_gate_parse(const struct cli_args *a, struct os_gate *g);

/* One finding of the gate: its message is malloc'd (free it). */
struct gate_finding {
    enum mtlbx_severity severity;
    uint64_t offset;
    char *message;
};
/* The findings for one library: with `functions`, one per function that
 * needs more than the named version of its platform (check), else only the
 * library's own (find). Appended to *out (grown with realloc); false when
 * out of memory. */
bool os_gate_library(const struct os_gate *g, const mtlbx_library *lib, bool functions,
                     struct gate_finding **out, size_t *n);

#endif
