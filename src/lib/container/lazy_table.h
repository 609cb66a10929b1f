/* Arrays decoded a block at a time and dropped again (src/lib only;
 * container/lazy_table.c): the function table and the metadata. */
#ifndef MTLBX_CONTAINER_LAZY_TABLE_H
#define MTLBX_CONTAINER_LAZY_TABLE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "container/types.h"

/* lazy_table.c: an array of n entries decoded LAZY_BLOCK at a time. */
#define LAZY_BLOCK 4096
struct lazy_blocks {
    size_t n_blocks;
    _Atomic unsigned char *state; /* per block: 0 not decoded, 1 decoded */
    bool droppable;               /* blocks may be dropped and decoded again */
    void *array;                  /* the anonymous mapping, or heap memory when small */
    bool mapped;                  /* array is a mapping: a drop gives its pages back */
    size_t array_bytes;
    size_t elem_size;
    pthread_mutex_t lock;         /* serialises decoding */
};

typedef void (*lazy_decode_fn)(mtlbx_library *lib, size_t first, size_t count);
typedef void (*lazy_clear_fn)(mtlbx_library *lib, size_t first, size_t count);
/* n entries of elem_size; false when out of memory. */
bool lazy_init(struct lazy_blocks *b, size_t n, size_t elem_size);
void lazy_free(struct lazy_blocks *b);
/* Entry i, its block decoded first if need be (thread-safe); NULL past
 * the end. */
void *lazy_get(mtlbx_library *lib, struct lazy_blocks *b, size_t i, lazy_decode_fn decode);
/* Maps the pages of [p, p+n) for writing in one call, where touching
 * them would fault once a page (a buffer about to be filled). */
void populate_pages(void *p, size_t n);
/* Maps the pages of entries [first, first+count) in one call, before a
 * block is decoded into them (nothing for a heap array). */
void lazy_populate(struct lazy_blocks *b, size_t first, size_t count);
/* Drops the decoded blocks wholly before entry `before` (clear frees what
 * their entries own), unless the array is not droppable. */
void lazy_drop_before(mtlbx_library *lib, struct lazy_blocks *b, size_t before, lazy_clear_fn clear);

#endif
