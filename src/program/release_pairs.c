/* Two releases paired by path, their archive members read ahead
 * (release_pairs.h). */
#include "config.h"

#include "release_pairs.h"
#include "gate/archive_members.h"
#include "gate/tree_walk.h"

#include <stdlib.h>
#include <string.h>

bool release_is_release(const char *path)
{
    return !mbx_member_path_split(path) && mbx_folder_or_archive(path);
}

/* Takes ownership of key and open; member and size as in release_item. */
static void add(struct release_side *side, char *key, char *open, size_t member, uint64_t size)
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
    side->v[side->n] = (struct release_item){ key, open, side->n, member, size };
    side->n++;
}

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    struct release_side *side = ctx;
    const struct walk_entry *e = side->archive;
    /* What it really holds, not what the archive says: read ahead is
     * planned on it, and a directory that overstates every member would
     * make every batch one pair wide (one pass per pair again). A damaged
     * member holds nothing once its pair comes: reading it fails. */
    int64_t holds = mbx_member_measure(rd);
    add(side, e->rel[0] ? mbx_archive_join(e->rel, name) : strdup(name), mbx_archive_join(e->path, name),
        strlen(e->path) + 1, holds >= 0 ? (uint64_t)holds : 0);
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
        add(side, strdup(e->rel[0] ? e->rel : e->path), strdup(e->path), 0, 0);
        break;
    case WALK_ARCHIVE: {
        char err[300];
        side->archive = e;
        int rc = mbx_archive_list_metallibs(e->path, on_member, side, NULL, err, sizeof err);
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
    mbx_tree_walk(root, on_entry, side, &progress, NULL);
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

/* ---------------------------------------------------------- pairing -- */

/* The side without the pair's path. */
#define NONE ((size_t)-1)

/* Calls each(ctx, i, j) for every pair in key order, NONE on the side
 * without it. A path twice on one side: the first is compared, as diff
 * pairs the first of a function name. */
static void pair_keys(const struct release_side *a, const struct release_side *b,
                      void (*each)(void *ctx, size_t i, size_t j), void *ctx)
{
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i].key, b->v[j].key);
        const char *key = c <= 0 ? a->v[i].key : b->v[j].key;
        each(ctx, c <= 0 ? i : NONE, c >= 0 ? j : NONE);
        if (c <= 0)
            while (++i < a->n && strcmp(a->v[i].key, key) == 0)
                ;
        if (c >= 0)
            while (++j < b->n && strcmp(b->v[j].key, key) == 0)
                ;
    }
}

struct pair_ix {
    size_t i, j;
};

struct pair_list {
    struct pair_ix *v;
    size_t n;
};

static void list_pair(void *ctx, size_t i, size_t j)
{
    struct pair_list *l = ctx;
    l->v[l->n++] = (struct pair_ix){ i, j };
}

/* Out of memory for reading ahead: each pair as it comes, each open
 * walking its archive. */
struct direct {
    const struct release_side *a, *b;
    release_pair_fn fn;
    void *ctx;
};

static void call_direct(void *ctx, size_t i, size_t j)
{
    struct direct *d = ctx;
    d->fn(d->ctx, i != NONE ? &d->a->v[i] : NULL, j != NONE ? &d->b->v[j] : NULL);
}

/* ----------------------------------------------------- read ahead -- */

/* Where one item stands in reading ahead. Members are read in batches:
 * the pairs (in key order) from the first not yet compared whose members
 * fit mbx_member_limit() together, one pass over each archive they are in,
 * in the archive's own order. */
enum fetch_state {
    IDLE,                      /* not in the batch (or not a member): mbx_open_any reads it */
    WANTED,                    /* to read in this batch's pass over its archive */
    FETCHED,                   /* read: data, or the error reading it gave */
    DROPPED,                   /* no room left in this batch: the next batch's */
};

struct fetched {
    enum fetch_state state;
    size_t pair;               /* WANTED..: the pair it belongs to (index in key order) */
    uint64_t size;             /* the declared size, or the true one once read */
    void *data;
    size_t len;
    char *error;               /* malloc'd, when reading failed */
};

/* One batch: what both sides' passes share. */
struct batch {
    uint64_t held, budget;
    size_t first;              /* its first pair, read whatever the budget */
    size_t cut;                /* the first pair with a member dropped (n: none) */
};

/* One pass over one archive of one side. */
struct pass {
    const struct release_side *side;
    struct fetched *f;         /* per item of the side */
    const size_t *want;        /* the items of this archive wanted, by member name */
    size_t n_want, left;
    struct batch *batch;
};

static const char *member_name(const struct release_item *it) { return it->open + it->member; }

/* The item of p->want named `name`, or NONE. */
static size_t wanted(const struct pass *p, const char *name)
{
    size_t lo = 0, hi = p->n_want;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, member_name(&p->side->v[p->want[mid]]));
        if (c == 0)
            return p->want[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NONE;
}

static int on_ahead(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    struct pass *p = ctx;
    struct batch *b = p->batch;
    size_t it = wanted(p, name);
    struct fetched *f = it == NONE ? NULL : &p->f[it];
    /* A name twice in an archive: the first, as mbx_open_any takes it. */
    if (!f || f->state != WANTED)
        return 0;
    bool first = f->pair == b->first;
    if (!first && (f->pair > b->cut || b->held >= b->budget)) {
        /* Past a pair that cannot be compared in this batch, or no room
         * left: not read now. */
        f->state = DROPPED;
    } else {
        char err[256];
        f->data = mbx_member_read_all(rd, &f->len, err, sizeof err);
        if (f->data)
            f->size = f->len;
        if (!f->data) {
            f->error = strdup(err);
            f->state = f->error ? FETCHED : IDLE;
        } else if (!first && b->held + f->len > b->budget) {
            /* It declared less than it holds: its pair waits for a batch
             * planned with its true size. */
            free(f->data);
            f->data = NULL;
            f->state = DROPPED;
        } else {
            b->held += f->len;
            f->state = FETCHED;
        }
    }
    if (f->state == DROPPED && f->pair < b->cut)
        b->cut = f->pair;
    return --p->left == 0;     /* all seen: the rest of the archive is not read */
}

/* Orders a side's items by their archive (the part of `open` before the
 * member name), then by member name. */
static int by_archive_then_name(const void *p, const void *q, void *side_)
{
    const struct release_side *side = side_;
    const struct release_item *x = &side->v[*(const size_t *)p], *y = &side->v[*(const size_t *)q];
    size_t n = x->member < y->member ? x->member : y->member;
    int c = memcmp(x->open, y->open, n - 1);
    if (c == 0 && x->member != y->member)
        c = x->member < y->member ? -1 : 1;
    return c ? c : strcmp(member_name(x), member_name(y));
}

static bool same_archive(const struct release_item *x, const struct release_item *y)
{
    return x->member == y->member && memcmp(x->open, y->open, x->member - 1) == 0;
}

/* Reads one side's WANTED items (want, n of them, each a member): one
 * pass over each of their archives. */
static void read_side(const struct release_side *side, struct fetched *f, size_t *want, size_t n, struct batch *b)
{
    qsort_r(want, n, sizeof *want, by_archive_then_name, (void *)side);
    for (size_t g = 0, end; g < n; g = end) {
        for (end = g + 1; end < n && same_archive(&side->v[want[g]], &side->v[want[end]]); end++)
            ;
        const struct release_item *first = &side->v[want[g]];
        char *archive = strndup(first->open, first->member - 1);
        struct pass p = { side, f, want + g, end - g, end - g, b };
        char err[256];
        /* Its problems were reported when the side was walked; a member
         * the pass did not reach is left to mbx_open_any, which says why. */
        if (archive)
            mbx_archive_list_metallibs(archive, on_ahead, &p, NULL, err, sizeof err);
        free(archive);
        for (size_t k = g; k < end; k++)
            if (f[want[k]].state == WANTED)
                f[want[k]].state = IDLE;
    }
}

/* Back to IDLE, keeping what was learnt of its size. */
static void forget(struct fetched *f)
{
    free(f->data);
    free(f->error);
    *f = (struct fetched){ .size = f->size };
}

/* What reading a pair ahead takes: its members' sizes (a pair with one
 * side is not opened). */
static uint64_t pair_cost(const struct fetched *fa, const struct fetched *fb, struct pair_ix p)
{
    return p.i == NONE || p.j == NONE ? 0 : fa[p.i].size + fb[p.j].size;
}

/* Marks one side's item of pair k WANTED (when it is a member). */
static void want_item(const struct release_side *side, struct fetched *f, size_t it, size_t k, size_t *want,
                      size_t *n)
{
    if (side->v[it].member && f[it].state == IDLE) {
        f[it].state = WANTED;
        f[it].pair = k;
        want[(*n)++] = it;
    }
}

/* Offers a read member to mbx_open_any for the callback. */
static void offer(const struct release_item *it, struct fetched *f)
{
    if (f->state == FETCHED) {
        mbx_open_any_offer(it->open, f->data, f->len, f->error);
        f->data = NULL;
    }
}

void release_pair(const struct release_side *a, const struct release_side *b, release_pair_fn fn, void *ctx)
{
    struct pair_list pairs = { malloc((a->n + b->n + 1) * sizeof *pairs.v), 0 };
    struct fetched *fa = calloc(a->n + 1, sizeof *fa), *fb = calloc(b->n + 1, sizeof *fb);
    size_t *want = malloc((a->n + b->n + 1) * sizeof *want);
    if (!pairs.v || !fa || !fb || !want) {
        struct direct d = { a, b, fn, ctx };
        pair_keys(a, b, call_direct, &d);
        goto done;
    }
    pair_keys(a, b, list_pair, &pairs);
    for (size_t i = 0; i < a->n; i++)
        fa[i].size = a->v[i].member ? a->v[i].size : 0;
    for (size_t j = 0; j < b->n; j++)
        fb[j].size = b->v[j].member ? b->v[j].size : 0;
    uint64_t budget = mbx_member_limit();
    for (size_t first = 0; first < pairs.n;) {
        struct batch bt = { 0, budget, first, pairs.n };
        size_t end = first, na = 0, nb = 0;
        for (uint64_t cost = 0; end < pairs.n; end++) {
            struct pair_ix p = pairs.v[end];
            if (end > first && cost + pair_cost(fa, fb, p) > budget)
                break;
            cost += pair_cost(fa, fb, p);
            if (p.i != NONE && p.j != NONE) {
                want_item(a, fa, p.i, end, want, &na);
                want_item(b, fb, p.j, end, want + a->n, &nb);
            }
        }
        read_side(a, fa, want, na, &bt);
        read_side(b, fb, want + a->n, nb, &bt);
        /* The batch's pairs in order, up to the first whose member did not
         * fit after all: the next batch starts there. */
        size_t k = first;
        for (; k < end && k < bt.cut; k++) {
            struct pair_ix p = pairs.v[k];
            if (p.i != NONE && p.j != NONE) {
                offer(&a->v[p.i], &fa[p.i]);
                offer(&b->v[p.j], &fb[p.j]);
            }
            fn(ctx, p.i != NONE ? &a->v[p.i] : NULL, p.j != NONE ? &b->v[p.j] : NULL);
            mbx_open_any_withdraw();
        }
        for (size_t r = first; r < end; r++) {
            if (pairs.v[r].i != NONE)
                forget(&fa[pairs.v[r].i]);
            if (pairs.v[r].j != NONE)
                forget(&fb[pairs.v[r].j]);
        }
        first = k;
    }
done:
    free(want);
    free(fa);
    free(fb);
    free(pairs.v);
}
