/* Scratch directories for the extract and sources tests: everything they write goes
 * into a fresh mktemp directory (srcdir is read-only under distcheck). */
#ifndef MTLBX_SCRATCH_DIR_H
#define MTLBX_SCRATCH_DIR_H

#include <stddef.h>
#include <stdint.h>

/* A new directory under $TMPDIR (or /tmp); malloc'd path. Aborts the test
 * on failure. */
char *pt_tmpdir(void);
/* Removes path and everything below it, never following symlinks. */
void pt_rmtree(const char *path);
/* "a/b", malloc'd. */
char *pt_join(const char *a, const char *b);
/* A whole file, malloc'd (with a NUL after the data), or NULL. */
uint8_t *pt_slurp(const char *path, size_t *len);

#endif
