/* The last BLOCKINFO block read on this thread, kept to be replayed
 * (bitstream.h). Modules from one compiler carry byte-identical BLOCKINFO
 * blocks, and reading one (a few dozen DEFINE_ABBREVs, bit by bit) was a
 * sixth of decoding a small module: 11,700 of 66,000 instructions a
 * module on L20k. A block whose words equal the kept one's, read from the
 * same state (no BLOCKINFO before it in the stream, budgets that cover
 * it), leaves the reader exactly as reading it did: the same abbreviations
 * for the same block ids in the same order, the block listed with its
 * record count, the budgets charged alike. Anything else is read as
 * before. The copy lives in fixed thread-local storage: nothing to free
 * when a thread ends, and a block bigger than it is simply not kept. */
#include "config.h"
#include "bitstream.h"
#include "container/grow.h"

#include <stdlib.h>
#include <string.h>

#define KEEP_BYTES 2048
#define KEEP_ENTRIES 16
#define KEEP_ABBREVS 128
#define KEEP_OPS 1024

struct kept_abbrev {
    uint16_t entry;            /* index into entries */
    uint16_t first_op, n_ops;
};

struct kept_blockinfo {
    bool valid;
    unsigned width;            /* the block's abbreviation width */
    size_t n_bytes;
    uint8_t bytes[KEEP_BYTES]; /* from the first word after the length word to the end */
    uint32_t n_records;
    uint64_t exit_bits;        /* where reading stopped (after END_BLOCK), from the first word:
                                  not always the end the length word names */
    uint64_t abbrev_ops_used, work_used;
    size_t n_entries, n_abbrevs, n_ops;
    uint32_t entries[KEEP_ENTRIES];         /* block ids, in the reader's order */
    struct kept_abbrev abbrevs[KEEP_ABBREVS]; /* each entry's, in order */
    struct bc_abbrev_op ops[KEEP_OPS];
};

static _Thread_local struct kept_blockinfo kept;

/* The body of the BLOCKINFO block just entered: [r->bit, end) */
static bool same_block(const struct bc_reader *r, const struct bc_scope *s)
{
    uint64_t bits = s->end_bit - r->bit;
    return kept.valid && kept.width == s->abbrev_width && bits % 8 == 0 && r->bit % 8 == 0 &&
           bits / 8 == kept.n_bytes && memcmp(r->data + r->bit / 8, kept.bytes, kept.n_bytes) == 0;
}

bool blockinfo_replay(struct bc_reader *r)
{
    const struct bc_scope *s = &r->scopes[r->depth];
    if (r->failed || r->n_blockinfo != 0 || s->block_id != 0 || !same_block(r, s) ||
        kept.abbrev_ops_used > r->abbrev_ops_budget || kept.work_used > r->work_budget)
        return false;
    size_t cap = 0;
    struct bc_blockinfo_entry *entries = NULL;
    if (kept.n_entries && !grow_array((void **)&entries, &cap, kept.n_entries, sizeof *entries))
        return false;
    for (size_t e = 0; e < kept.n_entries; e++)
        entries[e] = (struct bc_blockinfo_entry){ .block_id = kept.entries[e] };
    for (size_t k = 0; k < kept.n_abbrevs; k++) {
        const struct kept_abbrev *ka = &kept.abbrevs[k];
        struct bc_abbrev_set *set = &entries[ka->entry].abbrevs;
        struct bc_abbrev *a = arena_alloc(&r->abbrev_mem, sizeof *a + (size_t)ka->n_ops * sizeof *a->ops);
        if (!a || !grow_array((void **)&set->items, &set->cap, set->n + 1, sizeof *set->items)) {
            for (size_t e = 0; e < kept.n_entries; e++)
                free(entries[e].abbrevs.items);
            free(entries);
            return false; /* read it instead: the same out of memory, reported there */
        }
        a->n_ops = ka->n_ops;
        memcpy(a->ops, &kept.ops[ka->first_op], (size_t)ka->n_ops * sizeof *a->ops);
        set->items[set->n++] = a;
    }
    r->blockinfo = entries;
    r->n_blockinfo = kept.n_entries;
    r->abbrev_ops_budget -= kept.abbrev_ops_used;
    r->work_budget -= kept.work_used;
    r->blocks[s->block_index].n_records = kept.n_records;
    r->bit += kept.exit_bits; /* the caller closes the block */
    return true;
}

void blockinfo_keep(const struct bc_reader *r, bool fresh, uint64_t body_bit, unsigned width, uint64_t end_bit,
                    uint32_t block_index, uint64_t abbrev_ops_used, uint64_t work_used)
{
    uint64_t bits = end_bit - body_bit;
    /* Only a block read from the start state replay asks for, with no
     * block inside it (a nested block would be listed too). */
    if (!fresh)
        return; /* what is kept stays: this block was read from another state */
    kept.valid = false;
    if (r->failed || body_bit % 8 || bits % 8 || bits / 8 > KEEP_BYTES || r->n_blockinfo > KEEP_ENTRIES ||
        r->n_blocks != (size_t)block_index + 1)
        return;
    size_t n_abbrevs = 0, n_ops = 0;
    for (size_t e = 0; e < r->n_blockinfo; e++) {
        const struct bc_abbrev_set *set = &r->blockinfo[e].abbrevs;
        for (size_t k = 0; k < set->n; k++) {
            if (n_abbrevs >= KEEP_ABBREVS || set->items[k]->n_ops > KEEP_OPS - n_ops)
                return;
            kept.abbrevs[n_abbrevs++] = (struct kept_abbrev){ (uint16_t)e, (uint16_t)n_ops,
                                                              (uint16_t)set->items[k]->n_ops };
            memcpy(&kept.ops[n_ops], set->items[k]->ops, set->items[k]->n_ops * sizeof *kept.ops);
            n_ops += set->items[k]->n_ops;
        }
        kept.entries[e] = r->blockinfo[e].block_id;
    }
    kept.n_entries = r->n_blockinfo;
    kept.n_abbrevs = n_abbrevs;
    kept.n_ops = n_ops;
    kept.width = width;
    kept.n_bytes = (size_t)(bits / 8);
    memcpy(kept.bytes, r->data + body_bit / 8, kept.n_bytes);
    kept.n_records = r->blocks[block_index].n_records;
    kept.exit_bits = r->bit - body_bit;
    kept.abbrev_ops_used = abbrev_ops_used;
    kept.work_used = work_used;
    kept.valid = true;
}
