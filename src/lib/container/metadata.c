/* Per-function metadata groups (FORMAT §6, §7), located through OFFT.
 * Public: CNST function constants, VATT/VATY vertex attributes, RETR and
 * ARGR Core Image reflection (reflection.c). Private: DEBI debug info, DEPF dependency file. Decoded
 * on first need: library.c calls decode_metadata (see library_decode_rest). */
#include "config.h"
#include "container/cursor.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"
#include "container/tag_walk.h"
#include "container/value_names.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated string starting at p, never reading past end. */
static bool read_cstr(const uint8_t *p, const uint8_t *end, struct mtlbx_bytes *out)
{
    const uint8_t *nul = memchr(p, 0, (size_t)(end - p));
    if (!nul)
        return false;
    *out = (struct mtlbx_bytes){ p, (size_t)(nul - p) };
    return true;
}

/* The u16 count that starts CNST and VATT, checked against the smallest
 * possible entry so a hostile count cannot size an allocation. */
static bool entry_count(mtlbx_library *lib, const struct mtlbx_tag *t, size_t min_entry, uint16_t *count)
{
    if (t->value_len < 2) {
        lib_error(lib, t->offset, "%s value too short for its count", t->name);
        return false;
    }
    *count = rd16(t->value);
    if (*count > (t->value_len - 2) / min_entry) {
        lib_error(lib, t->offset, "%s count %u does not fit in %llu bytes", t->name, *count,
                  (unsigned long long)t->value_len);
        return false;
    }
    return true;
}

static void decode_cnst(mtlbx_library *lib, struct mtlbx_metadata *md, const struct mtlbx_tag *t)
{
    uint16_t count;
    /* Each constant takes at least 5 bytes: NUL, type, u16 index, active. */
    if (!entry_count(lib, t, 5, &count))
        return;
    const uint8_t *p = t->value + 2, *end = t->value + t->value_len;
    struct mtlbx_constant *c = calloc(count ? count : 1, sizeof *c);
    if (!c) {
        lib_out_of_memory(lib, t->offset, "out of memory for %u CNST entries", count);
        return;
    }
    size_t n = 0;
    for (; n < count; n++) {
        struct mtlbx_bytes name;
        if (!read_cstr(p, end, &name) || end - (p + name.len + 1) < 4) {
            lib_error(lib, t->value_offset + (uint64_t)(p - t->value), "CNST entry %zu runs past the tag", n);
            break;
        }
        const uint8_t *q = p + name.len + 1;
        c[n] = (struct mtlbx_constant){ .name = name, .type = q[0], .index = rd16(q + 1),
                                        .active = (q[3] & 1) != 0,
                                        .offset = t->value_offset + (uint64_t)(p - t->value) };
        if (!mbx_data_type_known(q[0]))
            lib_warning(lib, c[n].offset, "CNST entry %zu has unknown data type 0x%02x", n, q[0]);
        p = q + 4;
    }
    if (n == count && p != end)
        lib_warning(lib, t->value_offset + (uint64_t)(p - t->value), "CNST has %lld trailing bytes",
                    (long long)(end - p));
    md->constants = c;
    md->n_constants = n;
}

static void decode_vatt(mtlbx_library *lib, struct mtlbx_metadata *md, const struct mtlbx_tag *t)
{
    uint16_t count;
    /* Each attribute takes at least 3 bytes: NUL and the u16 info. */
    if (!entry_count(lib, t, 3, &count))
        return;
    const uint8_t *p = t->value + 2, *end = t->value + t->value_len;
    struct mtlbx_vertex_attr *a = calloc(count ? count : 1, sizeof *a);
    if (!a) {
        lib_out_of_memory(lib, t->offset, "out of memory for %u VATT entries", count);
        return;
    }
    size_t n = 0;
    for (; n < count; n++) {
        struct mtlbx_bytes name;
        if (!read_cstr(p, end, &name) || end - (p + name.len + 1) < 2) {
            lib_error(lib, t->value_offset + (uint64_t)(p - t->value), "VATT entry %zu runs past the tag", n);
            break;
        }
        uint16_t info = rd16(p + name.len + 1);
        a[n] = (struct mtlbx_vertex_attr){ .name = name, .index = info & 0x1FFF, .use = (info >> 13) & 3,
                                           .active = (info & 0x8000) != 0,
                                           .offset = t->value_offset + (uint64_t)(p - t->value) };
        p += name.len + 3;
    }
    md->attributes = a;
    md->n_attributes = n;
}

static void decode_vaty(mtlbx_library *lib, struct mtlbx_metadata *md, const struct mtlbx_tag *t)
{
    if (t->value_len < 2 || rd16(t->value) != t->value_len - 2) {
        lib_error(lib, t->offset, "VATY count does not match its length");
        return;
    }
    size_t count = rd16(t->value);
    if (count != md->n_attributes)
        lib_error(lib, t->offset, "VATY has %zu types for %zu vertex attributes", count, md->n_attributes);
    for (size_t i = 0; i < count && i < md->n_attributes; i++) {
        struct mtlbx_vertex_attr *a = (struct mtlbx_vertex_attr *)&md->attributes[i];
        a->has_type = true;
        a->type = t->value[2 + i];
    }
}

/* A group holds each of its tags once; a second one is kept visible. */
static void duplicate_tag(mtlbx_library *lib, const struct mtlbx_tag *t, const char *which)
{
    lib_warning(lib, t->offset, "duplicate %s tag in a metadata group; %s", t->name, which);
}

static void decode_public(mtlbx_library *lib, struct mtlbx_metadata *md, uint64_t body, uint64_t end)
{
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    const struct mtlbx_tag *vaty = NULL;
    struct mtlbx_tag vaty_copy;
    mbx_tag_walk_init(&w, lib->file, body, end - body);
    while (mbx_tag_walk_next(&w, &t)) {
        switch (t.fourcc) {
        case FOURCC('C', 'N', 'S', 'T'):
            if (md->constants)
                duplicate_tag(lib, &t, "the first is used");
            else
                decode_cnst(lib, md, &t);
            break;
        case FOURCC('V', 'A', 'T', 'T'):
            if (md->attributes)
                duplicate_tag(lib, &t, "the first is used");
            else
                decode_vatt(lib, md, &t);
            break;
        case FOURCC('V', 'A', 'T', 'Y'):
            if (vaty)
                duplicate_tag(lib, &t, "the last is used");
            vaty_copy = t;
            vaty = &vaty_copy;
            break;
        case FOURCC('R', 'E', 'T', 'R'): reflection_decode_retr(lib, &md->reflection, &t); break;
        case FOURCC('A', 'R', 'G', 'R'): reflection_decode_argr(lib, &md->reflection, &t); break;
        default: lib_warning(lib, t.offset, "unknown public metadata tag '%s'", t.name); break;
        }
    }
    /* VATY may come before VATT; types are applied once both are known. */
    if (vaty)
        decode_vaty(lib, md, vaty);
}

static void decode_private(mtlbx_library *lib, struct mtlbx_metadata *md, uint64_t body, uint64_t end)
{
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, lib->file, body, end - body);
    while (mbx_tag_walk_next(&w, &t)) {
        const uint8_t *vend = t.value + t.value_len;
        switch (t.fourcc) {
        case FOURCC('D', 'E', 'B', 'I'):
            if (md->has_debi)
                duplicate_tag(lib, &t, "the last is used");
            if (t.value_len < 5 || !read_cstr(t.value + 4, vend, &md->debi_path)) {
                lib_error(lib, t.offset, "DEBI is not a line number and a NUL-terminated path");
                break;
            }
            md->debi_line = rd32(t.value);
            md->has_debi = true;
            break;
        case FOURCC('D', 'E', 'P', 'F'):
            if (md->has_depf)
                duplicate_tag(lib, &t, "the last is used");
            if (!read_cstr(t.value, vend, &md->depf_path)) {
                lib_warning(lib, t.offset, "DEPF path has no terminating NUL");
                md->depf_path = (struct mtlbx_bytes){ t.value, (size_t)t.value_len };
            }
            md->has_depf = true;
            break;
        default:
            lib_warning(lib, t.offset, "unknown private metadata tag '%s'", t.name);
            break;
        }
    }
}

/* Locates and decodes one group; returns its span through *group. */
static bool metadata_group(mtlbx_library *lib, size_t i, uint64_t rel, struct mtlbx_range sec,
                           const char *what, struct mtlbx_range *group, uint64_t *body, uint64_t *end)
{
    if (rel >= sec.size) {
        lib_error(lib, library_function(lib, i)->entry_offset,
                  "function %zu: %s offset 0x%llx is outside its section (0x%llx bytes)", i, what,
                  (unsigned long long)rel, (unsigned long long)sec.size);
        return false;
    }
    uint64_t off = sec.offset + rel;
    if (!group_bounds(lib, off, sec.offset + sec.size, what, true, body, end))
        return false;
    *group = (struct mtlbx_range){ off, *end - off };
    return true;
}

static void decode_one(mtlbx_library *lib, const struct mtlbx_function *fn, size_t i, struct mtlbx_metadata *md)
{
    if (!(fn->present & MTLBX_F_OFFT))
        return;
    uint64_t body, end;
    if (metadata_group(lib, i, fn->offt[0], lib->header.public_md, "public metadata", &md->public_group, &body,
                       &end))
        decode_public(lib, md, body, end);
    if (metadata_group(lib, i, fn->offt[1], lib->header.private_md, "private metadata", &md->private_group,
                       &body, &end))
        decode_private(lib, md, body, end);
}

/* Frees what count decoded entries own. */
static void clear_entries(struct mtlbx_metadata *md, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free((void *)md[i].constants);
        free((void *)md[i].attributes);
        mbx_reflection_free(&md[i].reflection);
    }
}

static void clear_metadata(mtlbx_library *lib, size_t first, size_t count)
{
    clear_entries(lib->metadata + first, count);
}

/* Decodes a dropped block again, quietly (its findings were reported by
 * decode_metadata). */
static void decode_metadata_block(mtlbx_library *lib, size_t first, size_t count)
{
    diag_quiet_begin();
    for (size_t i = first; i < first + count; i++) {
        lib->metadata[i] = (struct mtlbx_metadata){ 0 };
        decode_one(lib, library_function(lib, i), i, &lib->metadata[i]);
    }
    diag_quiet_end();
}

struct mtlbx_metadata *library_metadata(const mtlbx_library *lib, size_t i)
{
    mtlbx_library *l = (mtlbx_library *)lib;
    return lib->metadata && i < lib->n_functions ? lazy_get(l, &l->md_blocks, i, decode_metadata_block) : NULL;
}

void library_forget_metadata(mtlbx_library *lib, size_t before)
{
    lazy_drop_before(lib, &lib->md_blocks, before, clear_metadata);
}

const struct mtlbx_metadata *metadata_cursor_at(mtlbx_library *lib, struct metadata_cursor *c,
                                                struct function_cursor *fns, size_t i)
{
    size_t k = i / LAZY_BLOCK, first = k * LAZY_BLOCK;
    if (!lib->metadata || i >= lib->n_functions)
        return NULL;
    if (atomic_load_explicit(&lib->md_blocks.state[k], memory_order_acquire))
        return &lib->metadata[i];
    if (!c->buf && !(c->buf = calloc(LAZY_BLOCK, sizeof *c->buf)))
        return library_metadata(lib, i); /* into the table, as before */
    if (!c->valid || c->block != k) {
        clear_entries(c->buf, c->n);
        c->n = lib->n_functions - first < LAZY_BLOCK ? lib->n_functions - first : LAZY_BLOCK;
        /* Quietly, as a dropped block is decoded again: the first pass
         * reported its findings. */
        diag_quiet_begin();
        for (size_t j = 0; j < c->n; j++) {
            c->buf[j] = (struct mtlbx_metadata){ 0 };
            decode_one(lib, function_cursor_at(lib, fns, first + j), first + j, &c->buf[j]);
        }
        diag_quiet_end();
        c->block = k;
        c->valid = true;
    }
    return &c->buf[i - first];
}

struct mtlbx_range metadata_group_at(mtlbx_library *lib, struct metadata_cursor *c, struct function_cursor *fns,
                                     size_t i, bool private_md)
{
    size_t k = i / LAZY_BLOCK;
    if (!lib->metadata || i >= lib->n_functions)
        return (struct mtlbx_range){ 0 };
    const struct mtlbx_metadata *md = NULL;
    if (atomic_load_explicit(&lib->md_blocks.state[k], memory_order_acquire))
        md = &lib->metadata[i];
    else if (c->valid && c->block == k)
        md = &c->buf[i - k * LAZY_BLOCK];
    if (md)
        return private_md ? md->private_group : md->public_group;
    /* Where decode_one finds the group, without decoding its tags. */
    const struct mtlbx_function *fn = function_cursor_at(lib, fns, i);
    struct mtlbx_range group = { 0 };
    uint64_t body, end;
    if (!fn || !(fn->present & MTLBX_F_OFFT))
        return group;
    diag_quiet_begin();
    if (!metadata_group(lib, i, fn->offt[private_md], private_md ? lib->header.private_md : lib->header.public_md,
                        private_md ? "private metadata" : "public metadata", &group, &body, &end))
        group = (struct mtlbx_range){ 0 };
    diag_quiet_end();
    return group;
}

void metadata_cursor_free(struct metadata_cursor *c)
{
    if (c->buf)
        clear_entries(c->buf, c->n);
    free(c->buf);
    *c = (struct metadata_cursor){ 0 };
}

/* The first pass, which reports: every group is decoded once, block by
 * block. A library small enough to keep its function table
 * (FUNCTION_TABLE_KEEP) keeps its metadata too, at most 5.8 MB: the byte
 * layout and the views read every group again, and decoding a block
 * again costs more than keeping it. A bigger library drops each block
 * again, unless the walk budget ran out (then what was cut short could
 * not be decoded again the same way, and the rest stays as decoded).
 * Nobody else holds a pointer yet: the accessors wait for this pass
 * (library_decode_rest). */
void decode_metadata(mtlbx_library *lib, struct function_cursor *fns)
{
    size_t n = lib->n_functions;
    if (!n)
        return;
    if (!lazy_init(&lib->md_blocks, n, sizeof *lib->metadata)) {
        lib_out_of_memory(lib, lib->header.public_md.offset, "out of memory for the metadata of %zu functions", n);
        return;
    }
    lib->metadata = lib->md_blocks.array;
    const bool keep = n <= FUNCTION_TABLE_KEEP;
    if (keep)
        lib->md_blocks.droppable = false;
    for (size_t k = 0; k < lib->md_blocks.n_blocks; k++) {
        size_t first = k * LAZY_BLOCK, count = n - first < LAZY_BLOCK ? n - first : LAZY_BLOCK;
        lazy_populate(&lib->md_blocks, first, count);
        for (size_t i = first; i < first + count; i++)
            decode_one(lib, function_cursor_at(lib, fns, i), i, &lib->metadata[i]);
        atomic_store_explicit(&lib->md_blocks.state[k], 1, memory_order_release);
        if (lib->walk_budget_reported)
            lib->md_blocks.droppable = false;
        library_forget_metadata(lib, first + count);
        /* Groups already decoded are not read again here: memory stays
         * what the decoded metadata takes, not the sections' size too. */
        mbx_library_release_pages(lib);
    }
}

void free_metadata(mtlbx_library *lib)
{
    if (lib->metadata) {
        lib->md_blocks.droppable = true;
        library_forget_metadata(lib, lib->n_functions);
        lazy_free(&lib->md_blocks);
    }
    lib->metadata = NULL;
}
