/* The checks layer (src/lib/checks): the gate that holds a library to an
 * --os limit, as findings (os_gate.c). */
#ifndef MTLBX_CHECKS_OS_GATE_H
#define MTLBX_CHECKS_OS_GATE_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/os.h"
#include "container/diagnostics.h"

/* ------------------------------------------------------------- the gate -- */

/* The findings of `check --os PLATFORM:VERSION` for one library (os_gate.c),
 * the one writer of them for the program and the API: the library's,
 * then (with `functions`) one per function that needs more than `limit`.
 * `named`: the platform the caller has a limit for; when it is not the
 * library's, one warning says no --os names it. Each finding goes to
 * emit; false when emit does (out of memory). */
typedef bool (*mtlbx_finding_fn)(void *ctx, enum mtlbx_severity severity, uint64_t offset, const char *message);
bool mbx_os_gate_library(const mtlbx_library *lib, enum mtlbx_os named, struct mtlbx_os_version limit,
                           bool functions, mtlbx_finding_fn emit, void *ctx);

#endif
