/* A bump allocator: everything one decoded interface owns, freed at once. */
#ifndef MTLBX_ARENA_H
#define MTLBX_ARENA_H

#include <stddef.h>

struct arena_chunk;
struct arena {
    struct arena_chunk *head;
};

/* Zeroed, aligned for any type; NULL on overflow or out of memory. */
void *arena_alloc(struct arena *a, size_t n);
/* n elements of `size` bytes, overflow-checked. */
void *arena_array(struct arena *a, size_t n, size_t size);
void *arena_dup(struct arena *a, const void *p, size_t n);
void arena_free(struct arena *a);

#endif
