/* See walk.h. Besides calling everything, the walk checks the promises the
 * API makes about what it hands out (spans inside the file, terminal-safe
 * UTF-8 labels and fields, a finite tree) and touches every byte of every
 * span, so that AddressSanitizer sees any pointer that lies. */
#include "walk.h"
#include "bitcode/demangle.h"
#include "checks/byte_layout.h"
#include "checks/hash.h"
#include "checks/validate.h"
#include "model/model.h"
#include "model/names.h"
#include "model/source_locate.h"
#include "compare/compare.h"
#include "container/metadata.h"
#include "container/sources.h"
#include "container/value_names.h"
#include "container/target_names.h"
#include "container/diagnostics.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct walker {
    mtlbx_file *f;
    mtlbx_model *m;
    const uint8_t *base;
    uint64_t size;
    struct walk_stats *st;
    volatile uint8_t sink;
};

static void bad(struct walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(struct walker *w, const char *fmt, ...)
{
    if (w->st->bad++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->st->first_bad, sizeof w->st->first_bad, fmt, ap);
        va_end(ap);
    }
}

/* Reads every byte, so a span that leaves its buffer trips ASan. */
static void touch(struct walker *w, const uint8_t *p, size_t n)
{
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= p[i];
    w->sink ^= x;
}

/* A span handed out by the library must lie inside the file. */
static void check_file_bytes(struct walker *w, struct mtlbx_bytes b, const char *what)
{
    if (!b.ptr) {
        if (b.len)
            bad(w, "%s: NULL with length %zu", what, b.len);
        return;
    }
    if (b.ptr < w->base || (uint64_t)(b.ptr - w->base) > w->size || b.len > w->size - (uint64_t)(b.ptr - w->base))
        bad(w, "%s: span outside the file", what);
    else
        touch(w, b.ptr, b.len);
}

/* Valid UTF-8 with no C0 control, DEL or C1 control: text that cannot act
 * on a terminal. */
static bool terminal_safe(const char *s)
{
    const uint8_t *p = (const uint8_t *)s;
    while (*p) {
        uint32_t c = *p;
        size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0)
            return false;
        uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
        for (size_t i = 1; i < n; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
            return false;
        p += n;
    }
    return true;
}

struct field_ctx {
    struct walker *w;
    const mtlbx_node *n;
};

static void on_field(void *ctx, const struct mtlbx_field *fd)
{
    struct field_ctx *c = ctx;
    struct walker *w = c->w;
    w->st->fields++;
    if (!fd->name || !fd->value) {
        bad(w, "field with a NULL name or value (node kind %d)", c->n->kind);
        return;
    }
    if (!terminal_safe(fd->name) || !terminal_safe(fd->value))
        bad(w, "field '%.40s' of node kind %d is not terminal-safe", fd->name, c->n->kind);
    if (fd->size && (fd->offset > w->size || fd->size > w->size - fd->offset))
        bad(w, "field '%.40s' span [%llu,+%llu) outside the file", fd->name, (unsigned long long)fd->offset,
            (unsigned long long)fd->size);
}

static void walk_node(struct walker *w, mtlbx_node *n, size_t depth)
{
    struct walk_stats *st = w->st;
    if (st->nodes >= WALK_MAX_NODES)
        return;
    st->nodes++;
    if (depth > st->max_depth)
        st->max_depth = depth;
    if (depth > WALK_MAX_DEPTH) {
        bad(w, "node tree deeper than %d: a cycle", WALK_MAX_DEPTH);
        return;
    }
    if (n->size && (n->offset > w->size || n->size > w->size - n->offset))
        bad(w, "node kind %d span [%llu,+%llu) outside the file", n->kind, (unsigned long long)n->offset,
            (unsigned long long)n->size);
    char label[512];
    memset(label, 'x', sizeof label);
    mbx_node_label(w->m, n, label, sizeof label);
    if (!memchr(label, '\0', sizeof label))
        bad(w, "label of node kind %d not terminated", n->kind);
    else if (!terminal_safe(label))
        bad(w, "label of node kind %d is not terminal-safe", n->kind);
    /* A tiny buffer must still come back terminated. */
    char tiny[3] = { 'x', 'x', 'x' };
    mbx_node_label(w->m, n, tiny, sizeof tiny);
    if (!memchr(tiny, '\0', sizeof tiny))
        bad(w, "3-byte label of node kind %d not terminated", n->kind);
    (void)mbx_node_flags(w->m, n);
    bool expandable = mbx_node_expandable(w->m, n);
    struct field_ctx fc = { w, n };
    mbx_node_fields(w->m, n, on_field, &fc);
    size_t nc = mbx_node_child_count(w->m, n);
    if (nc && !expandable)
        bad(w, "node kind %d has %zu children but says it is not expandable", n->kind, nc);
    for (size_t i = 0; i < nc; i++) {
        mtlbx_node *c = mbx_node_child(w->m, n, i);
        if (!c) {
            bad(w, "child %zu of %zu of node kind %d is NULL", i, nc, n->kind);
            continue;
        }
        if (c->parent != n)
            bad(w, "child's parent pointer is wrong (kind %d)", c->kind);
        walk_node(w, c, depth + 1);
    }
    if (nc && mbx_node_child(w->m, n, nc) != NULL)
        bad(w, "child index past the end returned a node (kind %d)", n->kind);
}

/* The node found for an offset must contain it (or be the root). */
static void probe_offset(struct walker *w, mtlbx_node *root, uint64_t off)
{
    mtlbx_node *n = mbx_node_at_offset(w->m, off);
    if (!n) {
        bad(w, "node_at_offset(%llu) returned NULL", (unsigned long long)off);
        return;
    }
    if (n != root && (off < n->offset || off - n->offset >= n->size))
        bad(w, "node_at_offset(%llu) returned kind %d at [%llu,+%llu)", (unsigned long long)off, n->kind,
            (unsigned long long)n->offset, (unsigned long long)n->size);
}

static void walk_function(struct walker *w, mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    if (!fn) {
        bad(w, "function %zu is NULL", i);
        return;
    }
    check_file_bytes(w, fn->name, "function name");
    if (fn->hash)
        check_file_bytes(w, (struct mtlbx_bytes){ fn->hash, 32 }, "function hash");
    if (fn->module_valid && (fn->module.offset > w->size || fn->module.size > w->size - fn->module.offset))
        bad(w, "function %zu module outside the file", i);
    check_file_bytes(w, mbx_function_module_bytes(lib, i), "module bytes");
    struct mtlbx_wrapper wr;
    (void)mbx_function_wrapper(lib, i, &wr);
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, i);
    if (!md) {
        bad(w, "function %zu has NULL metadata", i);
    } else {
        for (size_t k = 0; k < md->n_constants; k++)
            check_file_bytes(w, md->constants[k].name, "constant name");
        for (size_t k = 0; k < md->n_attributes; k++)
            check_file_bytes(w, md->attributes[k].name, "attribute name");
        if (md->has_debi)
            check_file_bytes(w, md->debi_path, "DEBI path");
        if (md->has_depf)
            check_file_bytes(w, md->depf_path, "DEPF path");
        const struct mtlbx_reflection *r = &md->reflection;
        for (size_t k = 0; k < r->n_arguments; k++) {
            check_file_bytes(w, r->arguments[k].name, "ARGR argument name");
            if (r->arguments[k].offset > w->size || r->arguments[k].size > w->size - r->arguments[k].offset)
                bad(w, "ARGR argument %zu outside the file", k);
            if (r->arguments[k].first_member + r->arguments[k].n_members > r->n_members)
                bad(w, "ARGR argument %zu members past the list", k);
        }
        for (size_t k = 0; k < r->n_members; k++)
            check_file_bytes(w, r->members[k].name, "ARGR member name");
    }
    /* Bitcode check: a cached answer the second time. */
    if (mbx_module_validate(lib, i) != mbx_module_validate(lib, i))
        bad(w, "function %zu: bitcode check changed its answer", i);
    (void)mbx_function_archive(lib, i);
    /* The tag walk of the entry, as dump does. */
    struct mtlbx_tag_walk tw;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&tw, w->f, fn->entry_offset + 4, fn->entry_size > 4 ? fn->entry_size - 4 : 0);
    size_t guard = 0;
    while (mbx_tag_walk_next(&tw, &t)) {
        check_file_bytes(w, (struct mtlbx_bytes){ t.value, t.value ? t.value_len : 0 }, "tag value");
        if (++guard > w->size) {
            bad(w, "tag walk of function %zu does not end", i);
            break;
        }
    }
    char buf[32];
    (void)mbx_function_type_name(fn->type, buf, sizeof buf);
    /* Name lookup exercises the comparison on untrusted, unterminated names. */
    if (fn->name.len && fn->name.len < 64) {
        char name[64];
        memcpy(name, fn->name.ptr, fn->name.len);
        name[fn->name.len] = '\0';
        long k = mbx_library_function_find(lib, name);
        if (k < 0 && !memchr(fn->name.ptr, '\0', fn->name.len))
            bad(w, "function '%s' not found by its own name", name);
    }
}

static void walk_archives(struct walker *w, mtlbx_library *lib)
{
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (!src)
        return;
    check_file_bytes(w, src->link_command, "link command");
    if (src->has_working_dir)
        check_file_bytes(w, src->working_dir, "working dir");
    for (size_t k = 0; k < src->n_archives; k++) {
        const struct mtlbx_archive *a = &src->archives[k];
        check_file_bytes(w, a->id, "archive id");
        check_file_bytes(w, a->payload, "archive payload");
        enum mtlbx_archive_state s = mbx_archive_load(lib, k);
        /* Asking twice returns the cached state. */
        if (mbx_archive_load(lib, k) != s)
            bad(w, "archive %zu state changed on a second load", k);
        if (s != MTLBX_ARCHIVE_LOADED)
            continue;
        w->st->archives_loaded++;
        if (a->tar_len > MTLBX_SOURCE_CAP)
            bad(w, "archive %zu decompressed past the cap (%zu bytes)", k, a->tar_len);
        for (size_t m = 0; m < a->n_members; m++) {
            const struct mtlbx_member *mb = &a->members[m];
            w->st->members++;
            if (!mb->name) {
                bad(w, "member without a name");
                continue;
            }
            touch(w, (const uint8_t *)mb->name, strlen(mb->name));
            if (mb->link_target)
                touch(w, (const uint8_t *)mb->link_target, strlen(mb->link_target));
            if (mb->data) {
                if (mb->data < a->tar || (size_t)(mb->data - a->tar) > a->tar_len ||
                    mb->size > a->tar_len - (size_t)(mb->data - a->tar))
                    bad(w, "member %zu data outside the decompressed tar", m);
                else
                    touch(w, mb->data, (size_t)mb->size);
            }
        }
    }
}

/* What finds a function by its name and its source (issue 35): the
 * bounded demangler, the resolution of a typed NAME (exact, prefix, "did
 * you mean") and src's search of the embedded sources. The promises: a
 * demangled name is no longer than the bound, a function is found by its
 * own stored name, a location lies inside its member. */
static void walk_names(struct walker *w, mtlbx_library *lib, size_t l, size_t i)
{
    struct mtlbx_bytes name = mbx_function_at(lib, i)->name;
    char *d = NULL;
    enum mtlbx_demangle_status st = mbx_demangle_bounded(name, &d);
    if ((st == MTLBX_DEMANGLED) != (d != NULL))
        bad(w, "function %zu: demangler status %d with text %p", i, (int)st, (void *)d);
    if (d && (!*d || strlen(d) > name.len * 16 + 256))
        bad(w, "function %zu: %zu bytes demangled from %zu", i, strlen(d), name.len);
    if (d)
        touch(w, (const uint8_t *)d, strlen(d));
    free(d);
    if (name.len && name.len < 512 && !memchr(name.ptr, '\0', name.len)) {
        char typed[512];
        memcpy(typed, name.ptr, name.len);
        typed[name.len] = '\0';
        struct mtlbx_name_matches m;
        if (mbx_resolve_function_name(w->f, typed, &m)) {
            bool self = false;
            for (size_t k = 0; k < m.n; k++)
                self |= m.v[k].library == l && m.v[k].function == i;
            if (m.how != MTLBX_NAME_EXACT || !self)
                bad(w, "function %zu not found by its own name (how %d, %zu matches)", i, (int)m.how, m.n);
            mbx_name_matches_free(&m);
        }
        /* A typo in its first half: the exact, prefix and "did you mean"
         * passes, each over every function. */
        typed[name.len / 2] = typed[name.len / 2] == 'q' ? 'z' : 'q';
        if (mbx_resolve_function_name(w->f, typed, &m))
            mbx_name_matches_free(&m);
    }
    struct mtlbx_source_location loc;
    if (mbx_source_locate(lib, i, &loc) == 1) {
        const struct mtlbx_sources *src = mbx_library_sources(lib);
        if (loc.archive >= src->n_archives || loc.member >= src->archives[loc.archive].n_members) {
            bad(w, "function %zu: source location outside the archives", i);
            return;
        }
        const struct mtlbx_member *mem = &src->archives[loc.archive].members[loc.member];
        if (!mem->data || loc.line < 1 || loc.line_offset > loc.offset || loc.offset >= mem->size ||
            loc.end_offset > mem->size || loc.end_offset <= loc.line_offset)
            bad(w, "function %zu: source location %llu..%llu (name at %llu) in a member of %llu bytes", i,
                (unsigned long long)loc.line_offset, (unsigned long long)loc.end_offset,
                (unsigned long long)loc.offset, (unsigned long long)mem->size);
    }
}

static void walk_library(struct walker *w, mtlbx_library *lib)
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    char buf[32];
    if (h) {
        (void)mbx_file_type_name(h->file_type, buf, sizeof buf);
        (void)mbx_target_os_name(h->platform_byte, buf, sizeof buf);
    }
    size_t n = mbx_library_function_count(lib);
    for (size_t i = 0; i < n; i++)
        walk_function(w, lib, i);
    /* Hash checks: one by one (blocking, cached), then all threaded. */
    for (size_t i = 0; i < n && i < 64; i++) {
        uint8_t actual[32];
        (void)mbx_function_verify(lib, i, actual);
        (void)mbx_function_hash_state(lib, i);
    }
    (void)mbx_library_verify_all(lib, 2);
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    if (ext)
        for (size_t k = 0; k < ext->n_tags; k++)
            check_file_bytes(w, (struct mtlbx_bytes){ ext->tags[k].value, ext->tags[k].value ? ext->tags[k].value_len : 0 },
                             "extension tag value");
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(lib);
    if (dyn) {
        if (dyn->has_name)
            check_file_bytes(w, dyn->name, "dynamic name");
        for (size_t k = 0; k < dyn->n_linked; k++)
            check_file_bytes(w, dyn->linked[k], "linked library");
    }
    for (int k = 0; k < MTLBX_LIST_COUNT; k++) {
        const struct mtlbx_list *l = mbx_library_list(lib, (enum mtlbx_list_kind)k);
        for (size_t g = 0; l && g < l->n_groups; g++)
            if (l->groups[g].offset > w->size || l->groups[g].size > w->size - l->groups[g].offset)
                bad(w, "list group outside the file");
    }
    walk_archives(w, lib);
}

/* The first functions of every library: walk_names is linear in the
 * functions, so not for each one (and the corrupt-input test walks
 * thousands of files). */
static void walk_all_names(struct walker *w)
{
    for (size_t l = 0; l < mbx_file_library_count(w->f); l++) {
        mtlbx_library *lib = mbx_library_at(w->f, l);
        for (size_t i = 0; i < mbx_library_function_count(lib) && i < 2; i++)
            walk_names(w, lib, l, i);
    }
}

static void count_diags(struct walker *w, const struct mtlbx_diag *d)
{
    if (!d || !d->message) {
        bad(w, "NULL diagnostic");
        return;
    }
    touch(w, (const uint8_t *)d->message, strlen(d->message));
    if (d->severity == MTLBX_ERROR)
        w->st->errors++;
    else
        w->st->warnings++;
}

/* The byte layout must tile the file: regions in order, no gap, no
 * overlap, nothing past the end. `digest` sums up the regions (FNV-1a),
 * so that two walks can be compared. */
struct tiling {
    struct walker *w;
    uint64_t pos;
    uint64_t digest;
};

static void fnv(uint64_t *h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ ((const uint8_t *)p)[i]) * UINT64_C(0x100000001b3);
}

static bool on_region(void *ctx, const struct mtlbx_region *r)
{
    struct tiling *t = ctx;
    if (r->offset != t->pos || r->size == 0 || r->size > t->w->size - r->offset || !r->what)
        bad(t->w, "layout region at %llu+%llu, expected one at %llu", (unsigned long long)r->offset,
            (unsigned long long)r->size, (unsigned long long)t->pos);
    else
        touch(t->w, (const uint8_t *)r->what, strlen(r->what));
    uint64_t fields[3] = { r->offset, r->size, (uint64_t)r->kind << 1 | r->nonzero };
    fnv(&t->digest, fields, sizeof fields);
    if (r->what)
        fnv(&t->digest, r->what, strlen(r->what) + 1);
    t->pos = r->offset + r->size;
    return true;
}

/* One layout walk: false when it did not complete (then digest means
 * nothing). */
static bool layout_digest(struct walker *w, uint64_t *digest)
{
    struct tiling t = { .w = w, .digest = UINT64_C(0xcbf29ce484222325) };
    bool complete = mbx_layout_walk(w->f, on_region, &t);
    if (complete && t.pos != w->size)
        bad(w, "layout covers %llu of %llu bytes", (unsigned long long)t.pos, (unsigned long long)w->size);
    *digest = t.digest;
    return complete;
}

/* The layout after the tree walk (every section built, archives loaded,
 * interfaces kept) against `windowed`, the one it gave before the tree
 * was built: it reads the container, never the tree, so the two must
 * agree. */
static void walk_layout(struct walker *w, bool windowed_complete, uint64_t windowed)
{
    uint64_t built;
    if (layout_digest(w, &built) && windowed_complete && built != windowed)
        bad(w, "the layout differs between windowed and built sections");
    struct mtlbx_layout *layout = mbx_layout_check(w->f);
    const struct mtlbx_layout_summary *s = layout ? &layout->summary : NULL;
    if (s && s->complete && s->claimed + s->padding + s->unclaimed != w->size)
        bad(w, "layout summary does not add up to the file size");
    struct mtlbx_range run;
    if (mbx_layout_unclaimed_at(layout, 0, true, &run) && (run.offset > w->size || run.size > w->size - run.offset))
        bad(w, "unclaimed run outside the file");
    mbx_layout_free(layout);
}

void walk_file(mtlbx_file *f, struct walk_stats *st)
{
    memset(st, 0, sizeof *st);
    struct walker w = { .f = f, .m = mbx_model_open(f), .base = mbx_file_data(f), .size = mbx_file_size(f),
                        .st = st };
    for (size_t s = 0; s < mbx_fat_slice_count(f); s++)
        (void)mbx_cputype_name(mbx_fat_slice(f, s)->cputype);
    size_t nl = mbx_file_library_count(f);
    for (size_t l = 0; l < nl; l++)
        walk_library(&w, mbx_library_at(f, l));
    walk_all_names(&w);
    /* The first functions' interfaces are kept (as the explorer's worker
     * does), so the walk also covers interface, argument and bitstream
     * block nodes and the declaration text. */
    for (size_t l = 0; l < nl; l++)
        for (size_t i = 0; i < mbx_library_function_count(mbx_library_at(f, l)) && i < 4; i++)
            (void)mbx_function_interface_keep(w.m, mbx_library_at(f, l), i);
    /* The tree last: archives are loaded, hashes known, so fields and
     * flags see the lazily found problems too. */
    mtlbx_node *root = mbx_root(w.m);
    if (!root) {
        bad(&w, "no root node");
    } else {
        uint64_t windowed;
        bool windowed_complete = layout_digest(&w, &windowed); /* before any section is built */
        walk_node(&w, root, 0);
        uint64_t probes[] = { 0, 4, 88, w.size / 3, w.size / 2, w.size ? w.size - 1 : 0, w.size, UINT64_MAX };
        for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
            probe_offset(&w, root, probes[i]);
        walk_layout(&w, windowed_complete, windowed);
    }
    /* The comparison (mtlbx diff) of the file with itself walks every
     * function, header field and source member, and must find nothing. */
    struct mtlbx_diff *d = NULL;
    struct mtlbx_diff_options opt = { .verify = true };
    if (mbx_diff_files(f, f, &opt, &d) == MTLBX_E_NONE && !d->identical)
        bad(&w, "a file compared with itself is not identical");
    mbx_diff_free(d);
    for (size_t i = 0; i < mbx_file_diag_count(f); i++)
        count_diags(&w, mbx_file_diag(f, i));
    for (size_t l = 0; l < nl; l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        for (size_t i = 0; i < mbx_library_diag_count(lib); i++)
            count_diags(&w, mbx_library_diag(lib, i));
    }    mbx_model_close(w.m);
}
