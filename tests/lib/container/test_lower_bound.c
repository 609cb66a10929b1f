/* The one binary search (container/lower_bound.h) against a linear scan:
 * every key around every value of sorted arrays with repeats, of every
 * length up to 40, for the lower and the upper bound and each element
 * type; and the generic form with a predicate over a struct field. */
#include "config.h"

#include "container/lower_bound.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <stdbool.h>

static size_t linear(const uint64_t *v, size_t n, uint64_t key, bool upper)
{
    size_t i = 0;
    while (i < n && (v[i] < key || (upper && v[i] == key)))
        i++;
    return i;
}

Test(lower_bound, agrees_with_a_linear_scan)
{
    srand(7);
    for (size_t n = 0; n <= 40; n++) {
        uint64_t v[40];
        uint32_t w[40];
        size_t z[40];
        uint64_t x = 0;
        for (size_t i = 0; i < n; i++) {
            x += (uint64_t)(rand() % 3);      /* repeats and gaps */
            v[i] = x, w[i] = (uint32_t)x, z[i] = (size_t)x;
        }
        for (uint64_t key = 0; key <= x + 1; key++) {
            size_t lo = linear(v, n, key, false), hi = linear(v, n, key, true);
            cr_assert_eq(mtlbx_lower_bound_u64(v, n, key), lo, "n %zu key %llu", n, (unsigned long long)key);
            cr_assert_eq(mtlbx_lower_bound_u32(w, n, (uint32_t)key), lo);
            cr_assert_eq(mtlbx_lower_bound_size(z, n, (size_t)key), lo);
            cr_assert_eq(mtlbx_upper_bound_u64(v, n, key), hi);
            cr_assert_eq(mtlbx_upper_bound_u32(w, n, (uint32_t)key), hi);
        }
    }
}

struct item {
    int tag;
    uint64_t end;
};

static bool ends_by(const void *ctx, size_t i)
{
    const uint64_t *at = ctx;
    static const struct item items[] = { { 1, 4 }, { 2, 9 }, { 3, 9 }, { 4, 20 } };
    return items[i].end <= *at;
}

Test(lower_bound, a_predicate_over_a_field)
{
    uint64_t at = 9;
    cr_expect_eq(mtlbx_lower_bound(4, ends_by, &at), 3);
    at = 0;
    cr_expect_eq(mtlbx_lower_bound(4, ends_by, &at), 0);
    at = 100;
    cr_expect_eq(mtlbx_lower_bound(4, ends_by, &at), 4);
    cr_expect_eq(mtlbx_lower_bound(0, ends_by, &at), 0);
}
