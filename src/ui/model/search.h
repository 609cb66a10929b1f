/* Search results of the tree: every node that matched the last label
 * query, in display order, so the explorer can say "match 3/17",
 * highlight the matches and step through them without searching again. */
#ifndef MTLBX_UI_SEARCH_H
#define MTLBX_UI_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "ui/text/query.h"

struct explorer;

/* Whether one node matches: the byte explorer's default compares the
 * label, a tag's FourCC and a function's argument names and types; another
 * kind of search may install its own. Runs on the worker with the model
 * lock held. */
typedef bool (*search_match_fn)(struct explorer *ex, const struct query *q, uint32_t file,
                                const mtlbx_node *n, const char *label);

struct search_hit {
    uint32_t file;
    mtlbx_node *node;
};

struct search_results {
    struct search_hit *v;        /* display order */
    size_t n;
    size_t cur;                  /* the match last shown */
    const mtlbx_node **sorted;   /* node pointers, sorted: is this row a match? */
    bool capped;                 /* stopped at SEARCH_MAX_HITS */
};

#define SEARCH_MAX_HITS 1000000

void search_results_free(struct search_results *r);
/* Builds `sorted` from the hits, for search_is_hit (none on ENOMEM). */
void search_results_index(struct search_results *r);
bool search_is_hit(const struct search_results *r, const mtlbx_node *n);

/* Where to go from position `pos` (the index the current node has or
 * would have among the hits, `on_hit` if it is one) among `n` hits:
 * the next or previous index, wrapping; *wrapped says if it did. Pure. */
size_t search_step(size_t n, size_t pos, bool on_hit, bool forward, bool *wrapped);

#endif
