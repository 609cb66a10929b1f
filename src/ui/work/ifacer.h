/* Background decoding of function interfaces, beside the hash worker: the
 * UI thread never decodes bitcode. One worker takes the selected function
 * first (kept by the library for the tree and detail panels) and otherwise
 * walks every function in order, keeping only a short text per function
 * (argument names and types) so that `/` can find the kernels that take,
 * say, GEMMParams. */
#ifndef MTLBX_UI_IFACER_H
#define MTLBX_UI_IFACER_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

struct ifacer;

/* NULL when there is nothing to do or the thread cannot start. */
struct ifacer *ifacer_start(mtlbx_library *const *libs, size_t n_libs);
/* Decode and keep this function next (the one on screen), in the model
 * m of lib's file. */
void ifacer_prioritise(struct ifacer *w, mtlbx_model *m, mtlbx_library *lib, size_t index);
/* Drops the request not served yet and waits for the one being served:
 * after it, the worker touches no model it was given (to close them). */
void ifacer_forget(struct ifacer *w);
/* Changes each time a prioritised function has been kept, so the explorer
 * knows to refresh the rows and the detail panel. */
size_t ifacer_kept_count(const struct ifacer *w);
void ifacer_progress(const struct ifacer *w, size_t *done, size_t *total);
/* The argument names and types of a function, one per line, once the
 * sweep has decoded it, and their length in *len; NULL before. Stable
 * until ifacer_stop(). */
const char *ifacer_search_text(const struct ifacer *w, const mtlbx_library *lib, size_t index, size_t *len);
/* The number of arguments of a function once the sweep has read it; -1
 * before, -2 when no AIR entry names it. */
long ifacer_arg_count(const struct ifacer *w, const mtlbx_library *lib, size_t index);
void ifacer_stop(struct ifacer *w);

#endif
