/* The tag walk's internals (src/lib only; container/tags.c, values.c):
 * wide tags, names, a step without the name, and size-prefixed groups
 * bounded. */
#ifndef MTLBX_CONTAINER_TAG_WALK_H
#define MTLBX_CONTAINER_TAG_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "container/header.h"

/* tags.c */
bool tag_is_wide(uint32_t fourcc);
void tag_fill_name(char name[5], uint32_t fourcc);
/* mbx_tag_walk_next without out->name and out->known (left empty and
 * false), which only a diagnostic or a view needs: the function list's
 * passes walk every entry's tags, a million entries several times. */
bool tag_walk_step(struct mtlbx_tag_walk *w, struct mtlbx_tag *out);
/* values.c: the tag is one this library decodes (it has a description). */
bool tag_known(uint32_t fourcc);
/* Walks a size-prefixed group at `off` to its ENDT, bounded by `limit`
 * (absolute end), and checks the prefix against what the tags use: it may
 * count itself, or (with accept_excluding) not. Reports problems to lib.
 * Returns false if the group is unusable; *body is where its tags start and
 * *end just past its ENDT. */
bool group_bounds(mtlbx_library *lib, uint64_t off, uint64_t limit, const char *what,
                  bool accept_excluding, uint64_t *body, uint64_t *end);

#endif
