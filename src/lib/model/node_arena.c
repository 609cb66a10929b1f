/* The arena the node tree lives in (node.c builds into it): blocks freed
 * all at once when the model closes (model.c), or given back from a mark onwards by
 * a walk that is done with a subtree (layout.c). */
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
    struct arena_block *spare; /* one block given back by node_forget_children, kept for reuse */
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
    free(a->spare);
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
        struct arena_block *nb = !own && a->spare ? a->spare : malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        if (nb == a->spare)
            a->spare = NULL;
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

/* ------------------------------------------------ transient subtrees -- */

/* The layout pass (layout.c) visits every node once. Subtrees it builds
 * are given back as soon as it has walked them, so memory stays flat on a
 * library with 200,000 functions. Only subtrees that were not built before
 * the walk are forgotten: nodes a view already holds stay. */
struct node_mark node_mark(mtlbx_model *model)
{
    struct node_arena *a = model->arena;
    struct node_mark m = { 0 };
    if (a && a->blocks) {
        m.head = a->blocks;
        m.used = a->blocks->used;
        m.next = a->blocks->next;
    }
    return m;
}

void node_forget_children(mtlbx_model *model, mtlbx_node *n, struct node_mark m)
{
    struct node_arena *a = model->arena;
    if (!a || !m.head)
        return; /* nothing to give back safely without a mark */
    n->built = false;
    n->sorted = false;
    n->n_children = 0;
    n->children = NULL;
    /* Blocks added in front since the mark, then big blocks slipped in
     * right behind the marked one. */
    /* A walk forgets a subtree per function: keeping one standard block
     * spares the allocator a heap shrink and regrow each time. */
    while (a->blocks && a->blocks != m.head) {
        struct arena_block *next = a->blocks->next;
        if (!a->spare && a->blocks->cap == ARENA_BLOCK)
            a->spare = a->blocks;
        else
            free(a->blocks);
        a->blocks = next;
    }
    if (!a->blocks)
        return;
    while (a->blocks->next && a->blocks->next != m.next) {
        struct arena_block *own = a->blocks->next;
        a->blocks->next = own->next;
        free(own);
    }
    a->blocks->used = m.used;
}
