/* dump --json --layout: the document with a top-level "layout" array
 * streamed region by region (CONTRACT.md "Every byte decoded"). */
#ifndef MTLBX_LAYOUT_JSON_H
#define MTLBX_LAYOUT_JSON_H

#include "mtlbx.h"

#include <jansson.h>
#include <stdio.h>

/* Writes `root` (an object) with "layout" as its last key to `out`, using
 * jansson `flags`. Never holds the regions in memory. Returns 0 on success,
 * -1 when writing failed or the layout could not be completed. */
int json_dump_with_layout(json_t *root, mtlbx_file *f, FILE *out, size_t flags);

#endif
