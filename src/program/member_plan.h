/* Planning the write of a whole source archive (the explorer's W in the
 * source member list, `mtlbx sources -o`): where each member lands under
 * the directory, and which members would land on a path an earlier member
 * of the same archive already took (a tar may hold one path twice). Such a
 * member is not written: replacing the first copy without a word would
 * lose it. */
#ifndef MTLBX_MEMBER_PLAN_H
#define MTLBX_MEMBER_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "container/sources.h"

/* Where safe_write_under places a member name: its '/'-separated parts
 * with empty and "." parts dropped ("/a/./b" is "a/b"). malloc'd; NULL
 * when out of memory. */
char *member_plan_path(const char *name);

/* Sets dup[i] (a->n_members entries) for each regular-file member whose
 * path an earlier regular-file member already takes; false for the rest.
 * Returns the number of such duplicates, or (size_t)-1 when out of memory. */
size_t member_plan_duplicates(const struct mtlbx_archive *a, bool *dup);

#endif
