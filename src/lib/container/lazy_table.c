/* Per-function arrays decoded LAZY_BLOCK entries at a time, on first need,
 * that a streaming command may drop again behind it (issue 22): at a
 * million functions the function table (~144 B each) and the metadata
 * (~176 B each) would otherwise stay resident for the whole run. The
 * array is one anonymous mapping: its address never changes, a block's
 * pages exist only while it is decoded, and dropping a block gives its
 * pages back (MADV_DONTNEED) so the next access decodes it again from the
 * file. Decoding is deterministic and quiet the second time: the findings
 * were reported by the first pass (diag_quiet_begin). */
#include "config.h"
#include "container/lazy_table.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

bool lazy_init(struct lazy_blocks *b, size_t n, size_t elem_size)
{
    *b = (struct lazy_blocks){ .elem_size = elem_size, .droppable = true };
    pthread_mutex_init(&b->lock, NULL);
    if (n == 0)
        return true;
    if (n > SIZE_MAX / elem_size)
        return false;
    b->n_blocks = (n + LAZY_BLOCK - 1) / LAZY_BLOCK;
    b->state = calloc(b->n_blocks, sizeof *b->state);
    size_t bytes = n * elem_size;
    if (b->n_blocks == 1) {
        b->array = b->state ? calloc(n, elem_size) : NULL;
        if (!b->array) {
            free((void *)b->state);
            *b = (struct lazy_blocks){ .elem_size = elem_size };
            return false;
        }
        b->array_bytes = bytes;
        return true;
    }
    void *a = b->state ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
    if (a == MAP_FAILED) {
        free((void *)b->state);
        *b = (struct lazy_blocks){ .elem_size = elem_size };
        return false;
    }
#ifdef MADV_NOHUGEPAGE
    /* With transparent huge pages a decoded block would fault in 2 MB,
     * and a drop of whole small pages inside it would not give it back. */
    (void)madvise(a, bytes, MADV_NOHUGEPAGE);
#endif
    b->array = a;
    b->mapped = true;
    b->array_bytes = bytes;
    return true;
}

void lazy_free(struct lazy_blocks *b)
{
    if (b->mapped)
        munmap(b->array, b->array_bytes);
    else
        free(b->array);
    free((void *)b->state);
    pthread_mutex_destroy(&b->lock);
    *b = (struct lazy_blocks){ 0 };
}

void populate_pages(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    /* On a paravirtualised machine a fault costs 12 us where populating a
     * page costs 3.5 (this project's machines). Pages already there are
     * left as they are, so the range may start on a page shared with
     * other memory. */
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0 && p && n) {
        uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1);
        (void)madvise((void *)lo, (uintptr_t)p + n - lo, MADV_POPULATE_WRITE);
    }
#else
    (void)p;
    (void)n;
#endif
}

void lazy_populate(struct lazy_blocks *b, size_t first, size_t count)
{
    /* The block's pages in one call, not one fault each: faults are most
     * of a decode's cost (200,000 functions are 32 MB). */
    if (b->mapped)
        populate_pages((char *)b->array + first * b->elem_size, count * b->elem_size);
}

void *lazy_get(mtlbx_library *lib, struct lazy_blocks *b, size_t i, lazy_decode_fn decode)
{
    size_t k = i / LAZY_BLOCK;
    if (k >= b->n_blocks)
        return NULL;
    if (!atomic_load_explicit(&b->state[k], memory_order_acquire)) {
        pthread_mutex_lock(&b->lock);
        if (!atomic_load_explicit(&b->state[k], memory_order_relaxed)) {
            size_t first = k * LAZY_BLOCK, n = b->array_bytes / b->elem_size;
            size_t count = n - first < LAZY_BLOCK ? n - first : LAZY_BLOCK;
            lazy_populate(b, first, count);
            /* decode writes every entry whole: what a drop left on pages
             * shared with a neighbour block is overwritten. */
            decode(lib, first, count);
            atomic_store_explicit(&b->state[k], 1, memory_order_release);
        }
        pthread_mutex_unlock(&b->lock);
    }
    return (char *)b->array + i * b->elem_size;
}

void lazy_drop_before(mtlbx_library *lib, struct lazy_blocks *b, size_t before, lazy_clear_fn clear)
{
    if (!b->droppable || !b->array)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    size_t n = b->array_bytes / b->elem_size;
    pthread_mutex_lock(&b->lock);
    for (size_t k = 0; k < b->n_blocks; k++) {
        size_t first = k * LAZY_BLOCK, count = n - first < LAZY_BLOCK ? n - first : LAZY_BLOCK;
        if (first + count > before)
            break;
        if (!atomic_load_explicit(&b->state[k], memory_order_relaxed))
            continue;
        if (clear)
            clear(lib, first, count);
        atomic_store_explicit(&b->state[k], 0, memory_order_relaxed);
        /* Whole pages only: the edges may hold a neighbour's entries. */
        uintptr_t lo = (uintptr_t)b->array + first * b->elem_size, hi = lo + count * b->elem_size;
        uintptr_t p0 = (lo + (uintptr_t)page - 1) / (uintptr_t)page * (uintptr_t)page;
        uintptr_t p1 = hi / (uintptr_t)page * (uintptr_t)page;
        if (p1 > p0 && b->mapped)
            (void)madvise((void *)p0, p1 - p0, MADV_DONTNEED);
    }
    pthread_mutex_unlock(&b->lock);
}
