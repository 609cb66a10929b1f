/* One function's interface as CONTRACT.md's FUNCTION_INTERFACE object,
 * for `sig --json` and `diff` as jansson values: what interface_stream.h
 * writes for `dump --json --interfaces`, built by the same writer. */
#ifndef MTLBX_INTERFACE_JSON_H
#define MTLBX_INTERFACE_JSON_H

#include "bitcode/interface_reader.h"
#include <jansson.h>

/* The FUNCTION_INTERFACE of `iface`, or null when it is NULL or its module
 * did not decode (module.failed). A new reference; NULL when memory ran
 * out. Built by the writer of interface_stream.h (interface_stream.c),
 * the same value it streams. */
json_t *interface_json(const struct mtlbx_interface *iface);

/* One ARGUMENT object (inputs and outputs): `diff` shows the same. NULL
 * when memory ran out. */
json_t *interface_argument_json(const struct mtlbx_air_argument *a);

/* The CONTRACT DIAGNOSTIC for function i's decoded interface (`iface`, or
 * NULL when mbx_interface_read failed with `err`): missing,
 * not decoded, or cut. NULL when there is nothing to say. */
json_t *interface_problem_json(const mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface,
                               const struct mtlbx_error *err);

/* Decodes function i of `lib` through the reader `rd` and the window `win`
 * (either may be NULL: mbx_interface_read) and returns its interface
 * (JSON null when there is none). When the module is missing, not bitcode or damaged,
 * `*diag` (else NULL) is set to a CONTRACT DIAGNOSTIC object naming the
 * offset, for the library's "diagnostics". */
json_t *function_interface_json(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i, mtlbx_read_window *win,
                                json_t **diag);
/* Also when the interface was cut (mtlbx_interface.cut): then `*diag` is a
 * warning at the cut's offset, and the interface the part kept. */

/* "interface cut: ..." (no function, no offset), for every command. */
void interface_cut_message(char *out, size_t size);

#endif
