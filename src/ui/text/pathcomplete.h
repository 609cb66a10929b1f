/* Tab completion of file paths for the explorer's path prompts (w, e, E,
 * s's w and W). Pure apart from reading directories: no terminal. */
#ifndef MTLBX_UI_PATHCOMPLETE_H
#define MTLBX_UI_PATHCOMPLETE_H

#include <stddef.h>

/* Completes the path `in` as a shell does: `out` receives `in` extended by
 * the longest prefix that all matching entries share, with a '/' after a
 * single directory. A leading "~/" is looked up in $HOME but kept as
 * typed. Hidden entries match only when the typed name starts with '.'.
 * `matches` (may be NULL) receives up to its size of the matching names,
 * space-separated, in order. Returns the number of matches. */
size_t path_complete(const char *in, char *out, size_t out_size, char *matches, size_t matches_size);

#endif
