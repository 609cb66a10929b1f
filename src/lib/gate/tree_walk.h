/* Walking a folder for metallibs and the archives that may hold them, the
 * way `mtlbx find` and the explorer's folder view need it:
 * - a file is a metallib by its magic (MTLB or CB FE BA BE), never by its
 *   name, and an archive by its content (mbx_archive_content()); a file named
 *   .metallib that is neither is still a WALK_METALLIB, so that opening it
 *   reports it; a root that is not a regular file or folder is a problem;
 * - symbolic links below the root are never followed (so nothing outside
 *   the tree is reached and no link cycle can loop), and every directory's
 *   device and inode are remembered so a bind mount cannot loop either;
 * - an entry that cannot be read is reported and skipped, never fatal;
 * - entries come in name order, so the output is the same on every run.
 * No printing here: everything goes to the caller's callback. */
#ifndef MTLBX_TREE_WALK_H
#define MTLBX_TREE_WALK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deeper than this, a folder is reported and not entered. */
#define TREE_WALK_MAX_DEPTH 128

enum walk_kind {
    WALK_METALLIB,             /* a file with a metallib magic (or named so) */
    WALK_ARCHIVE,              /* an archive (by content) to look inside */
    WALK_PROBLEM,              /* could not be read: `problem` says why */
};

struct walk_entry {
    enum walk_kind kind;
    const char *path;          /* ROOT/REL, usable with open() */
    const char *rel;           /* below the root; "" for the root itself */
    uint64_t size;
    const char *problem;
};

/* Counters another thread may read while the walk runs (progress). */
struct walk_progress {
    atomic_size_t files;       /* regular files whose magic was read */
    atomic_size_t metallibs;
    atomic_size_t archives;
    atomic_size_t problems;
};

/* Returns nonzero to stop the walk. */
typedef int (*walk_fn)(void *ctx, const struct walk_entry *e);

/* Walks `root` (a folder, or a single file; a link given as the root is
 * followed, since the user named it). Returns 0 when the walk finished,
 * 1 when `cancel` was set or the callback stopped it. */
int mbx_tree_walk(const char *root, walk_fn fn, void *ctx, struct walk_progress *progress,
              const volatile int *cancel);

#endif
