/* Writing extracted bytes to disk without ever harming the user's files.
 * Shared by the command line and the explorer. */
#ifndef MTLBX_SAFE_WRITE_H
#define MTLBX_SAFE_WRITE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "writer/atomic_file.h"

/* Turns raw bytes from the file (a function name, a member's base name)
 * into one safe path component: no '/', no NUL, no control bytes, not "."
 * or "..", not empty, at most 200 bytes. Returns a malloc'd string. */
char *safe_component(const uint8_t *bytes, size_t len);

/* Writes `len` bytes to DIR/NAME atomically: a temporary file in DIR, then
 * rename. NAME must already be a safe component. An existing file is
 * refused unless `force`. On failure returns -1 and puts a one-line reason
 * in err. `path_out` (may be NULL) receives the final path. */
int safe_write_file(const char *dir, const char *name, const void *data, size_t len,
                    bool force, char *err, size_t err_size, char *path_out, size_t path_size);

/* The same for a relative member path ("a/b/c.metal") that must stay under
 * DIR: absolute paths lose their leading '/', "." parts are dropped, any
 * ".." part or control byte makes it refuse. Missing directories are
 * created (never following a symlink out of DIR). */
int safe_write_under(const char *dir, const char *relative_path, const void *data, size_t len,
                     bool force, char *err, size_t err_size, char *path_out, size_t path_size);

/* What a write must also respect. */
struct safe_write_guard {
    /* The bytes written must hash (SHA-256) to this, else nothing is left
     * behind and the call returns -2: the source changed while it was
     * copied (a same-size rewrite of a mapped file). NULL: no check. */
    const uint8_t *sha256;
    /* Never replace this file, even with force (the input being read). */
    bool has_input;
    uint64_t input_dev, input_ino;
};

/* safe_write_file() and safe_write_under() with a guard (may be NULL). */
int safe_write_file_guarded(const char *dir, const char *name, const void *data, size_t len, bool force,
                            const struct safe_write_guard *guard, char *err, size_t err_size,
                            char *path_out, size_t path_size);
int safe_write_under_guarded(const char *dir, const char *relative_path, const void *data, size_t len,
                             bool force, const struct safe_write_guard *guard, char *err, size_t err_size,
                             char *path_out, size_t path_size);

/* An atomic write of a file too large to hold in memory: `path` (the
 * user's: its directory is theirs to name) is refused when it exists and
 * not `force`, and never when it is the guard's input; t->fd is an empty
 * temporary beside it (registered with fatal_cleanup, so a signal removes
 * it) for the caller to fill (pwrite at any offset), then commit (moved
 * into place; on failure removed, -1 with a reason) or abort (removed).
 * The guard's sha256 is not checked here. A target that is not a regular
 * file (a device, FIFO, socket, directory) is refused even with force;
 * SIGXFSZ is blocked in the writing thread from begin to commit or abort,
 * so a file-size limit fails the write with EFBIG (atomic_file.h). */
struct safe_write_temp {
    int fd; /* write here */
    int dfd, slot;
    struct atomic_file a;
};
int safe_write_begin(const char *path, bool force, const struct safe_write_guard *guard, struct safe_write_temp *t,
                     char *err, size_t err_size);
int safe_write_commit(struct safe_write_temp *t, char *err, size_t err_size);
void safe_write_abort(struct safe_write_temp *t);

/* The output directory the user named: created with its missing parents
 * (mkdir -p, mode 0777 less the umask), and refused unless it is a
 * directory. Following
 * a symlink here is the user's choice. Returns -1 with a reason in err. */
int make_output_dir(const char *dir, char *err, size_t err_size);
/* The same; *made (when made is not NULL) gets the topmost folder it
 * created, malloc'd, or NULL when every one was there. */
int make_output_dir_made(const char *dir, char **made, char *err, size_t err_size);

#endif
