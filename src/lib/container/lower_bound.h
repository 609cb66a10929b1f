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
 * below `key` (`or_equal`: the first above it). */
struct mtlbx_bound_key {
    const void *v;
    uint64_t key;
    bool or_equal;
};

static inline bool mtlbx_before_u64(const void *ctx, size_t i)
{
    const struct mtlbx_bound_key *k = ctx;
    uint64_t x = ((const uint64_t *)k->v)[i];
    return x < k->key || (k->or_equal && x == k->key);
}

static inline bool mtlbx_before_u32(const void *ctx, size_t i)
{
    const struct mtlbx_bound_key *k = ctx;
    uint64_t x = ((const uint32_t *)k->v)[i];
    return x < k->key || (k->or_equal && x == k->key);
}

static inline bool mtlbx_before_size(const void *ctx, size_t i)
{
    const struct mtlbx_bound_key *k = ctx;
    uint64_t x = ((const size_t *)k->v)[i];
    return x < k->key || (k->or_equal && x == k->key);
}

static inline size_t mtlbx_lower_bound_u64(const uint64_t *v, size_t n, uint64_t key)
{
    struct mtlbx_bound_key k = { v, key, false };
    return mtlbx_lower_bound(n, mtlbx_before_u64, &k);
}

static inline size_t mtlbx_lower_bound_u32(const uint32_t *v, size_t n, uint32_t key)
{
    struct mtlbx_bound_key k = { v, key, false };
    return mtlbx_lower_bound(n, mtlbx_before_u32, &k);
}

static inline size_t mtlbx_lower_bound_size(const size_t *v, size_t n, size_t key)
{
    struct mtlbx_bound_key k = { v, key, false };
    return mtlbx_lower_bound(n, mtlbx_before_size, &k);
}

/* The first element above `key`. */
static inline size_t mtlbx_upper_bound_u64(const uint64_t *v, size_t n, uint64_t key)
{
    struct mtlbx_bound_key k = { v, key, true };
    return mtlbx_lower_bound(n, mtlbx_before_u64, &k);
}

static inline size_t mtlbx_upper_bound_u32(const uint32_t *v, size_t n, uint32_t key)
{
    struct mtlbx_bound_key k = { v, key, true };
    return mtlbx_lower_bound(n, mtlbx_before_u32, &k);
}

#endif
