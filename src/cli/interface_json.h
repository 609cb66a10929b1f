/* One function's interface as CONTRACT.md's FUNCTION_INTERFACE object,
 * shared by `sig --json` and `dump --json --interfaces`. */
#ifndef MTLBX_INTERFACE_JSON_H
#define MTLBX_INTERFACE_JSON_H

#include "mtlbx.h"
#include <jansson.h>

/* The FUNCTION_INTERFACE of `iface`, or null when it is NULL or its module
 * did not decode (module.failed). A new reference. */
json_t *interface_json(const struct mtlbx_interface *iface);

/* Decodes function i of `lib` and returns its interface (JSON null when
 * there is none). When the module is missing, not bitcode or damaged,
 * `*diag` (else NULL) is set to a CONTRACT DIAGNOSTIC object naming the
 * offset, for the library's "diagnostics". */
json_t *function_interface_json(const mtlbx_library *lib, size_t i, json_t **diag);

#endif
