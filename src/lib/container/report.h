/* Problems reported as diagnostics of a library or a file, at a byte
 * offset (src/lib only; container/diag.c): what every layer of the parser
 * calls when the input is not what it should be. */
#ifndef MTLBX_CONTAINER_REPORT_H
#define MTLBX_CONTAINER_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "container/types.h"

/* Library-level helpers that take the library lock. */
void lib_error(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An allocation failed: records the error and marks the library's parse
 * as incomplete (mbx_file_out_of_memory), so that no command presents
 * what was read as the whole file. */
void lib_out_of_memory(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void file_out_of_memory(mtlbx_file *f, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void lib_warning(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error that says the library runs past the end of the file (a
 * section, the header or a module): lib_error, and the first one is kept
 * for mbx_file_damaged. file_damaged: the same for a fat slice. */
void lib_damaged(mtlbx_library *lib, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void file_damaged(mtlbx_file *f, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Quiet re-decoding (lazy_table.c): what was dropped to keep memory flat
 * is decoded again from the same bytes, and its findings were already
 * reported by the first pass. Between begin and end, lib_error and
 * lib_warning on this thread record nothing and group walks take nothing
 * from the walk budget; running out of memory is still recorded. */
void diag_quiet_begin(void);
void diag_quiet_end(void);
bool diag_quiet(void);

#endif
