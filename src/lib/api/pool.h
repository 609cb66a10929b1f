/* The strings a handle hands out (api layer): every one is kept until
 * mtlbx_free(), so no pointer the public API returns is ever invalidated
 * by a later call (LIBRARY.md). Short values that repeat (versions, type
 * names, error lines) are interned, so asking again costs no memory. */
#ifndef MTLBX_API_POOL_H
#define MTLBX_API_POOL_H

#include <stdbool.h>
#include <stddef.h>

struct pool_chunk;
struct pool_big;

struct api_pool {
    struct pool_chunk *chunks;  /* bump-allocated small strings */
    struct pool_big *big;       /* one allocation each: documents, sources */
    /* The interned strings: an open-addressing set of pool strings. */
    const char **set;
    size_t set_cap, set_n;
};

/* A copy of the len bytes at s, NUL-terminated; NULL when out of memory. */
const char *pool_dup(struct api_pool *p, const char *s, size_t len);
/* The pool's one copy of the string s (a new one the first time). */
const char *pool_intern(struct api_pool *p, const char *s);
/* printf into the pool, interned. */
const char *pool_internf(struct api_pool *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Takes over a malloc'd block (freed with the pool). False (and the block
 * freed) when out of memory. */
bool pool_adopt(struct api_pool *p, void *block);
void pool_free(struct api_pool *p);

#endif
