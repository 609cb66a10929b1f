/* The container layer (src/lib/container) on a metallib file as a whole:
 * opening it (a path or a buffer, mapped read-only), and the slices of a
 * fat file with the libraries they hold. */
#ifndef MTLBX_CONTAINER_FILE_H
#define MTLBX_CONTAINER_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- open -- */

enum mtlbx_status {
    MTLBX_E_NONE = 0,
    MTLBX_E_IO = -1,           /* open/stat/mmap failed; error.message says why */
    MTLBX_E_NOT_METALLIB = -2, /* first four bytes are neither MTLB nor CB FE BA BE */
    MTLBX_E_NOMEM = -3,
    MTLBX_E_NOT_REGULAR = -4,  /* a directory, FIFO, device ... */
};

struct mtlbx_error {
    enum mtlbx_status status;
    uint64_t offset;           /* where it applies, else 0 */
    bool has_offset;
    int sys_errno;             /* MTLBX_E_IO, MTLBX_E_NOMEM: the system's errno
                                  (EISDIR for a directory), else 0 */
    char message[256];
};

/* Open a file by path (read-only mmap). On failure *out is NULL and err says
 * why. Refuses non-regular files without reading them, so a FIFO never
 * blocks and /dev/zero never maps. */
int mbx_open_path(const char *path, mtlbx_file **out, struct mtlbx_error *err);
/* What a file that is not a regular one is, for "not a regular file (a
 * FIFO)": "a directory", "a FIFO", "a device", "a socket" (st_mode). */
const char *mbx_special_file_kind(unsigned mode);

/* Parse a caller-owned buffer (tests, fuzzing). The buffer must outlive the
 * handle. `name` is used in messages and may be NULL. */
int mbx_open_buffer(const void *data, size_t len, const char *name,
                      mtlbx_file **out, struct mtlbx_error *err);
/* The same for a malloc'ed buffer that the handle takes over: it is freed
 * by mbx_close(), or at once when the open fails. Archive members
 * decompressed into memory are opened this way. */
int mbx_open_buffer_owned(void *data, size_t len, const char *name,
                            mtlbx_file **out, struct mtlbx_error *err);

void mbx_close(mtlbx_file *f);

/* The library reads no environment: the program passes on what its
 * variables ask for, before the first file is read. MTLBX_LIBARCHIVE: the
 * libarchive to load (a soname or a path) instead of configure's. */
void mbx_archive_use_library(const char *path);

/* True when the file on disk is no longer what was mapped: it shrank or
 * grew, or a read while hashing came up short. Callers that read modules
 * (hash checks) should ask after doing so and treat a change as fatal. */
bool mbx_file_changed(const mtlbx_file *f);

const char *mbx_file_path(const mtlbx_file *f);
uint64_t mbx_file_size(const mtlbx_file *f);
const uint8_t *mbx_file_data(const mtlbx_file *f);
/* Lets the pages of [offset, offset + size) go from the process's memory
 * (a file mapping only; they stay in the page cache and come back on the
 * next access). For commands that stream over every module. */
void mbx_file_release(const mtlbx_file *f, uint64_t offset, uint64_t size);

/* ------------------------------------------------------------------ fat -- */

struct mbx_fat_slice {
    uint32_t cputype, cpusubtype, offset, size, align;
    uint64_t entry_offset;     /* where this slice's 20-byte record is */
};

bool mbx_file_is_fat(const mtlbx_file *f);
size_t mbx_fat_slice_count(const mtlbx_file *f);
const struct mbx_fat_slice *mbx_fat_slice(const mtlbx_file *f, size_t i);

/* One library for a plain file, one per readable slice of a fat file. */
size_t mbx_file_library_count(const mtlbx_file *f);
mtlbx_library *mbx_library_at(const mtlbx_file *f, size_t i);
mtlbx_file *mbx_library_file(const mtlbx_library *lib);

#ifdef __cplusplus
}
#endif

#endif
