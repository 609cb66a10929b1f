/* The ordered pool behind `mtlbx sig`: every item worked on once, every
 * delivery in order with its own result, whatever the threads and the
 * window, and the uneven work that made fixed shares idle. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "util/ordered_pool.h"

struct check {
    size_t window;
    uint64_t *slots;
    atomic_int *worked;
    size_t delivered;
    bool in_order;
};

static void work(void *ctx, size_t i, size_t slot)
{
    struct check *c = ctx;
    if (i % 17 == 0) { /* some items cost far more than others */
        struct timespec ts = { 0, 200000 };
        nanosleep(&ts, NULL);
    }
    atomic_fetch_add(&c->worked[i], 1);
    c->slots[slot] = (uint64_t)i * i + 1;
}

static void deliver(void *ctx, size_t i, size_t slot)
{
    struct check *c = ctx;
    if (i != c->delivered || slot != i % c->window || c->slots[slot] != (uint64_t)i * i + 1)
        c->in_order = false;
    c->slots[slot] = 0;
    c->delivered++;
}

static void run(size_t n, size_t window, unsigned threads)
{
    struct check c = { .window = window, .in_order = true };
    c.slots = calloc(window, sizeof *c.slots);
    c.worked = calloc(n ? n : 1, sizeof *c.worked);
    cr_assert(c.slots && c.worked);
    cr_assert_eq(ordered_run(n, window, threads, work, deliver, &c), 0);
    cr_expect(c.in_order, "n %zu window %zu threads %u: out of order or wrong result", n, window, threads);
    cr_expect_eq(c.delivered, n);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(atomic_load(&c.worked[i]), 1, "item %zu worked on %d times", i, atomic_load(&c.worked[i]));
    free(c.slots);
    free(c.worked);
}

Test(ordered_pool, one_thread_runs_everything_in_order) { run(1000, 8, 1); }
Test(ordered_pool, several_threads_deliver_in_order) { run(5000, 64, 4); }
Test(ordered_pool, a_window_of_one_still_finishes) { run(300, 1, 3); }
Test(ordered_pool, more_threads_than_items) { run(3, 16, 8); }
Test(ordered_pool, no_items_is_nothing) { run(0, 16, 2); }
