/* The node tree every view walks: built lazily, one level at a time, from
 * the parsed library. Opening a library builds only the root; a node's
 * children appear on the first child request, so a library with 200,000
 * functions builds no function node until its function list is expanded,
 * and no tag node until a function is. Nodes live in an arena owned by the
 * file and freed all at once by nodes_free(). Nothing here recurses: the
 * tree is walked with loops whose depth is bounded by MAX_DEPTH. */
#include "config.h"
#include "node.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "bitcode/interface.h"
#include "checks/hash.h"
#include "model/model.h"
#include "model/msl.h"

#include <stdlib.h>
#include <string.h>

/* A file-derived tree is at most FILE > LIBRARY > FUNCTION > GROUP > TAG
 * deep (six levels); anything deeper is a bug, not a file. */
#define MAX_DEPTH 16
/* Tags per group. A 64 KiB entry holds at most ~11,000 six-byte tags; the
 * cap only stops a hostile group from costing more than that. */
#define MAX_GROUP_TAGS 16384
/* How far the offset search looks back among overlapping siblings. Real
 * files never overlap; a hostile one gets an answer, not a hang. */
#define MAX_OVERLAP_SCAN 64

/* ------------------------------------------------------------ build -- */

/* Children are gathered in a malloc'd vector, then copied into the arena
 * in one piece once their number is known. */
struct kids {
    mtlbx_model *m;
    mtlbx_file *f;
    struct node_arena *a;
    mtlbx_node *parent;
    mtlbx_node **v;
    size_t n, cap;
    bool failed;
    size_t seen;               /* children met so far, made or not */
    uint64_t last_offset;      /* the offset of the last of them */
    /* Building a window (node_window_fill): children whose ordinal is
     * outside [window->lo, window->hi) are only counted. The builder still
     * fills them in, in the window's scratch node, which the next one
     * overwrites. */
    struct node_window *window;
};

static uint64_t clip_size(const mtlbx_file *f, uint64_t off, uint64_t size)
{
    if (off >= f->size)
        return 0;
    return size > f->size - off ? f->size - off : size;
}

static mtlbx_node *kid(struct kids *k, enum mtlbx_node_kind kind, uint64_t off, uint64_t size)
{
    if (k->failed)
        return NULL;
    size_t ordinal = k->seen++;
    k->last_offset = off;
    /* Outside a window: counted, then dropped. */
    if (k->window && (ordinal < k->window->lo || ordinal >= k->window->hi)) {
        k->window->scratch = (mtlbx_node){ .kind = kind, .offset = off, .parent = k->parent };
        return &k->window->scratch;
    }
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 16;
        mtlbx_node **v = realloc(k->v, cap * sizeof *v);
        if (!v) {
            k->failed = true;
            return NULL;
        }
        k->v = v;
        k->cap = cap;
    }
    mtlbx_node *n = node_arena_alloc(k->a, sizeof *n);
    if (!n) {
        k->failed = true;
        return NULL;
    }
    n->kind = kind;
    n->offset = off;
    n->size = clip_size(k->f, off, size);
    n->parent = k->parent;
    n->lib = k->parent ? k->parent->lib : NULL;
    k->v[k->n++] = n;
    return n;
}

/* Installs the gathered children. On any failure the node keeps no
 * children but counts as built, so a low-memory tree degrades to leaves
 * instead of retrying on every redraw. */
static void kids_finish(struct kids *k)
{
    mtlbx_node *p = k->parent;
    p->built = true;
    p->n_children = 0;
    p->children = NULL;
    if (!k->failed && k->n) {
        mtlbx_node **c = node_arena_alloc(k->a, k->n * sizeof *c);
        if (c) {
            memcpy(c, k->v, k->n * sizeof *c);
            p->children = c;
            p->n_children = (uint32_t)k->n;
        }
    }
    /* Sorted, non-overlapping children let the offset search bisect. */
    p->sorted = p->n_children > 0;
    for (uint32_t i = 1; i < p->n_children && p->sorted; i++)
        if (p->children[i]->offset < p->children[i - 1]->offset)
            p->sorted = false;
    free(k->v);
    k->v = NULL;
}

static const uint8_t ENDT_BYTES[4] = { 'E', 'N', 'D', 'T' };

/* TAG children for the tags in [off, end), ending with the ENDT that closes
 * them (as its own node, so every byte of a group belongs to a tag). */
static void add_tags(struct kids *k, uint64_t off, uint64_t end, uint32_t index, uint32_t ctx)
{
    mtlbx_file *f = k->f;
    if (off >= end || end > f->size)
        return;
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, f, off, end - off);
    uint64_t pos = off;
    size_t count = 0;
    while (count < MAX_GROUP_TAGS && mbx_tag_walk_next(&w, &t)) {
        mtlbx_node *n = kid(k, MTLBX_NODE_TAG, t.offset, (uint64_t)t.header_len + t.value_len);
        if (!n)
            return;
        n->tag = t;
        n->index = index;
        n->sub = ctx;
        n->flags = node_tag_flags(f, n);
        pos = t.value_offset + t.value_len;
        count++;
    }
    if (w.ended && pos <= end - 4 && memcmp(f->data + pos, ENDT_BYTES, 4) == 0) {
        mtlbx_node *n = kid(k, MTLBX_NODE_TAG, pos, 4);
        if (!n)
            return;
        n->tag = (struct mtlbx_tag){ .name = "ENDT", .fourcc = TAG_ENDT, .offset = pos,
                                     .header_len = 4, .value_offset = pos + 4, .known = true };
        n->index = index;
        n->sub = ctx;
    }
}

/* A size-prefixed group: tags start after the u32 prefix. */
static void add_group_tags(struct kids *k, const mtlbx_node *g)
{
    if (g->size >= 4)
        add_tags(k, g->offset + 4, g->offset + g->size, g->index, g->sub);
}

static void build_file(struct kids *k)
{
    mtlbx_file *f = k->f;
    if (f->fat) {
        uint64_t n = mbx_fat_slice_count(f);
        kid(k, MTLBX_NODE_FAT_HEADER, 0, 8 + 20 * n);
    }
    for (size_t i = 0; i < mbx_gpu_slice_count(f); i++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, i);
        mtlbx_node *n = kid(k, MTLBX_NODE_GPU_SLICE, g->offset, g->size);
        if (n)
            n->index = (uint32_t)i;
    }
    size_t nl = mbx_file_library_count(f);
    for (size_t i = 0; i < nl; i++) {
        mtlbx_library *lib = mbx_library_at(f, i);
        const struct mtlbx_header *h = lib ? mbx_library_header(lib) : NULL;
        if (!h) /* (an embedded library stays here too, beside its GPU slice:
                   the views find libraries among the root's children) */
            continue;
        mtlbx_node *n = kid(k, MTLBX_NODE_LIBRARY, h->base, h->available);
        if (!n)
            return;
        n->lib = lib;
        n->index = (uint32_t)i;
    }
    if (mbx_file_diag_count(f))
        kid(k, MTLBX_NODE_DIAGNOSTICS, 0, 0);
}

/* A GPU slice's pieces (as the layout walks them) and a section's
 * functions. The library in __metallib is the root's child, as every
 * library is. */
static void build_gpu(struct kids *k)
{
    const mtlbx_node *p = k->parent;
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(k->f, p->kind == MTLBX_NODE_GPU_SLICE ? p->index : p->sub);
    if (p->kind == MTLBX_NODE_GPU_SLICE) {
        for (size_t i = 0; i < g->n_pieces; i++) {
            mtlbx_node *c = kid(k, MTLBX_NODE_GPU_PIECE, g->pieces[i].offset, g->pieces[i].size);
            if (c) {
                c->index = (uint32_t)i;
                c->sub = p->index;
            }
        }
        return;
    }
    const struct mtlbx_gpu_piece *piece = &g->pieces[p->index];
    if (piece->kind != MTLBX_GPU_PIECE_SECTION)
        return;
    for (size_t i = 0; i < g->n_functions; i++) {
        mtlbx_node *c = g->functions[i].section == piece->index
                ? kid(k, MTLBX_NODE_GPU_FUNCTION, g->functions[i].offset, g->functions[i].size) : NULL;
        if (c) {
            c->index = (uint32_t)i;
            c->sub = p->sub;
        }
    }
}

static void build_fat_header(struct kids *k)
{
    size_t n = mbx_fat_slice_count(k->f);
    for (size_t i = 0; i < n; i++) {
        const struct mbx_fat_slice *s = mbx_fat_slice(k->f, i);
        mtlbx_node *c = s ? kid(k, MTLBX_NODE_FAT_SLICE, s->entry_offset, 20) : NULL;
        if (c)
            c->index = (uint32_t)i;
    }
}

static void build_library(struct kids *k)
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
    mtlbx_library *lib = k->parent->lib;
    struct mtlbx_section sections[MTLBX_SECTIONS_MAX];
    size_t n = mbx_library_sections(lib, sections);
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_section *s = &sections[i];
        mtlbx_node *c = kid(k, node_of[s->kind], s->range.offset, s->range.size);
        if (c && s->kind == MTLBX_SECTION_LIST)
            c->sub = (uint32_t)s->list;
    }
    if (mbx_library_diag_count(lib))
        kid(k, MTLBX_NODE_DIAGNOSTICS, 0, 0);
}

/* A section's builder starts at 0, or where a walk's previous window
 * stopped (node_window_fill), ... */
static size_t section_start(const struct kids *k)
{
    return k->window ? k->window->cursor : 0;
}

/* ... and stops once a window is full, to go on from `cursor` next time. */
static bool section_full(struct kids *k, size_t cursor)
{
    if (!k->window || k->seen < k->window->hi)
        return false;
    k->window->cursor = cursor;
    k->window->full = true;
    return true;
}

static void build_function_list(struct kids *k)
{
    mtlbx_library *lib = k->parent->lib;
    size_t n = mbx_library_function_count(lib);
    uint64_t end = k->parent->offset + k->parent->size;
    for (size_t i = section_start(k); i < n && i < UINT32_MAX && !section_full(k, i); i++) {
        const struct mtlbx_function *fn = mbx_function_at(lib, i);
        uint64_t size = fn->entry_size;
        /* A declared size past the list is clipped to it for the span. */
        if (fn->entry_offset >= end)
            size = 0;
        else if (size > end - fn->entry_offset)
            size = end - fn->entry_offset;
        mtlbx_node *c = kid(k, MTLBX_NODE_FUNCTION, fn->entry_offset, size);
        if (!c)
            return;
        c->index = (uint32_t)i;
        if ((fn->present & MTLBX_F_TYPE) && !mbx_function_type_known(fn->type))
            c->flags |= MTLBX_NODE_UNKNOWN;
    }
}

static void add_md_group(struct kids *k, struct mtlbx_range r, uint32_t fn, uint32_t ctx)
{
    mtlbx_node *g = kid(k, MTLBX_NODE_TAG_GROUP, r.offset, r.size);
    if (g) {
        g->index = fn;
        g->sub = ctx;
    }
}

static void add_module(struct kids *k, const struct mtlbx_function *fn, uint32_t i)
{
    mtlbx_node *m = kid(k, MTLBX_NODE_MODULE, fn->module.offset, fn->module_valid ? fn->module.size : 0);
    if (m)
        m->index = i;
}

static void build_function(struct kids *k)
{
    mtlbx_node *p = k->parent;
    const struct mtlbx_function *fn = mbx_function_at(p->lib, p->index);
    if (!fn)
        return;
    if (p->size >= 4)
        add_tags(k, p->offset + 4, p->offset + p->size, p->index, CTX_FUNCTION);
    const struct mtlbx_metadata *md = mbx_function_metadata(p->lib, p->index);
    if (md && md->public_group.size)
        add_md_group(k, md->public_group, p->index, CTX_PUBLIC_MD);
    if (md && md->private_group.size)
        add_md_group(k, md->private_group, p->index, CTX_PRIVATE_MD);
    add_module(k, fn, p->index);
    if (fn->module_valid) {
        mtlbx_node *in = kid(k, MTLBX_NODE_INTERFACE, fn->module.offset, 0);
        if (in)
            in->index = p->index;
    }
}

/* ---- interfaces and bitcode blocks: from a kept interface only, so the
 * tree never decodes (the explorer's background thread does). ---- */

/* Children of a MODULE (parent UINT32_MAX) or of BC_BLOCK `parent`.
 * Real bitcode nests blocks four deep; a hostile module may nest up to
 * the reader's limit, and the tree shows only the first NODE_BC_DEPTH
 * levels so that it stays within MAX_DEPTH. */
#define NODE_BC_DEPTH 8
static void build_blocks(struct kids *k, const struct mtlbx_interface *iface, uint32_t parent)
{
    const struct mtlbx_module_info *m = &iface->module;
    if (parent != UINT32_MAX && (parent >= m->n_blocks || m->blocks[parent].depth + 1 >= NODE_BC_DEPTH))
        return;
    for (size_t b = 0; b < m->n_blocks && b < UINT32_MAX; b++) {
        if (m->blocks[b].parent != parent)
            continue;
        mtlbx_node *c = kid(k, MTLBX_NODE_BC_BLOCK, m->blocks[b].offset, m->blocks[b].size);
        if (!c)
            return;
        c->index = k->parent->index;
        c->sub = (uint32_t)b;
    }
}

static void add_arguments(struct kids *k, size_t n, uint32_t flag)
{
    for (size_t i = 0; i < n && i <= MTLBX_NODE_ARG_MAX; i++) {
        mtlbx_node *c = kid(k, MTLBX_NODE_ARGUMENT, k->parent->offset, 0);
        if (!c)
            return;
        c->index = k->parent->index;
        c->sub = flag | (uint32_t)i << 16;
    }
}

static void build_argument(struct kids *k)
{
    const struct mtlbx_air_argument *a = node_argument(k->m, k->parent, NULL);
    struct mtlbx_struct_member m;
    for (size_t i = 0; a && i <= MTLBX_NODE_MEMBER_MAX && mbx_argument_member(a, i, &m); i++) {
        mtlbx_node *c = kid(k, MTLBX_NODE_STRUCT_MEMBER, k->parent->offset, 0);
        if (!c)
            return;
        c->index = k->parent->index;
        c->sub = k->parent->sub | (uint32_t)i;
    }
}

/* Builds the children of an interface-backed node; false when its
 * interface is not decoded yet (the node is then built again later). */
static bool build_from_interface(struct kids *k)
{
    mtlbx_node *n = k->parent;
    const struct mtlbx_interface *iface = NULL;
    if (mbx_function_interface_cached(k->m, n->lib, n->index, &iface, NULL) == MTLBX_IFACE_NOT_DECODED)
        return false;
    if (!iface)
        return true;
    switch (n->kind) {
    case MTLBX_NODE_MODULE: build_blocks(k, iface, UINT32_MAX); break;
    case MTLBX_NODE_BC_BLOCK: build_blocks(k, iface, n->sub); break;
    case MTLBX_NODE_INTERFACE:
        add_arguments(k, iface->n_inputs, 0);
        add_arguments(k, iface->n_outputs, MTLBX_NODE_ARG_OUTPUT);
        break;
    case MTLBX_NODE_ARGUMENT: build_argument(k); break;
    default: break;
    }
    return true;
}

enum piece { PIECE_PUBLIC_MD, PIECE_PRIVATE_MD, PIECE_MODULE };

/* The pieces a section's children stand for (metadata groups, modules),
 * in offset order: function order when that is already so (every real
 * file), else a sorted copy of (offset, function) pairs, which a window
 * computes on its first fill and keeps for the next ones. */
struct pieces {
    mtlbx_library *lib;
    enum piece which;
    size_t n_functions;
    struct node_by_off *sorted; /* NULL: in function order */
    size_t n_sorted;
    bool owned;                 /* sorted is freed by pieces_close */
};

static struct mtlbx_range piece_range(mtlbx_library *lib, enum piece which, size_t i)
{
    if (which == PIECE_MODULE)
        return (struct mtlbx_range){ mbx_function_at(lib, i)->module.offset, 1 };
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, i);
    if (!md)
        return (struct mtlbx_range){ 0 };
    return which == PIECE_PUBLIC_MD ? md->public_group : md->private_group;
}

/* False (k->failed set) when memory ran out. */
static bool pieces_open(struct kids *k, enum piece which, struct pieces *p)
{
    mtlbx_library *lib = k->parent->lib;
    size_t n = mbx_library_function_count(lib);
    *p = (struct pieces){ .lib = lib, .which = which, .n_functions = n > UINT32_MAX ? UINT32_MAX : n };
    if (k->window && k->window->pieces_known) {
        p->sorted = k->window->pieces;
        p->n_sorted = k->window->n_pieces;
        return true;
    }
    bool in_order = true;
    uint64_t last = 0;
    for (size_t i = 0; i < p->n_functions && in_order; i++) {
        struct mtlbx_range r = piece_range(lib, which, i);
        in_order = !r.size || r.offset >= last;
        last = r.size ? r.offset : last;
    }
    if (k->window)
        k->window->pieces_known = in_order;
    if (in_order)
        return true;
    struct node_by_off *v = malloc(p->n_functions * sizeof *v);
    if (!v) {
        k->failed = true;
        return false;
    }
    size_t m = 0;
    for (size_t i = 0; i < p->n_functions; i++) {
        struct mtlbx_range r = piece_range(lib, which, i);
        if (r.size)
            v[m++] = (struct node_by_off){ r.offset, (uint32_t)i };
    }
    qsort(v, m, sizeof *v, node_by_off_cmp);
    p->sorted = v;
    p->n_sorted = m;
    if (k->window) {
        k->window->pieces = v;
        k->window->n_pieces = m;
        k->window->pieces_known = true;
    } else {
        p->owned = true;
    }
    return true;
}

/* The next piece at or after *cursor, in offset order; false at the end. */
static bool pieces_next(const struct pieces *p, size_t *cursor, struct node_by_off *out)
{
    if (p->sorted) {
        if (*cursor >= p->n_sorted)
            return false;
        *out = p->sorted[(*cursor)++];
        return true;
    }
    while (*cursor < p->n_functions) {
        size_t i = (*cursor)++;
        struct mtlbx_range r = piece_range(p->lib, p->which, i);
        if (r.size) {
            *out = (struct node_by_off){ r.offset, (uint32_t)i };
            return true;
        }
    }
    return false;
}

static void pieces_close(struct pieces *p)
{
    if (p->owned)
        free(p->sorted);
    p->sorted = NULL;
}

/* One TAG_GROUP per distinct group (functions may share one), in file
 * order; the group is named after the first function that uses it. */
static void build_md_section(struct kids *k, bool public)
{
    struct pieces p;
    if (!pieces_open(k, public ? PIECE_PUBLIC_MD : PIECE_PRIVATE_MD, &p))
        return;
    struct node_by_off cur;
    for (size_t c = section_start(k); !section_full(k, c) && pieces_next(&p, &c, &cur);)
        if (!k->seen || cur.off != k->last_offset) /* not the group just made */
            add_md_group(k, piece_range(p.lib, p.which, cur.idx), cur.idx, public ? CTX_PUBLIC_MD : CTX_PRIVATE_MD);
    pieces_close(&p);
}

/* One MODULE per function, in file order (two functions may share one). */
static void build_module_list(struct kids *k)
{
    struct pieces p;
    if (!pieces_open(k, PIECE_MODULE, &p))
        return;
    struct node_by_off cur;
    for (size_t c = section_start(k); !section_full(k, c) && pieces_next(&p, &c, &cur);)
        add_module(k, mbx_function_at(p.lib, cur.idx), cur.idx);
    pieces_close(&p);
}

static void build_sources(struct kids *k)
{
    const struct mtlbx_sources *s = mbx_library_sources(k->parent->lib);
    for (size_t i = 0; s && i < s->n_archives && i < UINT32_MAX; i++) {
        const struct mtlbx_archive *a = &s->archives[i];
        mtlbx_node *c = kid(k, MTLBX_NODE_ARCHIVE, a->group_offset, (uint64_t)a->group_size + 4);
        if (c)
            c->index = (uint32_t)i;
    }
}

/* Asking for an archive's children decompresses it: that is what
 * expanding it means. The offset search never asks (see mbx_node_at_offset). */
static void build_archive(struct kids *k)
{
    mtlbx_node *p = k->parent;
    if (mbx_archive_load(p->lib, p->index) != MTLBX_ARCHIVE_LOADED)
        return;
    const struct mtlbx_sources *s = mbx_library_sources(p->lib);
    const struct mtlbx_archive *a = &s->archives[p->index];
    /* Members are inside the compressed payload: they all share its span. */
    for (size_t i = 0; i < a->n_members && i < UINT32_MAX; i++) {
        mtlbx_node *c = kid(k, MTLBX_NODE_MEMBER, a->payload_offset, a->payload.len);
        if (!c)
            return;
        c->index = (uint32_t)i;
        c->sub = p->index;
    }
}

static void build_header_ext(struct kids *k)
{
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(k->parent->lib);
    uint64_t pos = ext->range.offset, end = ext->range.offset + ext->range.size;
    for (size_t i = 0; i < ext->n_tags && i < MAX_GROUP_TAGS; i++) {
        const struct mtlbx_tag *t = &ext->tags[i];
        mtlbx_node *n = kid(k, MTLBX_NODE_TAG, t->offset, (uint64_t)t->header_len + t->value_len);
        if (!n)
            return;
        n->tag = *t;
        n->index = (uint32_t)i;
        n->sub = CTX_HEADER_EXT;
        n->flags = node_tag_flags(k->f, n);
        pos = t->value_offset + t->value_len;
    }
    if (pos >= ext->range.offset && pos <= end && end - pos >= 4 && end <= k->f->size &&
        memcmp(k->f->data + pos, ENDT_BYTES, 4) == 0) {
        mtlbx_node *n = kid(k, MTLBX_NODE_TAG, pos, 4);
        if (n) {
            n->tag = (struct mtlbx_tag){ .name = "ENDT", .fourcc = TAG_ENDT, .offset = pos,
                                         .header_len = 4, .value_offset = pos + 4, .known = true };
            n->sub = CTX_HEADER_EXT;
        }
    }
}

static void build_list(struct kids *k)
{
    mtlbx_node *p = k->parent;
    const struct mtlbx_list *l = mbx_library_list(p->lib, (enum mtlbx_list_kind)p->sub);
    for (size_t i = section_start(k); l && i < l->n_groups && i < UINT32_MAX && !section_full(k, i); i++) {
        mtlbx_node *g = kid(k, MTLBX_NODE_TAG_GROUP, l->groups[i].offset, l->groups[i].size);
        if (!g)
            return;
        g->index = (uint32_t)i;
        g->sub = CTX_LIST + p->sub;
    }
}

/* Core Image reflection: one row per ARGR argument (index = argument,
 * sub = function), one per struct member below a pointer argument. */
static void build_ci_arguments(struct kids *k)
{
    mtlbx_node *p = k->parent;
    if (p->tag.fourcc != FOURCC('A', 'R', 'G', 'R') || p->sub != CTX_PUBLIC_MD)
        return;
    const struct mtlbx_reflection *r = node_reflection(p);
    for (size_t i = 0; r && i < r->n_arguments && i < UINT32_MAX; i++) {
        mtlbx_node *c = kid(k, MTLBX_NODE_CI_ARGUMENT, r->arguments[i].offset, r->arguments[i].size);
        if (!c)
            return;
        c->index = (uint32_t)i;
        c->sub = p->index;
    }
}

static void build_ci_members(struct kids *k)
{
    mtlbx_node *p = k->parent;
    const struct mtlbx_reflection *r = node_reflection(p);
    if (!r || p->index >= r->n_arguments)
        return;
    const struct mtlbx_ci_argument *a = &r->arguments[p->index];
    for (size_t m = 0; m < a->n_members && m < UINT32_MAX; m++) {
        mtlbx_node *c = kid(k, MTLBX_NODE_CI_MEMBER, r->members[a->first_member + m].offset,
                            r->members[a->first_member + m].size);
        if (!c)
            return;
        c->index = (uint32_t)m;
        c->sub = p->sub;
    }
}

/* The sections that have a child per function (or list group). */
static bool is_section(enum mtlbx_node_kind kind)
{
    switch (kind) {
    case MTLBX_NODE_FUNCTION_LIST:
    case MTLBX_NODE_PUBLIC_MD:
    case MTLBX_NODE_PRIVATE_MD:
    case MTLBX_NODE_MODULE_LIST:
    case MTLBX_NODE_LIST:
        return true;
    default:
        return false;
    }
}

/* Builds a section's children; false (nothing built) for any other node. */
static bool build_section(struct kids *k)
{
    switch (k->parent->kind) {
    case MTLBX_NODE_FUNCTION_LIST: build_function_list(k); return true;
    case MTLBX_NODE_PUBLIC_MD: build_md_section(k, true); return true;
    case MTLBX_NODE_PRIVATE_MD: build_md_section(k, false); return true;
    case MTLBX_NODE_MODULE_LIST: build_module_list(k); return true;
    case MTLBX_NODE_LIST: build_list(k); return true;
    default: return false;
    }
}

static void build(mtlbx_model *m, mtlbx_node *n)
{
    struct kids k = { .m = m, .f = m->f, .a = m->arena, .parent = n };
    if (build_section(&k)) {
        kids_finish(&k);
        return;
    }
    switch (n->kind) {
    case MTLBX_NODE_FILE: build_file(&k); break;
    case MTLBX_NODE_FAT_HEADER: build_fat_header(&k); break;
    case MTLBX_NODE_GPU_SLICE:
    case MTLBX_NODE_GPU_PIECE: build_gpu(&k); break;
    case MTLBX_NODE_LIBRARY: build_library(&k); break;
    case MTLBX_NODE_FUNCTION: build_function(&k); break;
    case MTLBX_NODE_TAG_GROUP: add_group_tags(&k, n); break;
    case MTLBX_NODE_HEADER_EXT: build_header_ext(&k); break;
    case MTLBX_NODE_SOURCES: build_sources(&k); break;
    case MTLBX_NODE_ARCHIVE: build_archive(&k); break;
    case MTLBX_NODE_DYNAMIC_HEADER:
        add_tags(&k, n->offset, n->offset + n->size, 0, CTX_DYNAMIC);
        break;
    case MTLBX_NODE_MODULE:
    case MTLBX_NODE_BC_BLOCK:
    case MTLBX_NODE_INTERFACE:
    case MTLBX_NODE_ARGUMENT:
        if (!build_from_interface(&k)) {
            kids_finish(&k);
            n->built = false;   /* not decoded yet: look again next time */
            return;
        }
        break;
    case MTLBX_NODE_TAG: build_ci_arguments(&k); break;
    case MTLBX_NODE_CI_ARGUMENT: build_ci_members(&k); break;
    /* leaves: HEADER, FAT_SLICE, TAG (but ARGR), MEMBER, DIAGNOSTICS,
     * STRUCT_MEMBER, CI_MEMBER */
    default: break;
    }
    kids_finish(&k);
}

/* Diagnostics can appear after the library node was built (a background
 * hash check that finds a mismatch): add the DIAGNOSTICS node then. */
static void refresh_library(mtlbx_model *m, mtlbx_node *n)
{
    if (n->n_children && n->children[n->n_children - 1]->kind == MTLBX_NODE_DIAGNOSTICS)
        return;
    if (!mbx_library_diag_count(n->lib))
        return;
    mtlbx_node **c = node_arena_alloc(m->arena, (n->n_children + 1) * sizeof *c);
    mtlbx_node *d = node_arena_alloc(m->arena, sizeof *d);
    if (!c || !d)
        return;
    *d = (mtlbx_node){ .kind = MTLBX_NODE_DIAGNOSTICS, .parent = n, .lib = n->lib };
    if (n->n_children)
        memcpy(c, n->children, n->n_children * sizeof *c);
    c[n->n_children] = d;
    n->children = c;
    n->n_children++;
    n->sorted = false;
}

static void ensure_built(mtlbx_model *m, mtlbx_node *n)
{
    if (!n->built)
        build(m, n);
    else if (n->kind == MTLBX_NODE_LIBRARY)
        refresh_library(m, n);
}

/* ------------------------------------------------------------ public -- */

mtlbx_node *mbx_root(mtlbx_model *m)
{
    if (!m)
        return NULL;
    struct node_arena *a = m->arena;
    mtlbx_node **root = node_arena_root(a);
    if (!*root) {
        mtlbx_node *r = node_arena_alloc(a, sizeof *r);
        if (!r)
            return NULL;
        r->kind = MTLBX_NODE_FILE;
        r->offset = 0;
        r->size = m->f->size;
        *root = r;
    }
    return *root;
}

size_t mbx_node_child_count(mtlbx_model *m, mtlbx_node *n)
{
    if (!m || !n)
        return 0;
    ensure_built(m, n);
    return n->n_children;
}

mtlbx_node *mbx_node_child(mtlbx_model *m, mtlbx_node *n, size_t i)
{
    if (!m || !n)
        return NULL;
    ensure_built(m, n);
    return i < n->n_children ? n->children[i] : NULL;
}

mtlbx_node *mbx_node_child_of_kind(mtlbx_model *m, mtlbx_node *n, enum mtlbx_node_kind kind)
{
    size_t c = mbx_node_child_count(m, n);
    for (size_t i = 0; i < c; i++) {
        mtlbx_node *k = mbx_node_child(m, n, i);
        if (k && k->kind == kind)
            return k;
    }
    return NULL;
}

bool mbx_node_expandable(mtlbx_model *m, const mtlbx_node *n)
{
    if (!m || !n)
        return false;
    if (n->built)
        return n->n_children > 0;
    mtlbx_library *lib = n->lib;
    switch (n->kind) {
    case MTLBX_NODE_FILE:
    case MTLBX_NODE_LIBRARY:
    case MTLBX_NODE_FUNCTION:
        return true;
    case MTLBX_NODE_FAT_HEADER:
        return mbx_fat_slice_count(m->f) > 0;
    case MTLBX_NODE_GPU_SLICE:
        return mbx_gpu_slice_at(m->f, n->index)->n_pieces > 0;
    case MTLBX_NODE_GPU_PIECE: { /* a section with functions */
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(m->f, n->sub);
        for (size_t i = 0; g->pieces[n->index].kind == MTLBX_GPU_PIECE_SECTION && i < g->n_functions; i++)
            if (g->functions[i].section == g->pieces[n->index].index)
                return true;
        return false;
    }
    case MTLBX_NODE_FUNCTION_LIST:
    case MTLBX_NODE_PUBLIC_MD:
    case MTLBX_NODE_PRIVATE_MD:
    case MTLBX_NODE_MODULE_LIST:
        return mbx_library_function_count(lib) > 0;
    case MTLBX_NODE_TAG_GROUP:
    case MTLBX_NODE_DYNAMIC_HEADER:
        return n->size > 4;
    case MTLBX_NODE_HEADER_EXT:
        return n->size >= 4;
    case MTLBX_NODE_SOURCES: {
        const struct mtlbx_sources *s = mbx_library_sources(lib);
        return s && s->n_archives > 0;
    }
    case MTLBX_NODE_ARCHIVE: {
        const struct mtlbx_sources *s = mbx_library_sources(lib);
        if (!s || n->index >= s->n_archives)
            return false;
        const struct mtlbx_archive *a = &s->archives[n->index];
        return a->state == MTLBX_ARCHIVE_UNLOADED || (a->state == MTLBX_ARCHIVE_LOADED && a->n_members);
    }
    case MTLBX_NODE_LIST: {
        const struct mtlbx_list *l = mbx_library_list(lib, (enum mtlbx_list_kind)n->sub);
        return l && l->n_groups > 0;
    }
    case MTLBX_NODE_MODULE:
    case MTLBX_NODE_INTERFACE:
        /* Until decoded, say yes: the children appear when it is. */
        return n->size > 0 || n->kind == MTLBX_NODE_INTERFACE;
    case MTLBX_NODE_BC_BLOCK:
    case MTLBX_NODE_ARGUMENT: {
        const struct mtlbx_interface *iface = NULL;
        mbx_function_interface_cached(m, lib, n->index, &iface, NULL);
        if (!iface)
            return false;
        if (n->kind == MTLBX_NODE_ARGUMENT) {
            struct mtlbx_struct_member member;
            const struct mtlbx_air_argument *a = node_argument(m, n, NULL);
            return a && mbx_argument_member(a, 0, &member);
        }
        if (n->sub >= iface->module.n_blocks || iface->module.blocks[n->sub].depth + 1 >= NODE_BC_DEPTH)
            return false;
        for (size_t b = n->sub + (size_t)1; b < iface->module.n_blocks; b++)
            if (iface->module.blocks[b].parent == n->sub)
                return true;
        return false;
    }
    case MTLBX_NODE_TAG: {
        const struct mtlbx_reflection *r = n->tag.fourcc == FOURCC('A', 'R', 'G', 'R') && n->sub == CTX_PUBLIC_MD
                                               ? node_reflection(n) : NULL;
        return r && r->n_arguments > 0;
    }
    case MTLBX_NODE_CI_ARGUMENT: {
        const struct mtlbx_reflection *r = node_reflection(n);
        return r && n->index < r->n_arguments && r->arguments[n->index].n_members > 0;
    }
    default:
        return false;
    }
}

static bool contains(const mtlbx_node *n, uint64_t off)
{
    return off >= n->offset && off - n->offset < n->size;
}

struct child_key {
    const mtlbx_node *n;
    uint64_t off;
};

static bool starts_at_or_before(const void *ctx, size_t i)
{
    const struct child_key *k = ctx;
    return k->n->children[i]->offset <= k->off;
}

/* The smallest child containing off. Sorted children are bisected to the
 * last one starting at or before off; a few earlier ones are checked too
 * in case spans overlap (a hostile file, or shared modules). */
static mtlbx_node *child_at(const mtlbx_node *n, uint64_t off)
{
    mtlbx_node *best = NULL;
    if (n->sorted) {
        struct child_key k = { n, off };
        size_t lo = mtlbx_lower_bound(n->n_children, starts_at_or_before, &k);
        for (size_t i = lo, seen = 0; i > 0 && seen < MAX_OVERLAP_SCAN; i--, seen++) {
            mtlbx_node *c = n->children[i - 1];
            if (contains(c, off) && (!best || c->size < best->size))
                best = c;
        }
        return best;
    }
    for (uint32_t i = 0; i < n->n_children; i++) {
        mtlbx_node *c = n->children[i];
        if (contains(c, off) && (!best || c->size < best->size))
            best = c;
    }
    return best;
}

mtlbx_node *mbx_node_at_offset(mtlbx_model *m, uint64_t offset)
{
    mtlbx_node *n = mbx_root(m);
    for (int depth = 0; n && depth < MAX_DEPTH; depth++) {
        /* Stop at an archive: its members all share its compressed
         * payload, so none of them is "the" node of a byte, and an
         * unexpanded archive must not be decompressed because the hex
         * cursor passed by. */
        if (n->kind == MTLBX_NODE_ARCHIVE)
            break;
        ensure_built(m, n);
        mtlbx_node *c = child_at(n, offset);
        if (!c)
            break;
        n = c;
    }
    return n;
}

unsigned mbx_node_flags(mtlbx_model *m, const mtlbx_node *n)
{
    if (!m || !n)
        return 0;
    mtlbx_file *f = m->f;
    unsigned fl = n->flags & MTLBX_NODE_UNKNOWN;
    size_t first, count, errors;
    if (n->kind == MTLBX_NODE_DIAGNOSTICS || n->kind == MTLBX_NODE_LIBRARY || n->kind == MTLBX_NODE_FILE) {
        /* Every problem of a library counts for it, even one reported at
         * its end (a truncation) rather than inside it; the DIAGNOSTICS
         * node has no span: it is the list of them all. */
        errors = node_diag_range(m, n->lib, 0, UINT64_MAX, &first, &count);
    } else {
        errors = node_diag_range(m, n->lib, n->offset, n->size, &first, &count);
    }
    if (n->kind == MTLBX_NODE_FILE) {
        /* The root also speaks for its libraries (a fat file keeps the
         * container's diagnostics apart from each library's). */
        for (size_t i = 0; i < mbx_file_library_count(f); i++) {
            size_t c2;
            errors += node_diag_range(m, mbx_library_at(f, i), 0, UINT64_MAX, &first, &c2);
            count += c2;
        }
    }
    if ((n->kind == MTLBX_NODE_FUNCTION || n->kind == MTLBX_NODE_MODULE) && n->lib &&
        mbx_function_hash_state(n->lib, n->index) == MTLBX_HASH_MISMATCH) {
        count++;
        errors++;
    }
    if (count)
        fl |= MTLBX_NODE_PROBLEM | (errors ? 0 : MTLBX_NODE_WARNING);
    return fl;
}

/* ----------------------------------------------------------- windows -- */

/* One pass of the section's builder, from where the last one stopped,
 * keeping the children whose ordinals are in [w->lo, w->hi) (in k->v).
 * The builder goes through the children in the same order every time, so
 * a window is exactly that stretch of the built list. */
static bool window_pass(mtlbx_model *m, struct node_window *w, struct kids *k)
{
    *k = (struct kids){ .m = m, .f = m->f, .a = m->arena, .parent = w->section, .window = w,
                        .seen = w->seen, .last_offset = w->last_offset };
    w->full = false;
    build_section(k);
    w->ended = !w->full; /* the builder went through to the last child */
    w->seen = k->seen;
    w->last_offset = k->last_offset;
    return !k->failed;
}

bool node_window_open(mtlbx_model *m, mtlbx_node *n, struct node_window *w)
{
    w->pieces = NULL; /* closing it is then harmless */
    if (!m || !n || n->built || !is_section(n->kind))
        return false; /* (before the struct is cleared: this is asked of every node) */
    *w = (struct node_window){ .section = n };
    return true;
}

size_t node_window_fill(mtlbx_model *m, struct node_window *w, size_t first, size_t max,
                        mtlbx_node **out, bool *failed)
{
    *failed = false;
    if (max == 0 || max > SIZE_MAX - first)
        return 0;
    /* Windows in order go on from the last; any other starts over. */
    if (first == w->seen && first && w->ended)
        return 0;
    if (first != w->seen || first == 0) {
        w->cursor = 0;
        w->seen = 0;
        w->last_offset = 0;
    }
    w->lo = first;
    w->hi = first + max;
    struct kids k;
    bool ok = window_pass(m, w, &k);
    size_t got = ok ? k.n : 0;
    if (got)
        memcpy(out, k.v, got * sizeof *out);
    free(k.v);
    *failed = !ok;
    return got;
}

void node_window_close(struct node_window *w)
{
    free(w->pieces);
    w->pieces = NULL;
    w->n_pieces = 0;
    w->pieces_known = false;
}
