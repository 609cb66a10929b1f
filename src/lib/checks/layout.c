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
 * The parts are the file's structure (structure.c), the ones the
 * explorer's tree shows as nodes, and a region's path names them the way
 * the tree does, so that a reader of the layout finds them there; but the
 * walk reads only the container, never the tree.
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
#include "checks/structure.h"
#include "container/lower_bound.h"
#include "container/nouns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 12
#define PATH_MAX_BYTES 512
/* Runs remembered for the views; a hostile file may have more, which are
 * still counted and reported but not highlighted. */
#define MAX_RUNS 65536
/* How far behind the walk its pages are let go, at the least, and after
 * how many parts of a section the entries decoded for them are: for the
 * walk that streams each region (dump --layout, held to dump's own peak
 * memory), and for the check's (held to CPU and wall time beside the
 * hash, where each madvise is a TLB flush on the hashing threads). */
#define STREAM_RELEASE_STEP ((uint64_t)256 << 10)
#define STREAM_RELEASE_PARTS 512
#define CHECK_RELEASE_STEP ((uint64_t)1 << 20)
#define CHECK_RELEASE_PARTS LAZY_BLOCK

/* A part's parts, gathered before they are walked. */
struct parts {
    struct structure_part *v;
    size_t n, cap;
    bool failed;
};

static bool collect(void *ctx, const struct structure_part *p)
{
    struct parts *k = ctx;
    if (k->failed || !grow_array((void **)&k->v, &k->cap, k->n + 1, sizeof *k->v)) {
        k->failed = true;
        return false;
    }
    k->v[k->n++] = *p;
    return true;
}

struct walker {
    mtlbx_file *f;
    struct layout_entries entries;
    struct structure structure; /* read through entries */
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
    const struct structure_part *stack[MAX_DEPTH + 1];
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

static void segment(const mtlbx_file *f, const struct structure_part *n, char *out, size_t size);

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
        segment(w->f, w->stack[i], seg, sizeof seg);
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
static void segment(const mtlbx_file *f, const struct structure_part *n, char *out, size_t size)
{
    static const char *const lists[MTLBX_LIST_COUNT] = { "VLST", "ILST", "RLST", "SLST" };
    switch (n->kind) {
    case MTLBX_NODE_FAT_HEADER: snprintf(out, size, "fat_header"); break;
    case MTLBX_NODE_FAT_SLICE: snprintf(out, size, "slice[%u]", n->index); break;
    case MTLBX_NODE_LIBRARY: snprintf(out, size, "library[%u]", n->index); break;
    case MTLBX_NODE_HEADER: snprintf(out, size, "header"); break;
    case MTLBX_NODE_FUNCTION_LIST: snprintf(out, size, "function_list"); break;
    case MTLBX_NODE_FUNCTION: snprintf(out, size, "function[%u]", n->index); break;
    case MTLBX_NODE_TAG: snprintf(out, size, "%s", n->tag.name); break;
    case MTLBX_NODE_TAG_GROUP:
        /* Metadata groups are named after the first function using them. */
        if (n->sub >= CTX_LIST)
            snprintf(out, size, "group[%u]", n->index);
        else
            snprintf(out, size, "function[%u]", n->index);
        break;
    case MTLBX_NODE_HEADER_EXT: snprintf(out, size, "header_extension"); break;
    case MTLBX_NODE_PUBLIC_MD: snprintf(out, size, "public_metadata"); break;
    case MTLBX_NODE_PRIVATE_MD: snprintf(out, size, "private_metadata"); break;
    case MTLBX_NODE_MODULE_LIST: snprintf(out, size, "modules"); break;
    case MTLBX_NODE_MODULE: snprintf(out, size, "module[%u]", n->index); break;
    case MTLBX_NODE_SOURCES: snprintf(out, size, "sources"); break;
    case MTLBX_NODE_ARCHIVE: snprintf(out, size, "archive[%u]", n->index); break;
    case MTLBX_NODE_DYNAMIC_HEADER: snprintf(out, size, "dynamic_header"); break;
    case MTLBX_NODE_LIST: snprintf(out, size, "%s", n->sub < MTLBX_LIST_COUNT ? lists[n->sub] : "list"); break;
    case MTLBX_NODE_CI_ARGUMENT: snprintf(out, size, "argument[%u]", n->index); break;
    case MTLBX_NODE_CI_MEMBER: snprintf(out, size, "member[%u]", n->index); break;
    case MTLBX_NODE_GPU_SLICE: snprintf(out, size, "slice[%zu]", mbx_gpu_slice_at(f, n->index)->slice); break;
    case MTLBX_NODE_GPU_PIECE: layout_gpu_segment(f, n->sub, n->index, out, size); break;
    case MTLBX_NODE_GPU_FUNCTION: snprintf(out, size, "gpu_function[%u]", n->index); break;
    default: snprintf(out, size, "node"); break;
    }
}

/* Frames: their leftover bytes are explained by nothing. */
static bool is_frame(enum mtlbx_node_kind k)
{
    switch (k) {
    case MTLBX_NODE_FILE:
    case MTLBX_NODE_LIBRARY:
    case MTLBX_NODE_PUBLIC_MD:
    case MTLBX_NODE_PRIVATE_MD:
    case MTLBX_NODE_MODULE_LIST:
    case MTLBX_NODE_HEADER_EXT:
    case MTLBX_NODE_DYNAMIC_HEADER:
    case MTLBX_NODE_GPU_SLICE:
        return true;
    default:
        return false;
    }
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
static void own_bytes(struct walker *w, const struct structure_part *n, uint64_t off, uint64_t size)
{
    if (size == 0)
        return;
    if (n->kind == MTLBX_NODE_FILE)
        file_gap(w, off, size);
    else if (is_frame(n->kind))
        emit(w, off, size, MTLBX_REGION_UNCLAIMED, NULL);
    else
        emit(w, off, size, MTLBX_REGION_CLAIMED, w->path);
}

/* An RBUF value starts with zeros up to the 16-byte-aligned FlatBuffer
 * (FORMAT §12); those up to the first aligned offset are padding. */
static void leaf(struct walker *w, const struct structure_part *n, uint64_t off, uint64_t end)
{
    if (n->kind == MTLBX_NODE_GPU_PIECE && layout_gpu_padding(w->f, n->sub, n->index)) {
        emit(w, off, end - off, MTLBX_REGION_PADDING, w->path);
        return;
    }
    if (n->kind == MTLBX_NODE_TAG && strcmp(n->tag.name, "RBUF") == 0 && n->tag.value_offset >= off &&
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
    const struct structure_part *x = *(const struct structure_part *const *)a, *y = *(const struct structure_part *const *)b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->size > y->size ? -1 : x->size < y->size; /* the bigger first */
}

static bool inside(const struct structure_part *c, uint64_t start, uint64_t end)
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

static bool walk(struct walker *w, const struct structure_part *n, uint64_t start, uint64_t end, int depth);

/* Walks part c of n, the next one in file order; *pos is where n's bytes
 * not yet accounted for begin, and moves past c. */
static bool visit_child(struct walker *w, const struct structure_part *n, const struct structure_part *c, uint64_t *pos, int depth)
{
    uint64_t c_end = c->offset + c->size;
    if (c_end <= *pos)
        return true; /* inside one already walked (a shared module) */
    own_bytes(w, n, *pos, c->offset > *pos ? c->offset - *pos : 0);
    size_t len = w->path_len;
    if (!w->lazy_paths) {
        char seg[64];
        segment(w->f, c, seg, sizeof seg);
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
static bool walk_section(struct walker *w, const struct structure_part *n, uint64_t start, uint64_t end, int depth)
{
    struct structure_section s;
    if (!structure_section_open(&w->structure, n, &s)) {
        w->failed = true;
        return false;
    }
    uint64_t pos = start;
    bool ok = true;
    struct structure_part c;
    for (size_t made = 1; ok && !w->stopped && structure_section_next(&s, &c); made++) {
        if (inside(&c, start, end))
            ok = visit_child(w, n, &c, &pos, depth);
        /* Entries and metadata groups decoded for these parts lie
         * elsewhere in the file, ahead of the walk or behind it: let
         * their pages go too (release_behind covers only the walk's). */
        if (made % w->release_parts == 0 && n->lib)
            mbx_library_release_pages(n->lib);
    }
    structure_section_close(&s);
    if (ok)
        own_bytes(w, n, pos, end > pos ? end - pos : 0);
    return ok && !w->stopped;
}

static bool walk(struct walker *w, const struct structure_part *n, uint64_t start, uint64_t end, int depth)
{
    if (w->stopped || w->failed)
        return false;
    /* An archive's members all share its compressed payload. */
    if (n->kind == MTLBX_NODE_ARCHIVE || depth >= MAX_DEPTH) {
        leaf(w, n, start, end);
        return true;
    }
    if (structure_is_section(n->kind))
        return walk_section(w, n, start, end, depth);
    struct parts k = { 0 };
    if (!structure_parts(&w->structure, n, collect, &k)) {
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
    const struct structure_part **kids = NULL;
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
    struct structure_part root = { .kind = MTLBX_NODE_FILE, .offset = 0, .size = f->size };
    struct walker w = { .f = f, .fn = fn, .ctx = ctx, .lazy_paths = lazy_paths };
    w.structure = (struct structure){ .f = f, .entries = &w.entries, .libraries_in_slices = true };
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
