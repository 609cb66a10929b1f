/* Work on many items in parallel, results delivered in order: item i is
 * worked on by whichever thread takes it, and delivered on the calling
 * thread after items 0..i-1. At most `window` items are worked on but
 * not yet delivered, so memory stays that of the window however many
 * items there are. The calling thread works too while it waits, so one
 * thread (or a failed pthread_create) still runs everything. */
#ifndef MTLBX_UTIL_ORDERED_POOL_H
#define MTLBX_UTIL_ORDERED_POOL_H

#include <stddef.h>

/* `slot` is i % window: where item i's result is kept until delivered. */
typedef void (*ordered_work_fn)(void *ctx, size_t i, size_t slot);
typedef void (*ordered_deliver_fn)(void *ctx, size_t i, size_t slot);

/* Returns 0, or -1 when out of memory before any work was done. */
int ordered_run(size_t n, size_t window, unsigned threads, ordered_work_fn work, ordered_deliver_fn deliver,
                void *ctx);

#endif
