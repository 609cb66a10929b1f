/* The tree panel's rows: a flat array of the visible nodes in display
 * order, each with its depth. Expanding inserts the children right after
 * their parent and collapsing removes the parent's descendants, so moving
 * the cursor or drawing never walks the tree: drawing costs only the rows
 * on screen, even with 200,000 functions expanded. Pure: nodes are opaque
 * and children come from callbacks, so this is tested without the parser. */
#ifndef MTLBX_UI_ROWS_H
#define MTLBX_UI_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tree_row {
    void *node;
    uint32_t file;         /* which of the open files the node belongs to */
    uint16_t depth;
    bool expanded;
    int32_t n_children;    /* -1 until asked */
};

struct tree_rows {
    struct tree_row *v;
    size_t n, cap;
};

struct rows_source {
    size_t (*child_count)(void *ctx, uint32_t file, void *node);
    void *(*child)(void *ctx, uint32_t file, void *node, size_t i);
    void *ctx;
};

void rows_free(struct tree_rows *r);
int rows_append(struct tree_rows *r, void *node, uint32_t file, uint16_t depth);

/* Children count of row i (asks the source once, then cached). */
size_t rows_child_count(struct tree_rows *r, size_t i, const struct rows_source *src);

/* Inserts row i's children after it. Returns how many, or -1 on OOM.
 * Does nothing (returns 0) if already expanded. */
long rows_expand(struct tree_rows *r, size_t i, const struct rows_source *src);
/* A node that gained children after it was expanded (a library gets a
 * Diagnostics node when background hashing finds a mismatch): adds rows
 * for the new ones at the end of its subtree. Returns how many. */
long rows_refresh_children(struct tree_rows *r, size_t i, const struct rows_source *src);
/* Whether `*` may open a node (a source archive is only decompressed when
 * asked for by itself, say). */
typedef bool (*rows_expandable_fn)(void *ctx, uint32_t file, void *node);
/* Expands everything below row i, depth first, adding at most about
 * `limit` rows beyond those its subtree has now (the children of an
 * opened node all come in, so the last one may go past it); *stopped says
 * the limit cut it short. Linear in the rows. Returns the rows added, or
 * -1 on OOM (the rows are then as they were). */
long rows_expand_all(struct tree_rows *r, size_t i, const struct rows_source *src, size_t limit,
                     rows_expandable_fn expandable, void *ctx, bool *stopped);
/* The two halves of rows_expand_all, so the slow one can run on a worker
 * while the rows stay the UI thread's. rows_build_subtree writes `top`
 * (copied) and everything below it, expanded, into `out`, at most about
 * `budget` rows; it never touches any tree_rows but `out`. `tick`, if
 * given, is called every few hundred rows with the count so far; when it
 * returns false the build is abandoned. Returns 0, 1 when abandoned, or
 * -1 on OOM (`out` then holds nothing). */
typedef bool (*rows_tick_fn)(void *ctx, size_t rows_so_far);
int rows_build_subtree(const struct tree_row *top, const struct rows_source *src, size_t budget,
                       rows_expandable_fn expandable, void *ctx, rows_tick_fn tick, void *tick_ctx,
                       struct tree_rows *out, bool *stopped);
/* Replaces row i and its descendants with `sub`'s rows, taking them (sub is
 * emptied) and setting *added to the change in rows (may be negative).
 * Returns 0, or -1 on OOM with the rows as they were and `sub` still the
 * caller's. */
int rows_splice_subtree(struct tree_rows *r, size_t i, struct tree_rows *sub, long *added);
/* Appends copies of `n` rows. */
int rows_append_many(struct tree_rows *r, const struct tree_row *v, size_t n);
/* Removes row i's descendants. */
void rows_collapse(struct tree_rows *r, size_t i);

/* First index after row i's descendants. */
size_t rows_subtree_end(const struct tree_rows *r, size_t i);
/* Row of i's parent, or -1 at depth 0. */
long rows_parent(const struct tree_rows *r, size_t i);
/* Row of `node` among the direct children of row `parent`, or -1. */
long rows_find_child(const struct tree_rows *r, size_t parent, const void *node);
/* Next / previous row at the same depth under the same parent, or -1. */
long rows_next_sibling(const struct tree_rows *r, size_t i);
long rows_prev_sibling(const struct tree_rows *r, size_t i);

#endif
