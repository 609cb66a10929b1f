/* The LLVM target triple of a module ("air64_v23-apple-ios14.0.0"): the
 * MODULE block's TRIPLE record. It decides a library's platform when its
 * header names none (CONTRACT.md "Requirements").
 *
 * A path of its own beside bitcode.c's full walk, and much cheaper: it
 * enters only the MODULE block, steps over every sub-block by its length
 * word (the type table and attribute blocks that come before the TRIPLE
 * record), keeps the operands of TRIPLE alone and stops there, so a
 * module of any size costs a few dozen bytes of reading. */
#include "config.h"
#include "bitcode.h"
#include "container/le_read.h"

#include <string.h>

enum { MODULE_CODE_TRIPLE = 2 };

static bool wants_triple(void *ctx, uint32_t block_id, uint32_t code)
{
    (void)ctx;
    return block_id == BLK_MODULE && code == MODULE_CODE_TRIPLE;
}

/* Copies the record's characters as printable ASCII (anything else '?'). */
static bool copy_triple(const struct bc_record *rec, char *out, size_t size)
{
    if (!rec->n_ops || !size)
        return false;
    size_t n = rec->n_ops < size - 1 ? rec->n_ops : size - 1;
    for (size_t i = 0; i < n; i++)
        out[i] = rec->ops[i] >= 0x20 && rec->ops[i] < 0x7F ? (char)rec->ops[i] : '?';
    out[n] = '\0';
    return true;
}

/* Inside the MODULE block: records until TRIPLE, sub-blocks skipped. */
static bool find_in_module(struct bc_reader *r, char *out, size_t size)
{
    struct bc_record rec;
    uint32_t id;
    for (;;) {
        switch (bc_next(r, &rec, &id)) {
        case BC_ENTRY_RECORD:
            if (rec.code == MODULE_CODE_TRIPLE)
                return copy_triple(&rec, out, size);
            break;
        case BC_ENTRY_SUBBLOCK:
            if (id == BLK_BLOCKINFO ? !bc_read_blockinfo(r) : !bc_skip_block(r, id))
                return false;
            break;
        default: /* END_BLOCK without a TRIPLE, EOF or an error */
            return false;
        }
    }
}

bool bc_module_triple(const uint8_t *data, size_t len, char *out, size_t size)
{
    if (len >= 20 && rd32(data) == 0x0B17C0DE) { /* the bitcode wrapper */
        uint32_t off = rd32(data + 8), n = rd32(data + 12);
        if (off > len || n > len - off)
            return false;
        data += off;
        len = n;
    }
    if (len < 4 || memcmp(data, "BC\xC0\xDE", 4) != 0)
        return false;
    struct bc_reader r;
    bool found = false;
    if (bc_reader_init(&r, data, len)) {
        r.wants_ops = wants_triple;
        struct bc_record rec;
        uint32_t id;
        for (bool more = true; more;) {
            enum bc_entry_kind k = bc_next(&r, &rec, &id);
            if (k == BC_ENTRY_SUBBLOCK && id == BLK_MODULE) {
                found = bc_enter(&r, id) && find_in_module(&r, out, size);
                more = false;
            } else if (k == BC_ENTRY_SUBBLOCK) {
                more = bc_skip_block(&r, id); /* IDENTIFICATION, STRTAB ... */
            } else {
                more = k == BC_ENTRY_RECORD;
            }
        }
    }
    bc_reader_free(&r);
    return found;
}
