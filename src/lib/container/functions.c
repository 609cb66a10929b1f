/* The function list (FORMAT §4): a u32 count and one size-prefixed tag
 * group per function. Each entry is walked to its ENDT inside the list's
 * bounds; the size prefix is only cross-checked, never trusted to locate
 * the next entry. */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"
#include "container/tag_walk.h"
#include "container/lower_bound.h"
#include "container/nouns.h"
#include "container/value_names.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Fixed value lengths (FORMAT §15 item 6). The tags come from
 * tag_walk_step: their printable name is made here, for a diagnostic. */
static bool expect_len(mtlbx_library *lib, const struct mtlbx_tag *t, uint64_t want)
{
    if (t->value_len == want)
        return true;
    char name[5];
    tag_fill_name(name, t->fourcc);
    lib_error(lib, t->offset, "%s value is %llu %s, expected %llu", name, (unsigned long long)t->value_len,
              mbx_noun(t->value_len, "byte", "bytes"), (unsigned long long)want);
    return false;
}

static uint32_t function_tag_bit(uint32_t fourcc)
{
    switch (fourcc) {
    case FOURCC('N', 'A', 'M', 'E'): return MTLBX_F_NAME;
    case FOURCC('T', 'Y', 'P', 'E'): return MTLBX_F_TYPE;
    case FOURCC('H', 'A', 'S', 'H'): return MTLBX_F_HASH;
    case FOURCC('O', 'F', 'F', 'T'): return MTLBX_F_OFFT;
    case FOURCC('V', 'E', 'R', 'S'): return MTLBX_F_VERS;
    case FOURCC('M', 'D', 'S', 'Z'): return MTLBX_F_MDSZ;
    case FOURCC('S', 'O', 'F', 'F'): return MTLBX_F_SOFF;
    case FOURCC('R', 'F', 'L', 'T'): return MTLBX_F_RFLT;
    case FOURCC('T', 'E', 'S', 'S'): return MTLBX_F_TESS;
    case FOURCC('L', 'A', 'Y', 'R'): return MTLBX_F_LAYR;
    default: return 0;
    }
}

/* Decodes one tag into fn. The first occurrence of a tag wins. */
static void decode_function_tag(mtlbx_library *lib, struct mtlbx_function *fn, const struct mtlbx_tag *t)
{
    const uint8_t *v = t->value;
    uint32_t bit = function_tag_bit(t->fourcc);
    char name[5];
    if (!bit) {
        tag_fill_name(name, t->fourcc);
        lib_warning(lib, t->offset, "unknown function tag '%s'", name);
        return;
    }
    if (fn->present & bit) {
        tag_fill_name(name, t->fourcc);
        lib_warning(lib, t->offset, "duplicate %s tag ignored", name);
        return;
    }
    switch (bit) {
    case MTLBX_F_NAME: {
        const uint8_t *nul = memchr(v, 0, t->value_len);
        fn->name = (struct mtlbx_bytes){ v, nul ? (size_t)(nul - v) : t->value_len };
        if (!nul)
            lib_warning(lib, t->offset, "NAME has no terminating NUL");
        break;
    }
    case MTLBX_F_TYPE:
        if (!expect_len(lib, t, 1))
            return;
        fn->type = v[0];
        if (!mbx_function_type_known(v[0]))
            lib_warning(lib, t->value_offset, "unknown function type %u", v[0]);
        break;
    case MTLBX_F_HASH:
        if (!expect_len(lib, t, 32))
            return;
        fn->hash = v;
        break;
    case MTLBX_F_OFFT:
        if (!expect_len(lib, t, 24))
            return;
        for (int i = 0; i < 3; i++)
            fn->offt[i] = rd64(v + 8 * i);
        break;
    case MTLBX_F_VERS:
        if (!expect_len(lib, t, 8))
            return;
        fn->air_major = rd16(v);
        fn->air_minor = rd16(v + 2);
        fn->msl_major = rd16(v + 4);
        fn->msl_minor = rd16(v + 6);
        break;
    case MTLBX_F_MDSZ:
    case MTLBX_F_SOFF:
    case MTLBX_F_RFLT:
        if (!expect_len(lib, t, 8))
            return;
        *(bit == MTLBX_F_MDSZ ? &fn->mdsz : bit == MTLBX_F_SOFF ? &fn->soff : &fn->rflt) = rd64(v);
        break;
    case MTLBX_F_TESS:
        if (!expect_len(lib, t, 1))
            return;
        fn->tess = v[0];
        break;
    case MTLBX_F_LAYR:
        if (!expect_len(lib, t, 1))
            return;
        fn->layr = v[0];
        if (!mbx_data_type_known(v[0]))
            lib_warning(lib, t->value_offset, "unknown LAYR data type 0x%02x", v[0]);
        break;
    }
    fn->present |= bit;
}

/* Decodes the entry at pos (function i) into fn, which is zeroed, and
 * reports its problems (unless quiet); returns where its tags end, and
 * whether an ENDT ended them. */
static uint64_t decode_entry(mtlbx_library *lib, struct mtlbx_function *fn, size_t i, uint64_t pos, uint64_t end,
                             bool *ended)
{
    fn->entry_offset = pos;
    fn->entry_size = rd32(lib->file->data + pos);
    fn->public_md_offset = fn->private_md_offset = UINT64_MAX;
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, lib->file, pos + 4, end - pos - 4);
    while (tag_walk_step(&w, &t))
        decode_function_tag(lib, fn, &t);
    *ended = w.ended;
    if (!w.ended) {
        lib_error(lib, w.pos, "function %zu: entry at 0x%llx has no ENDT inside the function list", i,
                  (unsigned long long)pos);
        return w.pos;
    }
    if (fn->entry_size != w.pos - pos)
        lib_error(lib, pos, "function %zu: entry size %u, but its tags end after %llu %s", i,
                  fn->entry_size, (unsigned long long)(w.pos - pos), mbx_noun(w.pos - pos, "byte", "bytes"));
    if (!(fn->present & MTLBX_F_NAME))
        lib_error(lib, pos, "function %zu has no NAME", i);
    if (!(fn->present & MTLBX_F_OFFT))
        lib_error(lib, pos, "function %zu has no OFFT: its metadata and module cannot be located", i);
    if (!(fn->present & MTLBX_F_HASH))
        lib_error(lib, pos, "function %zu has no HASH", i);
    if (!(fn->present & MTLBX_F_VERS))
        lib_warning(lib, pos, "function %zu has no VERS", i);
    return w.pos;
}

/* Smallest value in sorted[0..n) strictly greater than v, or `fallback`. */
static uint64_t next_greater(const uint64_t *sorted, size_t n, uint64_t v, uint64_t fallback)
{
    size_t lo = mtlbx_upper_bound_u64(sorted, n, v);
    return lo < n ? sorted[lo] : fallback;
}

/* A decoded entry's derived fields: where its metadata groups and its
 * module are (the module list is the sorted table parse_modules made
 * when an MDSZ is missing). False when the module lies outside the list. */
bool derive_function(const mtlbx_library *lib, struct mtlbx_function *fn, uint64_t *rel, uint64_t *size)
{
    const struct mtlbx_range sec = lib->header.modules;
    if (!(fn->present & MTLBX_F_OFFT))
        return true;
    /* Where the metadata groups are; their contents are decoded lazily
     * (metadata.c), which also reports an offset outside its section. */
    if (fn->offt[0] < lib->header.public_md.size)
        fn->public_md_offset = lib->header.public_md.offset + fn->offt[0];
    if (fn->offt[1] < lib->header.private_md.size)
        fn->private_md_offset = lib->header.private_md.offset + fn->offt[1];
    *rel = fn->offt[2];
    if (fn->present & MTLBX_F_MDSZ) {
        *size = fn->mdsz;
    } else if (lib->module_sorted) {
        *size = next_greater(lib->module_sorted, lib->n_module_sorted, *rel, sec.size) - *rel;
        fn->module_size_inferred = true;
    } else {
        return true; /* out of memory for the sort */
    }
    if (*rel > sec.size || *size > sec.size - *rel)
        return false;
    fn->module = (struct mtlbx_range){ sec.offset + *rel, *size };
    fn->module_valid = true;
    return true;
}


/* Decodes functions [first, first+count) again, quietly, from the offset
 * the first pass recorded for their block. Returns where the last one
 * ends. */
static uint64_t decode_functions_into(mtlbx_library *lib, struct mtlbx_function *dst, size_t first, size_t count)
{
    const struct mtlbx_range r = lib->header.function_list;
    uint64_t pos = lib->fn_chunk_offset[first / FN_CHUNK], end = r.offset + r.size;
    diag_quiet_begin();
    for (size_t i = first; i < first + count; i++) {
        bool ended;
        struct mtlbx_function *fn = &dst[i - first];
        *fn = (struct mtlbx_function){ 0 };
        pos = decode_entry(lib, fn, i, pos, end, &ended);
        uint64_t rel, size;
        if (lib->modules_parsed)
            (void)derive_function(lib, fn, &rel, &size);
    }
    diag_quiet_end();
    return pos;
}

/* The entries' bytes stay readable through the mapping (names and hashes
 * point there); a pass over a million of them must not keep every page it
 * read. Decodes a block into dst and lets its pages go. */
static void decode_block_releasing(mtlbx_library *lib, struct mtlbx_function *dst, size_t first, size_t count)
{
    uint64_t start = lib->fn_chunk_offset[first / FN_CHUNK];
    uint64_t end = decode_functions_into(lib, dst, first, count);
    file_release_pages(lib->file, start, end - start);
}

static void decode_function_block(mtlbx_library *lib, size_t first, size_t count)
{
    decode_block_releasing(lib, lib->functions + first, first, count);
}

const struct mtlbx_function *function_cursor_at(mtlbx_library *lib, struct function_cursor *c, size_t i)
{
    size_t k = i / LAZY_BLOCK, first = k * LAZY_BLOCK;
    if (i >= lib->n_functions)
        return NULL;
    /* A library of at most FUNCTION_TABLE_KEEP functions is always here. */
    if (atomic_load_explicit(&lib->fn_blocks.state[k], memory_order_acquire))
        return &lib->functions[i];
    if (!c->buf && !(c->buf = malloc(LAZY_BLOCK * sizeof *c->buf)))
        return library_function(lib, i); /* slower, chunk by chunk */
    size_t count = lib->n_functions - first < LAZY_BLOCK ? lib->n_functions - first : LAZY_BLOCK;
    if (!c->valid || c->block != k) {
        decode_block_releasing(lib, c->buf, first, count);
        c->block = k;
        c->valid = true;
    }
    return &c->buf[i - first];
}

void function_cursor_free(struct function_cursor *c)
{
    free(c->buf);
    *c = (struct function_cursor){ 0 };
}

/* This thread's chunks of entries decoded outside the table: one for
 * each of the last two libraries it read, so that a thread comparing two
 * libraries (diff's changed modules: each pair reads an entry of A, then
 * of B, then of A again) does not decode a chunk of 256 entries for every
 * call. A library's own slot is the one it reuses, so a pointer lasts
 * until the thread asks for another chunk of that library (or of a third
 * library, which takes the slot used longer ago). */
struct own_chunk {
    uint64_t serial;
    size_t chunk;
    bool valid, derived;
    uint64_t used;             /* when this thread last asked for it */
    struct mtlbx_function fns[FN_CHUNK];
};
static __thread struct own_chunk own[2];
static __thread uint64_t own_clock;

/* The entry bytes of block k (LAZY_BLOCK functions). */
static struct mtlbx_range block_entries(const mtlbx_library *lib, size_t k)
{
    size_t c = k * (LAZY_BLOCK / FN_CHUNK), next = c + LAZY_BLOCK / FN_CHUNK;
    uint64_t end = lib->header.function_list.offset + lib->header.function_list.size;
    if (next * FN_CHUNK < lib->n_functions)
        end = lib->fn_chunk_offset[next];
    return (struct mtlbx_range){ lib->fn_chunk_offset[c], end - lib->fn_chunk_offset[c] };
}

struct mtlbx_function *library_function(const mtlbx_library *lib, size_t i)
{
    if (i >= lib->n_functions)
        return NULL;
    if (atomic_load_explicit(&lib->fn_blocks.state[i / LAZY_BLOCK], memory_order_acquire))
        return &lib->functions[i];
    size_t c = i / FN_CHUNK, first = c * FN_CHUNK;
    struct own_chunk *o = own[1].valid && own[1].serial == lib->serial ? &own[1]
                          : own[0].valid && own[0].serial == lib->serial ? &own[0]
                          : own[0].used <= own[1].used ? &own[0] : &own[1];
    o->used = ++own_clock;
    if (!o->valid || o->serial != lib->serial || o->chunk != c || o->derived != lib->modules_parsed) {
        size_t count = lib->n_functions - first < FN_CHUNK ? lib->n_functions - first : FN_CHUNK;
        /* Leaving a block: its pages go, once for its 16 chunks (each
         * madvise costs the other threads a TLB flush), and after the
         * caller has read the entries' names and hashes too. */
        size_t k = o->chunk * FN_CHUNK / LAZY_BLOCK;
        if (o->valid && o->serial == lib->serial && k != first / LAZY_BLOCK) {
            struct mtlbx_range r = block_entries(lib, k);
            file_release_pages(lib->file, r.offset, r.size);
        }
        decode_functions_into((mtlbx_library *)lib, o->fns, first, count);
        o->serial = lib->serial;
        o->chunk = c;
        o->derived = lib->modules_parsed;
        o->valid = true;
    }
    return &o->fns[i - first];
}

const struct mtlbx_function *mbx_function_peek(const mtlbx_library *lib, size_t i)
{
    return library_function(lib, i);
}

void library_forget_functions(mtlbx_library *lib, size_t before)
{
    lazy_drop_before(lib, &lib->fn_blocks, before, NULL);
}

/* Adds a SOFF value to the library's distinct ones (container/library.h). */
static void note_soff(mtlbx_library *lib, uint64_t soff)
{
    if (lib->soff_many)
        return;
    /* Functions that share an archive usually come in a row. */
    for (size_t k = lib->n_soff_seen; k-- > 0;)
        if (lib->soff_seen[k] == soff)
            return;
    if (lib->n_soff_seen == SOFF_SEEN_MAX)
        lib->soff_many = true;
    else
        lib->soff_seen[lib->n_soff_seen++] = soff;
}

/* The table of a library of at most FUNCTION_TABLE_KEEP functions,
 * allocated before the first pass so that the pass decodes into it;
 * NULL for a bigger library, or when out of memory (then it is made
 * after the pass, as for a big one). */
static struct mtlbx_function *keep_table(mtlbx_library *lib, uint32_t count)
{
    if (count == 0 || count > FUNCTION_TABLE_KEEP || !lazy_init(&lib->fn_blocks, count, sizeof *lib->functions))
        return NULL;
#ifdef MADV_POPULATE_WRITE
    /* Its pages in one call, not a fault each (lazy_table.c). */
    if (lib->fn_blocks.mapped)
        (void)madvise(lib->fn_blocks.array, lib->fn_blocks.array_bytes, MADV_POPULATE_WRITE);
#endif
    return lib->fn_blocks.array;
}

/* Walks every entry once, reporting what is wrong, and keeps where every
 * FN_CHUNK-th entry starts. A library of at most FUNCTION_TABLE_KEEP
 * functions keeps the entries too, decoded by this pass, so that the
 * passes that follow (metadata, lists, sources, the layout, the hashes,
 * diff's index ...) do not decode them again, each on its own: that was
 * eight decodes of every entry for check, and a quarter of diff's CPU on
 * two 20,000-function libraries. A bigger one keeps only the offsets: its
 * entries are decoded again when asked for (library_function), so memory
 * stays flat at a million functions. */
void parse_function_list(mtlbx_library *lib)
{
    const struct mtlbx_header *h = &lib->header;
    const uint8_t *data = lib->file->data;
    struct mtlbx_range r = h->function_list;
    if (!h->complete)
        return;
    if (r.size < 4) {
        lib_error(lib, r.offset, "function list has no room for its count");
        return;
    }
    uint32_t count = rd32(data + r.offset);
    uint64_t pos = r.offset + 4, end = r.offset + r.size;
    /* The smallest entry is a size prefix and ENDT: 8 bytes. */
    uint64_t room = (end - pos) / 8;
    if (count > room) {
        lib_error(lib, r.offset, "function count %u is more than the list can hold (%llu)", count,
                  (unsigned long long)room);
        count = (uint32_t)room;
    }
    size_t n = 0, chunks_cap = 0;
    uint64_t released = r.offset;
    struct mtlbx_function *kept = keep_table(lib, count);
    for (uint32_t i = 0; i < count; i++) {
        /* Entries are read once here: let their pages go every 4,096. */
        if (i % 4096 == 4095) {
            file_release_pages(lib->file, released, pos - released);
            released = pos;
        }
        if (end - pos < 8) {
            lib_error(lib, pos, "function list ends after %u of %u %s", i, count,
                      mbx_noun(count, "entry", "entries"));
            break;
        }
        if (n % FN_CHUNK == 0) {
            if (!grow_array((void **)&lib->fn_chunk_offset, &chunks_cap, n / FN_CHUNK + 1,
                            sizeof *lib->fn_chunk_offset)) {
                lib_out_of_memory(lib, pos, "out of memory after %zu %s", n, mbx_noun(n, "function", "functions"));
                break;
            }
            lib->fn_chunk_offset[n / FN_CHUNK] = pos;
        }
        struct mtlbx_function local = { 0 }, *fn = kept ? &kept[i] : &local;
        bool ended;
        uint64_t next = decode_entry(lib, fn, i, pos, end, &ended);
        if ((fn->present & MTLBX_F_OFFT) && !(fn->present & MTLBX_F_MDSZ))
            lib->module_size_needed = true;
        if (fn->present & MTLBX_F_SOFF)
            note_soff(lib, fn->soff);
        /* With its MDSZ the module's span is known now: parse_modules
         * need not walk the list again unless some size is inferred (and
         * then it derives every kept entry again). */
        uint64_t rel, size;
        if (!lib->module_size_needed && !derive_function(lib, fn, &rel, &size)) {
            if (grow_array((void **)&lib->outside, &lib->outside_cap, lib->n_outside + 1, sizeof *lib->outside))
                lib->outside[lib->n_outside++] = (struct module_outside){ i, pos, rel, size };
            else
                lib->module_size_needed = true; /* then parse_modules walks it all */
        }
        n++;
        if (!ended)
            break;
        pos = next;
    }
    if (n == count && pos != end)
        lib_error(lib, pos, "function list declares %llu %s but its entries end %lld %s %s",
                  (unsigned long long)(r.size - 4), mbx_noun(r.size - 4, "byte", "bytes"),
                  (long long)(pos > end ? pos - end : end - pos), mbx_noun(pos > end ? pos - end : end - pos, "byte", "bytes"),
                  pos > end ? "later" : "earlier");
    if (kept) {
        /* Every block is decoded, and stays: the entries past n (a list
         * cut short) are zero and never asked for. */
        for (size_t k = 0; k < lib->fn_blocks.n_blocks; k++)
            atomic_store_explicit(&lib->fn_blocks.state[k], 1, memory_order_relaxed);
        lib->fn_blocks.droppable = false;
        if (n == 0) {
            lazy_free(&lib->fn_blocks);
            kept = NULL;
        }
    }
    if (n && ((!kept && !lazy_init(&lib->fn_blocks, n, sizeof *lib->functions)) ||
              !(lib->hash_states = calloc(n, 1)))) {
        lib_out_of_memory(lib, r.offset, "out of memory for the table of %zu %s", n,
                          mbx_noun(n, "function", "functions"));
        lazy_free(&lib->fn_blocks);
        n = 0;
    }
    lib->functions = lib->fn_blocks.array;
    lib->n_functions = n;
}

size_t mbx_library_function_count(const mtlbx_library *lib) { return lib->n_functions; }

const struct mtlbx_function *mbx_function_at(const mtlbx_library *lib, size_t i)
{
    /* In the table: the caller may keep the pointer (until it forgets). */
    mtlbx_library *l = (mtlbx_library *)lib;
    return i < lib->n_functions ? lazy_get(l, &l->fn_blocks, i, decode_function_block) : NULL;
}

long mbx_library_function_find(const mtlbx_library *lib, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_bytes *b = &library_function(lib, i)->name;
        /* A function without NAME has no bytes to compare (ptr NULL). */
        if (b->len == len && (len == 0 || memcmp(b->ptr, name, len) == 0))
            return (long)i;
    }
    return -1;
}

int mbx_name_cmp(struct mtlbx_bytes a, struct mtlbx_bytes b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c)
        return c;
    return a.len < b.len ? -1 : a.len > b.len;
}
