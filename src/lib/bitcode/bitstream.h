/* A bounded reader for LLVM's bitstream container (the format under LLVM
 * bitcode; see LLVM's "Bitcode File Format" document): fixed, VBR, char6,
 * array and blob operands, DEFINE_ABBREV, BLOCKINFO, nested blocks with
 * their 32-bit length words, and skipping a whole block by its length.
 *
 * It knows nothing about LLVM IR: bitcode.c interprets the records. Every
 * read is checked against the end of the enclosing block, every count
 * against a limit, and the first problem stops the reader with a message
 * and the byte offset where it happened; afterwards every call fails. */
#ifndef MTLBX_BITSTREAM_H
#define MTLBX_BITSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* Encodings of an abbreviation operand (LLVM's numbering, plus literal). */
enum bc_enc { BC_LITERAL = 0, BC_FIXED = 1, BC_VBR = 2, BC_ARRAY = 3, BC_CHAR6 = 4, BC_BLOB = 5 };

struct bc_abbrev_op {
    uint8_t enc;
    uint64_t value;            /* literal value, or the width of FIXED/VBR */
};
struct bc_abbrev {
    uint32_t n_ops;
    struct bc_abbrev_op ops[];  /* one allocation with the header */
};

/* The abbreviations usable in one block: BLOCKINFO's for its id, then its own. */
struct bc_abbrev_set {
    size_t n, cap;
    const struct bc_abbrev **items;
};

struct bc_scope {
    uint32_t block_id;
    uint32_t block_index;      /* in the reader's block list */
    unsigned abbrev_width;
    uint64_t end_bit;          /* just past the block's last word */
    struct bc_abbrev_set abbrevs;
};

/* One block as listed (mirrors struct mtlbx_bc_block, offsets relative to
 * the bitstream's first byte). */
struct bc_block_info {
    uint32_t block_id, n_records, depth, parent;
    uint64_t offset, size;
    bool skipped;              /* stepped over by its length word, records unread */
};

enum bc_entry_kind { BC_ENTRY_END_BLOCK, BC_ENTRY_SUBBLOCK, BC_ENTRY_RECORD, BC_ENTRY_EOF, BC_ENTRY_ERROR };

struct bc_record {
    uint32_t code;
    uint32_t abbrev_id;        /* 3 when unabbreviated */
    size_t n_ops;              /* operands after the code */
    const uint64_t *ops;       /* valid until the next read */
    bool has_blob;
    const uint8_t *blob;       /* into the stream */
    size_t blob_len;
    uint64_t bit;              /* where the record's abbrev id starts */
    bool ops_skipped;          /* the reader's wants_ops declined them: n_ops is 0 */
};

struct bc_blockinfo_entry {
    uint32_t block_id;
    struct bc_abbrev_set abbrevs;
};

struct bc_reader {
    const uint8_t *data;       /* the bitstream, from its magic */
    size_t size;               /* bytes */
    uint64_t bit;              /* cursor */
    /* The fast paths load 8 bytes at the cursor's byte: they may while
     * bit < load_limit (0 when the stream is shorter than 8 bytes). */
    uint64_t load_limit;
    uint64_t pending_start;    /* where the last ENTER_SUBBLOCK began */
    /* scopes[0] is the top level (abbrev width 2, the whole stream) */
    size_t depth, scopes_cap;
    struct bc_scope *scopes;
    /* BLOCKINFO's abbreviations, by block id */
    size_t n_blockinfo;
    struct bc_blockinfo_entry *blockinfo;
    /* Every abbreviation ever defined stays alive until bc_reader_free,
     * so that a block's abbreviation set can be kept and records re-read
     * after the block ended (air_metadata.c reads nodes on demand). They
     * live in one bump allocator: a module defines dozens, and a malloc
     * each was a tenth of `sig`'s time on 20,000 modules. */
    struct arena abbrev_mem;
    uint64_t abbrev_ops_budget;
    uint64_t work_budget;      /* operands still allowed to be decoded */
    /* Which records' operands the caller reads (NULL: all). The others are
     * stepped over without being stored, which is most of the time of a
     * module with a large constant array or a metadata index. The blob and
     * the record's code and position are kept either way. */
    bool (*wants_ops)(void *ctx, uint32_t block_id, uint32_t code);
    void *wants_ctx;
    /* The current record's operands */
    size_t ops_cap;
    uint64_t *ops;
    /* Listed blocks */
    size_t n_blocks, blocks_cap;
    struct bc_block_info *blocks;
    /* The abbreviations of the block that END_BLOCK closed last, kept for
     * a caller that re-reads its records (bc_reread) */
    struct bc_abbrev_set closed;
    unsigned closed_width;
    uint64_t closed_end;
    /* First error */
    bool failed;
    uint64_t error_byte;       /* relative to data */
    char error[160];
};

/* `data` starts at "BC\xC0\xDE"; the magic is checked and skipped. */
bool bc_reader_init(struct bc_reader *r, const uint8_t *data, size_t size);
void bc_reader_free(struct bc_reader *r);
void bc_fail(struct bc_reader *r, uint64_t bit, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads the next entry of the current block. A DEFINE_ABBREV is handled
 * inside (never returned). On SUBBLOCK, *block_id is set and the caller
 * must call bc_enter() or bc_skip_block() next. END_BLOCK pops the scope. */
enum bc_entry_kind bc_next(struct bc_reader *r, struct bc_record *rec, uint32_t *block_id);
/* Enters the sub-block whose ENTER_SUBBLOCK bc_next just read. */
bool bc_enter(struct bc_reader *r, uint32_t block_id);
/* Skips it by its length word (it is listed, its records not counted). */
bool bc_skip_block(struct bc_reader *r, uint32_t block_id);
/* Reads a whole BLOCKINFO block (after bc_next returned it), recording
 * its abbreviations. */
bool bc_read_blockinfo(struct bc_reader *r);

/* blockinfo_cache.c: the last BLOCKINFO block this thread read, replayed
 * when the next one has the same words. replay: right after bc_enter of a
 * BLOCKINFO block; true when it left the reader as reading the block up
 * to its END_BLOCK would have, false when the block must be read. keep:
 * after reading one to its END_BLOCK; `fresh` when no BLOCKINFO was read
 * before it in the stream, the other arguments as it was entered and what
 * it charged to the budgets. */
bool blockinfo_replay(struct bc_reader *r);
void blockinfo_keep(const struct bc_reader *r, bool fresh, uint64_t body_bit, unsigned width, uint64_t end_bit,
                    uint32_t block_index, uint64_t abbrev_ops_used, uint64_t work_used);

/* abbrev_cache.c: DEFINE_ABBREV bodies read on this thread. replay: at
 * the body (right after the abbreviation id), the operands a kept
 * definition with the same bits reads, and how many bits it takes; false
 * when none matches. keep: after reading one from `start` to r->bit
 * without error. */
bool abbrev_replay(const struct bc_reader *r, uint64_t end, const struct bc_abbrev_op **ops, uint32_t *n_ops,
                   unsigned *n_bits);
void abbrev_keep(const struct bc_reader *r, uint64_t start, const struct bc_abbrev *a);

/* Re-reads one record at `bit` with a saved abbreviation set, bounded by
 * end_bit (air_metadata.c's on-demand node reading). */
bool bc_reread(struct bc_reader *r, uint64_t bit, uint64_t end_bit, unsigned abbrev_width,
               const struct bc_abbrev_set *abbrevs, struct bc_record *rec);

/* Copies the current scope's abbreviation set (to re-read its records later). */
bool bc_abbrev_set_copy(struct bc_abbrev_set *dst, const struct bc_abbrev_set *src);
void bc_abbrev_set_free(struct bc_abbrev_set *s);

static inline const struct bc_scope *bc_scope_top(const struct bc_reader *r)
{
    return &r->scopes[r->depth];
}

#endif
