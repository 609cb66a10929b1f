/* DEFINE_ABBREV bodies this thread has read, kept to be replayed
 * (bitstream.h). Outside BLOCKINFO, every module from one compiler
 * defines the same abbreviations for its MODULE, TYPE, CONSTANTS,
 * METADATA and symbol table blocks: about twenty a module, each read as
 * a dozen fields of one to eight bits and checked for its shape, which
 * was a sixth of decoding a module of L20k. A definition whose bits equal
 * a kept one's reads the same operands: the replay hands them back with
 * the number of bits to step over, and the reader charges its budget and
 * stores them as it does after reading them. Only definitions that read
 * without error and fit in one 64-bit load are kept, so the bits decide
 * everything: a hostile definition is read the slow way and fails there.
 * The table lives in fixed thread-local storage: nothing to free when a
 * thread ends. */
#include "config.h"
#include "bitstream.h"
#include "container/le_read.h"

#include <string.h>

#define SLOTS 64                /* a power of two */
#define PROBES 4
#define KEEP_OPS 8
#define KEEP_BITS 57            /* what any one 64-bit load holds past the byte's first bit */

struct kept_definition {
    uint8_t n_bits;             /* 0: empty */
    uint8_t n_ops;
    uint64_t bits;
    struct bc_abbrev_op ops[KEEP_OPS];
};

static _Thread_local struct {
    struct kept_definition slot[SLOTS];
    unsigned next_victim;
} kept;

/* The 57 bits at bit, or false when a load there could pass the data. */
static bool window_at(const struct bc_reader *r, uint64_t bit, uint64_t *window)
{
    if (bit >= r->load_limit)
        return false;
    *window = rd64(r->data + (bit >> 3)) >> (bit & 7);
    return true;
}

/* The first slot to look in: from the first bits, which every kept
 * definition has (the operand count and the first operand). */
static unsigned home(uint64_t window)
{
    return (unsigned)(((window & 0xffff) * UINT64_C(0x9E3779B97F4A7C15)) >> 58) & (SLOTS - 1);
}

bool abbrev_replay(const struct bc_reader *r, uint64_t end, const struct bc_abbrev_op **ops, uint32_t *n_ops,
                   unsigned *n_bits)
{
    uint64_t window;
    if (r->failed || r->bit > end || !window_at(r, r->bit, &window))
        return false;
    unsigned h = home(window);
    for (unsigned p = 0; p < PROBES; p++) {
        const struct kept_definition *d = &kept.slot[(h + p) & (SLOTS - 1)];
        if (!d->n_bits || d->n_bits > end - r->bit)
            continue;
        if ((window & ((UINT64_C(1) << d->n_bits) - 1)) == d->bits) {
            *ops = d->ops;
            *n_ops = d->n_ops;
            *n_bits = d->n_bits;
            return true;
        }
    }
    return false;
}

void abbrev_keep(const struct bc_reader *r, uint64_t start, const struct bc_abbrev *a)
{
    uint64_t window, n_bits = r->bit - start;
    if (r->failed || n_bits == 0 || n_bits > KEEP_BITS || a->n_ops > KEEP_OPS || !window_at(r, start, &window))
        return;
    unsigned h = home(window), victim = PROBES;
    for (unsigned p = 0; p < PROBES && victim == PROBES; p++)
        if (!kept.slot[(h + p) & (SLOTS - 1)].n_bits)
            victim = p;
    if (victim == PROBES)
        victim = kept.next_victim++ % PROBES;
    struct kept_definition *d = &kept.slot[(h + victim) & (SLOTS - 1)];
    d->n_bits = (uint8_t)n_bits;
    d->n_ops = (uint8_t)a->n_ops;
    d->bits = window & ((UINT64_C(1) << n_bits) - 1);
    memcpy(d->ops, a->ops, a->n_ops * sizeof *a->ops);
}
