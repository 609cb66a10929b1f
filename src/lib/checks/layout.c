/* The byte layout: which structure claims every byte of the file.
 *
 * One depth-first walk over the parsed container: the fat header and its
 * slice records, each library's header, function list (entries, their
 * tags), header extension, metadata sections (groups, tags, Core Image
 * arguments), modules, sources, dynamic header and lists. A structure's
 * parts that lie inside its span claim their bytes; what is left of the
 * span belongs to the structure itself (a count word, a size prefix, a
 * header) unless it is only a frame around other structures (the file, a
 * library, the metadata and module sections, the header extension, the
 * dynamic header): bytes left there are explained by nothing and reported
 * as unclaimed. Alignment runs that must be zero (between fat slices,
 * before an RBUF FlatBuffer) are padding.
 *
 * The parts are the ones the explorer's tree shows (model/node.c builds
 * the same ones, in the same order, for its views), and a region's path
 * names them the way the tree does, so that a reader of the layout finds
 * them there; but the walk reads only the container, never the tree.
 *
 * Memory stays flat however big the library: a section with a part per
 * function is walked one part at a time, nothing of a part outlives its
 * walk, and the file's pages behind the walk are let go. */
#include "config.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/report.h"
#include "checks/byte_layout.h"
#include "checks/layout_entries.h"
#include "checks/layout_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 12
#define PATH_MAX_BYTES 512
/* Runs remembered for the views; a hostile file may have more, which are
 * still counted and reported but not highlighted. */
#define MAX_RUNS 65536
/* Tags per group (as the tree shows them): a 64 KiB entry holds at most
 * ~11,000 six-byte tags; the cap only bounds a hostile group. */
#define MAX_GROUP_TAGS 16384
/* How far behind the walk its pages are let go, at the least, and after
 * how many parts of a section the entries decoded for them are: for the
 * walk that streams each region (dump --layout, held to dump's own peak
 * memory), and for the check's (held to CPU and wall time beside the
 * hash, where each madvise is a TLB flush on the hashing threads). */
#define STREAM_RELEASE_STEP ((uint64_t)256 << 10)
#define STREAM_RELEASE_PARTS 512
#define CHECK_RELEASE_STEP ((uint64_t)1 << 20)
#define CHECK_RELEASE_PARTS LAZY_BLOCK

/* What a part of the file is. */
enum part_kind {
    PART_FILE,
    PART_FAT_HEADER,
    PART_FAT_SLICE,
    PART_LIBRARY,
    PART_HEADER,
    PART_FUNCTION_LIST,
    PART_FUNCTION,
    PART_TAG,
    PART_GROUP,                /* a size-prefixed tag group (metadata, list entry) */
    PART_HEADER_EXT,
    PART_PUBLIC_MD,
    PART_PRIVATE_MD,
    PART_MODULE_LIST,
    PART_MODULE,
    PART_SOURCES,
    PART_ARCHIVE,
    PART_DYNAMIC_HEADER,
    PART_LIST,
    PART_CI_ARGUMENT,
    PART_CI_MEMBER,
    PART_GPU_SLICE,            /* index: GPU slice; its pieces (gpu_slice.h) */
    PART_GPU_PIECE,            /* index: piece; sub: its kind */
    PART_GPU_FUNCTION,         /* index: function of the GPU slice `sub` */
    /* No bytes (a library's diagnostics, a function's interface): never
     * walked, but they count in whether a part's parts come in offset
     * order, as the tree's nodes do. */
    PART_EMPTY,
};

/* Where a tag or a group belongs (one FourCC means different things in
 * different places: an ARGR of a public metadata group has arguments). */
enum part_ctx { CTX_FUNCTION = 0, CTX_PUBLIC_MD, CTX_PRIVATE_MD, CTX_HEADER_EXT, CTX_DYNAMIC, CTX_LIST };

struct part {
    enum part_kind kind;
    uint64_t offset, size;     /* absolute span, clipped to the file */
    mtlbx_library *lib;        /* NULL above the library level */
    uint32_t index;            /* function / slice / library / group / archive / argument */
    uint32_t sub;              /* ctx of a tag or group; list kind; a CI argument's function */
    const mtlbx_file *f;       /* GPU parts: the file whose slices they index */
    bool in_list;              /* a group of a VLST ILST RLST SLST list */
    struct mtlbx_tag tag;      /* PART_TAG */
};

/* A part's parts, gathered before they are walked. */
struct parts {
    mtlbx_file *f;
    const struct part *parent;
    struct layout_entries *entries;
    struct part *v;
    size_t n, cap;
    bool failed;
};

struct walker {
    mtlbx_file *f;
    struct layout_entries entries;
    mtlbx_region_fn fn;
    void *ctx;
    bool stopped, failed;
    char path[PATH_MAX_BYTES];
    size_t path_len;
    /* The check reads no path but a dirty padding's, so it keeps only the
     * stack of parts and builds a path when one is needed: formatting a
     * path for each of a million tags was a third of its time. */
    bool lazy_paths;
    uint64_t release_step;     /* STREAM_ or CHECK_RELEASE_STEP */
    size_t release_parts;      /* STREAM_ or CHECK_RELEASE_PARTS */
    int depth;
    const struct part *stack[MAX_DEPTH + 1];
    /* Unclaimed bytes next to each other (a library's tail and the fat
     * padding after it) make one run. */
    bool pending;
    uint64_t pending_off, pending_size;
    uint64_t released; /* pages before this offset were let go */
};

static void flush_unclaimed(struct walker *w)
{
    if (!w->pending || w->stopped)
        return;
    w->pending = false;
    struct mtlbx_region r = { w->pending_off, w->pending_size, MTLBX_REGION_UNCLAIMED, "unclaimed", false };
    if (!w->fn(w->ctx, &r))
        w->stopped = true;
}

static void segment(const struct part *n, char *out, size_t size);

/* In lazy mode: w->path, which holds only a suffix ("/padding"), becomes
 * the whole path of the part on top of the stack plus that suffix. */
static void build_path(struct walker *w)
{
    char suffix[32], seg[64];
    size_t n = strnlen(w->path, sizeof suffix - 1);
    memcpy(suffix, w->path, n);
    suffix[n] = '\0';
    size_t len = 0;
    w->path[0] = '\0';
    for (int i = 0; i < w->depth && len < sizeof w->path; i++) {
        segment(w->stack[i], seg, sizeof seg);
        int k = snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "/" : "", seg);
        len = k < 0 ? len : len + (size_t)k;
    }
    if (len < sizeof w->path)
        snprintf(w->path + len, sizeof w->path - len, "%s", suffix);
}

static void emit(struct walker *w, uint64_t off, uint64_t size, enum mtlbx_region_kind kind, const char *what)
{
    if (size == 0 || w->stopped)
        return;
    if (kind == MTLBX_REGION_UNCLAIMED) {
        if (w->pending && w->pending_off + w->pending_size == off) {
            w->pending_size += size;
        } else {
            flush_unclaimed(w);
            w->pending = true;
            w->pending_off = off;
            w->pending_size = size;
        }
        return;
    }
    flush_unclaimed(w);
    struct mtlbx_region r = { off, size, kind, what, false };
    if (kind == MTLBX_REGION_PADDING) {
        const uint8_t *p = w->f->data + off;
        for (uint64_t i = 0; i < size && !r.nonzero; i++)
            r.nonzero = p[i] != 0;
    }
    if (w->lazy_paths && what == w->path && kind == MTLBX_REGION_PADDING)
        build_path(w);
    if (!w->fn(w->ctx, &r))
        w->stopped = true;
}

/* The path segment of a part: the name of its node in the explorer's
 * tree. */
static void segment(const struct part *n, char *out, size_t size)
{
    static const char *const lists[MTLBX_LIST_COUNT] = { "VLST", "ILST", "RLST", "SLST" };
    switch (n->kind) {
    case PART_FAT_HEADER: snprintf(out, size, "fat_header"); break;
    case PART_FAT_SLICE: snprintf(out, size, "slice[%u]", n->index); break;
    case PART_LIBRARY: snprintf(out, size, "library[%u]", n->index); break;
    case PART_HEADER: snprintf(out, size, "header"); break;
    case PART_FUNCTION_LIST: snprintf(out, size, "function_list"); break;
    case PART_FUNCTION: snprintf(out, size, "function[%u]", n->index); break;
    case PART_TAG: snprintf(out, size, "%s", n->tag.name); break;
    case PART_GROUP:
        /* Metadata groups are named after the first function using them. */
        if (n->in_list)
            snprintf(out, size, "group[%u]", n->index);
        else
            snprintf(out, size, "function[%u]", n->index);
        break;
    case PART_HEADER_EXT: snprintf(out, size, "header_extension"); break;
    case PART_PUBLIC_MD: snprintf(out, size, "public_metadata"); break;
    case PART_PRIVATE_MD: snprintf(out, size, "private_metadata"); break;
    case PART_MODULE_LIST: snprintf(out, size, "modules"); break;
    case PART_MODULE: snprintf(out, size, "module[%u]", n->index); break;
    case PART_SOURCES: snprintf(out, size, "sources"); break;
    case PART_ARCHIVE: snprintf(out, size, "archive[%u]", n->index); break;
    case PART_DYNAMIC_HEADER: snprintf(out, size, "dynamic_header"); break;
    case PART_LIST: snprintf(out, size, "%s", n->sub < MTLBX_LIST_COUNT ? lists[n->sub] : "list"); break;
    case PART_CI_ARGUMENT: snprintf(out, size, "argument[%u]", n->index); break;
    case PART_CI_MEMBER: snprintf(out, size, "member[%u]", n->index); break;
    case PART_GPU_SLICE: snprintf(out, size, "slice[%zu]", mbx_gpu_slice_at(n->f, n->index)->slice); break;
    case PART_GPU_PIECE: layout_gpu_segment(n->f, n->sub, n->index, out, size); break;
    case PART_GPU_FUNCTION: snprintf(out, size, "gpu_function[%u]", n->index); break;
    default: snprintf(out, size, "node"); break;
    }
}

/* Frames: their leftover bytes are explained by nothing. */
static bool is_frame(enum part_kind k)
{
    switch (k) {
    case PART_FILE:
    case PART_LIBRARY:
    case PART_PUBLIC_MD:
    case PART_PRIVATE_MD:
    case PART_MODULE_LIST:
    case PART_HEADER_EXT:
    case PART_DYNAMIC_HEADER:
    case PART_GPU_SLICE:
        return true;
    default:
        return false;
    }
}

/* -------------------------------------------------------------- parts -- */

static uint64_t clip_size(const mtlbx_file *f, uint64_t off, uint64_t size)
{
    if (off >= f->size)
        return 0;
    return size > f->size - off ? f->size - off : size;
}

static struct part *add(struct parts *k, enum part_kind kind, uint64_t off, uint64_t size)
{
    if (k->failed || !grow_array((void **)&k->v, &k->cap, k->n + 1, sizeof *k->v)) {
        k->failed = true;
        return NULL;
    }
    struct part *n = &k->v[k->n++];
    *n = (struct part){ .kind = kind, .offset = off, .size = clip_size(k->f, off, size),
                        .lib = k->parent ? k->parent->lib : NULL };
    return n;
}

static const uint8_t ENDT_BYTES[4] = { 'E', 'N', 'D', 'T' };

static struct part *add_tag(struct parts *k, const struct mtlbx_tag *t, uint32_t index, uint32_t ctx)
{
    struct part *n = add(k, PART_TAG, t->offset, (uint64_t)t->header_len + t->value_len);
    if (n) {
        n->tag = *t;
        n->index = index;
        n->sub = ctx;
    }
    return n;
}

static void add_endt(struct parts *k, uint64_t pos, uint32_t index, uint32_t ctx)
{
    struct mtlbx_tag t = { .name = "ENDT", .fourcc = TAG_ENDT, .offset = pos, .header_len = 4,
                           .value_offset = pos + 4, .known = true };
    add_tag(k, &t, index, ctx);
}

/* The tags in [off, end), and the ENDT that closes them (a part of its
 * own, so that every byte of a group belongs to a tag). */
static void add_tags(struct parts *k, uint64_t off, uint64_t end, uint32_t index, uint32_t ctx)
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
        if (!add_tag(k, &t, index, ctx))
            return;
        pos = t.value_offset + t.value_len;
        count++;
    }
    if (w.ended && pos <= end - 4 && memcmp(f->data + pos, ENDT_BYTES, 4) == 0)
        add_endt(k, pos, index, ctx);
}

static void file_parts(struct parts *k)
{
    mtlbx_file *f = k->f;
    if (f->fat)
        add(k, PART_FAT_HEADER, 0, 8 + 20 * (uint64_t)mbx_fat_slice_count(f));
    for (size_t i = 0; i < mbx_gpu_slice_count(f); i++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, i);
        struct part *n = add(k, PART_GPU_SLICE, g->offset, g->size);
        if (!n)
            return;
        n->index = (uint32_t)i;
        n->f = f;
    }
    for (size_t i = 0; i < mbx_file_library_count(f); i++) {
        mtlbx_library *lib = mbx_library_at(f, i);
        const struct mtlbx_header *h = lib ? mbx_library_header(lib) : NULL;
        if (!h || mbx_gpu_slice_embedding(f, i)) /* a part of its GPU slice's __metallib */
            continue;
        struct part *n = add(k, PART_LIBRARY, h->base, h->available);
        if (!n)
            return;
        n->lib = lib;
        n->index = (uint32_t)i;
    }
    if (mbx_file_diag_count(f))
        add(k, PART_EMPTY, 0, 0);
}

static void fat_header_parts(struct parts *k)
{
    for (size_t i = 0; i < mbx_fat_slice_count(k->f); i++) {
        const struct mbx_fat_slice *s = mbx_fat_slice(k->f, i);
        struct part *c = s ? add(k, PART_FAT_SLICE, s->entry_offset, 20) : NULL;
        if (c)
            c->index = (uint32_t)i;
    }
}

/* A GPU slice's pieces; a section's functions, and the library in its
 * __metallib (layout_gpu.c). */
static void gpu_parts(struct parts *k)
{
    static const enum part_kind kinds[] = { PART_GPU_PIECE, PART_GPU_FUNCTION, PART_LIBRARY };
    const struct part *n = k->parent;
    uint32_t slice = n->kind == PART_GPU_SLICE ? n->index : n->sub;
    struct layout_gpu_part *v;
    long m = layout_gpu_parts(n->f, slice, n->kind == PART_GPU_SLICE ? -1 : (long)n->index, &v);
    k->failed |= m < 0;
    for (long i = 0; i < m; i++) {
        struct part *c = add(k, kinds[v[i].kind], v[i].offset, v[i].size);
        if (c) {
            c->index = v[i].index;
            c->sub = slice;
            c->f = n->f;
            c->lib = v[i].lib;
        }
    }
    free(v);
}

static void library_parts(struct parts *k)
{
    static const enum part_kind part_of[] = {
        [MTLBX_SECTION_HEADER] = PART_HEADER,
        [MTLBX_SECTION_FUNCTION_LIST] = PART_FUNCTION_LIST,
        [MTLBX_SECTION_HEADER_EXT] = PART_HEADER_EXT,
        [MTLBX_SECTION_PUBLIC_MD] = PART_PUBLIC_MD,
        [MTLBX_SECTION_PRIVATE_MD] = PART_PRIVATE_MD,
        [MTLBX_SECTION_MODULE_LIST] = PART_MODULE_LIST,
        [MTLBX_SECTION_SOURCES] = PART_SOURCES,
        [MTLBX_SECTION_DYNAMIC_HEADER] = PART_DYNAMIC_HEADER,
        [MTLBX_SECTION_LIST] = PART_LIST,
    };
    mtlbx_library *lib = k->parent->lib;
    struct mtlbx_section sections[MTLBX_SECTIONS_MAX];
    size_t n = mbx_library_sections(lib, sections);
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_section *s = &sections[i];
        struct part *p = add(k, part_of[s->kind], s->range.offset, s->range.size);
        if (p && s->kind == MTLBX_SECTION_LIST)
            p->sub = (uint32_t)s->list;
    }
    if (mbx_library_diag_count(lib))
        add(k, PART_EMPTY, 0, 0);
}

static void add_md_group(struct parts *k, struct mtlbx_range r, uint32_t fn, uint32_t ctx)
{
    struct part *g = add(k, PART_GROUP, r.offset, r.size);
    if (g) {
        g->index = fn;
        g->sub = ctx;
    }
}

/* An entry's tags, and (outside its span in every real file, so not
 * walked there) its metadata groups, its module and its interface. */
static void function_parts(struct parts *k)
{
    const struct part *p = k->parent;
    const struct mtlbx_function *fn = layout_function(k->entries, p->lib, p->index);
    if (!fn)
        return;
    if (p->size >= 4)
        add_tags(k, p->offset + 4, p->offset + p->size, p->index, CTX_FUNCTION);
    struct mtlbx_range public_group = layout_group(k->entries, p->lib, p->index, false);
    struct mtlbx_range private_group = layout_group(k->entries, p->lib, p->index, true);
    if (public_group.size)
        add_md_group(k, public_group, p->index, CTX_PUBLIC_MD);
    if (private_group.size)
        add_md_group(k, private_group, p->index, CTX_PRIVATE_MD);
    struct part *m = add(k, PART_MODULE, fn->module.offset, fn->module_valid ? fn->module.size : 0);
    if (m)
        m->index = p->index;
    if (fn->module_valid)
        add(k, PART_EMPTY, fn->module.offset, 0);
}

static void header_ext_parts(struct parts *k)
{
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(k->parent->lib);
    uint64_t pos = ext->range.offset, end = ext->range.offset + ext->range.size;
    for (size_t i = 0; i < ext->n_tags && i < MAX_GROUP_TAGS; i++) {
        const struct mtlbx_tag *t = &ext->tags[i];
        if (!add_tag(k, t, (uint32_t)i, CTX_HEADER_EXT))
            return;
        pos = t->value_offset + t->value_len;
    }
    if (pos >= ext->range.offset && pos <= end && end - pos >= 4 && end <= k->f->size &&
        memcmp(k->f->data + pos, ENDT_BYTES, 4) == 0)
        add_endt(k, pos, 0, CTX_HEADER_EXT);
}

static void sources_parts(struct parts *k)
{
    const struct mtlbx_sources *s = mbx_library_sources(k->parent->lib);
    for (size_t i = 0; s && i < s->n_archives && i < UINT32_MAX; i++) {
        const struct mtlbx_archive *a = &s->archives[i];
        struct part *c = add(k, PART_ARCHIVE, a->group_offset, (uint64_t)a->group_size + 4);
        if (c)
            c->index = (uint32_t)i;
    }
}

/* Core Image reflection of the function a public metadata group is named
 * after: its ARGR arguments, and a pointer argument's struct members. */
static const struct mtlbx_reflection *reflection_of(struct parts *k, const struct part *n, uint32_t fn)
{
    if (!n->lib || fn >= mbx_library_function_count(n->lib))
        return NULL;
    const struct mtlbx_metadata *md = layout_metadata(k->entries, n->lib, fn);
    return md ? &md->reflection : NULL;
}

static void argr_parts(struct parts *k)
{
    const struct part *p = k->parent;
    if (p->tag.fourcc != FOURCC('A', 'R', 'G', 'R') || p->sub != CTX_PUBLIC_MD)
        return;
    const struct mtlbx_reflection *r = reflection_of(k, p, p->index);
    for (size_t i = 0; r && i < r->n_arguments && i < UINT32_MAX; i++) {
        struct part *c = add(k, PART_CI_ARGUMENT, r->arguments[i].offset, r->arguments[i].size);
        if (!c)
            return;
        c->index = (uint32_t)i;
        c->sub = p->index;
    }
}

static void ci_member_parts(struct parts *k)
{
    const struct part *p = k->parent;
    const struct mtlbx_reflection *r = reflection_of(k, p, p->sub);
    if (!r || p->index >= r->n_arguments)
        return;
    const struct mtlbx_ci_argument *a = &r->arguments[p->index];
    for (size_t m = 0; m < a->n_members && m < UINT32_MAX; m++) {
        const struct mtlbx_ci_member *cm = &r->members[a->first_member + m];
        struct part *c = add(k, PART_CI_MEMBER, cm->offset, cm->size);
        if (!c)
            return;
        c->index = (uint32_t)m;
        c->sub = p->sub;
    }
}

/* The parts of any part but a section. A module's bitcode blocks are not
 * walked: they lie inside it and it claims all of its bytes itself. */
static void parts_of(struct parts *k)
{
    const struct part *n = k->parent;
    switch (n->kind) {
    case PART_FILE: file_parts(k); break;
    case PART_FAT_HEADER: fat_header_parts(k); break;
    case PART_LIBRARY: library_parts(k); break;
    case PART_FUNCTION: function_parts(k); break;
    case PART_GROUP:
        if (n->size >= 4)
            add_tags(k, n->offset + 4, n->offset + n->size, n->index, n->sub);
        break;
    case PART_HEADER_EXT: header_ext_parts(k); break;
    case PART_SOURCES: sources_parts(k); break;
    case PART_DYNAMIC_HEADER: add_tags(k, n->offset, n->offset + n->size, 0, CTX_DYNAMIC); break;
    case PART_TAG: argr_parts(k); break;
    case PART_CI_ARGUMENT: ci_member_parts(k); break;
    case PART_GPU_SLICE:
    case PART_GPU_PIECE: gpu_parts(k); break;
    default: break;
    }
}

/* ----------------------------------------------------------- sections -- */

/* The function list, the metadata and module sections and the lists have
 * a part per function (or list group): 200,000 in a large library. They
 * are made one at a time, in file order: entries and list groups are
 * parsed one after the other; metadata groups and modules are taken in
 * function order when that is already offset order (every real file),
 * else from a sorted copy of (offset, function) pairs. */
struct by_off {
    uint64_t off;
    uint32_t idx;
};

static int by_off_cmp(const void *a, const void *b)
{
    const struct by_off *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct section {
    const struct part *part;
    struct layout_entries *entries;
    size_t cursor, n;          /* n: functions, or list groups */
    struct mtlbx_range piece;  /* in function order: the last next_piece's */
    struct by_off *sorted;     /* NULL: function order */
    size_t n_sorted;
    bool made_one;             /* a metadata group was made: last_offset is its */
    uint64_t last_offset;
};

static bool is_section(enum part_kind k)
{
    return k == PART_FUNCTION_LIST || k == PART_PUBLIC_MD || k == PART_PRIVATE_MD || k == PART_MODULE_LIST ||
           k == PART_LIST;
}

/* What function i has in section s: its metadata group, or (size 1: it
 * counts even when invalid) its module's offset. */
static struct mtlbx_range piece_of(const struct section *s, size_t i)
{
    mtlbx_library *lib = s->part->lib;
    if (s->part->kind == PART_MODULE_LIST)
        return (struct mtlbx_range){ layout_function(s->entries, lib, i)->module.offset, 1 };
    return layout_group(s->entries, lib, i, s->part->kind == PART_PRIVATE_MD);
}

/* False when memory ran out. */
static bool section_open(const struct part *p, struct section *s, struct layout_entries *entries)
{
    *s = (struct section){ .part = p, .entries = entries };
    layout_entries_rewind(entries);
    if (p->kind == PART_LIST) {
        const struct mtlbx_list *l = mbx_library_list(p->lib, (enum mtlbx_list_kind)p->sub);
        s->n = l ? l->n_groups : 0;
    } else {
        s->n = mbx_library_function_count(p->lib);
    }
    if (s->n > UINT32_MAX)
        s->n = UINT32_MAX;
    if (p->kind == PART_FUNCTION_LIST || p->kind == PART_LIST)
        return true;
    enum layout_pieces which = p->kind == PART_MODULE_LIST ? PIECES_MODULES
                               : p->kind == PART_PRIVATE_MD ? PIECES_PRIVATE_MD : PIECES_PUBLIC_MD;
    bool in_order = layout_in_order(entries, p->lib, which);
    layout_entries_rewind(entries);
    if (in_order)
        return true;
    s->sorted = malloc(s->n * sizeof *s->sorted);
    if (!s->sorted)
        return false;
    for (size_t i = 0; i < s->n; i++) {
        struct mtlbx_range r = piece_of(s, i);
        if (r.size)
            s->sorted[s->n_sorted++] = (struct by_off){ r.offset, (uint32_t)i };
    }
    qsort(s->sorted, s->n_sorted, sizeof *s->sorted, by_off_cmp);
    return true;
}

/* The next (offset, function) piece of a metadata or module section. */
static bool next_piece(struct section *s, struct by_off *out)
{
    if (s->sorted) {
        if (s->cursor >= s->n_sorted)
            return false;
        *out = s->sorted[s->cursor++];
        return true;
    }
    while (s->cursor < s->n) {
        size_t i = s->cursor++;
        struct mtlbx_range r = piece_of(s, i);
        if (r.size) {
            s->piece = r;
            *out = (struct by_off){ r.offset, (uint32_t)i };
            return true;
        }
    }
    return false;
}

/* The section's next part into *out; false at its end. */
static bool section_next(mtlbx_file *f, struct section *s, struct part *out)
{
    const struct part *p = s->part;
    *out = (struct part){ .lib = p->lib };
    uint64_t off, size;
    switch (p->kind) {
    case PART_FUNCTION_LIST: {
        if (s->cursor >= s->n)
            return false;
        size_t i = s->cursor++;
        const struct mtlbx_function *fn = layout_function(s->entries, p->lib, i);
        uint64_t end = p->offset + p->size;
        /* A declared size past the list is clipped to it for the span. */
        off = fn->entry_offset;
        size = off >= end ? 0 : fn->entry_size > end - off ? end - off : fn->entry_size;
        *out = (struct part){ .kind = PART_FUNCTION, .lib = p->lib, .index = (uint32_t)i };
        break;
    }
    case PART_LIST: {
        if (s->cursor >= s->n)
            return false;
        size_t i = s->cursor++;
        const struct mtlbx_list *l = mbx_library_list(p->lib, (enum mtlbx_list_kind)p->sub);
        off = l->groups[i].offset;
        size = l->groups[i].size;
        *out = (struct part){ .kind = PART_GROUP, .lib = p->lib, .index = (uint32_t)i,
                              .sub = CTX_LIST + p->sub, .in_list = true };
        break;
    }
    case PART_MODULE_LIST: {
        struct by_off cur;
        if (!next_piece(s, &cur))
            return false;
        const struct mtlbx_function *fn = layout_function(s->entries, p->lib, cur.idx);
        off = fn->module.offset;
        size = fn->module_valid ? fn->module.size : 0;
        *out = (struct part){ .kind = PART_MODULE, .lib = p->lib, .index = cur.idx };
        break;
    }
    default: { /* a metadata section: one group per distinct group (functions may share one) */
        struct by_off cur;
        do {
            if (!next_piece(s, &cur))
                return false;
        } while (s->made_one && cur.off == s->last_offset);
        struct mtlbx_range r = s->sorted ? piece_of(s, cur.idx) : s->piece;
        s->made_one = true;
        s->last_offset = r.offset;
        off = r.offset;
        size = r.size;
        *out = (struct part){ .kind = PART_GROUP, .lib = p->lib, .index = cur.idx,
                              .sub = p->kind == PART_PUBLIC_MD ? CTX_PUBLIC_MD : CTX_PRIVATE_MD };
        break;
    }
    }
    out->offset = off;
    out->size = clip_size(f, off, size);
    return true;
}

/* --------------------------------------------------------------- walk -- */

/* Bytes [off, off+size) of the file between fat slices: padding when they
 * only bring the next slice to its alignment, else unclaimed. */
static void file_gap(struct walker *w, uint64_t off, uint64_t size)
{
    mtlbx_file *f = w->f;
    uint64_t end = off + size;
    for (size_t i = 0; f->fat && i < f->n_slices; i++) {
        const struct mbx_fat_slice *s = &f->slices[i];
        uint64_t align = s->align < 32 ? (uint64_t)1 << s->align : 0;
        if (s->offset == end && align && end % align == 0 && size < align) {
            emit(w, off, size, MTLBX_REGION_PADDING, "fat_padding");
            return;
        }
    }
    emit(w, off, size, MTLBX_REGION_UNCLAIMED, NULL);
}

/* A part's own bytes between (or around) its parts. */
static void own_bytes(struct walker *w, const struct part *n, uint64_t off, uint64_t size)
{
    if (size == 0)
        return;
    if (n->kind == PART_FILE)
        file_gap(w, off, size);
    else if (is_frame(n->kind))
        emit(w, off, size, MTLBX_REGION_UNCLAIMED, NULL);
    else
        emit(w, off, size, MTLBX_REGION_CLAIMED, w->path);
}

/* An RBUF value starts with zeros up to the 16-byte-aligned FlatBuffer
 * (FORMAT §12); those up to the first aligned offset are padding. */
static void leaf(struct walker *w, const struct part *n, uint64_t off, uint64_t end)
{
    if (n->kind == PART_GPU_PIECE && n->f && layout_gpu_padding(n->f, n->sub, n->index)) {
        emit(w, off, end - off, MTLBX_REGION_PADDING, w->path);
        return;
    }
    if (n->kind == PART_TAG && strcmp(n->tag.name, "RBUF") == 0 && n->tag.value_offset >= off &&
        n->tag.value_offset <= end) {
        uint64_t v = n->tag.value_offset, aligned = (v + 15) & ~(uint64_t)15;
        if (aligned > end)
            aligned = end;
        emit(w, off, v - off, MTLBX_REGION_CLAIMED, w->path);
        size_t len = w->path_len;
        snprintf(w->path + len, sizeof w->path - len, "/padding");
        emit(w, v, aligned - v, MTLBX_REGION_PADDING, w->path);
        w->path[len] = '\0';
        emit(w, aligned, end - aligned, MTLBX_REGION_CLAIMED, w->path);
        return;
    }
    emit(w, off, end - off, MTLBX_REGION_CLAIMED, w->path);
}

static int by_offset(const void *a, const void *b)
{
    const struct part *x = *(const struct part *const *)a, *y = *(const struct part *const *)b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->size > y->size ? -1 : x->size < y->size; /* the bigger first */
}

static bool inside(const struct part *c, uint64_t start, uint64_t end)
{
    return c->size && c->offset >= start && c->offset < end && c->size <= end - c->offset;
}

/* The walk goes through the file in order and never reads behind itself
 * again: the pages it has passed are let go, so that its resident memory
 * does not grow with the file (they stay in the page cache). */
static void release_behind(struct walker *w, uint64_t pos)
{
    if (pos > w->released && pos - w->released >= w->release_step) {
        file_release_pages(w->f, w->released, pos - w->released);
        w->released = pos;
    }
}

static bool walk(struct walker *w, const struct part *n, uint64_t start, uint64_t end, int depth);

/* Walks part c of n, the next one in file order; *pos is where n's bytes
 * not yet accounted for begin, and moves past c. */
static bool visit_child(struct walker *w, const struct part *n, const struct part *c, uint64_t *pos, int depth)
{
    uint64_t c_end = c->offset + c->size;
    if (c_end <= *pos)
        return true; /* inside one already walked (a shared module) */
    own_bytes(w, n, *pos, c->offset > *pos ? c->offset - *pos : 0);
    size_t len = w->path_len;
    if (!w->lazy_paths) {
        char seg[64];
        segment(c, seg, sizeof seg);
        int wrote = snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "/" : "", seg);
        w->path_len = wrote < 0 ? len : len + (size_t)wrote;
        if (w->path_len >= sizeof w->path)
            w->path_len = sizeof w->path - 1;
    }
    w->stack[w->depth++] = c;
    bool ok;
    if (c->offset < *pos) /* overlaps the one before: only its tail is new */
        ok = (leaf(w, c, *pos, c_end), true);
    else
        ok = walk(w, c, c->offset, c_end, depth + 1);
    w->depth--;
    w->path[len] = '\0';
    w->path_len = len;
    *pos = c_end;
    release_behind(w, c_end);
    return ok;
}

/* A section, one part at a time. False when memory ran out or the
 * regions' receiver stopped the walk. */
static bool walk_section(struct walker *w, const struct part *n, uint64_t start, uint64_t end, int depth)
{
    struct section s;
    if (!section_open(n, &s, &w->entries)) {
        w->failed = true;
        return false;
    }
    uint64_t pos = start;
    bool ok = true;
    struct part c;
    for (size_t made = 1; ok && !w->stopped && section_next(w->f, &s, &c); made++) {
        if (inside(&c, start, end))
            ok = visit_child(w, n, &c, &pos, depth);
        /* Entries and metadata groups decoded for these parts lie
         * elsewhere in the file, ahead of the walk or behind it: let
         * their pages go too (release_behind covers only the walk's). */
        if (made % w->release_parts == 0 && n->lib)
            mbx_library_release_pages(n->lib);
    }
    free(s.sorted);
    if (ok)
        own_bytes(w, n, pos, end > pos ? end - pos : 0);
    return ok && !w->stopped;
}

static bool walk(struct walker *w, const struct part *n, uint64_t start, uint64_t end, int depth)
{
    if (w->stopped || w->failed)
        return false;
    /* An archive's members all share its compressed payload. */
    if (n->kind == PART_ARCHIVE || depth >= MAX_DEPTH) {
        leaf(w, n, start, end);
        return true;
    }
    if (is_section(n->kind))
        return walk_section(w, n, start, end, depth);
    struct parts k = { .f = w->f, .parent = n, .entries = &w->entries };
    parts_of(&k);
    if (k.failed) {
        free(k.v);
        w->failed = true;
        return false;
    }
    /* Parts inside this part's span, in file order: as made when they
     * come in offset order already (all of them, with or without bytes),
     * else sorted, the bigger first at one offset. */
    bool sorted = k.n > 0;
    for (size_t i = 1; i < k.n && sorted; i++)
        sorted = k.v[i].offset >= k.v[i - 1].offset;
    const struct part **kids = NULL;
    size_t m = 0;
    if (k.n) {
        kids = malloc(k.n * sizeof *kids);
        if (!kids) {
            free(k.v);
            w->failed = true;
            return false;
        }
        for (size_t i = 0; i < k.n; i++)
            if (inside(&k.v[i], start, end))
                kids[m++] = &k.v[i];
        if (!sorted)
            qsort(kids, m, sizeof *kids, by_offset);
    }
    bool ok = true;
    if (m == 0 && !is_frame(n->kind)) {
        leaf(w, n, start, end);
    } else {
        uint64_t pos = start;
        for (size_t i = 0; ok && i < m && !w->stopped; i++)
            ok = visit_child(w, n, kids[i], &pos, depth);
        if (ok)
            own_bytes(w, n, pos, end > pos ? end - pos : 0);
    }
    free(kids);
    free(k.v);
    return ok && !w->stopped;
}

static bool layout_walk(mtlbx_file *f, mtlbx_region_fn fn, void *ctx, bool lazy_paths)
{
    if (!f)
        return false;
    struct part root = { .kind = PART_FILE, .offset = 0, .size = f->size };
    struct walker w = { .f = f, .fn = fn, .ctx = ctx, .lazy_paths = lazy_paths };
    /* The check's walk (lazy paths) is about CPU; the one that streams
     * every region is about memory. */
    w.release_step = lazy_paths ? CHECK_RELEASE_STEP : STREAM_RELEASE_STEP;
    w.release_parts = lazy_paths ? CHECK_RELEASE_PARTS : STREAM_RELEASE_PARTS;
    bool ok = walk(&w, &root, 0, f->size, 0);
    layout_entries_free(&w.entries);
    flush_unclaimed(&w);
    return ok && !w.stopped && !w.failed;
}

bool mbx_layout_walk(mtlbx_file *f, mtlbx_region_fn fn, void *ctx)
{
    return layout_walk(f, fn, ctx, false);
}

/* --------------------------------------------------------- the check -- */

struct check_ctx {
    mtlbx_file *f;
    struct mtlbx_layout *c;
    size_t cap;
    uint64_t covered;
};

static mtlbx_library *library_holding(mtlbx_file *f, uint64_t off)
{
    for (size_t i = 0; i < f->n_libraries; i++) {
        mtlbx_library *lib = f->libraries[i];
        if (lib && off >= lib->header.base && off - lib->header.base < lib->header.available)
            return lib;
    }
    return NULL;
}

static void warn_at(mtlbx_file *f, uint64_t off, const char *message)
{
    mtlbx_library *lib = library_holding(f, off);
    if (lib)
        lib_warning(lib, off, "%s", message);
    else
        diag_add(&f->diags, MTLBX_WARNING, off, "%s", message);
}

static bool check_region(void *ctx, const struct mtlbx_region *r)
{
    struct check_ctx *x = ctx;
    struct mtlbx_layout_summary *s = &x->c->summary;
    char msg[PATH_MAX_BYTES + 96], count[48];
    x->covered += r->size;
    switch (r->kind) {
    case MTLBX_REGION_CLAIMED: s->claimed += r->size; break;
    case MTLBX_REGION_PADDING:
        s->padding += r->size;
        if (r->nonzero) {
            s->dirty_padding_runs++;
            snprintf(msg, sizeof msg, "%s of padding (%s) hold a non-zero byte where zero padding belongs",
                     mbx_count_noun(r->size, "byte", "bytes", count, sizeof count), r->what);
            warn_at(x->f, r->offset, msg);
        }
        break;
    case MTLBX_REGION_UNCLAIMED:
        s->unclaimed += r->size;
        s->unclaimed_runs++;
        snprintf(msg, sizeof msg, "%s that no structure claims",
                 mbx_count_noun(r->size, "byte", "bytes", count, sizeof count));
        warn_at(x->f, r->offset, msg);
        if (x->c->n_runs < MAX_RUNS &&
            grow_array((void **)&x->c->runs, &x->cap, x->c->n_runs + 1, sizeof *x->c->runs))
            x->c->runs[x->c->n_runs++] = (struct mtlbx_range){ r->offset, r->size };
        break;
    }
    return true;
}

void mbx_layout_free(struct mtlbx_layout *layout)
{
    if (!layout)
        return;
    free(layout->runs);
    free(layout);
}

struct mtlbx_layout *mbx_layout_check(mtlbx_file *f)
{
    struct mtlbx_layout *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    struct check_ctx x = { .f = f, .c = c };
    c->summary.complete = layout_walk(f, check_region, &x, true) && x.covered == f->size;
    return c;
}

struct run_key {
    const struct mtlbx_range *runs;
    uint64_t offset;
};

static bool run_ends_before(const void *ctx, size_t i)
{
    const struct run_key *k = ctx;
    return k->runs[i].offset + k->runs[i].size <= k->offset;
}

bool mbx_layout_unclaimed_at(const struct mtlbx_layout *c, uint64_t offset, bool after,
                               struct mtlbx_range *run)
{
    if (!c || !c->n_runs)
        return false;
    /* First run ending after offset. */
    struct run_key k = { c->runs, offset };
    size_t lo = mtlbx_lower_bound(c->n_runs, run_ends_before, &k);
    if (lo == c->n_runs)
        return false;
    const struct mtlbx_range *r = &c->runs[lo];
    if (after) {
        if (r->offset <= offset && lo + 1 < c->n_runs)
            r = &c->runs[lo + 1];
        else if (r->offset <= offset)
            return false;
    } else if (r->offset > offset) {
        return false;
    }
    *run = *r;
    return true;
}
