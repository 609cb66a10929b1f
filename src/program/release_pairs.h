/* Two releases (two folders or two archives: wheels, .ipa, SDK folders)
 * paired library by library, by the path inside each side, for `mtlbx
 * diff OLD NEW` (src/cli/diff_tree.c) and the explorer's release compare
 * (src/ui/views/release/release_view.c). Each side is walked the way `find` walks it
 * (mbx_tree_walk, archives by content, nested ones joined with '!'). Only the
 * paths are kept: opening and comparing a pair is the caller's, with
 * mbx_open_any(item->open).
 *
 * Opening ARCHIVE!MEMBER walks the archive from its start: once per pair,
 * comparing two .tar.gz of 6,000 libraries decompressed each 6,000 times
 * (104 s). So release_pair() reads the members of archives ahead, each
 * archive once in its own order, and offers each pair's two members to
 * mbx_open_any() just before calling back (mbx_open_any_offer): the caller's
 * mbx_open_any of item->open then costs nothing. What it reads ahead at once
 * is bounded by mbx_member_limit(), so a release larger than that is read in
 * a few passes, never one pass per library. */
#ifndef MTLBX_UTIL_RELEASE_PAIRS_H
#define MTLBX_UTIL_RELEASE_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when `path` is a folder, or a file whose content is an archive
 * (not a metallib and not ARCHIVE!MEMBER). */
bool release_is_release(const char *path);

struct release_item {
    char *key;                 /* the path inside the side: what pairs */
    char *open;                /* what mbx_open_any() takes */
    size_t seq;                /* walk order, to keep the first of a key */
    /* A member of an archive: open is "ARCHIVE!MEMBER" and the member
     * name starts at open + member; 0 for a file of a folder. */
    size_t member;
    uint64_t size;             /* the bytes the member holds, as measured by the walk */
};

/* Something that could not be read on one side (path, one-line reason). */
typedef void (*release_problem_fn)(void *ctx, const char *path, const char *message);

struct release_side {
    struct release_item *v;    /* sorted by key, then walk order */
    size_t n, cap;
    bool failed;               /* something could not be read (reported) */
    release_problem_fn problem;
    void *ctx;
    const void *archive;       /* the walk entry being listed */
};

/* Walks root into *side (problem and ctx set by the caller, the rest 0). */
void release_side_collect(const char *root, struct release_side *side);
void release_side_free(struct release_side *side);

/* One pair: x only in OLD (y NULL), y only in NEW (x NULL), or both. A
 * path twice on one side (an archive may hold it twice): the first. The
 * pairs come in key order; for a pair of both, mbx_open_any(x->open) and
 * mbx_open_any(y->open) on the calling thread, within fn, take the members
 * read ahead. */
typedef void (*release_pair_fn)(void *ctx, const struct release_item *x, const struct release_item *y);
void release_pair(const struct release_side *a, const struct release_side *b, release_pair_fn fn, void *ctx);

#endif
