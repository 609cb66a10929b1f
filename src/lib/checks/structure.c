/* The file's structure: which parts each part has (structure.h), for the
 * byte layout and the node tree alike. */
#include "config.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "container/grow.h"
#include "checks/layout_entries.h"
#include "checks/structure.h"
#include "container/sources.h"

#include <stdlib.h>

/* Tags per group: a 64 KiB entry holds at most ~11,000 six-byte tags; the
 * cap only bounds a hostile group. */
#define MAX_GROUP_TAGS 16384

/* ------------------------------------------------- entries and groups -- */

/* Function i, its metadata, its public or private group: from the walk's
 * cursors, or from the library's tables. */
static const struct mtlbx_function *function_of(const struct structure *s, mtlbx_library *lib, size_t i)
{
    return s->entries ? layout_function(s->entries, lib, i) : mbx_function_at(lib, i);
}

static const struct mtlbx_metadata *metadata_of(const struct structure *s, mtlbx_library *lib, size_t i)
{
    return s->entries ? layout_metadata(s->entries, lib, i) : mbx_function_metadata(lib, i);
}

static struct mtlbx_range group_of(const struct structure *s, mtlbx_library *lib, size_t i, bool private_md)
{
    if (s->entries)
        return layout_group(s->entries, lib, i, private_md);
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, i);
    if (!md)
        return (struct mtlbx_range){ 0 };
    return private_md ? md->private_group : md->public_group;
}

/* ------------------------------------------------------------- parts -- */

struct out {
    const struct structure *s;
    const struct structure_part *parent;
    structure_part_fn fn;
    void *ctx;
    bool stopped;
};

static uint64_t clip_size(const mtlbx_file *f, uint64_t off, uint64_t size)
{
    if (off >= f->size)
        return 0;
    return size > f->size - off ? f->size - off : size;
}

static struct structure_part part(const struct out *o, enum mtlbx_node_kind kind, uint64_t off, uint64_t size,
                                  uint32_t index, uint32_t sub)
{
    return (struct structure_part){ .kind = kind, .offset = off, .size = clip_size(o->s->f, off, size),
                                    .lib = o->parent->lib, .index = index, .sub = sub };
}

static bool give(struct out *o, const struct structure_part *p)
{
    if (!o->stopped && !o->fn(o->ctx, p))
        o->stopped = true;
    return !o->stopped;
}

static bool add(struct out *o, enum mtlbx_node_kind kind, uint64_t off, uint64_t size, uint32_t index,
                uint32_t sub)
{
    struct structure_part p = part(o, kind, off, size, index, sub);
    return give(o, &p);
}

static bool add_tag(struct out *o, const struct mtlbx_tag *t, uint32_t index, uint32_t ctx)
{
    struct structure_part p = part(o, MTLBX_NODE_TAG, t->offset, (uint64_t)t->header_len + t->value_len, index, ctx);
    p.tag = *t;
    return give(o, &p);
}

static const uint8_t ENDT_BYTES[4] = { 'E', 'N', 'D', 'T' };

static void add_endt(struct out *o, uint64_t pos, uint32_t index, uint32_t ctx)
{
    struct mtlbx_tag t = { .name = "ENDT", .fourcc = TAG_ENDT, .offset = pos, .header_len = 4,
                           .value_offset = pos + 4, .known = true };
    add_tag(o, &t, index, ctx);
}

/* The tags in [off, end), and the ENDT that closes them (a part of its
 * own, so that every byte of a group belongs to a tag). */
static void add_tags(struct out *o, uint64_t off, uint64_t end, uint32_t index, uint32_t ctx)
{
    mtlbx_file *f = o->s->f;
    if (off >= end || end > f->size)
        return;
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, f, off, end - off);
    uint64_t pos = off;
    size_t count = 0;
    while (count < MAX_GROUP_TAGS && mbx_tag_walk_next(&w, &t)) {
        if (!add_tag(o, &t, index, ctx))
            return;
        pos = t.value_offset + t.value_len;
        count++;
    }
    if (w.ended && pos <= end - 4 && memcmp(f->data + pos, ENDT_BYTES, 4) == 0)
        add_endt(o, pos, index, ctx);
}

static void file_parts(struct out *o)
{
    mtlbx_file *f = o->s->f;
    if (f->fat)
        add(o, MTLBX_NODE_FAT_HEADER, 0, 8 + 20 * (uint64_t)mbx_fat_slice_count(f), 0, 0);
    for (size_t i = 0; i < mbx_gpu_slice_count(f); i++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, i);
        if (!add(o, MTLBX_NODE_GPU_SLICE, g->offset, g->size, (uint32_t)i, 0))
            return;
    }
    for (size_t i = 0; i < mbx_file_library_count(f); i++) {
        mtlbx_library *lib = mbx_library_at(f, i);
        const struct mtlbx_header *h = lib ? mbx_library_header(lib) : NULL;
        if (!h || (o->s->libraries_in_slices && mbx_gpu_slice_embedding(f, i)))
            continue;
        struct structure_part p = part(o, MTLBX_NODE_LIBRARY, h->base, h->available, (uint32_t)i, 0);
        p.lib = lib;
        if (!give(o, &p))
            return;
    }
    if (mbx_file_diag_count(f))
        add(o, MTLBX_NODE_DIAGNOSTICS, 0, 0, 0, 0);
}

static void fat_header_parts(struct out *o)
{
    for (size_t i = 0; i < mbx_fat_slice_count(o->s->f); i++) {
        const struct mbx_fat_slice *sl = mbx_fat_slice(o->s->f, i);
        if (sl && !add(o, MTLBX_NODE_FAT_SLICE, sl->entry_offset, 20, (uint32_t)i, 0))
            return;
    }
}

/* A GPU slice's pieces; a code section's functions, and (in the byte
 * layout) the library in its __metallib. */
static void gpu_parts(struct out *o)
{
    const struct structure_part *n = o->parent;
    mtlbx_file *f = o->s->f;
    if (n->kind == MTLBX_NODE_GPU_SLICE) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, n->index);
        for (size_t i = 0; i < g->n_pieces; i++)
            if (!add(o, MTLBX_NODE_GPU_PIECE, g->pieces[i].offset, g->pieces[i].size, (uint32_t)i, n->index))
                return;
        return;
    }
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, n->sub);
    const struct mtlbx_gpu_piece *piece = &g->pieces[n->index];
    if (piece->kind != MTLBX_GPU_PIECE_SECTION)
        return;
    for (size_t i = 0; i < g->n_functions; i++)
        if (g->functions[i].section == piece->index &&
            !add(o, MTLBX_NODE_GPU_FUNCTION, g->functions[i].offset, g->functions[i].size, (uint32_t)i, n->sub))
            return;
    mtlbx_library *lib = g->embedded_library >= 0 ? mbx_library_at(f, (size_t)g->embedded_library) : NULL;
    const struct mtlbx_header *h = lib ? mbx_library_header(lib) : NULL;
    if (o->s->libraries_in_slices && h && h->base >= piece->offset && h->base < piece->offset + piece->size) {
        struct structure_part p = part(o, MTLBX_NODE_LIBRARY, h->base, h->available,
                                       (uint32_t)g->embedded_library, n->sub);
        p.lib = lib;
        give(o, &p);
    }
}

static void library_parts(struct out *o)
{
    static const enum mtlbx_node_kind node_of[] = {
        [MTLBX_SECTION_HEADER] = MTLBX_NODE_HEADER,
        [MTLBX_SECTION_FUNCTION_LIST] = MTLBX_NODE_FUNCTION_LIST,
        [MTLBX_SECTION_HEADER_EXT] = MTLBX_NODE_HEADER_EXT,
        [MTLBX_SECTION_PUBLIC_MD] = MTLBX_NODE_PUBLIC_MD,
        [MTLBX_SECTION_PRIVATE_MD] = MTLBX_NODE_PRIVATE_MD,
        [MTLBX_SECTION_MODULE_LIST] = MTLBX_NODE_MODULE_LIST,
        [MTLBX_SECTION_SOURCES] = MTLBX_NODE_SOURCES,
        [MTLBX_SECTION_DYNAMIC_HEADER] = MTLBX_NODE_DYNAMIC_HEADER,
        [MTLBX_SECTION_LIST] = MTLBX_NODE_LIST,
    };
    mtlbx_library *lib = o->parent->lib;
    struct mtlbx_section sections[MTLBX_SECTIONS_MAX];
    size_t n = mbx_library_sections(lib, sections);
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_section *sec = &sections[i];
        uint32_t sub = sec->kind == MTLBX_SECTION_LIST ? (uint32_t)sec->list : 0;
        if (!add(o, node_of[sec->kind], sec->range.offset, sec->range.size, 0, sub))
            return;
    }
    if (mbx_library_diag_count(lib))
        add(o, MTLBX_NODE_DIAGNOSTICS, 0, 0, 0, 0);
}

/* An entry's tags, and (outside its span in every real file) its metadata
 * groups, its module and its interface (no bytes). */
static void function_parts(struct out *o)
{
    const struct structure_part *p = o->parent;
    const struct mtlbx_function *fn = function_of(o->s, p->lib, p->index);
    if (!fn)
        return;
    if (p->size >= 4)
        add_tags(o, p->offset + 4, p->offset + p->size, p->index, CTX_FUNCTION);
    /* (fn may not outlive the cursors' next reads: what is needed of it
     * is taken first) */
    uint64_t module_offset = fn->module.offset, module_size = fn->module_valid ? fn->module.size : 0;
    bool module_valid = fn->module_valid;
    struct mtlbx_range public_group = group_of(o->s, p->lib, p->index, false);
    struct mtlbx_range private_group = group_of(o->s, p->lib, p->index, true);
    if (public_group.size && !add(o, MTLBX_NODE_TAG_GROUP, public_group.offset, public_group.size, p->index,
                                  CTX_PUBLIC_MD))
        return;
    if (private_group.size && !add(o, MTLBX_NODE_TAG_GROUP, private_group.offset, private_group.size, p->index,
                                   CTX_PRIVATE_MD))
        return;
    if (!add(o, MTLBX_NODE_MODULE, module_offset, module_size, p->index, 0))
        return;
    if (module_valid)
        add(o, MTLBX_NODE_INTERFACE, module_offset, 0, p->index, 0);
}

static void header_ext_parts(struct out *o)
{
    mtlbx_file *f = o->s->f;
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(o->parent->lib);
    uint64_t pos = ext->range.offset, end = ext->range.offset + ext->range.size;
    for (size_t i = 0; i < ext->n_tags && i < MAX_GROUP_TAGS; i++) {
        const struct mtlbx_tag *t = &ext->tags[i];
        if (!add_tag(o, t, (uint32_t)i, CTX_HEADER_EXT))
            return;
        pos = t->value_offset + t->value_len;
    }
    if (pos >= ext->range.offset && pos <= end && end - pos >= 4 && end <= f->size &&
        memcmp(f->data + pos, ENDT_BYTES, 4) == 0)
        add_endt(o, pos, 0, CTX_HEADER_EXT);
}

static void sources_parts(struct out *o)
{
    const struct mtlbx_sources *src = mbx_library_sources(o->parent->lib);
    for (size_t i = 0; src && i < src->n_archives && i < UINT32_MAX; i++) {
        const struct mtlbx_archive *a = &src->archives[i];
        if (!add(o, MTLBX_NODE_ARCHIVE, a->group_offset, (uint64_t)a->group_size + 4, (uint32_t)i, 0))
            return;
    }
}

/* Core Image reflection of the function a public metadata group is named
 * after: its ARGR arguments, and a pointer argument's struct members. */
static const struct mtlbx_reflection *reflection_of(const struct out *o, uint32_t fn)
{
    mtlbx_library *lib = o->parent->lib;
    if (!lib || fn >= mbx_library_function_count(lib))
        return NULL;
    const struct mtlbx_metadata *md = metadata_of(o->s, lib, fn);
    return md ? &md->reflection : NULL;
}

static void argr_parts(struct out *o)
{
    const struct structure_part *p = o->parent;
    if (p->tag.fourcc != FOURCC('A', 'R', 'G', 'R') || p->sub != CTX_PUBLIC_MD)
        return;
    const struct mtlbx_reflection *r = reflection_of(o, p->index);
    for (size_t i = 0; r && i < r->n_arguments && i < UINT32_MAX; i++)
        if (!add(o, MTLBX_NODE_CI_ARGUMENT, r->arguments[i].offset, r->arguments[i].size, (uint32_t)i, p->index))
            return;
}

static void ci_member_parts(struct out *o)
{
    const struct structure_part *p = o->parent;
    const struct mtlbx_reflection *r = reflection_of(o, p->sub);
    if (!r || p->index >= r->n_arguments)
        return;
    const struct mtlbx_ci_argument *a = &r->arguments[p->index];
    for (size_t m = 0; m < a->n_members && m < UINT32_MAX; m++) {
        const struct mtlbx_ci_member *cm = &r->members[a->first_member + m];
        if (!add(o, MTLBX_NODE_CI_MEMBER, cm->offset, cm->size, (uint32_t)m, p->sub))
            return;
    }
}

bool structure_parts(const struct structure *s, const struct structure_part *p, structure_part_fn fn, void *ctx)
{
    struct out o = { .s = s, .parent = p, .fn = fn, .ctx = ctx };
    switch (p->kind) {
    case MTLBX_NODE_FILE: file_parts(&o); break;
    case MTLBX_NODE_FAT_HEADER: fat_header_parts(&o); break;
    case MTLBX_NODE_GPU_SLICE:
    case MTLBX_NODE_GPU_PIECE: gpu_parts(&o); break;
    case MTLBX_NODE_LIBRARY: library_parts(&o); break;
    case MTLBX_NODE_FUNCTION: function_parts(&o); break;
    case MTLBX_NODE_TAG_GROUP: /* tags start after the u32 size prefix */
        if (p->size >= 4)
            add_tags(&o, p->offset + 4, p->offset + p->size, p->index, p->sub);
        break;
    case MTLBX_NODE_HEADER_EXT: header_ext_parts(&o); break;
    case MTLBX_NODE_SOURCES: sources_parts(&o); break;
    case MTLBX_NODE_DYNAMIC_HEADER: add_tags(&o, p->offset, p->offset + p->size, 0, CTX_DYNAMIC); break;
    case MTLBX_NODE_TAG: argr_parts(&o); break;
    case MTLBX_NODE_CI_ARGUMENT: ci_member_parts(&o); break;
    /* leaves: HEADER, FAT_SLICE, GPU_FUNCTION, DIAGNOSTICS; an ARCHIVE's
     * members and a MODULE's blocks are the model's (structure.h) */
    default: break;
    }
    return !o.stopped;
}

/* ---------------------------------------------------------- sections -- */

bool structure_is_section(enum mtlbx_node_kind kind)
{
    return kind == MTLBX_NODE_FUNCTION_LIST || kind == MTLBX_NODE_PUBLIC_MD || kind == MTLBX_NODE_PRIVATE_MD ||
           kind == MTLBX_NODE_MODULE_LIST || kind == MTLBX_NODE_LIST;
}

/* What function i has in the section: its metadata group, or (size 1: it
 * counts even when invalid) its module's offset. */
static struct mtlbx_range piece_of(const struct structure_section *sec, size_t i)
{
    mtlbx_library *lib = sec->part.lib;
    if (sec->part.kind == MTLBX_NODE_MODULE_LIST)
        return (struct mtlbx_range){ function_of(sec->s, lib, i)->module.offset, 1 };
    return group_of(sec->s, lib, i, sec->part.kind == MTLBX_NODE_PRIVATE_MD);
}

/* May the section's pieces be taken in function order? The cursors know
 * it for all three sections in one pass; the tables are asked. */
static bool pieces_in_order(const struct structure_section *sec)
{
    const struct structure_part *p = &sec->part;
    if (sec->s->entries) {
        enum layout_pieces which = p->kind == MTLBX_NODE_MODULE_LIST ? PIECES_MODULES
                                   : p->kind == MTLBX_NODE_PRIVATE_MD ? PIECES_PRIVATE_MD : PIECES_PUBLIC_MD;
        bool in_order = layout_in_order(sec->s->entries, p->lib, which);
        layout_entries_rewind(sec->s->entries);
        return in_order;
    }
    uint64_t last = 0;
    for (size_t i = 0; i < sec->n; i++) {
        struct mtlbx_range r = piece_of(sec, i);
        if (r.size && r.offset < last)
            return false;
        last = r.size ? r.offset : last;
    }
    return true;
}

bool structure_section_open(const struct structure *s, const struct structure_part *p,
                            struct structure_section *sec)
{
    *sec = (struct structure_section){ .s = s, .part = *p };
    if (s->entries)
        layout_entries_rewind(s->entries);
    if (p->kind == MTLBX_NODE_LIST) {
        const struct mtlbx_list *l = mbx_library_list(p->lib, (enum mtlbx_list_kind)p->sub);
        sec->n = l ? l->n_groups : 0;
    } else {
        sec->n = mbx_library_function_count(p->lib);
    }
    if (sec->n > UINT32_MAX)
        sec->n = UINT32_MAX;
    if (p->kind == MTLBX_NODE_FUNCTION_LIST || p->kind == MTLBX_NODE_LIST || pieces_in_order(sec))
        return true;
    sec->sorted = malloc(sec->n * sizeof *sec->sorted);
    if (!sec->sorted)
        return false;
    for (size_t i = 0; i < sec->n; i++) {
        struct mtlbx_range r = piece_of(sec, i);
        if (r.size)
            sec->sorted[sec->n_sorted++] = (struct structure_by_off){ r.offset, (uint32_t)i };
    }
    qsort(sec->sorted, sec->n_sorted, sizeof *sec->sorted, structure_by_off_cmp);
    return true;
}

/* The next (offset, function) piece of a metadata or module section. */
static bool next_piece(struct structure_section *sec, struct structure_by_off *out)
{
    if (sec->sorted) {
        if (sec->cursor >= sec->n_sorted)
            return false;
        *out = sec->sorted[sec->cursor++];
        return true;
    }
    while (sec->cursor < sec->n) {
        size_t i = sec->cursor++;
        struct mtlbx_range r = piece_of(sec, i);
        if (r.size) {
            sec->piece = r;
            *out = (struct structure_by_off){ r.offset, (uint32_t)i };
            return true;
        }
    }
    return false;
}

bool structure_section_next(struct structure_section *sec, struct structure_part *out)
{
    const struct structure_part *p = &sec->part;
    mtlbx_library *lib = p->lib;
    uint64_t off, size;
    uint32_t index, sub = 0;
    enum mtlbx_node_kind kind;
    switch (p->kind) {
    case MTLBX_NODE_FUNCTION_LIST: {
        if (sec->cursor >= sec->n)
            return false;
        size_t i = sec->cursor++;
        const struct mtlbx_function *fn = function_of(sec->s, lib, i);
        uint64_t end = p->offset + p->size;
        /* A declared size past the list is clipped to it for the span. */
        off = fn->entry_offset;
        size = off >= end ? 0 : fn->entry_size > end - off ? end - off : fn->entry_size;
        kind = MTLBX_NODE_FUNCTION;
        index = (uint32_t)i;
        break;
    }
    case MTLBX_NODE_LIST: {
        if (sec->cursor >= sec->n)
            return false;
        size_t i = sec->cursor++;
        const struct mtlbx_list *l = mbx_library_list(lib, (enum mtlbx_list_kind)p->sub);
        off = l->groups[i].offset;
        size = l->groups[i].size;
        kind = MTLBX_NODE_TAG_GROUP;
        index = (uint32_t)i;
        sub = CTX_LIST + p->sub;
        break;
    }
    case MTLBX_NODE_MODULE_LIST: { /* one per function (two may share one) */
        struct structure_by_off cur;
        if (!next_piece(sec, &cur))
            return false;
        const struct mtlbx_function *fn = function_of(sec->s, lib, cur.idx);
        off = fn->module.offset;
        size = fn->module_valid ? fn->module.size : 0;
        kind = MTLBX_NODE_MODULE;
        index = cur.idx;
        break;
    }
    default: { /* a metadata section: one group per distinct group */
        struct structure_by_off cur;
        do {
            if (!next_piece(sec, &cur))
                return false;
        } while (sec->made_one && cur.off == sec->last_offset);
        struct mtlbx_range r = sec->sorted ? piece_of(sec, cur.idx) : sec->piece;
        sec->made_one = true;
        sec->last_offset = r.offset;
        off = r.offset;
        size = r.size;
        kind = MTLBX_NODE_TAG_GROUP;
        index = cur.idx;
        sub = p->kind == MTLBX_NODE_PUBLIC_MD ? CTX_PUBLIC_MD : CTX_PRIVATE_MD;
        break;
    }
    }
    *out = (struct structure_part){ .kind = kind, .offset = off, .size = clip_size(sec->s->f, off, size),
                                    .lib = lib, .index = index, .sub = sub };
    return true;
}

void structure_section_close(struct structure_section *sec)
{
    free(sec->sorted);
    sec->sorted = NULL;
}
