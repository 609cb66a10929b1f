/* Two releases paired by path (release_pairs.h). */
#include "config.h"

#include "release_pairs.h"
#include "archive_members.h"
#include "tree_walk.h"

#include <stdlib.h>
#include <string.h>

bool release_is_release(const char *path)
{
    return !member_path_split(path) && folder_or_archive(path);
}

/* Takes ownership of key and open. */
static void add(struct release_side *side, char *key, char *open)
{
    if (key && open && side->n == side->cap) {
        size_t cap = side->cap ? 2 * side->cap : 64;
        struct release_item *g = realloc(side->v, cap * sizeof *g);
        if (g)
            side->v = g, side->cap = cap;
    }
    if (!key || !open || side->n == side->cap) {
        free(key);
        free(open);
        side->problem(side->ctx, "(memory)", "out of memory");
        side->failed = true;
        return;
    }
    side->v[side->n] = (struct release_item){ key, open, side->n };
    side->n++;
}

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    (void)rd;
    struct release_side *side = ctx;
    const struct walk_entry *e = side->archive;
    add(side, e->rel[0] ? archive_join(e->rel, name) : strdup(name), archive_join(e->path, name));
    return 0;
}

static int on_entry(void *ctx, const struct walk_entry *e)
{
    struct release_side *side = ctx;
    switch (e->kind) {
    case WALK_PROBLEM:
        side->problem(side->ctx, e->path, e->problem);
        side->failed = true;
        break;
    case WALK_METALLIB:
        add(side, strdup(e->rel[0] ? e->rel : e->path), strdup(e->path));
        break;
    case WALK_ARCHIVE: {
        char err[300];
        side->archive = e;
        int rc = archive_list_metallibs(e->path, on_member, side, NULL, err, sizeof err);
        if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || !e->rel[0])) {
            side->problem(side->ctx, e->path, err);
            side->failed = true;
        }
        side->archive = NULL;
        break;
    }
    }
    return 0;
}

static int by_key(const void *p, const void *q)
{
    const struct release_item *x = p, *y = q;
    int c = strcmp(x->key, y->key);
    return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

void release_side_collect(const char *root, struct release_side *side)
{
    struct walk_progress progress = { 0 };
    tree_walk(root, on_entry, side, &progress, NULL);
    if (side->n > 1)
        qsort(side->v, side->n, sizeof *side->v, by_key);
}

void release_side_free(struct release_side *side)
{
    for (size_t i = 0; i < side->n; i++) {
        free(side->v[i].key);
        free(side->v[i].open);
    }
    free(side->v);
    side->v = NULL;
    side->n = side->cap = 0;
}

void release_pair(const struct release_side *a, const struct release_side *b, release_pair_fn fn, void *ctx)
{
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i].key, b->v[j].key);
        const char *key = c <= 0 ? a->v[i].key : b->v[j].key;
        fn(ctx, c <= 0 ? &a->v[i] : NULL, c >= 0 ? &b->v[j] : NULL);
        /* A path twice on one side: the first is compared, as diff pairs
         * the first of a function name. */
        if (c <= 0)
            while (++i < a->n && strcmp(a->v[i].key, key) == 0)
                ;
        if (c >= 0)
            while (++j < b->n && strcmp(b->v[j].key, key) == 0)
                ;
    }
}
