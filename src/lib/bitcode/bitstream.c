/* The bitstream reader (bitstream.h): bits, abbreviations, blocks. */
#include "config.h"
#include "bitstream.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "bitcode/interface.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKINFO_IDS 256
/* Abbreviation operands over the whole stream: a DEFINE_ABBREV of 4,096
 * operands costs ~3 KB of input and 64 KB of memory, so cap the sum. */
#define ABBREV_OPS_BUDGET (1u << 20)

void bc_fail(struct bc_reader *r, uint64_t bit, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    r->error_byte = bit / 8;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------- bits -- */

/* n <= 64 bits at `bit`, which the caller has checked lie inside data. */
static uint64_t peek_bits(const uint8_t *data, size_t size, uint64_t bit, unsigned n)
{
    size_t byte = (size_t)(bit >> 3);
    unsigned shift = (unsigned)(bit & 7);
    if (n == 0)
        return 0;
    if (n + shift <= 64 && byte + 8 <= size) {
        uint64_t v = rd64(data + byte) >> shift;
        return n == 64 ? v : v & ((UINT64_C(1) << n) - 1);
    }
    uint64_t v = 0;
    unsigned got = 0;
    while (got < n) {
        unsigned take = 8 - shift;
        if (take > n - got)
            take = n - got;
        v |= (uint64_t)((data[byte] >> shift) & ((1u << take) - 1)) << got;
        got += take;
        byte++;
        shift = 0;
    }
    return v;
}

/* The careful reads: every bound checked, the errors reported. Out of
 * line, as most reads take the inline fast paths below. */
static __attribute__((noinline)) bool read_fixed_careful(struct bc_reader *r, unsigned n, uint64_t end,
                                                         uint64_t *out)
{
    if (r->failed)
        return false;
    if (n > end - r->bit || r->bit > end) {
        bc_fail(r, r->bit, "bitstream truncated: %u more bits needed past the end of the block", n);
        return false;
    }
    *out = peek_bits(r->data, r->size, r->bit, n);
    r->bit += n;
    return true;
}

/* Inline: a module reads a few hundred abbreviation ids and operand
 * fields, and the call with its checks was a sixth of `sig`'s time. The
 * fast path takes the bits from one 64-bit load when they lie inside both
 * the block and the data. */
static inline bool read_fixed(struct bc_reader *r, unsigned n, uint64_t end, uint64_t *out)
{
    if (__builtin_expect(!r->failed && r->bit < r->load_limit && r->bit <= end && n <= end - r->bit && n <= 56, 1)) {
        *out = (rd64(r->data + (r->bit >> 3)) >> (r->bit & 7)) & ((UINT64_C(1) << n) - 1);
        r->bit += n;
        return true;
    }
    return read_fixed_careful(r, n, end, out);
}

static __attribute__((noinline)) bool read_vbr_careful(struct bc_reader *r, unsigned width, uint64_t end,
                                                       uint64_t *out)
{
    uint64_t v = 0, chunk;
    const uint64_t more = UINT64_C(1) << (width - 1);
    uint64_t start = r->bit;
    for (unsigned shift = 0;; shift += width - 1) {
        if (!read_fixed(r, width, end, &chunk))
            return false;
        uint64_t piece = chunk & (more - 1);
        if (shift >= 64 || (shift > 0 && (piece >> (64 - shift)) != 0)) {
            bc_fail(r, start, "VBR%u value runs past 64 bits", width);
            return false;
        }
        v |= piece << shift;
        if (!(chunk & more))
            break;
    }
    *out = v;
    return true;
}

static inline bool read_vbr(struct bc_reader *r, unsigned width, uint64_t end, uint64_t *out)
{
    /* Fast path: a chain that ends inside one 64-bit load (at least 57
     * bits, so no value can pass 64 bits) and inside the block. Otherwise
     * the careful loop starts over and reports what is wrong. */
    if (__builtin_expect(!r->failed && r->bit < r->load_limit && r->bit <= end, 1)) {
        const unsigned avail = 64 - (unsigned)(r->bit & 7);
        const uint64_t window = rd64(r->data + (r->bit >> 3)) >> (r->bit & 7);
        const uint64_t mask = (UINT64_C(1) << width) - 1, more = UINT64_C(1) << (width - 1);
        uint64_t v = 0;
        for (unsigned used = 0, shift = 0; used + width <= avail; shift += width - 1) {
            uint64_t chunk = (window >> used) & mask;
            used += width;
            v |= (chunk & (more - 1)) << shift;
            if (!(chunk & more)) {
                if (used > end - r->bit)
                    break; /* the chain passes the block's end */
                r->bit += used;
                *out = v;
                return true;
            }
        }
    }
    return read_vbr_careful(r, width, end, out);
}

/* Without -mpopcnt, __builtin_popcountll is a call into libgcc: this is
 * the same count in a few inline instructions. */
static inline unsigned popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Steps over `count` VBR values of `width` bits without decoding them.
 * The fast path counts the chunks that end a value in a 64-bit window;
 * a value longer than could fit in 64 bits, or the last bits of the block,
 * go through read_vbr so that the same errors are reported. Inlined with
 * a constant width (skip_vbr below), the mask is a constant and the chunk
 * index of an end bit a multiplication. */
static inline __attribute__((always_inline)) bool skip_vbr_of_width(struct bc_reader *r, const unsigned width,
                                                                   uint64_t count, uint64_t end)
{
    const unsigned per_window = 57 / width;            /* whole chunks in any load */
    const unsigned safe_chunks = 64 / (width - 1);     /* a chain this long always fits */
    uint64_t ends_mask = 0;                            /* the last bit of each chunk */
    for (unsigned i = 0; i < per_window; i++)
        ends_mask |= UINT64_C(1) << (i * width + width - 1);
    uint64_t value_start = r->bit, pos = r->bit;       /* count values start at value_start */
    unsigned run = 0;                                  /* chunks of that value before pos */
    while (count > 0 && pos < r->load_limit && pos <= end && end - pos >= 64) {
        uint64_t ends = ~(rd64(r->data + (pos >> 3)) >> (pos & 7)) & ends_mask;
        if (!ends) {
            if ((run += per_window) > safe_chunks)
                break;
            pos += per_window * width;
            continue;
        }
        /* bit i * width + width - 1 ends chunk i */
        if (run + (unsigned)__builtin_ctzll(ends) / width + 1 > safe_chunks)
            break;
        unsigned k = popcount64(ends);
        if (k >= count) {
            /* The count-th end in this window finishes the last value. */
            while (--count > 0)
                ends &= ends - 1;
            value_start = pos + ((unsigned)__builtin_ctzll(ends) / width + 1u) * width;
            break;
        }
        count -= k;
        unsigned last = (unsigned)(63 - __builtin_clzll(ends)) / width;
        value_start = pos + (last + 1) * width;
        run = per_window - last - 1;
        pos += per_window * width;
    }
    r->bit = value_start;
    uint64_t v;
    for (; count > 0; count--)
        if (!read_vbr(r, width, end, &v))
            return false;
    return true;
}

/* VBR6 (unabbreviated operands, most arrays) gets its own copy. */
static bool skip_vbr(struct bc_reader *r, unsigned width, uint64_t count, uint64_t end)
{
    return width == 6 ? skip_vbr_of_width(r, 6, count, end) : skip_vbr_of_width(r, width, count, end);
}

static bool align32(struct bc_reader *r, uint64_t end)
{
    uint64_t aligned = (r->bit + 31) & ~(uint64_t)31;
    if (aligned > end) {
        bc_fail(r, r->bit, "bitstream truncated at a 32-bit alignment");
        return false;
    }
    r->bit = aligned;
    return true;
}

static const char CHAR6[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/* One scalar operand (not array, not blob). */
static bool read_scalar(struct bc_reader *r, const struct bc_abbrev_op *op, uint64_t end, uint64_t *out)
{
    switch (op->enc) {
    case BC_LITERAL:
        *out = op->value;
        return true;
    case BC_FIXED:
        return read_fixed(r, (unsigned)op->value, end, out);
    case BC_VBR:
        return read_vbr(r, (unsigned)op->value, end, out);
    case BC_CHAR6: {
        uint64_t c;
        if (!read_fixed(r, 6, end, &c))
            return false;
        *out = (uint8_t)CHAR6[c];
        return true;
    }
    default:
        bc_fail(r, r->bit, "bad abbreviation operand encoding %u", op->enc);
        return false;
    }
}

/* ------------------------------------------------------- reader state -- */

bool bc_reader_init(struct bc_reader *r, const uint8_t *data, size_t size)
{
    memset(r, 0, sizeof *r);
    r->data = data;
    r->size = size;
    r->abbrev_ops_budget = ABBREV_OPS_BUDGET;
    /* A valid stream decodes fewer operands than it has bits, bar the
     * literals of abbreviations; twice that plus a margin is plenty. */
    r->work_budget = (uint64_t)size * 16 + (1u << 20);
    r->scopes_cap = 8;
    r->scopes = calloc(r->scopes_cap, sizeof *r->scopes);
    if (!r->scopes) {
        bc_fail(r, 0, "out of memory");
        return false;
    }
    r->scopes[0] = (struct bc_scope){ .block_id = UINT32_MAX, .block_index = UINT32_MAX, .abbrev_width = 2,
                                      .end_bit = (uint64_t)size * 8 };
    if (size < 4 || memcmp(data, "BC\xC0\xDE", 4) != 0) {
        bc_fail(r, 0, "no LLVM bitcode magic (BC C0 DE)");
        return false;
    }
    r->bit = 32;
    r->load_limit = size >= 8 ? (uint64_t)(size - 7) * 8 : 0;
    return true;
}

void bc_abbrev_set_free(struct bc_abbrev_set *s)
{
    free(s->items);
    *s = (struct bc_abbrev_set){ 0 };
}

bool bc_abbrev_set_copy(struct bc_abbrev_set *dst, const struct bc_abbrev_set *src)
{
    *dst = (struct bc_abbrev_set){ 0 };
    if (!src->n)
        return true;
    /* Room for the block's own abbreviations too: most blocks define a
     * few after BLOCKINFO's, and a realloc each was 1.5% of `sig`. */
    const size_t spare = 8;
    if (!(dst->items = malloc((src->n + spare) * sizeof *dst->items)))
        return false;
    memcpy(dst->items, src->items, src->n * sizeof *dst->items);
    dst->n = src->n;
    dst->cap = src->n + spare;
    return true;
}

void bc_reader_free(struct bc_reader *r)
{
    for (size_t i = 0; i <= r->depth && r->scopes; i++)
        bc_abbrev_set_free(&r->scopes[i].abbrevs);
    free(r->scopes);
    bc_abbrev_set_free(&r->closed);
    for (size_t i = 0; i < r->n_blockinfo; i++)
        bc_abbrev_set_free(&r->blockinfo[i].abbrevs);
    free(r->blockinfo);
    arena_free(&r->abbrev_mem);
    free(r->ops);
    free(r->blocks);
    memset(r, 0, sizeof *r);
}

static bool set_add(struct bc_reader *r, struct bc_abbrev_set *s, const struct bc_abbrev *a)
{
    if (!grow_array((void **)&s->items, &s->cap, s->n + 1, sizeof *s->items)) {
        bc_fail(r, r->bit, "out of memory");
        return false;
    }
    s->items[s->n++] = a;
    return true;
}

static struct bc_blockinfo_entry *blockinfo_for(struct bc_reader *r, uint32_t block_id, bool create)
{
    for (size_t i = 0; i < r->n_blockinfo; i++)
        if (r->blockinfo[i].block_id == block_id)
            return &r->blockinfo[i];
    if (!create)
        return NULL;
    if (r->n_blockinfo >= MAX_BLOCKINFO_IDS) {
        bc_fail(r, r->bit, "BLOCKINFO names more than %d block ids", MAX_BLOCKINFO_IDS);
        return NULL;
    }
    size_t cap = r->n_blockinfo;
    if (!grow_array((void **)&r->blockinfo, &cap, r->n_blockinfo + 1, sizeof *r->blockinfo)) {
        bc_fail(r, r->bit, "out of memory");
        return NULL;
    }
    struct bc_blockinfo_entry *e = &r->blockinfo[r->n_blockinfo++];
    *e = (struct bc_blockinfo_entry){ .block_id = block_id };
    return e;
}

/* ------------------------------------------------------ abbreviations -- */

static bool define_abbrev(struct bc_reader *r, struct bc_abbrev_set *target)
{
    const uint64_t end = r->scopes[r->depth].end_bit, start = r->bit;
    const struct bc_abbrev_op *kept_ops;
    uint32_t kept_n;
    unsigned kept_bits;
    if (abbrev_replay(r, end, &kept_ops, &kept_n, &kept_bits) && kept_n <= r->abbrev_ops_budget) {
        struct bc_abbrev *a = arena_alloc(&r->abbrev_mem, sizeof *a + (size_t)kept_n * sizeof *a->ops);
        if (a) {
            r->abbrev_ops_budget -= kept_n;
            a->n_ops = kept_n;
            memcpy(a->ops, kept_ops, (size_t)kept_n * sizeof *a->ops);
            r->bit += kept_bits;
            return set_add(r, target, a);
        } /* else read it: the same out of memory, reported there */
    }
    uint64_t n;
    if (!read_vbr(r, 5, end, &n))
        return false;
    if (n == 0) {
        bc_fail(r, start, "DEFINE_ABBREV with no operands");
        return false;
    }
    if (n > MTLBX_BC_MAX_ABBREV_OPS || n > r->abbrev_ops_budget) {
        bc_fail(r, start, "DEFINE_ABBREV with %llu operands (limit %d)", (unsigned long long)n,
                MTLBX_BC_MAX_ABBREV_OPS);
        return false;
    }
    r->abbrev_ops_budget -= n;
    /* n <= MTLBX_BC_MAX_ABBREV_OPS: the size cannot overflow */
    struct bc_abbrev *a = arena_alloc(&r->abbrev_mem, sizeof *a + (size_t)n * sizeof *a->ops);
    if (!a) {
        bc_fail(r, start, "out of memory");
        return false;
    }
    a->n_ops = (uint32_t)n;
    for (uint32_t i = 0; i < a->n_ops; i++) {
        uint64_t literal, enc, width = 0;
        if (!read_fixed(r, 1, end, &literal))
            return false;
        if (literal) {
            if (!read_vbr(r, 8, end, &a->ops[i].value))
                return false;
            a->ops[i].enc = BC_LITERAL;
            continue;
        }
        if (!read_fixed(r, 3, end, &enc))
            return false;
        if (enc == BC_FIXED || enc == BC_VBR) {
            if (!read_vbr(r, 5, end, &width))
                return false;
            if (width > 32 || (enc == BC_VBR && width == 1)) {
                bc_fail(r, start, "DEFINE_ABBREV: %s width %llu", enc == BC_FIXED ? "fixed" : "VBR",
                        (unsigned long long)width);
                return false;
            }
            if (width == 0) { /* LLVM reads fixed(0) and vbr(0) as a literal 0 */
                a->ops[i] = (struct bc_abbrev_op){ BC_LITERAL, 0 };
                continue;
            }
        } else if (enc != BC_ARRAY && enc != BC_CHAR6 && enc != BC_BLOB) {
            bc_fail(r, start, "DEFINE_ABBREV: unknown operand encoding %llu", (unsigned long long)enc);
            return false;
        }
        a->ops[i] = (struct bc_abbrev_op){ (uint8_t)enc, width };
    }
    /* Shape: the code is a scalar; an array is next to last and its
     * element a non-literal scalar; a blob is last. */
    for (uint32_t i = 0; i < a->n_ops; i++) {
        uint8_t e = a->ops[i].enc;
        bool bad = (i == 0 && (e == BC_ARRAY || e == BC_BLOB)) ||
                   (e == BC_BLOB && i != a->n_ops - 1) ||
                   (e == BC_ARRAY && (i != a->n_ops - 2 || a->ops[i + 1].enc == BC_LITERAL ||
                                      a->ops[i + 1].enc == BC_ARRAY || a->ops[i + 1].enc == BC_BLOB));
        if (bad) {
            bc_fail(r, start, "DEFINE_ABBREV: malformed (array or blob at operand %u of %u)", i, a->n_ops);
            return false;
        }
    }
    abbrev_keep(r, start, a);
    return set_add(r, target, a);
}

/* ------------------------------------------------------------ records -- */

/* Charges `count` operands to the work budget, stored or skipped. */
static bool charge(struct bc_reader *r, uint64_t count)
{
    if (count > r->work_budget) {
        bc_fail(r, r->bit, "too many operands for the module's size");
        return false;
    }
    r->work_budget -= count;
    return true;
}

static __attribute__((noinline)) bool push_op_careful(struct bc_reader *r, size_t *n, uint64_t v)
{
    if (*n >= MTLBX_BC_MAX_RECORD_OPS) {
        bc_fail(r, r->bit, "record with more than %d operands", MTLBX_BC_MAX_RECORD_OPS);
        return false;
    }
    if (!charge(r, 1))
        return false;
    if (*n >= r->ops_cap && !grow_array((void **)&r->ops, &r->ops_cap, *n + 1, sizeof *r->ops)) {
        bc_fail(r, r->bit, "out of memory");
        return false;
    }
    r->ops[(*n)++] = v;
    return true;
}

/* Stores one operand; inline while the buffer has room and nothing is
 * near a limit, which is every operand but the first of a longer record. */
static inline bool push_op(struct bc_reader *r, size_t *n, uint64_t v)
{
    if (__builtin_expect(*n < r->ops_cap && *n < MTLBX_BC_MAX_RECORD_OPS && r->work_budget > 0, 1)) {
        r->work_budget--;
        r->ops[(*n)++] = v;
        return true;
    }
    return push_op_careful(r, n, v);
}

/* How many of `count` operands, each at least `min_bits` wide, can be
 * stored without push_op's checks failing: below the record's limit, the
 * work budget and what the block can still hold. The buffer is grown for
 * them at once. The rest (none, unless the record is about to fail) goes
 * through push_op one by one, which reports the same error at the same
 * operand as before. */
static size_t reserve_ops(struct bc_reader *r, size_t n, uint64_t count, unsigned min_bits, uint64_t end)
{
    uint64_t k = count;
    if (k > (uint64_t)MTLBX_BC_MAX_RECORD_OPS - n)
        k = (uint64_t)MTLBX_BC_MAX_RECORD_OPS - n;
    if (k > r->work_budget)
        k = r->work_budget;
    if (r->bit <= end && k > (end - r->bit) / min_bits)
        k = (end - r->bit) / min_bits;
    if (!k || !grow_array((void **)&r->ops, &r->ops_cap, n + (size_t)k, sizeof *r->ops))
        return 0; /* push_op reports the failure */
    r->work_budget -= k;
    return (size_t)k;
}

/* Reads `count` elements of an array into the operands from *n on: a
 * loop per encoding, with the buffer grown and the budget charged once. */
static bool read_elements(struct bc_reader *r, const struct bc_abbrev_op *elt, uint64_t count, uint64_t end,
                          size_t *n)
{
    const unsigned width = elt->enc == BC_CHAR6 ? 6 : (unsigned)elt->value;
    size_t fast = reserve_ops(r, *n, count, width ? width : 1, end);
    uint64_t *ops = r->ops + *n, v;
    switch (elt->enc) {
    case BC_FIXED:
        for (size_t k = 0; k < fast; k++)
            if (!read_fixed(r, width, end, &ops[k]))
                return false;
        break;
    case BC_VBR:
        for (size_t k = 0; k < fast; k++)
            if (!read_vbr(r, width, end, &ops[k]))
                return false;
        break;
    case BC_CHAR6:
        for (size_t k = 0; k < fast; k++) {
            if (!read_fixed(r, 6, end, &v))
                return false;
            ops[k] = (uint8_t)CHAR6[v];
        }
        break;
    default:
        fast = 0;
        break;
    }
    *n += fast;
    for (uint64_t k = fast; k < count; k++)
        if (!read_scalar(r, elt, end, &v) || !push_op(r, n, v))
            return false;
    return true;
}

/* Steps over `count` elements of an array without storing them. */
static bool skip_elements(struct bc_reader *r, const struct bc_abbrev_op *elt, uint64_t count, uint64_t end)
{
    if (!charge(r, count))
        return false;
    switch (elt->enc) {
    case BC_FIXED:
    case BC_CHAR6: {
        uint64_t width = elt->enc == BC_CHAR6 ? 6 : elt->value;
        if (width && count > (end - r->bit) / width) {
            /* Where and how reading the elements one by one would stop:
             * at the first one that does not fit. */
            r->bit += (end - r->bit) / width * width;
            bc_fail(r, r->bit, "bitstream truncated: %u more bits needed past the end of the block",
                    (unsigned)width);
            return false;
        }
        r->bit += count * width;
        return true;
    }
    case BC_VBR:
        return skip_vbr(r, (unsigned)elt->value, count, end);
    default: {
        uint64_t v;
        for (uint64_t k = 0; k < count; k++)
            if (!read_scalar(r, elt, end, &v))
                return false;
        return true;
    }
    }
}

/* block_id: the block the record is in, for wants_ops (UINT32_MAX: keep
 * every operand, as a re-read does). BLOCKINFO's records are the reader's
 * own, so they are always kept. */
static bool read_record_body(struct bc_reader *r, uint32_t abbrev_id, uint64_t end,
                             const struct bc_abbrev_set *set, uint32_t block_id, struct bc_record *rec)
{
    size_t n = 0;
    rec->abbrev_id = abbrev_id;
    rec->has_blob = false;
    rec->blob = NULL;
    rec->blob_len = 0;
    rec->ops_skipped = false;
    uint64_t code;
    bool keep = true;
    if (abbrev_id == 3) {
        uint64_t count, v;
        if (!read_vbr(r, 6, end, &code) || !read_vbr(r, 6, end, &count))
            return false;
        if (count > (end - r->bit) / 6) {
            bc_fail(r, rec->bit, "record declares %llu operands, more than its block holds",
                    (unsigned long long)count);
            return false;
        }
        keep = block_id == UINT32_MAX || block_id == 0 || !r->wants_ops ||
               r->wants_ops(r->wants_ctx, block_id, code > UINT32_MAX ? UINT32_MAX : (uint32_t)code);
        if (!keep) {
            if (!charge(r, count) || !skip_vbr(r, 6, count, end))
                return false;
        } else {
            size_t fast = reserve_ops(r, n, count, 6, end);
            for (size_t i = 0; i < fast; i++)
                if (!read_vbr(r, 6, end, &r->ops[n + i]))
                    return false;
            n += fast;
            for (uint64_t i = fast; i < count; i++)
                if (!read_vbr(r, 6, end, &v) || !push_op(r, &n, v))
                    return false;
        }
    } else {
        if (abbrev_id - 4 >= set->n) {
            bc_fail(r, rec->bit, "abbreviation id %u out of range (%zu defined)", abbrev_id, set->n);
            return false;
        }
        const struct bc_abbrev *a = set->items[abbrev_id - 4];
        if (!read_scalar(r, &a->ops[0], end, &code))
            return false;
        keep = block_id == UINT32_MAX || block_id == 0 || !r->wants_ops ||
               r->wants_ops(r->wants_ctx, block_id, code > UINT32_MAX ? UINT32_MAX : (uint32_t)code);
        for (uint32_t i = 1; i < a->n_ops; i++) {
            const struct bc_abbrev_op *op = &a->ops[i];
            uint64_t v;
            if (op->enc == BC_ARRAY) {
                uint64_t count;
                const struct bc_abbrev_op *elt = &a->ops[i + 1];
                if (!read_vbr(r, 6, end, &count))
                    return false;
                /* every element takes at least one bit */
                if (count > end - r->bit) {
                    bc_fail(r, rec->bit, "array of %llu elements runs past the end of its block",
                            (unsigned long long)count);
                    return false;
                }
                if (!keep) {
                    if (!skip_elements(r, elt, count, end))
                        return false;
                } else if (!read_elements(r, elt, count, end, &n)) {
                    return false;
                }
                i++;
            } else if (op->enc == BC_BLOB) {
                uint64_t len;
                if (!read_vbr(r, 6, end, &len) || !align32(r, end))
                    return false;
                if (len > (end - r->bit) / 8) {
                    bc_fail(r, rec->bit, "blob of %llu bytes runs past the end of its block",
                            (unsigned long long)len);
                    return false;
                }
                rec->has_blob = true;
                rec->blob = r->data + r->bit / 8;
                rec->blob_len = (size_t)len;
                r->bit += len * 8;
                if (!align32(r, end))
                    return false;
            } else if (!read_scalar(r, op, end, &v) || (keep && !push_op(r, &n, v))) {
                return false;
            }
        }
    }
    rec->code = code > UINT32_MAX ? UINT32_MAX : (uint32_t)code;
    rec->n_ops = n;
    rec->ops = r->ops;
    rec->ops_skipped = !keep;
    return true;
}

/* ------------------------------------------------------------- blocks -- */

/* END_BLOCK's work, after its alignment: the scope is closed and its
 * abbreviations kept for bc_reread. */
static void close_scope(struct bc_reader *r)
{
    struct bc_scope *s = &r->scopes[r->depth];
    bc_abbrev_set_free(&r->closed);
    r->closed = s->abbrevs;
    r->closed_width = s->abbrev_width;
    r->closed_end = s->end_bit;
    s->abbrevs = (struct bc_abbrev_set){ 0 };
    r->depth--;
}

enum bc_entry_kind bc_next(struct bc_reader *r, struct bc_record *rec, uint32_t *block_id)
{
    for (;;) {
        if (r->failed)
            return BC_ENTRY_ERROR;
        struct bc_scope *s = &r->scopes[r->depth];
        if (r->depth == 0 && s->end_bit - r->bit < 32)
            return BC_ENTRY_EOF; /* what is left cannot hold a block */
        uint64_t start = r->bit, id;
        if (r->bit >= s->end_bit) {
            bc_fail(r, r->bit, "block ends without END_BLOCK");
            return BC_ENTRY_ERROR;
        }
        if (!read_fixed(r, s->abbrev_width, s->end_bit, &id))
            return BC_ENTRY_ERROR;
        switch (id) {
        case 0: /* END_BLOCK */
            if (r->depth == 0)
                return BC_ENTRY_EOF; /* zero padding after the last block */
            if (!align32(r, s->end_bit))
                return BC_ENTRY_ERROR;
            close_scope(r);
            return BC_ENTRY_END_BLOCK;
        case 1: { /* ENTER_SUBBLOCK */
            uint64_t bid;
            if (!read_vbr(r, 8, s->end_bit, &bid))
                return BC_ENTRY_ERROR;
            if (bid > UINT32_MAX) {
                bc_fail(r, start, "block id %llu out of range", (unsigned long long)bid);
                return BC_ENTRY_ERROR;
            }
            *block_id = (uint32_t)bid;
            rec->bit = r->pending_start = start;
            return BC_ENTRY_SUBBLOCK;
        }
        case 2: { /* DEFINE_ABBREV */
            struct bc_abbrev_set *target = &s->abbrevs;
            if (s->block_id == 0) { /* inside BLOCKINFO: for the SETBID block */
                struct bc_blockinfo_entry *e = NULL;
                if (!r->n_blockinfo || !(e = &r->blockinfo[r->n_blockinfo - 1]) ||
                    e->block_id == UINT32_MAX) {
                    bc_fail(r, start, "DEFINE_ABBREV in BLOCKINFO before SETBID");
                    return BC_ENTRY_ERROR;
                }
                target = &e->abbrevs;
            }
            if (!define_abbrev(r, target))
                return BC_ENTRY_ERROR;
            continue;
        }
        default:
            rec->bit = start;
            if (!read_record_body(r, (uint32_t)id, s->end_bit, &s->abbrevs, s->block_id, rec))
                return BC_ENTRY_ERROR;
            if (s->block_index != UINT32_MAX)
                r->blocks[s->block_index].n_records++;
            return BC_ENTRY_RECORD;
        }
    }
}

/* After ENTER_SUBBLOCK's id: new abbrev width, alignment, length word.
 * Lists the block; returns its end bit (0 on error). */
static uint64_t block_header(struct bc_reader *r, uint32_t block_id, uint64_t start, unsigned *width)
{
    struct bc_scope *s = &r->scopes[r->depth];
    uint64_t w, words;
    if (!read_vbr(r, 4, s->end_bit, &w) || !align32(r, s->end_bit) || !read_fixed(r, 32, s->end_bit, &words))
        return 0;
    if (w == 0 || w > 32) {
        bc_fail(r, start, "block %u: abbreviation width %llu", block_id, (unsigned long long)w);
        return 0;
    }
    if (words > (s->end_bit - r->bit) / 32) {
        bc_fail(r, start, "block %u declares %llu words, more than its enclosing block holds", block_id,
                (unsigned long long)words);
        return 0;
    }
    if (r->n_blocks >= MTLBX_BC_MAX_BLOCKS) {
        bc_fail(r, start, "more than %d blocks", MTLBX_BC_MAX_BLOCKS);
        return 0;
    }
    if (!grow_array((void **)&r->blocks, &r->blocks_cap, r->n_blocks + 1, sizeof *r->blocks)) {
        bc_fail(r, start, "out of memory");
        return 0;
    }
    uint64_t end = r->bit + words * 32;
    r->blocks[r->n_blocks++] = (struct bc_block_info){
        .block_id = block_id, .depth = (uint32_t)r->depth, .parent = s->block_index,
        .offset = start / 8, .size = end / 8 - start / 8,
    };
    *width = (unsigned)w;
    return end;
}

bool bc_enter(struct bc_reader *r, uint32_t block_id)
{
    uint64_t start = r->pending_start;
    unsigned width;
    if (r->depth + 1 >= MTLBX_BC_MAX_DEPTH) {
        bc_fail(r, start, "blocks nested more than %d deep", MTLBX_BC_MAX_DEPTH);
        return false;
    }
    uint64_t end = block_header(r, block_id, start, &width);
    if (!end)
        return false;
    if (r->depth + 1 >= r->scopes_cap &&
        !grow_array((void **)&r->scopes, &r->scopes_cap, r->depth + 2, sizeof *r->scopes)) {
        bc_fail(r, start, "out of memory");
        return false;
    }
    struct bc_scope *s = &r->scopes[++r->depth];
    *s = (struct bc_scope){ .block_id = block_id, .block_index = (uint32_t)(r->n_blocks - 1),
                            .abbrev_width = width, .end_bit = end };
    const struct bc_blockinfo_entry *bi = blockinfo_for(r, block_id, false);
    if (bi && !bc_abbrev_set_copy(&s->abbrevs, &bi->abbrevs)) {
        bc_fail(r, start, "out of memory");
        return false;
    }
    return true;
}

bool bc_skip_block(struct bc_reader *r, uint32_t block_id)
{
    unsigned width;
    uint64_t end = block_header(r, block_id, r->pending_start, &width);
    if (!end)
        return false;
    r->blocks[r->n_blocks - 1].skipped = true;
    r->bit = end;
    return true;
}

bool bc_read_blockinfo(struct bc_reader *r)
{
    const bool fresh = r->n_blockinfo == 0;
    if (!bc_enter(r, 0))
        return false;
    if (blockinfo_replay(r)) {
        close_scope(r);
        return true;
    }
    const struct bc_scope *s = &r->scopes[r->depth];
    const uint64_t body_bit = r->bit, end_bit = s->end_bit, ops_budget = r->abbrev_ops_budget,
                   work_budget = r->work_budget;
    const unsigned width = s->abbrev_width;
    const uint32_t block_index = s->block_index;
    struct bc_record rec;
    uint32_t sub;
    for (;;) {
        switch (bc_next(r, &rec, &sub)) {
        case BC_ENTRY_END_BLOCK:
            blockinfo_keep(r, fresh, body_bit, width, end_bit, block_index, ops_budget - r->abbrev_ops_budget,
                           work_budget - r->work_budget);
            return true;
        case BC_ENTRY_SUBBLOCK:
            if (!bc_skip_block(r, sub))
                return false;
            break;
        case BC_ENTRY_RECORD:
            if (rec.code == 1) { /* SETBID */
                if (rec.n_ops < 1 || rec.ops[0] > UINT32_MAX) {
                    bc_fail(r, rec.bit, "BLOCKINFO: bad SETBID");
                    return false;
                }
                if (!blockinfo_for(r, (uint32_t)rec.ops[0], true))
                    return false;
                /* make it the last entry, where DEFINE_ABBREV adds */
                struct bc_blockinfo_entry *e = blockinfo_for(r, (uint32_t)rec.ops[0], false);
                struct bc_blockinfo_entry *last = &r->blockinfo[r->n_blockinfo - 1];
                struct bc_blockinfo_entry tmp = *e;
                *e = *last;
                *last = tmp;
            }
            break;
        default:
            return false;
        }
    }
}

bool bc_reread(struct bc_reader *r, uint64_t bit, uint64_t end_bit, unsigned abbrev_width,
               const struct bc_abbrev_set *abbrevs, struct bc_record *rec)
{
    if (r->failed)
        return false;
    uint64_t saved = r->bit, id;
    r->bit = bit;
    rec->bit = bit;
    bool ok = read_fixed(r, abbrev_width, end_bit, &id);
    if (ok && id < 3) {
        bc_fail(r, bit, "expected a record");
        ok = false;
    }
    ok = ok && read_record_body(r, (uint32_t)id, end_bit, abbrevs, UINT32_MAX, rec);
    r->bit = saved;
    return ok;
}
