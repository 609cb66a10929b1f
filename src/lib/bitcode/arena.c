/* The bump allocator (arena.h). */
#include "config.h"
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN 4096

struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

void *arena_alloc(struct arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + align - 1) & ~(align - 1);
    if (n == 0)
        n = align;
    struct arena_chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > CHUNK_MIN ? n : CHUNK_MIN;
        if (c && c->cap * 2 > cap && c->cap < ((size_t)1 << 20))
            cap = c->cap * 2; /* fewer, larger chunks for big results */
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

void *arena_array(struct arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / 2 / size)
        return NULL;
    return arena_alloc(a, n * size);
}

void *arena_dup(struct arena *a, const void *p, size_t n)
{
    void *q = arena_alloc(a, n);
    if (q && n)
        memcpy(q, p, n);
    return q;
}

void arena_free(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
}
