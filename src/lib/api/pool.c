/* See pool.h. */
#include "config.h"

#include "api/pool.h"
#include "container/textf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#define CHUNK_BYTES ((size_t)64 << 10)

struct pool_chunk {
    struct pool_chunk *next;
    size_t used, size;
    char data[];
};

struct pool_big {
    struct pool_big *next;
    void *block;
};

static char *pool_alloc(struct api_pool *p, size_t n)
{
    struct pool_chunk *c = p->chunks;
    if (!c || c->size - c->used < n) {
        /* A string larger than a quarter chunk gets a chunk of its own,
         * behind the current one, so the current one keeps filling. */
        size_t size = n > CHUNK_BYTES / 4 ? n : CHUNK_BYTES;
        struct pool_chunk *fresh = malloc(sizeof *fresh + size);
        if (!fresh)
            return NULL;
        fresh->used = 0;
        fresh->size = size;
        if (c && size != CHUNK_BYTES) {
            fresh->next = c->next;
            c->next = fresh;
        } else {
            fresh->next = c;
            p->chunks = fresh;
        }
        c = fresh;
    }
    char *s = c->data + c->used;
    c->used += n;
    return s;
}

const char *pool_dup(struct api_pool *p, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *d = pool_alloc(p, len + 1);
    if (!d)
        return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

/* FNV-1a */
static size_t hash_text(const char *s)
{
    uint64_t h = 14695981039346656037ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (size_t)h;
}

static bool set_grow(struct api_pool *p)
{
    size_t cap = p->set_cap ? p->set_cap * 2 : 64;
    const char **set = calloc(cap, sizeof *set);
    if (!set)
        return false;
    for (size_t i = 0; i < p->set_cap; i++) {
        if (!p->set[i])
            continue;
        size_t k = hash_text(p->set[i]) & (cap - 1);
        while (set[k])
            k = (k + 1) & (cap - 1);
        set[k] = p->set[i];
    }
    free(p->set);
    p->set = set;
    p->set_cap = cap;
    return true;
}

const char *pool_intern(struct api_pool *p, const char *s)
{
    if (!s)
        return NULL;
    if (2 * (p->set_n + 1) > p->set_cap && !set_grow(p))
        return NULL;
    size_t k = hash_text(s) & (p->set_cap - 1);
    for (; p->set[k]; k = (k + 1) & (p->set_cap - 1))
        if (strcmp(p->set[k], s) == 0)
            return p->set[k];
    const char *copy = pool_dup(p, s, strlen(s));
    if (!copy)
        return NULL;
    p->set[k] = copy;
    p->set_n++;
    return copy;
}

const char *pool_internf(struct api_pool *p, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    char *text = mbx_vformat(small, sizeof small, fmt, ap);
    va_end(ap);
    if (!text)
        return NULL;
    const char *s = pool_intern(p, text);
    if (text != small)
        free(text);
    return s;
}

bool pool_adopt(struct api_pool *p, void *block)
{
    struct pool_big *b = malloc(sizeof *b);
    if (!b) {
        free(block);
        return false;
    }
    b->block = block;
    b->next = p->big;
    p->big = b;
    return true;
}

void pool_free(struct api_pool *p)
{
    for (struct pool_chunk *c = p->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    for (struct pool_big *b = p->big, *next; b; b = next) {
        next = b->next;
        free(b->block);
        free(b);
    }
    free(p->set);
    *p = (struct api_pool){ 0 };
}
