/* A parsed file as the writer's model (mbx_writer_describe): the values in
 * file order, every number a reader locates things by turned into a
 * computed tag, and what no rule derives kept as a quirk (writer.h,
 * doc/writer-layout.md). Byte values point into the file's mapping.
 *
 * What describe cannot say (a computed tag of the wrong length, a SOFF
 * or RFLT that lands on no archive or group, two functions whose modules
 * overlap without being the same) is refused here with its offset; what
 * it says wrongly (bytes between sections, groups out of order, ...) is
 * found by laying the model out and comparing (mbx_writer_compare), which
 * the caller runs before it trusts the model. */
#include "config.h"
#include "writer_internal.h"
#include "container/le_read.h"
#include "checks/hash.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/sources.h"
#include "container/diagnostics.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far a describe pass is, across every library of the file. */
struct describe_progress {
    int (*tick)(void *ctx, uint64_t done, uint64_t total);
    void *ctx;
    uint64_t done, total;      /* functions described, of all libraries' */
};

struct describing {
    mtlbx_writer *w;
    mtlbx_file *f;
    mtlbx_library *lib;
    struct mtlbx_wr_library *out;
    size_t li;
    uint64_t base;
    unsigned flags;
    uint64_t budget;           /* bytes the group walks may still read */
    struct describe_progress *progress;
};

static uint32_t rd32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64le(const uint8_t *p)
{
    return (uint64_t)rd32le(p) | (uint64_t)rd32le(p + 4) << 32;
}

static int fail_at(struct describing *d, uint64_t offset, const char *fmt, const char *a, const char *b)
{
    char msg[400];
    snprintf(msg, sizeof msg, fmt, a, b);
    if (mbx_file_is_fat(d->f))
        return mbx_wr_fail(d->w, (int64_t)offset, "slice %zu: %s", d->li, msg);
    return mbx_wr_fail(d->w, (int64_t)offset, "%s", msg);
}

/* Walks the tags of [off, end) to an ENDT that ends exactly at `end`
 * (when `exact`) and adds each through `add`. */
typedef int (*tag_fn)(struct describing *d, const struct mtlbx_tag *t, void *ctx);

static int walk(struct describing *d, uint64_t off, uint64_t end, bool exact, const char *what, tag_fn add,
                void *ctx, uint64_t *ended)
{
    if (end - off > d->budget)
        return fail_at(d, off, "%s: tag groups overlap too much to be laid out again%s", what, "");
    struct mtlbx_tag_walk tw;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&tw, d->f, off, end - off);
    while (mbx_tag_walk_next(&tw, &t)) {
        int rc = add(d, &t, ctx);
        if (rc != MTLBX_WRITER_OK)
            return rc;
    }
    d->budget -= tw.pos - off;
    if (!tw.ended)
        return fail_at(d, tw.pos, "%s: no ENDT ends its tags%s", what, "");
    if (exact && tw.pos != end)
        return fail_at(d, tw.pos, "%s: bytes follow its ENDT%s", what, "");
    if (ended)
        *ended = tw.pos;
    return MTLBX_WRITER_OK;
}

static int add_value(struct describing *d, const struct mtlbx_tag *t, void *ctx)
{
    (void)ctx;
    return mbx_wr_add_tag(d->w, d->out, t->fourcc, MTLBX_WR_VALUE, t->value, (size_t)t->value_len, true) < 0
               ? MTLBX_WRITER_FATAL
               : MTLBX_WRITER_OK;
}

/* ------------------------------------------------------------ functions -- */

struct fn_describing {
    struct mtlbx_wr_function *fn;
    size_t index;
    enum mtlbx_hash_state hash;
    const struct mtlbx_sources *src;
    const struct mtlbx_list *rlst;
};

static int add_function_tag(struct describing *d, const struct mtlbx_tag *t, void *ctx)
{
    struct fn_describing *fd = ctx;
    enum mtlbx_wr_kind kind = MTLBX_WR_VALUE;
    uint64_t want = 0;
    switch (t->fourcc) {
    case FOURCC('H', 'A', 'S', 'H'): kind = MTLBX_WR_HASH; want = 32; break;
    case FOURCC('O', 'F', 'F', 'T'): kind = MTLBX_WR_OFFT; want = 24; break;
    case FOURCC('M', 'D', 'S', 'Z'): kind = MTLBX_WR_MDSZ; want = 8; break;
    case FOURCC('S', 'O', 'F', 'F'): kind = MTLBX_WR_SOFF; want = 8; break;
    case FOURCC('R', 'F', 'L', 'T'): kind = MTLBX_WR_RFLT; want = 8; break;
    default: break;
    }
    if (kind != MTLBX_WR_VALUE && t->value_len != want) {
        char cc[5];
        wr_fourcc_text(t->fourcc, cc);
        return fail_at(d, t->offset, "%s of %s bytes: the writer computes it and cannot keep its length", cc,
                       t->value_len == 0 ? "0" : "another number of");
    }
    if (kind == MTLBX_WR_HASH && fd->hash == MTLBX_HASH_MISMATCH) {
        /* Quirk: a HASH that is not the module's digest (FORMAT W9). */
        fd->fn->has_stored_hash = true;
        memcpy(fd->fn->stored_hash, t->value, 32);
    }
    if (kind == MTLBX_WR_SOFF) {
        uint64_t rel = rd64le(t->value);
        long found = -1;
        for (size_t a = 0; fd->src->present && a < fd->src->n_archives; a++)
            if (fd->src->archives[a].sarc_offset - fd->src->range.offset == rel)
                found = (long)a;
        if (found < 0)
            return fail_at(d, t->offset, "SOFF names no source archive%s%s", "", "");
        fd->fn->archive = found;
    }
    if (kind == MTLBX_WR_RFLT) {
        uint64_t rel = rd64le(t->value);
        long found = -1;
        /* Groups are in file order: a binary search. */
        size_t lo = 0, hi = fd->rlst->present ? fd->rlst->n_groups : 0;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            uint64_t at = fd->rlst->groups[mid].offset - fd->rlst->range.offset;
            if (at == rel) {
                found = (long)mid;
                break;
            }
            if (at < rel)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (found < 0)
            return fail_at(d, t->offset, "RFLT names no reflection group%s%s", "", "");
        fd->fn->reflection = found;
    }
    return mbx_wr_add_tag(d->w, d->out, t->fourcc, kind, kind == MTLBX_WR_VALUE ? t->value : NULL,
                            kind == MTLBX_WR_VALUE ? (size_t)t->value_len : 0, true) < 0
               ? MTLBX_WRITER_FATAL
               : MTLBX_WRITER_OK;
}

/* One metadata group at section offset `rel`: its tags, and whether its
 * prefix leaves itself out (-1 neither rule). */
static int metadata_group(struct describing *d, struct mtlbx_range sec, uint64_t rel, const char *what,
                          struct mtlbx_wr_tags *out, int *excludes)
{
    *out = mtlbx_wr_tags_begin(d->out);
    if (rel > sec.size || sec.size - rel < 8)
        return fail_at(d, sec.offset, "%s group lies outside its section%s", what, "");
    uint64_t off = sec.offset + rel, end;
    const uint8_t *data = mbx_file_data(d->f);
    uint32_t prefix = rd32le(data + off);
    int rc = walk(d, off + 4, sec.offset + sec.size, false, what, add_value, NULL, &end);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    mtlbx_wr_tags_end(d->out, out);
    *excludes = prefix == end - off ? 0 : prefix == end - off - 4 ? 1 : -1;
    if (*excludes < 0)
        return fail_at(d, off, "%s group's size counts neither itself nor only its tags%s", what, "");
    return MTLBX_WRITER_OK;
}

struct module_key {
    uint64_t offset, size;
    size_t fn;
};

static int key_cmp(const void *a, const void *b)
{
    const struct module_key *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return (x->fn > y->fn) - (x->fn < y->fn);
}

/* Modules: one per distinct span, numbered in the order the functions
 * first use them; the file's order, when it is another, is the quirk. */
static int describe_modules(struct describing *d, struct module_key *keys, size_t n)
{
    const uint8_t *data = mbx_file_data(d->f);
    size_t *mod_of_fn = malloc((n + 1) * sizeof *mod_of_fn), *by_use = malloc((n + 1) * sizeof *by_use);
    int rc = MTLBX_WRITER_OK;
    if (!mod_of_fn || !by_use) {
        rc = mbx_wr_out_of_memory(d->w);
        goto out;
    }
    qsort(keys, n, sizeof *keys, key_cmp);
    /* Distinct spans in file order: mod_of_fn gives each function's. */
    size_t nm = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && keys[i].offset == keys[i - 1].offset) {
            if (keys[i].size != keys[i - 1].size) {
                char a[24], b[24];
                snprintf(a, sizeof a, "%zu", keys[i - 1].fn);
                snprintf(b, sizeof b, "%zu", keys[i].fn);
                rc = fail_at(d, keys[i].offset, "functions %s and %s share a module offset with other sizes", a,
                             b);
                goto out;
            }
        } else {
            if (i > 0 && keys[i].offset < keys[i - 1].offset + keys[i - 1].size) {
                rc = fail_at(d, keys[i].offset, "two modules overlap%s%s", "", "");
                goto out;
            }
            nm++;
        }
        mod_of_fn[keys[i].fn] = nm - 1;
    }
    /* The model numbers them by first use: span k is module by_use[k]. */
    for (size_t k = 0; k < nm; k++)
        by_use[k] = SIZE_MAX;
    size_t next = 0;
    for (size_t i = 0; i < n; i++)
        if (by_use[mod_of_fn[i]] == SIZE_MAX)
            by_use[mod_of_fn[i]] = next++;
    for (size_t k = 0; k < nm; k++)
        if (!mbx_wr_add_module(d->w, d->out)) {
            rc = MTLBX_WRITER_FATAL;
            goto out;
        }
    bool in_use_order = true;
    for (size_t i = 0, k = 0; i < n; i++) {
        if (i > 0 && keys[i].offset == keys[i - 1].offset)
            continue;
        d->out->modules[by_use[k]].bytes = (struct mtlbx_wr_blob){ data + keys[i].offset, keys[i].size, NULL, false };
        in_use_order &= by_use[k] == k;
        k++;
    }
    for (size_t i = 0; i < n; i++)
        d->out->functions[i].module = by_use[mod_of_fn[i]];
    /* by_use, read in file order, is the physical order of the model's modules. */
    if (!in_use_order && !mbx_wr_set_module_order(d->w, d->out, by_use, nm))
        rc = MTLBX_WRITER_FATAL;
out:
    free(mod_of_fn);
    free(by_use);
    return rc;
}

/* The digests every module's HASH is checked against (FORMAT W9). */
static int module_hashes(struct describing *d)
{
    size_t n = mbx_library_function_count(d->lib);
    for (size_t i = 0; i < n; i++) {
        struct mtlbx_wr_function *fn = &d->out->functions[i];
        struct mtlbx_wr_module *m = &d->out->modules[fn->module];
        if (m->hash_known)
            continue;
        enum mtlbx_hash_state st = mbx_function_hash_state(d->lib, i);
        if (st == MTLBX_HASH_MATCHES) {
            memcpy(m->hash, mbx_function_at(d->lib, i)->hash, 32);
            m->hash_known = true;
        } else if (st == MTLBX_HASH_MISMATCH && mbx_function_verify(d->lib, i, m->hash) == MTLBX_HASH_MISMATCH) {
            m->hash_known = true;
        }
    }
    return MTLBX_WRITER_OK;
}

static int describe_functions(struct describing *d)
{
    mtlbx_library *lib = d->lib;
    const struct mtlbx_header *h = mbx_library_header(lib);
    size_t n = mbx_library_function_count(lib);
    struct module_key *keys = malloc((n + 1) * sizeof *keys);
    if (!keys)
        return mbx_wr_out_of_memory(d->w);
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    const struct mtlbx_list *rlst = mbx_library_list(lib, MTLBX_LIST_RLST);
    int excludes = -1, rc = MTLBX_WRITER_OK;
    for (size_t i = 0; i < n && rc == MTLBX_WRITER_OK; i++) {
        const struct mtlbx_function *f = mbx_function_at(lib, i);
        if (!f) {
            rc = fail_at(d, h->function_list.offset, "a function entry could not be read%s%s", "", "");
            break;
        }
        uint64_t entry = f->entry_offset, entry_size = f->entry_size, offt[3] = { f->offt[0], f->offt[1], f->offt[2] };
        bool has_offt = f->present & MTLBX_F_OFFT;
        struct mtlbx_range module = f->module;
        bool module_valid = f->module_valid;
        struct mtlbx_wr_function *fn = mbx_wr_add_function(d->w, d->out);
        if (!fn) {
            rc = MTLBX_WRITER_FATAL;
            break;
        }
        struct fn_describing fd = { fn, i, (d->flags & MTLBX_WR_DESCRIBE_VERIFY) ? mbx_function_hash_state(lib, i)
                                                                                  : MTLBX_HASH_UNCHECKED,
                                    src, rlst };
        char what[48];
        snprintf(what, sizeof what, "function %zu", i);
        fn->tags = mtlbx_wr_tags_begin(d->out);
        if (entry_size < 8) {
            rc = fail_at(d, entry, "%s: its entry is too short to hold its tags%s", what, "");
            break;
        }
        rc = walk(d, entry + 4, entry + entry_size, true, what, add_function_tag, &fd, NULL);
        mtlbx_wr_tags_end(d->out, &fn->tags);
        if (rc != MTLBX_WRITER_OK)
            break;
        if (!has_offt) {
            rc = fail_at(d, entry, "%s has no OFFT: where its metadata lies is not known%s", what, "");
            break;
        }
        int ex;
        char mw[96];
        snprintf(mw, sizeof mw, "%s: public metadata", what);
        if ((rc = metadata_group(d, h->public_md, offt[0], mw, &fn->public_md, &ex)) != MTLBX_WRITER_OK)
            break;
        if (excludes < 0)
            excludes = ex;
        snprintf(mw, sizeof mw, "%s: private metadata", what);
        if ((rc = metadata_group(d, h->private_md, offt[1], mw, &fn->private_md, &ex)) != MTLBX_WRITER_OK)
            break;
        if (excludes != ex) {
            rc = fail_at(d, h->private_md.offset + offt[1],
                         "%s: its metadata groups' sizes follow both styles (counting themselves or not)%s", what,
                         "");
            break;
        }
        if (!module_valid) {
            rc = fail_at(d, entry, "%s: its module lies outside the module section%s", what, "");
            break;
        }
        keys[i] = (struct module_key){ module.offset, module.size, i };
        if ((i & 4095) == 4095) {
            if (!(d->flags & MTLBX_WR_DESCRIBE_KEEP_DECODED))
                mbx_library_forget(lib, i);
            /* A million functions take seconds: the caller may stop here. */
            struct describe_progress *p = d->progress;
            if (p->tick && p->tick(p->ctx, p->done + i + 1, p->total) != 0)
                rc = mbx_wr_fail(d->w, -1, "stopped");
        }
    }
    d->progress->done += n;
    d->out->md_prefix_excludes = excludes == 1;
    if (rc == MTLBX_WRITER_OK)
        rc = describe_modules(d, keys, n);
    free(keys);
    if (rc == MTLBX_WRITER_OK && (d->flags & MTLBX_WR_DESCRIBE_VERIFY))
        rc = module_hashes(d);
    return rc;
}

/* ------------------------------------------------- extension, sections -- */

static int describe_ext(struct describing *d)
{
    const struct mtlbx_header_ext *x = mbx_library_header_ext(d->lib);
    d->out->has_ext = x->present;
    if (!x->present)
        return MTLBX_WRITER_OK;
    const struct mtlbx_sources *src = mbx_library_sources(d->lib);
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(d->lib);
    d->out->ext = mtlbx_wr_tags_begin(d->out);
    for (size_t i = 0; i < x->n_tags; i++) {
        const struct mtlbx_tag *t = &x->tags[i];
        bool section = false;
        if (t->value_len == 16) {
            switch (t->fourcc) {
            case FOURCC('H', 'S', 'R', 'C'): case FOURCC('H', 'S', 'R', 'D'):
                section = src->present && FOURCC(src->tag[0], src->tag[1], src->tag[2], src->tag[3]) == t->fourcc;
                break;
            case FOURCC('H', 'D', 'Y', 'N'): section = dyn->present; break;
            case FOURCC('V', 'L', 'S', 'T'): section = mbx_library_list(d->lib, MTLBX_LIST_VLST)->present; break;
            case FOURCC('I', 'L', 'S', 'T'): section = mbx_library_list(d->lib, MTLBX_LIST_ILST)->present; break;
            case FOURCC('R', 'L', 'S', 'T'): section = mbx_library_list(d->lib, MTLBX_LIST_RLST)->present; break;
            case FOURCC('S', 'L', 'S', 'T'): section = mbx_library_list(d->lib, MTLBX_LIST_SLST)->present; break;
            default: break;
            }
        }
        if (mbx_wr_add_tag(d->w, d->out, t->fourcc, section ? MTLBX_WR_SECTION : MTLBX_WR_VALUE,
                             section ? NULL : t->value, section ? 0 : (size_t)t->value_len, true) < 0)
            return MTLBX_WRITER_FATAL;
    }
    mtlbx_wr_tags_end(d->out, &d->out->ext);
    return MTLBX_WRITER_OK;
}

static int describe_sources(struct describing *d)
{
    const struct mtlbx_sources *s = mbx_library_sources(d->lib);
    if (!s->present)
        return MTLBX_WRITER_OK;
    if (s->declared_count != s->n_archives)
        return fail_at(d, s->range.offset, "the sources declare another number of archives than they hold%s%s", "",
                       "");
    d->out->has_sources = true;
    d->out->sources_tag = FOURCC(s->tag[0], s->tag[1], s->tag[2], s->tag[3]);
    d->out->link_command = s->link_command;
    d->out->working_dir = s->working_dir;
    for (size_t a = 0; a < s->n_archives; a++) {
        struct mtlbx_wr_archive *ar = mbx_wr_add_archive(d->w, d->out);
        if (!ar)
            return MTLBX_WRITER_FATAL;
        ar->id = s->archives[a].id;
        ar->payload = (struct mtlbx_wr_blob){ s->archives[a].payload.ptr, s->archives[a].payload.len, NULL, false };
    }
    return MTLBX_WRITER_OK;
}

static int describe_dynamic(struct describing *d)
{
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(d->lib);
    if (!dyn->present)
        return MTLBX_WRITER_OK;
    d->out->has_dynamic = true;
    d->out->dynamic = mtlbx_wr_tags_begin(d->out);
    int rc = walk(d, dyn->range.offset, dyn->range.offset + dyn->range.size, true, "the dynamic header", add_value,
                  NULL, NULL);
    mtlbx_wr_tags_end(d->out, &d->out->dynamic);
    return rc;
}

/* A list group's tag: an RBUF whose leading zeros are those the
 * alignment rule puts there is ALIGNED, its payload the rest. */
static int add_list_tag(struct describing *d, const struct mtlbx_tag *t, void *ctx)
{
    (void)ctx;
    if (t->fourcc == FOURCC('R', 'B', 'U', 'F')) {
        uint64_t rel = t->value_offset - d->base, pad = (16 - rel % 16) % 16;
        bool zeros = t->value_len >= pad;
        for (uint64_t k = 0; zeros && k < pad; k++)
            zeros = t->value[k] == 0;
        if (zeros)
            return mbx_wr_add_tag(d->w, d->out, t->fourcc, MTLBX_WR_ALIGNED, t->value + pad,
                                    (size_t)(t->value_len - pad), true) < 0
                       ? MTLBX_WRITER_FATAL
                       : MTLBX_WRITER_OK;
    }
    return add_value(d, t, NULL);
}

static int describe_lists(struct describing *d)
{
    static const char *const names[MTLBX_LIST_COUNT] = { "VLST", "ILST", "RLST", "SLST" };
    for (int k = 0; k < MTLBX_LIST_COUNT; k++) {
        const struct mtlbx_list *l = mbx_library_list(d->lib, (enum mtlbx_list_kind)k);
        if (!l->present)
            continue;
        if (l->declared_count != l->n_groups)
            return fail_at(d, l->range.offset, "%s declares another number of groups than it holds%s", names[k], "");
        d->out->lists[k].present = true;
        for (size_t g = 0; g < l->n_groups; g++) {
            struct mtlbx_wr_tags *grp = mbx_wr_add_list_group(d->w, d->out, (enum mtlbx_list_kind)k);
            if (!grp)
                return MTLBX_WRITER_FATAL;
            char what[40];
            snprintf(what, sizeof what, "%s group %zu", names[k], g);
            struct mtlbx_range r = l->groups[g];
            if (r.size < 8)
                return fail_at(d, r.offset, "%s is too short%s", what, "");
            int rc = walk(d, r.offset + 4, r.offset + r.size, true, what, add_list_tag, NULL, NULL);
            /* the group pointer may have moved as tags were added */
            grp = &d->out->lists[k].groups[g];
            mtlbx_wr_tags_end(d->out, grp);
            if (rc != MTLBX_WRITER_OK)
                return rc;
        }
    }
    return MTLBX_WRITER_OK;
}

/* The sections after the modules in file order; the quirk when it is not
 * the rule's. */
static void describe_section_order(struct describing *d)
{
    struct { enum mtlbx_wr_section s; uint64_t at; } found[MTLBX_WR_SECTIONS];
    size_t n = 0;
    const struct mtlbx_sources *src = mbx_library_sources(d->lib);
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(d->lib);
    if (src->present)
        found[n++] = (typeof(found[0])){ MTLBX_WR_SOURCES, src->range.offset };
    if (dyn->present)
        found[n++] = (typeof(found[0])){ MTLBX_WR_DYNAMIC, dyn->range.offset };
    static const enum mtlbx_wr_section of_list[MTLBX_LIST_COUNT] = { MTLBX_WR_VLST, MTLBX_WR_ILST, MTLBX_WR_RLST,
                                                                     MTLBX_WR_SLST };
    for (int k = 0; k < MTLBX_LIST_COUNT; k++) {
        const struct mtlbx_list *l = mbx_library_list(d->lib, (enum mtlbx_list_kind)k);
        if (l->present)
            found[n++] = (typeof(found[0])){ of_list[k], l->range.offset };
    }
    /* Insertion sort by offset: at most six. The rule's order is the
     * enum's, which is how they were added. */
    bool rule = true;
    for (size_t i = 1; i < n; i++) {
        typeof(found[0]) x = found[i];
        size_t j = i;
        while (j > 0 && found[j - 1].at > x.at) {
            found[j] = found[j - 1];
            j--;
            rule = false;
        }
        found[j] = x;
    }
    if (rule)
        return;
    d->out->n_section_order = n;
    for (size_t i = 0; i < n; i++)
        d->out->section_order[i] = found[i].s;
}

static int describe_library(mtlbx_writer *w, mtlbx_file *f, size_t li, unsigned flags,
                            struct describe_progress *progress)
{
    mtlbx_library *lib = mbx_library_at(f, li);
    const struct mtlbx_header *h = mbx_library_header(lib);
    struct mtlbx_wr_library *out = mbx_wr_add_library(w);
    if (!out)
        return MTLBX_WRITER_FATAL;
    struct describing d = { w, f, lib, out, li, h->base, flags, 8 * mbx_file_size(f) + 4096, progress };
    if (!h->complete)
        return fail_at(&d, h->base, "the header is cut short%s%s", "", "");
    if (mbx_file_out_of_memory(f, NULL))
        return mbx_wr_out_of_memory(w);
    out->version_word = h->version_word;
    out->minor = h->minor;
    out->patch = h->patch;
    out->type_byte = h->type_byte;
    out->platform_byte = h->platform_byte;
    out->os_major = h->os_major;
    out->os_minor = h->os_minor;
    out->os_patch = h->os_patch;
    if (mbx_file_is_fat(f)) {
        const struct mbx_fat_slice *s = mbx_fat_slice(f, li);
        out->cputype = s->cputype;
        out->cpusubtype = s->cpusubtype;
        out->align = s->align;
    }
    if (flags & MTLBX_WR_DESCRIBE_VERIFY)
        mbx_library_verify_all(lib, 0);
    int rc = describe_functions(&d);
    if (rc == MTLBX_WRITER_OK)
        rc = describe_ext(&d);
    if (rc == MTLBX_WRITER_OK)
        rc = describe_sources(&d);
    if (rc == MTLBX_WRITER_OK)
        rc = describe_dynamic(&d);
    if (rc == MTLBX_WRITER_OK)
        rc = describe_lists(&d);
    if (rc == MTLBX_WRITER_OK)
        describe_section_order(&d);
    if (rc == MTLBX_WRITER_OK && mbx_file_out_of_memory(f, NULL))
        rc = mbx_wr_out_of_memory(w);
    return rc;
}

int mbx_writer_describe(mtlbx_writer *w, mtlbx_file *f, unsigned flags)
{
    return mbx_writer_describe_tick(w, f, flags, NULL, NULL);
}

int mbx_writer_describe_tick(mtlbx_writer *w, mtlbx_file *f, unsigned flags,
                           int (*tick)(void *ctx, uint64_t done, uint64_t total), void *ctx)
{
    if (w->fatal)
        return MTLBX_WRITER_FATAL;
    if (w->n_libraries)
        return mbx_wr_fail(w, -1, "internal error: describe into a writer that has libraries");
    size_t n = mbx_file_library_count(f);
    w->fat = mbx_file_is_fat(f);
    if (w->fat && n != mbx_fat_slice_count(f))
        return mbx_wr_fail(w, 8, "%zu of the fat file's %zu slices are not libraries that can be read", 
                             mbx_fat_slice_count(f) - n, mbx_fat_slice_count(f));
    if (n == 0)
        return mbx_wr_fail(w, 0, "no library to describe");
    struct describe_progress progress = { tick, ctx, 0, 0 };
    for (size_t li = 0; tick && li < n; li++) {
        mtlbx_library *lib = mbx_library_at(f, li);
        progress.total += lib ? mbx_library_function_count(lib) : 0;
    }
    for (size_t li = 0; li < n; li++) {
        int rc = describe_library(w, f, li, flags, &progress);
        if (rc != MTLBX_WRITER_OK)
            return rc;
    }
    return MTLBX_WRITER_OK;
}
