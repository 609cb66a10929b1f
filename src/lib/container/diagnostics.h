/* The container layer (src/lib/container): the diagnostics parsing adds
 * to a file and to each library (every layer adds to them), and whether
 * the file is damaged or was read short of memory. */
#ifndef MTLBX_CONTAINER_DIAGNOSTICS_H
#define MTLBX_CONTAINER_DIAGNOSTICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- diagnostics -- */

enum mtlbx_severity { MTLBX_WARNING = 0, MTLBX_ERROR = 1 };

struct mtlbx_diag {
    enum mtlbx_severity severity;
    uint64_t offset;           /* absolute file offset */
    const char *message;       /* owned by the handle */
};

/* Each list is capped (MTLBX_MAX_DIAGS); past the cap one last error says
 * how many were dropped, so hostile input cannot exhaust memory. */
#define MTLBX_MAX_DIAGS 4096

size_t mbx_file_diag_count(const mtlbx_file *f);          /* fat container */
const struct mtlbx_diag *mbx_file_diag(const mtlbx_file *f, size_t i);
size_t mbx_library_diag_count(const mtlbx_library *lib);
const struct mtlbx_diag *mbx_library_diag(const mtlbx_library *lib, size_t i);
/* True when an allocation failed while parsing f or any of its libraries
 * (functions, groups or list entries left out, a diagnostic not stored):
 * what the accessors return is then incomplete, and must not be shown as
 * the whole file. `offset` (may be NULL) receives the first place. */
bool mbx_file_out_of_memory(const mtlbx_file *f, uint64_t *offset);
/* True when the file is a damaged metallib (CONTRACT: `info` and `ls`
 * exit 1): its header, one of its sections or one of its modules (or a
 * fat slice) runs past the end of the file, so that what the header
 * declares is not all there. `offset` (may be NULL) receives where the
 * first such declaration is, `why` (may be NULL) that error's text (owned
 * by f, one line, not escaped: printable ASCII). Decided at open. */
bool mbx_file_damaged(const mtlbx_file *f, uint64_t *offset, const char **why);

/* qsort order for an array of `const struct mtlbx_diag *`: by offset, then
 * errors first, then message, so a listing is the same on every run (the
 * hashing threads record mismatches in the order they finish). */
int mbx_diag_ptr_cmp(const void *a, const void *b);

#ifdef __cplusplus
}
#endif

#endif
