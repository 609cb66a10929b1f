/* Background SHA-256 checks of every function's module, so hash status
 * fills in while the user is already looking at the first screen. The UI
 * only ever reads mbx_function_hash_state(), which never blocks. */
#ifndef MTLBX_UI_HASHER_H
#define MTLBX_UI_HASHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

struct hasher;

/* Starts one worker over all libraries given (may be NULL if nothing to
 * do or the thread cannot start: status then stays "not checked"). */
struct hasher *hasher_start(mtlbx_library *const *libs, size_t n_libs);
/* Ask for this function to be checked next (the one on screen). */
void hasher_prioritise(struct hasher *h, mtlbx_library *lib, size_t index);
/* Functions checked so far and in total; done == total when finished. */
void hasher_progress(const struct hasher *h, size_t *done, size_t *total);
/* The SHA-256 the worker computed for a function whose HASH did not
 * match; false if it has not found one (yet). */
bool hasher_actual_digest(struct hasher *h, const mtlbx_library *lib, size_t index, uint8_t out[32]);
/* Mismatches found so far. */
size_t hasher_mismatch_count(struct hasher *h);
/* Stops after the current function and joins the worker. */
void hasher_stop(struct hasher *h);

#endif
