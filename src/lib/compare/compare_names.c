/* Functions by (name, occurrence), for pairing the functions of two
 * libraries (compare_names.h).
 *
 * Two open-addressing tables. The names table holds one slot per distinct
 * name: its first function and how many functions have it. Each slot
 * keeps 32 bits of its name's hash too, so that a probe reads another
 * function's entry only when those agree: the look-ups then read the
 * entries in about the order they are asked for, and the table of a
 * million names is 24 MB (issue 22). The second table holds only the
 * later occurrences, keyed by name and k: a library of distinct names (the
 * usual one) never builds it, and one of 300,000 nameless functions
 * (issue 35) finds each in one probe. */
#include "config.h"
#include "container/span.h"
#include "compare/compare_names.h"
#include "container/functions.h"

#include <stdlib.h>
#include <string.h>

struct name_count {
    uint32_t function;         /* first function of the name + 1; 0 = empty */
    uint32_t check;            /* the name hash's high bits */
    uint32_t count;            /* functions of that name (so far, counting) */
};

struct name_dup {
    uint64_t hash;             /* of (name, k) */
    uint32_t function;         /* + 1; 0 = empty */
    uint32_t k;
};

static uint64_t name_hash(struct mtlbx_bytes b)
{
    uint64_t h = 1469598103934665603ull;       /* FNV-1a */
    for (size_t i = 0; i < b.len; i++)
        h = (h ^ b.ptr[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* (name, k): the name's hash mixed with k (splitmix64's finaliser), so
 * that the occurrences of one name spread over the table. */
static uint64_t dup_hash(uint64_t h, uint32_t k)
{
    uint64_t x = h + (uint64_t)k * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void compare_forget_behind(const mtlbx_library *lib, size_t before)
{
    if (!lib)
        return; /* a library in one file only */
    mbx_library_forget(lib, before);
    mbx_library_release_pages(lib);
}

static size_t table_cap(size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    return cap;
}

bool name_counter_init(struct name_counter *c, const mtlbx_library *lib)
{
    size_t n = lib ? mbx_library_function_count(lib) : 0, cap = table_cap(n);
    c->lib = lib;
    c->mask = cap - 1;
    c->slot = n <= UINT32_MAX - 1 ? calloc(cap, sizeof *c->slot) : NULL;
    return c->slot != NULL;
}

void name_counter_free(struct name_counter *c)
{
    free(c->slot);
    c->slot = NULL;
}

/* The names-table slot of `name` (hash h), or the empty one it would take. */
static struct name_count *slot_of(const mtlbx_library *lib, struct name_count *t, size_t mask,
                                  struct mtlbx_bytes name, uint64_t h)
{
    size_t s = (size_t)h & mask;
    for (; t[s].function; s = (s + 1) & mask)
        if (t[s].check == (uint32_t)(h >> 32) && span_eq(mbx_function_at(lib, t[s].function - 1)->name, name))
            break;
    return &t[s];
}

uint32_t name_counter_next(struct name_counter *c, size_t i)
{
    struct mtlbx_bytes name = mbx_function_at(c->lib, i)->name;
    uint64_t h = name_hash(name);
    struct name_count *s = slot_of(c->lib, c->slot, c->mask, name, h);
    if (!s->function)
        *s = (struct name_count){ (uint32_t)(i + 1), (uint32_t)(h >> 32), 0 };
    return ++s->count;
}

struct later {                 /* an occurrence k >= 2, before the table is made */
    uint64_t hash;
    uint32_t function, k;
};

bool name_index_build(struct name_index *ix, const mtlbx_library *lib)
{
    memset(ix, 0, sizeof *ix);
    ix->lib = lib;
    struct name_counter c;
    if (!name_counter_init(&c, lib))
        return false;
    size_t n = lib ? mbx_library_function_count(lib) : 0, n_later = 0, cap_later = 0;
    struct later *later = NULL;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        uint32_t k = name_counter_next(&c, i);
        if (k >= 2) {
            if (n_later == cap_later) {
                size_t nc = cap_later ? cap_later * 2 : 64;
                struct later *nl = realloc(later, nc * sizeof *nl);
                if (!nl) {
                    ok = false;
                    break;
                }
                later = nl, cap_later = nc;
            }
            later[n_later++] = (struct later){ dup_hash(name_hash(mbx_function_at(lib, i)->name), k),
                                               (uint32_t)i, k };
        }
        /* Each entry is read once here, in order. */
        if (i % 4096 == 4095)
            compare_forget_behind(lib, i + 1);
    }
    compare_forget_behind(lib, n);
    ix->names = c.slot;
    ix->mask = c.mask;
    if (ok && n_later) {
        size_t cap = table_cap(n_later);
        ix->dups = calloc(cap, sizeof *ix->dups);
        ix->dup_mask = cap - 1;
        ok = ix->dups != NULL;
        for (size_t j = 0; ok && j < n_later; j++) {
            size_t s = (size_t)later[j].hash & ix->dup_mask;
            while (ix->dups[s].function)
                s = (s + 1) & ix->dup_mask;
            ix->dups[s] = (struct name_dup){ later[j].hash, later[j].function + 1, later[j].k };
        }
        ix->n_dups = n_later;
    }
    free(later);
    if (!ok)
        name_index_free(ix);
    return ok;
}

void name_index_free(struct name_index *ix)
{
    free(ix->names);
    free(ix->dups);
    ix->names = NULL;
    ix->dups = NULL;
}

long name_index_find(const struct name_index *ix, struct mtlbx_bytes name, uint32_t k)
{
    if (!ix->lib || !ix->names || k == 0)
        return -1;
    uint64_t h = name_hash(name);
    struct name_count *first = slot_of(ix->lib, ix->names, ix->mask, name, h);
    if (!first->function || k > first->count)
        return -1;
    if (k == 1)
        return (long)first->function - 1;
    uint64_t dh = dup_hash(h, k);
    for (size_t s = (size_t)dh & ix->dup_mask; ix->dups && ix->dups[s].function; s = (s + 1) & ix->dup_mask)
        if (ix->dups[s].hash == dh && ix->dups[s].k == k &&
            span_eq(mbx_function_at(ix->lib, ix->dups[s].function - 1)->name, name))
            return (long)ix->dups[s].function - 1;
    return -1;
}
