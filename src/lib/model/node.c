/* The node tree every view walks: built lazily, one level at a time, from
 * the parsed library. Opening a library builds only the root; a node's
 * children appear on the first child request, so a library with 200,000
 * functions builds no function node until its function list is expanded,
 * and no tag node until a function is. A node is a part of the file's
 * structure, and its children are the parts the structure says
 * (checks/structure.c, which the byte layout walks too), but for what
 * only the tree shows: an archive's members and what a kept interface
 * has. Nodes live in an arena owned by the file and freed all at once by
 * nodes_free(). Nothing here recurses: the tree is walked with loops
 * whose depth is bounded by MAX_DEPTH. */
#include "config.h"
#include "node.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "bitcode/interface.h"
#include "checks/hash.h"
#include "model/model.h"
#include "model/msl.h"
#include "checks/structure.h"
#include "container/functions.h"
#include "container/lower_bound.h"
#include "container/sources.h"
#include "container/value_names.h"

#include <stdlib.h>
#include <string.h>

/* A file-derived tree is at most FILE > LIBRARY > FUNCTION > GROUP > TAG
 * deep (six levels); anything deeper is a bug, not a file. */
#define MAX_DEPTH 16
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

/* A child for a part of the structure; flags for what this library
 * cannot name are decided once, here. */
static bool part_kid(void *ctx, const struct structure_part *p)
{
    struct kids *k = ctx;
    mtlbx_node *n = kid(k, p->kind, p->offset, p->size);
    if (!n)
        return false;
    n->lib = p->lib;
    n->index = p->index;
    n->sub = p->sub;
    n->tag = p->tag;
    if (p->kind == MTLBX_NODE_TAG) {
        n->flags = node_tag_flags(k->f, n);
    } else if (p->kind == MTLBX_NODE_FUNCTION) {
        const struct mtlbx_function *fn = mbx_function_at(p->lib, p->index);
        if ((fn->present & MTLBX_F_TYPE) && !mbx_function_type_known(fn->type))
            n->flags |= MTLBX_NODE_UNKNOWN;
    }
    return true;
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

/* The parts of the structure below n, as children. The tree reads the
 * library's tables (the views read them too), and finds a library
 * embedded in a GPU slice among the root's children. */
static void build_parts(struct kids *k)
{
    const mtlbx_node *n = k->parent;
    struct structure s = { .f = k->f };
    struct structure_part p = { .kind = n->kind, .offset = n->offset, .size = n->size, .lib = n->lib,
                                .index = n->index, .sub = n->sub, .tag = n->tag };
    if (!structure_is_section(n->kind)) {
        if (!structure_parts(&s, &p, part_kid, k))
            k->failed = true;
        return;
    }
    struct structure_section sec;
    if (!structure_section_open(&s, &p, &sec)) {
        k->failed = true;
        return;
    }
    struct structure_part c;
    while (structure_section_next(&sec, &c) && part_kid(k, &c))
        ;
    structure_section_close(&sec);
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

static void build(mtlbx_model *m, mtlbx_node *n)
{
    struct kids k = { .m = m, .f = m->f, .a = m->arena, .parent = n };
    switch (n->kind) {
    case MTLBX_NODE_ARCHIVE: build_archive(&k); break;
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
    default: build_parts(&k); break;
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
