/* The kernel inventory of `check --expect LIST`: the function names a
 * host program asks for, each of which must still be in what is checked
 * ("Function kernel_mul_mv_ext_bf16_f32_r1_2 was not found in the
 * library" reaches users only at run time otherwise).
 *
 * LIST is either a text file, one name or shell glob a line (`#` starts a
 * comment line; blank lines and the spaces around a name do not count),
 * or an older build: a metallib (ARCHIVE!MEMBER and a Mach-O host with
 * one metallib included) or a folder, archive or Mach-O host, whose every
 * function name is expected. Each operand of check is held against the
 * whole list: the names of every library found under it count. */
#ifndef MTLBX_GATE_EXPECT_H
#define MTLBX_GATE_EXPECT_H

#include "container/types.h"

#include <stdbool.h>
#include <stddef.h>

struct expect {
    char *list;                /* LIST as named */
    bool from_library;         /* LIST was a build, not a text file */
    char **exact;              /* sorted, each once */
    size_t n_exact;
    char **globs;
    size_t n_globs;
    bool *exact_found, *glob_found;
    size_t cap_exact, cap_globs;
    char *name_buf;            /* a function name, NUL-terminated, for fnmatch */
    size_t name_cap;
    bool out_of_memory;
};

/* Building the list: begin (LIST's name), then the names of text (one
 * name or glob a line, '#' comment lines) or of an opened build, then
 * finish (sorted, each once). Each false when out of memory; the caller
 * frees with mbx_expect_free. Reading LIST from a path is the caller's
 * (mbx_gate_run_expect, for the program and the library alike). */
bool mbx_expect_begin(struct expect *e, const char *list);
bool mbx_expect_add_text(struct expect *e, const char *text, size_t len);
bool mbx_expect_add_file(struct expect *e, mtlbx_file *f);
bool mbx_expect_finish(struct expect *e);
/* Forgets what was found: before each operand. */
void mbx_expect_reset(struct expect *e);
/* Marks what one library has. */
void mbx_expect_library(struct expect *e, const mtlbx_library *lib);
/* Names and globs expected in all (for "expects N names"). */
size_t mbx_expect_count(const struct expect *e);
/* Each one not found since the reset, in LIST's order of kind (names
 * sorted, then globs as written). */
typedef void (*expect_missing_fn)(void *ctx, const char *what, bool glob);
void mbx_expect_missing(const struct expect *e, expect_missing_fn fn, void *ctx);
void mbx_expect_free(struct expect *e);

#endif
