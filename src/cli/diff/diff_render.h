/* `mtlbx diff`'s rendering of one comparison (diff.c), shared with the
 * release inventory of two folders or archives (diff_tree.c), which shows
 * each changed library's diff the same way. */
#ifndef MTLBX_CLI_DIFF_RENDER_H
#define MTLBX_CLI_DIFF_RENDER_H

#include <jansson.h>
#include <stdbool.h>

#include "compare/compare.h"

/* The two-library object of CONTRACT.md "Comparing two libraries" (new
 * reference; NULL when out of memory). */
json_t *diff_json(const struct mtlbx_diff *d, const char *pa, const char *pb);
/* The text review: a summary line, then a line per change, each line
 * starting with `indent`. */
void diff_print_text(const struct mtlbx_diff *d, const char *pa, const char *pb, bool verified, bool colour,
                     const char *indent);

/* True when `path` is a folder, or a file whose content is an archive
 * (not a metallib): then `diff` compares releases. */
bool diff_is_release(const char *path);
/* `mtlbx diff OLD NEW` on two folders or two archives (CONTRACT.md
 * "Archives, folders and releases"). Exit status as diff's. */
int diff_releases(const char *old_path, const char *new_path, bool json, bool verify, bool colour);

#endif
