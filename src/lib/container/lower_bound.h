/* Binary search, written once for the tree's sorted tables (the library's
 * nodes, runs, groups and archives by offset; the explorer's matches;
 * sig's names): the first index of [0, n) at which `before(ctx, i)` is
 * false, for a predicate that holds on a prefix of the indexes and not
 * after it, as "element i comes before the key" does on a sorted array;
 * n when it holds everywhere. Static inline: the predicate is inlined
 * where the search is. */
#ifndef MTLBX_LOWER_BOUND_H
#define MTLBX_LOWER_BOUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline size_t mtlbx_lower_bound(size_t n, bool (*before)(const void *ctx, size_t i), const void *ctx)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(ctx, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The common cases: sorted arrays of numbers, the first element not
 * below `key` (lower_bound) or the first above it (upper_bound), one set
 * for each element type (u64, u32, size). */
struct mtlbx_bound_key {
    const void *v;
    uint64_t key;
    bool or_equal;
};

#define MTLBX_BOUNDS(suffix, type)                                                         \
    static inline bool mtlbx_before_##suffix(const void *ctx, size_t i)                    \
    {                                                                                      \
        const struct mtlbx_bound_key *k = ctx;                                             \
        uint64_t x = ((const type *)k->v)[i];                                              \
        return x < k->key || (k->or_equal && x == k->key);                                 \
    }                                                                                      \
    static inline size_t mtlbx_lower_bound_##suffix(const type *v, size_t n, type key)     \
    {                                                                                      \
        struct mtlbx_bound_key k = { v, key, false };                                      \
        return mtlbx_lower_bound(n, mtlbx_before_##suffix, &k);                            \
    }                                                                                      \
    static inline size_t mtlbx_upper_bound_##suffix(const type *v, size_t n, type key)     \
    {                                                                                      \
        struct mtlbx_bound_key k = { v, key, true };                                       \
        return mtlbx_lower_bound(n, mtlbx_before_##suffix, &k);                            \
    }

MTLBX_BOUNDS(u64, uint64_t)
MTLBX_BOUNDS(u32, uint32_t)
MTLBX_BOUNDS(size, size_t)

#undef MTLBX_BOUNDS

#endif
