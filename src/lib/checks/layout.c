/* The byte layout: which node claims every byte of the file.
 *
 * One depth-first walk over the node model (the same tree the explorer
 * shows). A node's children that lie inside its span claim their bytes;
 * what is left of the span belongs to the node itself (a count word, a size
 * prefix, a header) unless the node is only a frame around other structures
 * (the file, a library, the metadata and module sections, the header
 * extension, the dynamic header): bytes left there are explained by nothing
 * and reported as unclaimed. Alignment runs that must be zero (between fat
 * slices, before an RBUF FlatBuffer) are padding.
 *
 * Memory stays flat however big the library: subtrees the walk builds are
 * forgotten as soon as they are walked (node_forget_children), a section
 * with a child per function is built a window of WINDOW children at a time
 * (node_window_fill), and the file's pages behind the walk are let go. */
#include "config.h"
#include "node.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_DEPTH 12
#define PATH_MAX_BYTES 512
/* Runs remembered for the views; a hostile file may have more, which are
 * still counted and reported but not highlighted. */
#define MAX_RUNS 65536
/* Children of a big section built at once: about 150 KB of nodes. */
#define WINDOW 1024
/* How far behind the walk its pages are let go, at the least. */
#define RELEASE_STEP ((uint64_t)1 << 20)

struct layout_cache {
    struct mtlbx_layout_summary summary;
    size_t n_runs;
    struct mtlbx_range *runs;
};

struct walker {
    mtlbx_file *f;
    mtlbx_region_fn fn;
    void *ctx;
    bool stopped;
    char path[PATH_MAX_BYTES];
    size_t path_len;
    /* The check reads no path but a dirty padding's, so it keeps only the
     * stack of nodes and builds a path when one is needed: formatting a
     * path for each of a million tags was a third of its time. */
    bool lazy_paths;
    int depth;
    const mtlbx_node *stack[MAX_DEPTH + 1];
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

static void segment(const mtlbx_node *n, char *out, size_t size);

/* In lazy mode: w->path, which holds only a suffix ("/padding"), becomes
 * the whole path of the node on top of the stack plus that suffix. */
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

/* The path segment of a node: what a reader of the layout can find in
 * the explorer's tree. */
static void segment(const mtlbx_node *n, char *out, size_t size)
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
        if (n->parent && n->parent->kind == MTLBX_NODE_LIST)
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
        return true;
    default:
        return false;
    }
}

/* Whether to look inside: an archive's children would decompress it, and
 * its members all share its payload anyway. */
static bool descend(const mtlbx_node *n)
{
    return n->kind != MTLBX_NODE_ARCHIVE && n->kind != MTLBX_NODE_MEMBER;
}

/* Bytes [off, off+size) of the file root between fat slices: padding when
 * they only bring the next slice to its alignment, else unclaimed. */
static void file_gap(struct walker *w, uint64_t off, uint64_t size)
{
    mtlbx_file *f = w->f;
    uint64_t end = off + size;
    for (size_t i = 0; f->fat && i < f->n_slices; i++) {
        const struct mtlbx_fat_slice *s = &f->slices[i];
        uint64_t align = s->align < 32 ? (uint64_t)1 << s->align : 0;
        if (s->offset == end && align && end % align == 0 && size < align) {
            emit(w, off, size, MTLBX_REGION_PADDING, "fat_padding");
            return;
        }
    }
    emit(w, off, size, MTLBX_REGION_UNCLAIMED, NULL);
}

/* A node's own bytes between (or around) its children. */
static void own_bytes(struct walker *w, const mtlbx_node *n, uint64_t off, uint64_t size)
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
static void leaf(struct walker *w, const mtlbx_node *n, uint64_t off, uint64_t end)
{
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
    const mtlbx_node *x = *(mtlbx_node *const *)a, *y = *(mtlbx_node *const *)b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->size > y->size ? -1 : x->size < y->size; /* the bigger first */
}

/* Sub-trees whose nodes the walk may give back when done with them. */
static bool transient(const mtlbx_node *n)
{
    return n->kind != MTLBX_NODE_FILE && n->kind != MTLBX_NODE_LIBRARY;
}

static bool inside(const mtlbx_node *c, uint64_t start, uint64_t end)
{
    return c->size && c->offset >= start && c->offset < end && c->size <= end - c->offset;
}

/* The walk goes through the file in order and never reads behind itself
 * again: the pages it has passed are let go, so that its resident memory
 * does not grow with the file (they stay in the page cache). */
static void release_behind(struct walker *w, uint64_t pos)
{
    if (pos > w->released && pos - w->released >= RELEASE_STEP) {
        file_release_pages(w->f, w->released, pos - w->released);
        w->released = pos;
    }
}

static bool walk(struct walker *w, mtlbx_node *n, uint64_t start, uint64_t end, int depth);

/* Walks child c of n, the next one in file order; *pos is where n's bytes
 * not yet accounted for begin, and moves past c. */
static bool visit_child(struct walker *w, const mtlbx_node *n, mtlbx_node *c, uint64_t *pos, int depth)
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

/* A section with a child per function, WINDOW children at a time, each
 * window's nodes given back before the next is built. False when memory
 * ran out or the regions' receiver stopped the walk. */
static bool walk_windows(struct walker *w, mtlbx_node *n, struct node_window *win, uint64_t start, uint64_t end,
                         int depth)
{
    mtlbx_node **kids = malloc(WINDOW * sizeof *kids);
    if (!kids)
        return false;
    uint64_t pos = start;
    bool ok = true;
    size_t got = WINDOW;
    for (size_t first = 0; ok && got == WINDOW && !w->stopped; first += WINDOW) {
        struct node_mark mark = node_mark(w->f);
        bool failed;
        got = node_window_fill(w->f, win, first, WINDOW, kids, &failed);
        ok = !failed;
        for (size_t i = 0; ok && i < got && !w->stopped; i++)
            if (inside(kids[i], start, end))
                ok = visit_child(w, n, kids[i], &pos, depth);
        node_forget_children(w->f, n, mark);
    }
    free(kids);
    if (ok)
        own_bytes(w, n, pos, end > pos ? end - pos : 0);
    return ok && !w->stopped;
}

static bool walk(struct walker *w, mtlbx_node *n, uint64_t start, uint64_t end, int depth)
{
    if (w->stopped)
        return false;
    if (!descend(n) || depth >= MAX_DEPTH) {
        leaf(w, n, start, end);
        return true;
    }
    /* A section with a child per function, a window at a time. */
    struct node_window win;
    if (node_window_open(w->f, n, &win)) {
        bool ok = walk_windows(w, n, &win, start, end, depth);
        node_window_close(&win);
        return ok;
    }
    bool was_built = n->built;
    struct node_mark mark = node_mark(w->f);
    size_t count = mtlbx_node_child_count(w->f, n);
    /* Children inside this node's span, in file order. */
    mtlbx_node **kids = NULL;
    size_t k = 0;
    if (count) {
        kids = malloc(count * sizeof *kids);
        if (!kids)
            return false;
        for (size_t i = 0; i < count; i++)
            if (inside(n->children[i], start, end))
                kids[k++] = n->children[i];
        if (!n->sorted)
            qsort(kids, k, sizeof *kids, by_offset);
    }
    bool ok = true;
    if (k == 0 && !is_frame(n->kind)) {
        leaf(w, n, start, end);
    } else {
        uint64_t pos = start;
        for (size_t i = 0; ok && i < k && !w->stopped; i++)
            ok = visit_child(w, n, kids[i], &pos, depth);
        if (ok)
            own_bytes(w, n, pos, end > pos ? end - pos : 0);
    }
    free(kids);
    if (!was_built && transient(n))
        node_forget_children(w->f, n, mark);
    return ok && !w->stopped;
}

static bool layout_walk(mtlbx_file *f, mtlbx_region_fn fn, void *ctx, bool lazy_paths)
{
    mtlbx_node *root = mtlbx_root(f);
    if (!root)
        return false;
    struct walker w = { .f = f, .fn = fn, .ctx = ctx, .lazy_paths = lazy_paths };
    bool ok = walk(&w, root, 0, f->size, 0);
    flush_unclaimed(&w);
    return ok && !w.stopped;
}

bool mtlbx_layout_walk(mtlbx_file *f, mtlbx_region_fn fn, void *ctx)
{
    return layout_walk(f, fn, ctx, false);
}

/* --------------------------------------------------------- the check -- */

struct check_ctx {
    mtlbx_file *f;
    struct layout_cache *c;
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
                     mtlbx_count_noun(r->size, "byte", "bytes", count, sizeof count), r->what);
            warn_at(x->f, r->offset, msg);
        }
        break;
    case MTLBX_REGION_UNCLAIMED:
        s->unclaimed += r->size;
        s->unclaimed_runs++;
        snprintf(msg, sizeof msg, "%s that no structure claims",
                 mtlbx_count_noun(r->size, "byte", "bytes", count, sizeof count));
        warn_at(x->f, r->offset, msg);
        if (x->c->n_runs < MAX_RUNS &&
            grow_array((void **)&x->c->runs, &x->cap, x->c->n_runs + 1, sizeof *x->c->runs))
            x->c->runs[x->c->n_runs++] = (struct mtlbx_range){ r->offset, r->size };
        break;
    }
    return true;
}

/* What mtlbx_layout_check found hangs off the file (file_attach.c). */
static const char layout_key;

static void layout_free(void *state)
{
    struct layout_cache *c = state;
    free(c->runs);
    free(c);
}

const struct mtlbx_layout_summary *mtlbx_layout_check(mtlbx_file *f)
{
    struct layout_cache *c = file_attachment(f, &layout_key);
    if (c)
        return &c->summary;
    c = calloc(1, sizeof *c);
    if (!c || !(c = file_attach(f, &layout_key, c, layout_free)))
        return NULL;
    struct check_ctx x = { .f = f, .c = c };
    c->summary.complete = layout_walk(f, check_region, &x, true) && x.covered == f->size;
    return &c->summary;
}

bool mtlbx_layout_unclaimed_at(mtlbx_file *f, uint64_t offset, bool after, struct mtlbx_range *run)
{
    const struct layout_cache *c = file_attachment(f, &layout_key);
    if (!c || !c->n_runs)
        return false;
    /* First run ending after offset. */
    size_t lo = 0, hi = c->n_runs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->runs[mid].offset + c->runs[mid].size <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
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
