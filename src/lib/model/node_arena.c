/* The arena the node tree lives in (node.c builds into it): blocks freed
 * all at once when the model closes (model.c). */
#include "config.h"
#include "node.h"
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK ((size_t)64 << 10)

/* ------------------------------------------------------------ arena -- */

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

struct node_arena {
    struct arena_block *blocks;
    mtlbx_node *root;          /* built on first mbx_root() */
};

struct node_arena *node_arena_new(void)
{
    return calloc(1, sizeof(struct node_arena));
}

void node_arena_free(struct node_arena *a)
{
    if (!a)
        return;
    for (struct arena_block *b = a->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

mtlbx_node **node_arena_root(struct node_arena *a)
{
    return &a->root;
}

void *node_arena_alloc(struct node_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0 || size > SIZE_MAX / 2)
        return NULL;
    struct arena_block *b = a->blocks;
    if (!b || b->cap - b->used < size) {
        /* A big request gets its own block behind the current one, so the
         * space left in the current block is not wasted. */
        bool own = size > ARENA_BLOCK / 4;
        size_t cap = own ? size : ARENA_BLOCK;
        struct arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->used = 0;
        nb->cap = cap;
        if (own && b) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->blocks = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}
