/* Is a module LLVM bitcode? Every module starts with the bitcode wrapper
 * (magic DE C0 17 0B, then version, offset, size and CPU type, FORMAT §8)
 * or with raw bitcode ("BC" C0 DE); a wrapper's bitcode must lie inside the
 * module. A HASH that matches says nothing about this: it covers whatever
 * bytes are there.
 *
 * The hash pass judges each module from the bytes it has just read (no
 * second read of a 300 MB file); mbx_module_validate reads the few bytes
 * it needs itself.
 *
 * This is the one place that judges a module's wrapper and magic. The
 * full bitstream reader (bitcode.c, bc_module_read) is not run here: it
 * walks every block of the module, and check, ls --verify and the hash
 * pass judge every module of a file, so it would multiply check's time
 * (bench/run). A bitstream that does not parse is reported where the
 * interface is decoded (dump --interfaces, sig, the explorer's background
 * pass), at the offset where reading stopped. */
#include "config.h"
#include "container/cursor.h"
#include "container/diag_list.h"
#include "container/file_read.h"
#include "container/le_read.h"
#include "container/library.h"
#include "checks/validate.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BC_UNCHECKED = 0, BC_OK, BC_BAD };

static const uint8_t RAW_MAGIC[4] = { 'B', 'C', 0xC0, 0xDE };
static const uint8_t WRAPPER_MAGIC[4] = { 0xDE, 0xC0, 0x17, 0x0B };

struct bitcode_problem {
    uint64_t offset;
    char message[200];
};

/* The raw bitcode (after any wrapper) is [off, off + len); only its magic
 * is checked (see the top of the file for why not the whole bitstream).
 * Bytes are read with pread, not through the mapping (see file_read_at). */
static bool module_bitstream_check(const mtlbx_library *lib, uint64_t off, uint64_t len, const uint8_t *bc,
                                   size_t i, struct bitcode_problem *p)
{
    uint8_t magic[4];
    if (len >= 4 && !bc && file_read_at(lib->file, off, magic, 4))
        bc = magic;
    if (len < 4 || !bc || memcmp(bc, RAW_MAGIC, 4) != 0) {
        p->offset = off;
        snprintf(p->message, sizeof p->message, "function %zu: the wrapper's bitcode does not start with BC C0 DE",
                 i);
        return false;
    }
    return true;
}

/* `head` holds the module's first `n` bytes when the caller has them (the
 * hash pass), else NULL: then the few bytes needed are read here. */
static bool module_is_bitcode(const mtlbx_library *lib, size_t i, const uint8_t *head, size_t n,
                              struct bitcode_problem *p)
{
    const struct mtlbx_function *fn = library_function(lib, i);
    uint64_t len = fn->module.size;
    size_t want = len < 20 ? (size_t)len : 20;
    uint8_t own[20] = { 0 };
    p->offset = fn->module.offset;
    if (!head || n < want) {
        if (!file_read_at(lib->file, fn->module.offset, own, want)) {
            snprintf(p->message, sizeof p->message, "function %zu: module bytes could not be read", i);
            return false;
        }
        head = own;
        n = want;
    }
    if (len >= 4 && memcmp(head, RAW_MAGIC, 4) == 0)
        return module_bitstream_check(lib, fn->module.offset, len, head, i, p);
    if (len < 4 || memcmp(head, WRAPPER_MAGIC, 4) != 0) {
        snprintf(p->message, sizeof p->message,
                 "function %zu: module does not start with the bitcode wrapper magic DE C0 17 0B or raw bitcode "
                 "BC C0 DE",
                 i);
        return false;
    }
    if (len < 20) {
        snprintf(p->message, sizeof p->message, "function %zu: bitcode wrapper cut short (%llu of 20 bytes)", i,
                 (unsigned long long)len);
        return false;
    }
    uint64_t bc_off = rd32(head + 8), bc_size = rd32(head + 12);
    if (bc_off > len || bc_size > len - bc_off) {
        snprintf(p->message, sizeof p->message,
                 "function %zu: bitcode wrapper offset 0x%llx + size 0x%llx passes the end of the module "
                 "(0x%llx bytes)",
                 i, (unsigned long long)bc_off, (unsigned long long)bc_size, (unsigned long long)len);
        return false;
    }
    return module_bitstream_check(lib, fn->module.offset + bc_off, bc_size,
                                  bc_off + 4 <= n ? head + bc_off : NULL, i, p);
}

bool bitcode_judge(mtlbx_library *lib, size_t i, const uint8_t *head, size_t n)
{
    if (i >= lib->n_functions || !library_function(lib, i)->module_valid || library_function(lib, i)->module.size == 0)
        return true; /* no module bytes: nothing to judge (reported elsewhere) */
    pthread_mutex_lock(&lib->lock);
    if (!lib->bitcode_states)
        lib->bitcode_states = calloc(lib->n_functions, 1);
    unsigned char state = lib->bitcode_states ? lib->bitcode_states[i] : BC_UNCHECKED;
    pthread_mutex_unlock(&lib->lock);
    if (state != BC_UNCHECKED)
        return state == BC_OK;
    struct bitcode_problem p;
    bool ok = module_is_bitcode(lib, i, head, n, &p);
    /* Two threads may judge the same module; only the first reports. */
    pthread_mutex_lock(&lib->lock);
    bool first = lib->bitcode_states && lib->bitcode_states[i] == BC_UNCHECKED;
    if (first)
        lib->bitcode_states[i] = ok ? BC_OK : BC_BAD;
    if (!ok && (first || !lib->bitcode_states))
        diag_add(&lib->diags, MTLBX_ERROR, p.offset, "%s", p.message);
    pthread_mutex_unlock(&lib->lock);
    return ok;
}

bool mbx_module_validate(mtlbx_library *lib, size_t i) { return bitcode_judge(lib, i, NULL, 0); }

size_t mbx_library_validate_modules(mtlbx_library *lib)
{
    size_t bad = 0;
    for (size_t i = 0; i < lib->n_functions; i++)
        bad += !mbx_module_validate(lib, i);
    return bad;
}
