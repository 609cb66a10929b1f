/* The node tree every view walks: built lazily, one level at a time, from
 * the parsed library. Opening a library builds only the root; a node's
 * children appear on the first child request, so a library with 200,000
 * functions builds no function node until its function list is expanded,
 * and no tag node until a function is. Nodes live in an arena owned by the
 * file and freed all at once by nodes_free(). Nothing here recurses: the
 * tree is walked with loops whose depth is bounded by MAX_DEPTH. */
#include "config.h"
#include "node.h"

#include <stdlib.h>

/* A file-derived tree is at most FILE > LIBRARY > FUNCTION > GROUP > TAG
 * deep (six levels); anything deeper is a bug, not a file. */
#define MAX_DEPTH 16
/* Tags per group. A 64 KiB entry holds at most ~11,000 six-byte tags; the
 * cap only stops a hostile group from costing more than that. */
#define MAX_GROUP_TAGS 16384
/* How far the offset search looks back among overlapping siblings. Real
 * files never overlap; a hostile one gets an answer, not a hang. */
#define MAX_OVERLAP_SCAN 64
#define ARENA_BLOCK ((size_t)64 << 10)

/* ------------------------------------------------------------ arena -- */

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

struct node_arena {
    struct arena_block *blocks;
    struct arena_block *spare; /* one block given back by node_forget_children, kept for reuse */
};

static struct node_arena *arena_get(mtlbx_file *f)
{
    if (!f->arena) {
        f->arena = calloc(1, sizeof *f->arena);
    }
    return f->arena;
}

static void *arena_alloc(struct node_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0 || size > SIZE_MAX / 2)
        return NULL;
    struct arena_block *b = a->blocks;
    if (!b || b->cap - b->used < size) {
        /* A big request gets its own block behind the current one, so the
         * space left in the current block is not wasted. */
        bool own = size > ARENA_BLOCK / 4;
        size_t cap = own ? size : ARENA_BLOCK;
        struct arena_block *nb = !own && a->spare ? a->spare : malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        if (nb == a->spare)
            a->spare = NULL;
        nb->used = 0;
        nb->cap = cap;
        if (own && b) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->blocks = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

void nodes_free(mtlbx_file *f)
{
    node_diags_free(f);
    if (!f || !f->arena)
        return;
    struct node_arena *a = f->arena;
    for (struct arena_block *b = a->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a->spare);
    free(a);
    f->arena = NULL;
    f->root = NULL;
}

/* (offset, index) pairs sorted by offset: the pieces each function points
 * at (metadata groups, modules). */
int node_by_off_cmp(const void *a, const void *b)
{
    const struct node_by_off *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* ------------------------------------------------------------ build -- */

/* Children are gathered in a malloc'd vector, then copied into the arena
 * in one piece once their number is known. */
struct kids {
    mtlbx_file *f;
    struct node_arena *a;
    mtlbx_node *parent;
    mtlbx_node **v;
    size_t n, cap;
    bool failed;
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
    mtlbx_node *n = arena_alloc(k->a, sizeof *n);
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
        mtlbx_node **c = arena_alloc(k->a, k->n * sizeof *c);
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
    mtlbx_tag_walk_init(&w, f, off, end - off);
    uint64_t pos = off;
    size_t count = 0;
    while (count < MAX_GROUP_TAGS && mtlbx_tag_walk_next(&w, &t)) {
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
        uint64_t n = mtlbx_fat_slice_count(f);
        kid(k, MTLBX_NODE_FAT_HEADER, 0, 8 + 20 * n);
    }
    size_t nl = mtlbx_library_count(f);
    for (size_t i = 0; i < nl; i++) {
        mtlbx_library *lib = mtlbx_library_at(f, i);
        const struct mtlbx_header *h = lib ? mtlbx_library_header(lib) : NULL;
        if (!h)
            continue;
        mtlbx_node *n = kid(k, MTLBX_NODE_LIBRARY, h->base, h->available);
        if (!n)
            return;
        n->lib = lib;
        n->index = (uint32_t)i;
    }
    if (mtlbx_file_diag_count(f))
        kid(k, MTLBX_NODE_DIAGNOSTICS, 0, 0);
}

static void build_fat_header(struct kids *k)
{
    size_t n = mtlbx_fat_slice_count(k->f);
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_fat_slice *s = mtlbx_fat_slice(k->f, i);
        mtlbx_node *c = s ? kid(k, MTLBX_NODE_FAT_SLICE, s->entry_offset, 20) : NULL;
        if (c)
            c->index = (uint32_t)i;
    }
}

static void build_library(struct kids *k)
{
    mtlbx_library *lib = k->parent->lib;
    const struct mtlbx_header *h = mtlbx_library_header(lib);
    kid(k, MTLBX_NODE_HEADER, h->base, h->available < 88 ? h->available : 88);
    if (h->complete) {
        kid(k, MTLBX_NODE_FUNCTION_LIST, h->function_list.offset, h->function_list.size);
        const struct mtlbx_header_ext *ext = mtlbx_library_header_ext(lib);
        if (ext && ext->present)
            kid(k, MTLBX_NODE_HEADER_EXT, ext->range.offset, ext->range.size);
        kid(k, MTLBX_NODE_PUBLIC_MD, h->public_md.offset, h->public_md.size);
        kid(k, MTLBX_NODE_PRIVATE_MD, h->private_md.offset, h->private_md.size);
        kid(k, MTLBX_NODE_MODULE_LIST, h->modules.offset, h->modules.size);
        const struct mtlbx_sources *src = mtlbx_library_sources(lib);
        if (src && src->present)
            kid(k, MTLBX_NODE_SOURCES, src->range.offset, src->range.size);
        const struct mtlbx_dynamic_header *dyn = mtlbx_library_dynamic_header(lib);
        if (dyn && dyn->present)
            kid(k, MTLBX_NODE_DYNAMIC_HEADER, dyn->range.offset, dyn->range.size);
        for (int i = 0; i < MTLBX_LIST_COUNT; i++) {
            const struct mtlbx_list *l = mtlbx_library_list(lib, (enum mtlbx_list_kind)i);
            mtlbx_node *n = l && l->present ? kid(k, MTLBX_NODE_LIST, l->range.offset, l->range.size) : NULL;
            if (n)
                n->sub = (uint32_t)i;
        }
    }
    if (mtlbx_library_diag_count(lib))
        kid(k, MTLBX_NODE_DIAGNOSTICS, 0, 0);
}

static void build_function_list(struct kids *k)
{
    mtlbx_library *lib = k->parent->lib;
    size_t n = mtlbx_function_count(lib);
    uint64_t end = k->parent->offset + k->parent->size;
    for (size_t i = 0; i < n && i < UINT32_MAX; i++) {
        const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
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
        if ((fn->present & MTLBX_F_TYPE) && !mtlbx_function_type_known(fn->type))
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
    const struct mtlbx_function *fn = mtlbx_function_at(p->lib, p->index);
    if (!fn)
        return;
    if (p->size >= 4)
        add_tags(k, p->offset + 4, p->offset + p->size, p->index, CTX_FUNCTION);
    const struct mtlbx_metadata *md = mtlbx_function_metadata(p->lib, p->index);
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
    const struct mtlbx_air_argument *a = node_argument(k->parent, NULL);
    struct mtlbx_struct_member m;
    for (size_t i = 0; a && i <= MTLBX_NODE_MEMBER_MAX && mtlbx_argument_member(a, i, &m); i++) {
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
    if (mtlbx_function_interface_cached(n->lib, n->index, &iface, NULL) == MTLBX_IFACE_NOT_DECODED)
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

/* One TAG_GROUP per distinct group (functions may share one), in file
 * order; the group is named after the first function that uses it. */
static void build_md_section(struct kids *k, bool public)
{
    mtlbx_library *lib = k->parent->lib;
    size_t n = mtlbx_function_count(lib);
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    struct node_by_off *v = n ? malloc(n * sizeof *v) : NULL;
    if (n && !v) {
        k->failed = true;
        return;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_metadata *md = mtlbx_function_metadata(lib, i);
        struct mtlbx_range r = md ? (public ? md->public_group : md->private_group) : (struct mtlbx_range){ 0 };
        if (r.size)
            v[m++] = (struct node_by_off){ r.offset, (uint32_t)i };
    }
    if (m > 1) /* v is NULL when there are no functions */
        qsort(v, m, sizeof *v, node_by_off_cmp);
    for (size_t j = 0; j < m; j++) {
        if (j && v[j].off == v[j - 1].off)
            continue;
        const struct mtlbx_metadata *md = mtlbx_function_metadata(lib, v[j].idx);
        add_md_group(k, public ? md->public_group : md->private_group, v[j].idx,
                     public ? CTX_PUBLIC_MD : CTX_PRIVATE_MD);
    }
    free(v);
}

static void build_module_list(struct kids *k)
{
    mtlbx_library *lib = k->parent->lib;
    size_t n = mtlbx_function_count(lib);
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    struct node_by_off *v = n ? malloc(n * sizeof *v) : NULL;
    if (n && !v) {
        k->failed = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (struct node_by_off){ mtlbx_function_at(lib, i)->module.offset, (uint32_t)i };
    if (n > 1)
        qsort(v, n, sizeof *v, node_by_off_cmp);
    for (size_t j = 0; j < n; j++)
        add_module(k, mtlbx_function_at(lib, v[j].idx), v[j].idx);
    free(v);
}

static void build_sources(struct kids *k)
{
    const struct mtlbx_sources *s = mtlbx_library_sources(k->parent->lib);
    for (size_t i = 0; s && i < s->n_archives && i < UINT32_MAX; i++) {
        const struct mtlbx_archive *a = &s->archives[i];
        mtlbx_node *c = kid(k, MTLBX_NODE_ARCHIVE, a->group_offset, (uint64_t)a->group_size + 4);
        if (c)
            c->index = (uint32_t)i;
    }
}

/* Asking for an archive's children decompresses it: that is what
 * expanding it means. The offset search never asks (see mtlbx_node_at_offset). */
static void build_archive(struct kids *k)
{
    mtlbx_node *p = k->parent;
    if (mtlbx_archive_load(p->lib, p->index) != MTLBX_ARCHIVE_LOADED)
        return;
    const struct mtlbx_sources *s = mtlbx_library_sources(p->lib);
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
    const struct mtlbx_header_ext *ext = mtlbx_library_header_ext(k->parent->lib);
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
    const struct mtlbx_list *l = mtlbx_library_list(p->lib, (enum mtlbx_list_kind)p->sub);
    for (size_t i = 0; l && i < l->n_groups && i < UINT32_MAX; i++) {
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

static void build(mtlbx_file *f, mtlbx_node *n)
{
    struct node_arena *a = arena_get(f);
    if (!a)
        return;
    struct kids k = { .f = f, .a = a, .parent = n };
    switch (n->kind) {
    case MTLBX_NODE_FILE: build_file(&k); break;
    case MTLBX_NODE_FAT_HEADER: build_fat_header(&k); break;
    case MTLBX_NODE_LIBRARY: build_library(&k); break;
    case MTLBX_NODE_FUNCTION_LIST: build_function_list(&k); break;
    case MTLBX_NODE_FUNCTION: build_function(&k); break;
    case MTLBX_NODE_TAG_GROUP: add_group_tags(&k, n); break;
    case MTLBX_NODE_HEADER_EXT: build_header_ext(&k); break;
    case MTLBX_NODE_PUBLIC_MD: build_md_section(&k, true); break;
    case MTLBX_NODE_PRIVATE_MD: build_md_section(&k, false); break;
    case MTLBX_NODE_MODULE_LIST: build_module_list(&k); break;
    case MTLBX_NODE_SOURCES: build_sources(&k); break;
    case MTLBX_NODE_ARCHIVE: build_archive(&k); break;
    case MTLBX_NODE_DYNAMIC_HEADER:
        add_tags(&k, n->offset, n->offset + n->size, 0, CTX_DYNAMIC);
        break;
    case MTLBX_NODE_LIST: build_list(&k); break;
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
static void refresh_library(mtlbx_file *f, mtlbx_node *n)
{
    if (n->n_children && n->children[n->n_children - 1]->kind == MTLBX_NODE_DIAGNOSTICS)
        return;
    if (!mtlbx_library_diag_count(n->lib))
        return;
    struct node_arena *a = arena_get(f);
    mtlbx_node **c = a ? arena_alloc(a, (n->n_children + 1) * sizeof *c) : NULL;
    mtlbx_node *d = a ? arena_alloc(a, sizeof *d) : NULL;
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

static void ensure_built(mtlbx_file *f, mtlbx_node *n)
{
    if (!n->built)
        build(f, n);
    else if (n->kind == MTLBX_NODE_LIBRARY)
        refresh_library(f, n);
}

/* ------------------------------------------------------------ public -- */

mtlbx_node *mtlbx_root(mtlbx_file *f)
{
    if (!f)
        return NULL;
    if (!f->root) {
        struct node_arena *a = arena_get(f);
        mtlbx_node *r = a ? arena_alloc(a, sizeof *r) : NULL;
        if (!r)
            return NULL;
        r->kind = MTLBX_NODE_FILE;
        r->offset = 0;
        r->size = f->size;
        f->root = r;
    }
    return f->root;
}

size_t mtlbx_node_child_count(mtlbx_file *f, mtlbx_node *n)
{
    if (!f || !n)
        return 0;
    ensure_built(f, n);
    return n->n_children;
}

mtlbx_node *mtlbx_node_child(mtlbx_file *f, mtlbx_node *n, size_t i)
{
    if (!f || !n)
        return NULL;
    ensure_built(f, n);
    return i < n->n_children ? n->children[i] : NULL;
}

bool mtlbx_node_expandable(mtlbx_file *f, const mtlbx_node *n)
{
    if (!f || !n)
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
        return mtlbx_fat_slice_count(f) > 0;
    case MTLBX_NODE_FUNCTION_LIST:
    case MTLBX_NODE_PUBLIC_MD:
    case MTLBX_NODE_PRIVATE_MD:
    case MTLBX_NODE_MODULE_LIST:
        return mtlbx_function_count(lib) > 0;
    case MTLBX_NODE_TAG_GROUP:
    case MTLBX_NODE_DYNAMIC_HEADER:
        return n->size > 4;
    case MTLBX_NODE_HEADER_EXT:
        return n->size >= 4;
    case MTLBX_NODE_SOURCES: {
        const struct mtlbx_sources *s = mtlbx_library_sources(lib);
        return s && s->n_archives > 0;
    }
    case MTLBX_NODE_ARCHIVE: {
        const struct mtlbx_sources *s = mtlbx_library_sources(lib);
        if (!s || n->index >= s->n_archives)
            return false;
        const struct mtlbx_archive *a = &s->archives[n->index];
        return a->state == MTLBX_ARCHIVE_UNLOADED || (a->state == MTLBX_ARCHIVE_LOADED && a->n_members);
    }
    case MTLBX_NODE_LIST: {
        const struct mtlbx_list *l = mtlbx_library_list(lib, (enum mtlbx_list_kind)n->sub);
        return l && l->n_groups > 0;
    }
    case MTLBX_NODE_MODULE:
    case MTLBX_NODE_INTERFACE:
        /* Until decoded, say yes: the children appear when it is. */
        return n->size > 0 || n->kind == MTLBX_NODE_INTERFACE;
    case MTLBX_NODE_BC_BLOCK:
    case MTLBX_NODE_ARGUMENT: {
        const struct mtlbx_interface *iface = NULL;
        mtlbx_function_interface_cached(lib, n->index, &iface, NULL);
        if (!iface)
            return false;
        if (n->kind == MTLBX_NODE_ARGUMENT) {
            struct mtlbx_struct_member m;
            const struct mtlbx_air_argument *a = node_argument(n, NULL);
            return a && mtlbx_argument_member(a, 0, &m);
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

/* The smallest child containing off. Sorted children are bisected to the
 * last one starting at or before off; a few earlier ones are checked too
 * in case spans overlap (a hostile file, or shared modules). */
static mtlbx_node *child_at(const mtlbx_node *n, uint64_t off)
{
    mtlbx_node *best = NULL;
    if (n->sorted) {
        size_t lo = 0, hi = n->n_children;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (n->children[mid]->offset <= off)
                lo = mid + 1;
            else
                hi = mid;
        }
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

mtlbx_node *mtlbx_node_at_offset(mtlbx_file *f, uint64_t offset)
{
    mtlbx_node *n = mtlbx_root(f);
    for (int depth = 0; n && depth < MAX_DEPTH; depth++) {
        /* Stop at an archive: its members all share its compressed
         * payload, so none of them is "the" node of a byte, and an
         * unexpanded archive must not be decompressed because the hex
         * cursor passed by. */
        if (n->kind == MTLBX_NODE_ARCHIVE)
            break;
        ensure_built(f, n);
        mtlbx_node *c = child_at(n, offset);
        if (!c)
            break;
        n = c;
    }
    return n;
}

unsigned mtlbx_node_flags(mtlbx_file *f, const mtlbx_node *n)
{
    if (!f || !n)
        return 0;
    unsigned fl = n->flags & MTLBX_NODE_UNKNOWN;
    size_t first, count, errors;
    if (n->kind == MTLBX_NODE_DIAGNOSTICS || n->kind == MTLBX_NODE_LIBRARY || n->kind == MTLBX_NODE_FILE) {
        /* Every problem of a library counts for it, even one reported at
         * its end (a truncation) rather than inside it; the DIAGNOSTICS
         * node has no span: it is the list of them all. */
        errors = node_diag_range(f, n->lib, 0, UINT64_MAX, &first, &count);
    } else {
        errors = node_diag_range(f, n->lib, n->offset, n->size, &first, &count);
    }
    if (n->kind == MTLBX_NODE_FILE) {
        /* The root also speaks for its libraries (a fat file keeps the
         * container's diagnostics apart from each library's). */
        for (size_t i = 0; i < mtlbx_library_count(f); i++) {
            size_t c2;
            errors += node_diag_range(f, mtlbx_library_at(f, i), 0, UINT64_MAX, &first, &c2);
            count += c2;
        }
    }
    if ((n->kind == MTLBX_NODE_FUNCTION || n->kind == MTLBX_NODE_MODULE) && n->lib &&
        mtlbx_function_hash_state(n->lib, n->index) == MTLBX_HASH_MISMATCH) {
        count++;
        errors++;
    }
    if (count)
        fl |= MTLBX_NODE_PROBLEM | (errors ? 0 : MTLBX_NODE_WARNING);
    return fl;
}

/* ------------------------------------------------ transient subtrees -- */

/* The layout pass (layout.c) visits every node once. Subtrees it builds
 * are given back as soon as it has walked them, so memory stays flat on a
 * library with 200,000 functions. Only subtrees that were not built before
 * the walk are forgotten: nodes a view already holds stay. */
struct node_mark node_mark(mtlbx_file *f)
{
    struct node_arena *a = arena_get(f);
    struct node_mark m = { 0 };
    if (a && a->blocks) {
        m.head = a->blocks;
        m.used = a->blocks->used;
        m.next = a->blocks->next;
    }
    return m;
}

void node_forget_children(mtlbx_file *f, mtlbx_node *n, struct node_mark m)
{
    struct node_arena *a = f->arena;
    if (!a || !m.head)
        return; /* nothing to give back safely without a mark */
    n->built = false;
    n->sorted = false;
    n->n_children = 0;
    n->children = NULL;
    /* Blocks added in front since the mark, then big blocks slipped in
     * right behind the marked one. */
    /* A walk forgets a subtree per function: keeping one standard block
     * spares the allocator a heap shrink and regrow each time. */
    while (a->blocks && a->blocks != m.head) {
        struct arena_block *next = a->blocks->next;
        if (!a->spare && a->blocks->cap == ARENA_BLOCK)
            a->spare = a->blocks;
        else
            free(a->blocks);
        a->blocks = next;
    }
    if (!a->blocks)
        return;
    while (a->blocks->next && a->blocks->next != m.next) {
        struct arena_block *own = a->blocks->next;
        a->blocks->next = own->next;
        free(own);
    }
    a->blocks->used = m.used;
}
