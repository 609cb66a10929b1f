/* Each function's own target triple, read once (function_triples.c). */
#ifndef MTLBX_FUNCTION_TRIPLES_H
#define MTLBX_FUNCTION_TRIPLES_H

#include <stdbool.h>

#include "container/types.h"
#include "checks/os.h"

/* Function i's module's triple: the platform and OS version it names.
 * Noted, else read through the mapping now and kept. False when the
 * module has no triple with a version (or no module). */
bool bc_function_triple(const mtlbx_library *lib, size_t i, enum mtlbx_os *os, struct mtlbx_os_version *v);
/* The same, and *was_read true when it read the module's bytes through
 * the mapping just now (a pass over every function lets them go). */
bool bc_function_triple_read(const mtlbx_library *lib, size_t i, enum mtlbx_os *os, struct mtlbx_os_version *v,
                             bool *was_read);
/* A reader of function i's module bytes notes its triple while it has
 * them (the interface reader does), so that no one reads them again. */
void bc_note_function_triple(const mtlbx_library *lib, size_t i, const uint8_t *module, size_t len);

#endif
