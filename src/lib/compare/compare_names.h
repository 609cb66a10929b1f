/* The functions of one library by (name, occurrence): the k-th function
 * of a name in file order (compare_names.c). A diff pairs the k-th `foo`
 * of A with the k-th `foo` of B, so a name that repeats (a kernel and a
 * vertex function both named foo, 300,000 functions without a NAME) is
 * compared whole, never as its first function alone. Internal to the
 * comparison layer. */
#ifndef MTLBX_COMPARE_NAMES_H
#define MTLBX_COMPARE_NAMES_H

#include <stdbool.h>

#include "container/types.h"

struct name_count;
struct name_dup;
struct name_index {
    const mtlbx_library *lib;
    size_t mask;               /* of the names table */
    struct name_count *names;  /* each name: its first function, how many */
    size_t dup_mask, n_dups;
    struct name_dup *dups;     /* (name, k) for k >= 2: its function */
};

/* Indexes every function of lib (NULL: an empty index), reading the
 * entries once, in order, letting them go behind it. False when out of
 * memory. */
bool name_index_build(struct name_index *ix, const mtlbx_library *lib);
void name_index_free(struct name_index *ix);
/* The k-th function (k from 1) named `name`, or -1. */
long name_index_find(const struct name_index *ix, struct mtlbx_bytes name, uint32_t k);

/* Counting occurrences while walking a library in order: each call gives
 * the occurrence of function i's name so far (1 for its first). Uses a
 * table of its own; `ix` may be any index of that library. */
struct name_counter {
    const mtlbx_library *lib;
    size_t mask;
    struct name_count *slot;
};
bool name_counter_init(struct name_counter *c, const mtlbx_library *lib);
uint32_t name_counter_next(struct name_counter *c, size_t i);
void name_counter_free(struct name_counter *c);

/* Lets go of the decoded entries and metadata of lib before function
 * `before`, and of the pages read for them (NULL: nothing). */
void compare_forget_behind(const mtlbx_library *lib, size_t before);

#endif
