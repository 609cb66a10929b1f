/* The function list (FORMAT §4): a u32 count and one size-prefixed tag
 * group per function. Each entry is walked to its ENDT inside the list's
 * bounds; the size prefix is only cross-checked, never trusted to locate
 * the next entry. */
#include "config.h"
#include "internal.h"

#include <stdlib.h>

/* Fixed value lengths (FORMAT §15 item 6). */
static bool expect_len(mtlbx_library *lib, const struct mtlbx_tag *t, uint64_t want)
{
    if (t->value_len == want)
        return true;
    lib_error(lib, t->offset, "%s value is %llu %s, expected %llu", t->name, (unsigned long long)t->value_len,
              mtlbx_noun(t->value_len, "byte", "bytes"), (unsigned long long)want);
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
    if (!bit) {
        lib_warning(lib, t->offset, "unknown function tag '%s'", t->name);
        return;
    }
    if (fn->present & bit) {
        lib_warning(lib, t->offset, "duplicate %s tag ignored", t->name);
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
        if (!mtlbx_function_type_known(v[0]))
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
        if (!mtlbx_data_type_known(v[0]))
            lib_warning(lib, t->value_offset, "unknown LAYR data type 0x%02x", v[0]);
        break;
    }
    fn->present |= bit;
}

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
    /* Sized exactly for the declared count (already bounded by what the
     * list can hold), capped so a hostile count reserves little; growth
     * takes over past the cap. calloc'd pages are only touched as entries
     * are parsed. */
    size_t cap = count < (1u << 20) ? count : (1u << 20), states_cap = cap;
    lib->functions = cap ? calloc(cap, sizeof *lib->functions) : NULL;
    lib->hash_states = cap ? calloc(cap, 1) : NULL;
    if (cap && (!lib->functions || !lib->hash_states))
        cap = states_cap = 0; /* grow_array will try again, smaller */
    size_t n = 0;
    uint64_t released = r.offset;
    for (uint32_t i = 0; i < count; i++) {
        /* Entries are read once: let their pages go every 4,096, or a
         * million of them (~150 MB) are resident on top of the table. */
        if (i % 4096 == 4095) {
            file_release_pages(lib->file, released, pos - released);
            released = pos;
        }
        if (end - pos < 8) {
            lib_error(lib, pos, "function list ends after %u of %u %s", i, count,
                      mtlbx_noun(count, "entry", "entries"));
            break;
        }
        if (!grow_array((void **)&lib->functions, &cap, n + 1, sizeof *lib->functions) ||
            !grow_array((void **)&lib->hash_states, &states_cap, n + 1, 1)) {
            lib_out_of_memory(lib, pos, "out of memory after %zu %s", n, mtlbx_noun(n, "function", "functions"));
            break;
        }
        struct mtlbx_function *fn = &lib->functions[n];
        fn->entry_offset = pos;
        fn->entry_size = rd32(data + pos);
        fn->public_md_offset = fn->private_md_offset = UINT64_MAX;
        struct mtlbx_tag_walk w;
        struct mtlbx_tag t;
        mtlbx_tag_walk_init(&w, lib->file, pos + 4, end - pos - 4);
        while (mtlbx_tag_walk_next(&w, &t))
            decode_function_tag(lib, fn, &t);
        if (!w.ended) {
            lib_error(lib, w.pos, "function %u: entry at 0x%llx has no ENDT inside the function list", i,
                      (unsigned long long)pos);
            n++;
            break;
        }
        if (fn->entry_size != w.pos - pos)
            lib_error(lib, pos, "function %u: entry size %u, but its tags end after %llu %s", i,
                      fn->entry_size, (unsigned long long)(w.pos - pos), mtlbx_noun(w.pos - pos, "byte", "bytes"));
        if (!(fn->present & MTLBX_F_NAME))
            lib_error(lib, pos, "function %u has no NAME", i);
        if (!(fn->present & MTLBX_F_OFFT))
            lib_error(lib, pos, "function %u has no OFFT: its metadata and module cannot be located", i);
        if (!(fn->present & MTLBX_F_HASH))
            lib_error(lib, pos, "function %u has no HASH", i);
        if (!(fn->present & MTLBX_F_VERS))
            lib_warning(lib, pos, "function %u has no VERS", i);
        pos = w.pos;
        n++;
    }
    lib->n_functions = n;
    if (n == count && pos != end)
        lib_error(lib, pos, "function list declares %llu %s but its entries end %lld %s %s",
                  (unsigned long long)(r.size - 4), mtlbx_noun(r.size - 4, "byte", "bytes"),
                  (long long)(pos > end ? pos - end : end - pos), mtlbx_noun(pos > end ? pos - end : end - pos, "byte", "bytes"),
                  pos > end ? "later" : "earlier");
}

size_t mtlbx_function_count(const mtlbx_library *lib) { return lib->n_functions; }

const struct mtlbx_function *mtlbx_function_at(const mtlbx_library *lib, size_t i)
{
    return i < lib->n_functions ? &lib->functions[i] : NULL;
}

long mtlbx_function_find(const mtlbx_library *lib, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_bytes *b = &lib->functions[i].name;
        if (b->len == len && memcmp(b->ptr, name, len) == 0)
            return (long)i;
    }
    return -1;
}

int mtlbx_name_cmp(struct mtlbx_bytes a, struct mtlbx_bytes b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c)
        return c;
    return a.len < b.len ? -1 : a.len > b.len;
}
