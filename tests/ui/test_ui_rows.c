/* The flattened tree rows, over a fake tree: node k has children
 * k*10+1 .. k*10+fanout while below depth 3. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>

#include "ui/model/rows.h"

static size_t asked;

static size_t fake_count(void *ctx, uint32_t file, void *node)
{
    (void)ctx; (void)file;
    asked++;
    uintptr_t k = (uintptr_t)node;
    return k < 100 ? 3 : 0;
}

static void *fake_child(void *ctx, uint32_t file, void *node, size_t i)
{
    (void)ctx; (void)file;
    return (void *)((uintptr_t)node * 10 + i + 1);
}

static const struct rows_source src = { fake_count, fake_child, NULL };

/* A bushier tree for the worker's ticks: four children down to six digits. */
static size_t deep_count(void *ctx, uint32_t file, void *node)
{
    (void)ctx; (void)file;
    return (uintptr_t)node < 100000 ? 4 : 0;
}

static const struct rows_source deep = { deep_count, fake_child, NULL };

#define N(x) ((void *)(uintptr_t)(x))

Test(rows, expand_inserts_children_after_the_parent)
{
    struct tree_rows r = { 0 };
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    cr_assert_eq(rows_expand(&r, 0, &src), 3);
    cr_assert_eq(r.n, 5);
    cr_assert_eq(r.v[1].node, N(11));
    cr_assert_eq(r.v[3].node, N(13));
    cr_assert_eq(r.v[1].depth, 1);
    cr_assert_eq(r.v[4].node, N(2));
    cr_assert(r.v[0].expanded);
    cr_assert_eq(rows_expand(&r, 0, &src), 0);   /* already open */
    rows_free(&r);
}

Test(rows, collapse_removes_all_descendants)
{
    struct tree_rows r = { 0 };
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    rows_expand(&r, 0, &src);
    rows_expand(&r, 2, &src);    /* 12 -> 121..123 */
    cr_assert_eq(r.n, 8);
    cr_assert_eq(rows_subtree_end(&r, 0), 7);
    rows_collapse(&r, 0);
    cr_assert_eq(r.n, 2);
    cr_assert_eq(r.v[1].node, N(2));
    cr_assert_not(r.v[0].expanded);
    rows_free(&r);
}

Test(rows, parents_siblings_and_children)
{
    struct tree_rows r = { 0 };
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    rows_expand(&r, 0, &src);    /* 1 11 12 13 2 */
    rows_expand(&r, 2, &src);    /* 1 11 12 121 122 123 13 2 */
    cr_assert_eq(rows_parent(&r, 4), 2);
    cr_assert_eq(rows_parent(&r, 6), 0);
    cr_assert_eq(rows_parent(&r, 0), -1);
    cr_assert_eq(rows_next_sibling(&r, 2), 6);
    cr_assert_eq(rows_prev_sibling(&r, 6), 2);
    cr_assert_eq(rows_next_sibling(&r, 6), -1);
    cr_assert_eq(rows_prev_sibling(&r, 1), -1);
    cr_assert_eq(rows_next_sibling(&r, 0), 7);
    cr_assert_eq(rows_find_child(&r, 0, N(13)), 6);
    cr_assert_eq(rows_find_child(&r, 0, N(122)), -1);   /* a grandchild */
    cr_assert_eq(rows_find_child(&r, 2, N(122)), 4);
    rows_free(&r);
}

Test(rows, child_count_is_asked_once)
{
    struct tree_rows r = { 0 };
    rows_append(&r, N(5), 0, 0);
    asked = 0;
    rows_child_count(&r, 0, &src);
    rows_child_count(&r, 0, &src);
    rows_expand(&r, 0, &src);
    cr_assert_eq(asked, 1);
    rows_free(&r);
}

/* A big expand and collapse stays consistent (the 200,000-function case
 * in miniature: one parent with many children). */
static size_t many_count(void *ctx, uint32_t file, void *node)
{
    (void)ctx; (void)file;
    return node == N(1) ? 200000 : 0;
}

static void *many_child(void *ctx, uint32_t file, void *node, size_t i)
{
    (void)ctx; (void)file; (void)node;
    return N(1000 + i);
}

Test(rows, two_hundred_thousand_children)
{
    const struct rows_source many = { many_count, many_child, NULL };
    struct tree_rows r = { 0 };
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    cr_assert_eq(rows_expand(&r, 0, &many), 200000);
    cr_assert_eq(r.n, 200002);
    cr_assert_eq(r.v[200001].node, N(2));
    cr_assert_eq(rows_find_child(&r, 0, N(1000 + 199999)), 200000);
    rows_collapse(&r, 0);
    cr_assert_eq(r.n, 2);
    rows_free(&r);
}

/* A node that gains a child after it was expanded (Diagnostics appearing
 * under a library once hashing finds a mismatch). */
static size_t grown;

static size_t growing_count(void *ctx, uint32_t file, void *node)
{
    (void)ctx; (void)file;
    return node == N(1) ? grown : 0;
}

static void *growing_child(void *ctx, uint32_t file, void *node, size_t i)
{
    (void)ctx; (void)file; (void)node;
    return N(100 + i);
}

Test(rows, refresh_adds_children_that_appeared_later)
{
    const struct rows_source g = { growing_count, growing_child, NULL };
    struct tree_rows r = { 0 };
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    grown = 2;
    rows_expand(&r, 0, &g);                  /* 1 100 101 2 */
    cr_assert_eq(rows_refresh_children(&r, 0, &g), 0);
    grown = 3;
    cr_assert_eq(rows_refresh_children(&r, 0, &g), 1);
    cr_assert_eq(r.n, 5);
    cr_assert_eq(r.v[3].node, N(102));       /* at the end of the subtree */
    cr_assert_eq(r.v[3].depth, 1);
    cr_assert_eq(r.v[4].node, N(2));
    cr_assert_eq(rows_refresh_children(&r, 0, &g), 0);
    cr_assert_eq(rows_refresh_children(&r, 4, &g), 0);   /* not expanded */
    rows_free(&r);
}

static bool all_expandable(void *ctx, uint32_t file, void *node)
{
    (void)ctx; (void)file;
    return (uintptr_t)node != 12;     /* one node `*` must leave shut */
}

Test(rows, expand_all_writes_the_subtree_depth_first_in_one_pass)
{
    struct tree_rows r = { 0 };
    bool stopped;
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    /* 1: 11 (111..113), 12 (left shut), 13 (131..133); then 2. */
    cr_assert_eq(rows_expand_all(&r, 0, &src, 1000, all_expandable, NULL, &stopped), 3 + 3 + 3);
    cr_assert_not(stopped);
    cr_assert_eq(r.v[1].node, N(11));
    cr_assert(r.v[1].expanded);
    cr_assert_eq(r.v[2].node, N(111));
    cr_assert_eq(r.v[2].depth, 2);
    cr_assert_eq(r.v[5].node, N(12));
    cr_assert_eq(r.v[6].node, N(13));
    cr_assert_eq(r.v[9].node, N(133));
    cr_assert_eq(r.v[r.n - 1].node, N(2));
    for (size_t i = 0; i < r.n; i++)
        if (r.v[i].node == N(12))
            cr_assert_not(r.v[i].expanded);
    /* The same rows as expanding them one by one would give. */
    cr_assert_eq(rows_subtree_end(&r, 0), r.n - 1);
    rows_free(&r);
}

Test(rows, expand_all_stops_near_its_limit)
{
    struct tree_rows r = { 0 };
    bool stopped;
    rows_append(&r, N(1), 0, 0);
    long added = rows_expand_all(&r, 0, &src, 5, all_expandable, NULL, &stopped);
    cr_assert(stopped);
    cr_assert_geq(added, 5);
    cr_assert_leq(added, 5 + 3);
    rows_free(&r);
}

static bool stop_at_first_tick(void *ctx, size_t rows)
{
    *(size_t *)ctx = rows;
    return false;
}

static bool keep_going(void *ctx, size_t rows)
{
    (void)rows;
    ++*(size_t *)ctx;
    return true;
}

Test(rows, build_subtree_is_abandoned_when_the_tick_says_so)
{
    struct tree_row top = { .node = N(1), .depth = 0, .n_children = -1 };
    struct tree_rows sub;
    bool stopped;
    size_t seen = 0;
    /* A tick comes every 256 rows, so a budget far past that sees one. */
    cr_assert_eq(rows_build_subtree(&top, &deep, 100000, all_expandable, NULL, stop_at_first_tick, &seen, &sub,
                                    &stopped), 1);
    cr_assert_eq(seen, 256);
    cr_assert_eq(sub.n, 0);
    cr_assert_null(sub.v);
    size_t ticks = 0;
    cr_assert_eq(rows_build_subtree(&top, &deep, 100000, all_expandable, NULL, keep_going, &ticks, &sub,
                                    &stopped), 0);
    cr_assert_gt(ticks, 0);
    cr_assert_gt(sub.n, 256);
    rows_free(&sub);
}

Test(rows, splice_replaces_the_subtree_and_keeps_the_rows_around_it)
{
    struct tree_rows r = { 0 }, sub = { 0 };
    bool stopped;
    rows_append(&r, N(1), 0, 0);
    rows_append(&r, N(2), 0, 0);
    rows_expand(&r, 0, &src);            /* 1, 11, 12, 13, 2 */
    cr_assert_eq(r.n, 5);
    cr_assert_eq(rows_build_subtree(&r.v[0], &src, 1000, all_expandable, NULL, NULL, NULL, &sub, &stopped), 0);
    long added;
    cr_assert_eq(rows_splice_subtree(&r, 0, &sub, &added), 0);
    cr_assert_eq(added, 6);
    cr_assert_eq(r.n, 11);
    cr_assert_eq(sub.n, 0);
    cr_assert_eq(r.v[0].node, N(1));
    cr_assert_eq(r.v[10].node, N(2));
    cr_assert_eq(r.v[10].depth, 0);
    rows_free(&r);
}
