/* Laying a model out (writer.h, doc/writer-layout.md): where everything
 * goes, then every byte to a sink.
 *
 * The rules, each checked against the real libraries of the corpus:
 *  - a library is, in this order: the 88-byte header, the function list
 *    (u32 count, one group per function), the header extension when there
 *    is one, the public metadata (one group per function, in function
 *    order), the private metadata (the same), the modules (each once, in
 *    the order the functions first use them), then the sources, the
 *    dynamic header, the VLST, ILST, RLST and SLST lists, those present;
 *  - nothing lies between two of them and nothing follows the last;
 *  - a function list entry and a list group count their u32 prefix, a
 *    metadata group counts it or not (the library's style), a source
 *    archive group never does; the function list size leaves the count
 *    word out (FORMAT §4);
 *  - an RBUF value starts with the zeros that put what follows on a
 *    16-byte boundary of the library (FORMAT §12);
 *  - a fat file's slices follow its header, each at the next multiple of
 *    its alignment, zeros between.
 * Modules are written first, so that their digests are known when the
 * function list is written; a module file is read once, hashed as it is
 * copied. The sink takes bytes at any offset (pwrite, memory, compare). */
#include "config.h"
#include "writer_internal.h"
#include "container/le_read.h"
#include "container/tag_walk.h"
#include "checks/sha256.h"
#include "writer/writer.h"
#include "writer/writer_model.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_SIZE 88
#define FAT_MAGIC 0xCBFEBABEu

/* Where one library's parts go, relative to the library's first byte. */
struct plan_lib {
    uint64_t base;             /* absolute */
    uint64_t size;
    uint64_t fl_size;          /* without the count word */
    uint64_t ext_off, ext_size;
    uint64_t pub_off, pub_size, priv_off, priv_size;
    uint64_t mod_off, mod_size;
    bool present[MTLBX_WR_SECTIONS];
    uint64_t sec_off[MTLBX_WR_SECTIONS], sec_size[MTLBX_WR_SECTIONS];
    enum mtlbx_wr_section order[MTLBX_WR_SECTIONS];
    size_t n_order;
    uint64_t *pub_rel, *priv_rel;      /* per function */
    uint64_t *mod_rel;                 /* per module */
    size_t *physical;                  /* modules in file order */
    uint8_t (*mod_hash)[32];           /* per module, once written */
    uint64_t *archive_rel;             /* per archive: its SARC tag */
    uint64_t *group_rel[MTLBX_LIST_COUNT];
};

struct plan {
    size_t n;
    struct plan_lib *libs;
    uint64_t size;
};

static const enum mtlbx_wr_section list_section[MTLBX_LIST_COUNT] = {
    [MTLBX_LIST_VLST] = MTLBX_WR_VLST, [MTLBX_LIST_ILST] = MTLBX_WR_ILST,
    [MTLBX_LIST_RLST] = MTLBX_WR_RLST, [MTLBX_LIST_SLST] = MTLBX_WR_SLST,
};

/* The list a section after the modules is (VLST ... SLST). */
static enum mtlbx_list_kind list_of(enum mtlbx_wr_section sec)
{
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        if (list_section[k] == sec)
            return (enum mtlbx_list_kind)k;
    return MTLBX_LIST_VLST;
}

static void plan_free(struct plan *p)
{
    for (size_t i = 0; p->libs && i < p->n; i++) {
        struct plan_lib *pl = &p->libs[i];
        free(pl->pub_rel);
        free(pl->priv_rel);
        free(pl->mod_rel);
        free(pl->physical);
        free(pl->mod_hash);
        free(pl->archive_rel);
        for (int k = 0; k < MTLBX_LIST_COUNT; k++)
            free(pl->group_rel[k]);
    }
    free(p->libs);
    memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------- sizes -- */

static bool add_to(uint64_t *acc, uint64_t v)
{
    if (*acc > UINT64_MAX - v)
        return false;
    *acc += v;
    return true;
}

/* The length of a tag's value, its padding (ALIGNED) given that the tag
 * starts at library offset `pos`. */
static uint64_t value_len(const struct mtlbx_wr_tag *t, uint64_t pos, uint64_t *pad)
{
    *pad = 0;
    switch (t->kind) {
    case MTLBX_WR_HASH: return 32;
    case MTLBX_WR_OFFT: return 24;
    case MTLBX_WR_MDSZ: case MTLBX_WR_SOFF: case MTLBX_WR_RFLT: return 8;
    case MTLBX_WR_SECTION: return 16;
    case MTLBX_WR_ALIGNED: {
        uint64_t header = tag_is_wide(t->fourcc) ? 8 : 6;
        *pad = (16 - (pos + header) % 16) % 16;
        return *pad + t->value.len;
    }
    default: return t->value.len;
    }
}

static const char *where_text(char *buf, size_t n, const char *what, long index)
{
    if (index >= 0)
        snprintf(buf, n, "%s %ld", what, index);
    else
        snprintf(buf, n, "%s", what);
    return buf;
}

/* Bytes of a tag group starting at `pos` (its u32 prefix, tags, ENDT);
 * FAILED when a value does not fit its length field or the group its u32
 * prefix. `what`/`index` name it in messages. */
static int group_size(mtlbx_writer *w, const struct mtlbx_wr_library *lib, struct mtlbx_wr_tags g, uint64_t pos,
                      bool prefix, const char *what, long index, uint64_t *size)
{
    uint64_t s = prefix ? 4 : 0;
    char where[80];
    for (size_t i = 0; i < g.n; i++) {
        const struct mtlbx_wr_tag *t = wr_tag(lib, g.first + i);
        uint64_t pad, len = value_len(t, pos + s, &pad);
        bool wide = tag_is_wide(t->fourcc);
        if (len > (wide ? UINT32_MAX : UINT16_MAX)) {
            char cc[5];
            wr_fourcc_text(t->fourcc, cc);
            return mbx_wr_fail(w, -1, "%s: the %s value is %" PRIu64 " bytes, more than its %s length field holds",
                                 where_text(where, sizeof where, what, index), cc, len, wide ? "u32" : "u16");
        }
        s += (wide ? 8 : 6) + len;
    }
    s += 4;
    if (prefix && s > UINT32_MAX)
        return mbx_wr_fail(w, -1, "%s: %" PRIu64 " bytes, more than its u32 size holds",
                             where_text(where, sizeof where, what, index), s);
    *size = s;
    return MTLBX_WRITER_OK;
}

/* The section a SECTION tag names. */
static bool section_of(uint32_t fourcc, enum mtlbx_wr_section *s)
{
    switch (fourcc) {
    case FOURCC('H', 'S', 'R', 'C'): case FOURCC('H', 'S', 'R', 'D'): *s = MTLBX_WR_SOURCES; return true;
    case FOURCC('H', 'D', 'Y', 'N'): *s = MTLBX_WR_DYNAMIC; return true;
    case FOURCC('V', 'L', 'S', 'T'): *s = MTLBX_WR_VLST; return true;
    case FOURCC('I', 'L', 'S', 'T'): *s = MTLBX_WR_ILST; return true;
    case FOURCC('R', 'L', 'S', 'T'): *s = MTLBX_WR_RLST; return true;
    case FOURCC('S', 'L', 'S', 'T'): *s = MTLBX_WR_SLST; return true;
    default: return false;
    }
}

/* Every tag of a run is of a kind allowed there. */
static int check_kinds(mtlbx_writer *w, const struct mtlbx_wr_library *lib, struct mtlbx_wr_tags g,
                       unsigned allowed, const char *what, long index)
{
    for (size_t i = 0; i < g.n; i++) {
        const struct mtlbx_wr_tag *t = wr_tag(lib, g.first + i);
        if (!(allowed & (1u << t->kind))) {
            char cc[5], where[80];
            wr_fourcc_text(t->fourcc, cc);
            return mbx_wr_fail(w, -1, "%s: %s cannot be computed there",
                                 where_text(where, sizeof where, what, index), cc);
        }
    }
    return MTLBX_WRITER_OK;
}

#define KIND(k) (1u << (k))
#define FN_KINDS (KIND(MTLBX_WR_VALUE) | KIND(MTLBX_WR_HASH) | KIND(MTLBX_WR_OFFT) | KIND(MTLBX_WR_MDSZ) | \
                  KIND(MTLBX_WR_SOFF) | KIND(MTLBX_WR_RFLT))

/* Checks what the functions refer to, and that their tags are of kinds
 * the function list computes. */
static int check_functions(mtlbx_writer *w, const struct mtlbx_wr_library *lib, size_t li)
{
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_wr_function *fn = &lib->functions[i];
        char what[64];
        snprintf(what, sizeof what, "library %zu, function", li);
        int rc = check_kinds(w, lib, fn->tags, FN_KINDS, what, (long)i);
        if (rc == MTLBX_WRITER_OK)
            rc = check_kinds(w, lib, fn->public_md, KIND(MTLBX_WR_VALUE), what, (long)i);
        if (rc == MTLBX_WRITER_OK)
            rc = check_kinds(w, lib, fn->private_md, KIND(MTLBX_WR_VALUE), what, (long)i);
        if (rc != MTLBX_WRITER_OK)
            return rc;
        if (fn->module >= lib->n_modules)
            return mbx_wr_fail(w, -1, "library %zu, function %zu: it has no module", li, i);
        if (wr_find_tag(lib, fn->tags, FOURCC('S', 'O', 'F', 'F')) &&
            (fn->archive < 0 || (size_t)fn->archive >= lib->n_archives || !lib->has_sources))
            return mbx_wr_fail(w, -1, "library %zu, function %zu: SOFF names no source archive", li, i);
        if (wr_find_tag(lib, fn->tags, FOURCC('R', 'F', 'L', 'T')) &&
            (fn->reflection < 0 || !lib->lists[MTLBX_LIST_RLST].present ||
             (size_t)fn->reflection >= lib->lists[MTLBX_LIST_RLST].n_groups))
            return mbx_wr_fail(w, -1, "library %zu, function %zu: RFLT names no reflection group", li, i);
    }
    return MTLBX_WRITER_OK;
}

/* The modules in file order: the quirk's order, or first use. */
static int physical_order(mtlbx_writer *w, const struct mtlbx_wr_library *lib, size_t li, size_t *out)
{
    size_t n = 0;
    bool *seen = calloc(lib->n_modules + 1, 1);
    if (!seen)
        return mbx_wr_out_of_memory(w);
    if (lib->module_order) {
        for (size_t k = 0; k < lib->n_modules; k++) {
            size_t m = lib->module_order[k];
            if (m >= lib->n_modules || seen[m]) {
                free(seen);
                return mbx_wr_fail(w, -1, "library %zu: the module order names a module twice or none", li);
            }
            seen[m] = true;
            out[n++] = m;
        }
    } else {
        for (size_t i = 0; i < lib->n_functions; i++) {
            size_t m = lib->functions[i].module;
            if (!seen[m]) {
                seen[m] = true;
                out[n++] = m;
            }
        }
        for (size_t m = 0; m < lib->n_modules; m++)
            if (!seen[m])
                out[n++] = m;
    }
    free(seen);
    return MTLBX_WRITER_OK;
}

/* Lays out one library at relative offsets. */
static int plan_library(mtlbx_writer *w, const struct mtlbx_wr_library *lib, size_t li, struct plan_lib *pl)
{
    int rc = check_functions(w, lib, li);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    size_t nf = lib->n_functions, nm = lib->n_modules;
    pl->pub_rel = calloc(nf + 1, sizeof *pl->pub_rel);
    pl->priv_rel = calloc(nf + 1, sizeof *pl->priv_rel);
    pl->mod_rel = calloc(nm + 1, sizeof *pl->mod_rel);
    pl->physical = calloc(nm + 1, sizeof *pl->physical);
    pl->mod_hash = calloc(nm + 1, sizeof *pl->mod_hash);
    pl->archive_rel = calloc(lib->n_archives + 1, sizeof *pl->archive_rel);
    bool ok = pl->pub_rel && pl->priv_rel && pl->mod_rel && pl->physical && pl->mod_hash && pl->archive_rel;
    for (int k = 0; ok && k < MTLBX_LIST_COUNT; k++)
        ok = (pl->group_rel[k] = calloc(lib->lists[k].n_groups + 1, sizeof **pl->group_rel)) != NULL;
    if (!ok)
        return mbx_wr_out_of_memory(w);
    char what[64];
    snprintf(what, sizeof what, "library %zu, function", li);

    /* Function list: fixed-size values only, so sizes are known now. */
    uint64_t pos = HEADER_SIZE + 4, s;
    for (size_t i = 0; i < nf; i++) {
        if ((rc = group_size(w, lib, lib->functions[i].tags, pos, true, what, (long)i, &s)) != MTLBX_WRITER_OK)
            return rc;
        pos += s;
    }
    pl->fl_size = pos - HEADER_SIZE - 4;
    pl->ext_off = pos;
    if (lib->has_ext) {
        char ew[64];
        snprintf(ew, sizeof ew, "library %zu, header extension", li);
        if ((rc = check_kinds(w, lib, lib->ext, KIND(MTLBX_WR_VALUE) | KIND(MTLBX_WR_SECTION), ew, -1)) !=
                MTLBX_WRITER_OK ||
            (rc = group_size(w, lib, lib->ext, pos, false, ew, -1, &s)) != MTLBX_WRITER_OK)
            return rc;
        pos += s;
        pl->ext_size = s;
    }
    /* Public, then private metadata: one group per function, in order. */
    for (int private_md = 0; private_md < 2; private_md++) {
        uint64_t *off = private_md ? &pl->priv_off : &pl->pub_off, *rel = private_md ? pl->priv_rel : pl->pub_rel;
        *off = pos;
        for (size_t i = 0; i < nf; i++) {
            rel[i] = pos - *off;
            struct mtlbx_wr_tags g = private_md ? lib->functions[i].private_md : lib->functions[i].public_md;
            if ((rc = group_size(w, lib, g, pos, true, what, (long)i, &s)) != MTLBX_WRITER_OK)
                return rc;
            pos += s;
        }
        *(private_md ? &pl->priv_size : &pl->pub_size) = pos - *off;
    }

    /* Modules. */
    if ((rc = physical_order(w, lib, li, pl->physical)) != MTLBX_WRITER_OK)
        return rc;
    pl->mod_off = pos;
    for (size_t k = 0; k < nm; k++) {
        size_t m = pl->physical[k];
        pl->mod_rel[m] = pos - pl->mod_off;
        if (!add_to(&pos, lib->modules[m].bytes.len))
            return mbx_wr_fail(w, -1, "library %zu: the modules do not fit a file", li);
    }
    pl->mod_size = pos - pl->mod_off;

    /* The sections after the modules. */
    pl->present[MTLBX_WR_SOURCES] = lib->has_sources;
    pl->present[MTLBX_WR_DYNAMIC] = lib->has_dynamic;
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        pl->present[list_section[k]] = lib->lists[k].present;
    if (lib->n_section_order) {
        bool listed[MTLBX_WR_SECTIONS] = { false };
        for (size_t k = 0; k < lib->n_section_order; k++) {
            enum mtlbx_wr_section sec = lib->section_order[k];
            if (sec >= MTLBX_WR_SECTIONS || listed[sec] || !pl->present[sec])
                return mbx_wr_fail(w, -1, "library %zu: the section order names %s twice, or a section it "
                                     "does not have", li, mbx_wr_section_name(sec));
            listed[sec] = true;
            pl->order[pl->n_order++] = sec;
        }
        for (int sec = 0; sec < MTLBX_WR_SECTIONS; sec++)
            if (pl->present[sec] && !listed[sec])
                return mbx_wr_fail(w, -1, "library %zu: the section order leaves out %s", li,
                                     mbx_wr_section_name((enum mtlbx_wr_section)sec));
    } else {
        for (int sec = 0; sec < MTLBX_WR_SECTIONS; sec++)
            if (pl->present[sec])
                pl->order[pl->n_order++] = (enum mtlbx_wr_section)sec;
    }
    for (size_t k = 0; k < pl->n_order; k++) {
        enum mtlbx_wr_section sec = pl->order[k];
        uint64_t start = pos;
        pl->sec_off[sec] = pos;
        if (sec == MTLBX_WR_SOURCES) {
            bool wd = lib->sources_tag == FOURCC('H', 'S', 'R', 'D');
            pos += 4 + lib->link_command.len + 1 + (wd ? lib->working_dir.len + 1 : 0);
            for (size_t a = 0; a < lib->n_archives; a++) {
                const struct mtlbx_wr_archive *ar = &lib->archives[a];
                pl->archive_rel[a] = pos + 4 - start;
                uint64_t value = ar->id.len + 1 + ar->payload.len;
                if (ar->payload.len > UINT32_MAX || value > UINT32_MAX || value + 12 > UINT32_MAX)
                    return mbx_wr_fail(w, -1, "library %zu, source archive %zu: too large for its u32 length",
                                         li, a);
                if (!add_to(&pos, 4 + 4 + 4 + value + 4))
                    return mbx_wr_fail(w, -1, "library %zu: the sources do not fit a file", li);
            }
        } else if (sec == MTLBX_WR_DYNAMIC) {
            char dw[64];
            snprintf(dw, sizeof dw, "library %zu, dynamic header", li);
            if ((rc = check_kinds(w, lib, lib->dynamic, KIND(MTLBX_WR_VALUE), dw, -1)) != MTLBX_WRITER_OK ||
                (rc = group_size(w, lib, lib->dynamic, pos, false, dw, -1, &s)) != MTLBX_WRITER_OK)
                return rc;
            pos += s;
        } else {
            enum mtlbx_list_kind kind = list_of(sec);
            const struct mtlbx_wr_list *l = &lib->lists[kind];
            char lw[64];
            snprintf(lw, sizeof lw, "library %zu, %s group", li, mbx_wr_section_name(sec));
            pos += 4;
            for (size_t g = 0; g < l->n_groups; g++) {
                pl->group_rel[kind][g] = pos - start;
                if ((rc = check_kinds(w, lib, l->groups[g], KIND(MTLBX_WR_VALUE) | KIND(MTLBX_WR_ALIGNED), lw,
                                      (long)g)) != MTLBX_WRITER_OK ||
                    (rc = group_size(w, lib, l->groups[g], pos, true, lw, (long)g, &s)) != MTLBX_WRITER_OK)
                    return rc;
                pos += s;
            }
        }
        pl->sec_size[sec] = pos - start;
    }
    pl->size = pos;

    /* Every section present is pointed at, and every pointer has its section. */
    bool pointed[MTLBX_WR_SECTIONS] = { false };
    for (size_t i = 0; lib->has_ext && i < lib->ext.n; i++) {
        const struct mtlbx_wr_tag *t = wr_tag(lib, lib->ext.first + i);
        enum mtlbx_wr_section sec;
        if (t->kind != MTLBX_WR_SECTION)
            continue;
        char cc[5];
        wr_fourcc_text(t->fourcc, cc);
        if (!section_of(t->fourcc, &sec))
            return mbx_wr_fail(w, -1, "library %zu, header extension: %s names no section the writer knows",
                                 li, cc);
        if (!pl->present[sec])
            return mbx_wr_fail(w, -1, "library %zu, header extension: %s, but the library has no %s", li, cc,
                                 mbx_wr_section_name(sec));
        if (sec == MTLBX_WR_SOURCES && t->fourcc != lib->sources_tag)
            return mbx_wr_fail(w, -1, "library %zu, header extension: %s, but the sources are of the other kind",
                                 li, cc);
        pointed[sec] = true;
    }
    for (int sec = 0; sec < MTLBX_WR_SECTIONS; sec++)
        if (pl->present[sec] && !pointed[sec])
            return mbx_wr_fail(w, -1, "library %zu: its %s is named by no header extension tag", li,
                                 mbx_wr_section_name((enum mtlbx_wr_section)sec));
    for (size_t m = 0; m < nm; m++)
        if (lib->modules[m].hash_known)
            memcpy(pl->mod_hash[m], lib->modules[m].hash, 32);
    return MTLBX_WRITER_OK;
}

static int plan_make(mtlbx_writer *w, struct plan *p)
{
    memset(p, 0, sizeof *p);
    if (w->n_libraries == 0)
        return mbx_wr_fail(w, -1, "nothing to write: no library");
    if (!w->fat && w->n_libraries != 1)
        return mbx_wr_fail(w, -1, "%zu libraries, but not a fat file", w->n_libraries);
    if (w->fat && w->n_libraries > 1000)
        return mbx_wr_fail(w, -1, "%zu slices: more than a fat file of the writer holds (1,000)", w->n_libraries);
    p->n = w->n_libraries;
    if (!(p->libs = calloc(p->n, sizeof *p->libs)))
        return mbx_wr_out_of_memory(w);
    for (size_t i = 0; i < p->n; i++) {
        int rc = plan_library(w, &w->libraries[i], i, &p->libs[i]);
        if (rc != MTLBX_WRITER_OK)
            return rc;
    }
    if (!w->fat) {
        p->size = p->libs[0].size;
        return MTLBX_WRITER_OK;
    }
    uint64_t pos = 8 + 20 * (uint64_t)p->n;
    for (size_t i = 0; i < p->n; i++) {
        uint32_t align = w->libraries[i].align;
        /* 2^15 is the most lipo and the Mach-O tools give a slice: with
         * it the zeros between slices stay under 32 KiB each, where 2^30
         * let a 2.5 KB manifest write 3 GB of zeros. */
        if (align > MTLBX_WR_MAX_FAT_ALIGN)
            return mbx_wr_fail(w, -1, "slice %zu: alignment 2^%u is more than the writer supports (2^%d)", i,
                                 align, MTLBX_WR_MAX_FAT_ALIGN);
        uint64_t a = (uint64_t)1 << align;
        pos = (pos + a - 1) / a * a;
        p->libs[i].base = pos;
        pos += p->libs[i].size;
        if (pos > UINT32_MAX)
            return mbx_wr_fail(w, -1, "slice %zu ends past 4 GiB, beyond a fat file's u32 offsets", i);
    }
    p->size = pos;
    return MTLBX_WRITER_OK;
}

/* -------------------------------------------------------------- output -- */

struct out {
    mtlbx_writer *w;
    const struct mtlbx_wr_sink *sink;
    uint64_t pos;              /* absolute offset of buf[0] */
    size_t len;
    int rc;
    uint8_t buf[1 << 16];
};

static void out_flush(struct out *o)
{
    if (o->rc == 0 && o->len && o->sink->put(o->sink->ctx, o->w, o->pos, o->buf, o->len) != 0)
        o->rc = -1;
    o->pos += o->len;
    o->len = 0;
}

static void out_at(struct out *o, uint64_t pos)
{
    out_flush(o);
    o->pos = pos;
}

static void out_bytes(struct out *o, const void *p, size_t n)
{
    if (n > sizeof o->buf / 2) {
        out_flush(o);
        if (o->rc == 0 && o->sink->put(o->sink->ctx, o->w, o->pos, p, n) != 0)
            o->rc = -1;
        o->pos += n;
        return;
    }
    if (n > sizeof o->buf - o->len)
        out_flush(o);
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static void out_zeros(struct out *o, uint64_t n)
{
    static const uint8_t zeros[256];
    while (n) {
        size_t k = n < sizeof zeros ? (size_t)n : sizeof zeros;
        out_bytes(o, zeros, k);
        n -= k;
    }
}

static void out_u32(struct out *o, uint32_t v)
{
    uint8_t b[4];
    wr32(b, v);
    out_bytes(o, b, 4);
}

static void out_u64(struct out *o, uint64_t v)
{
    uint8_t b[8];
    wr64(b, v);
    out_bytes(o, b, 8);
}

/* What a function's computed tags need. */
struct fn_ctx {
    const struct mtlbx_wr_library *lib;
    const struct plan_lib *pl;
    size_t index;
};

static void out_tag_value(struct out *o, const struct mtlbx_wr_tag *t, const struct fn_ctx *fc, uint64_t pad)
{
    const struct mtlbx_wr_function *fn = fc ? &fc->lib->functions[fc->index] : NULL;
    switch (t->kind) {
    case MTLBX_WR_HASH:
        out_bytes(o, fn->has_stored_hash ? fn->stored_hash : fc->pl->mod_hash[fn->module], 32);
        break;
    case MTLBX_WR_OFFT:
        out_u64(o, fc->pl->pub_rel[fc->index]);
        out_u64(o, fc->pl->priv_rel[fc->index]);
        out_u64(o, fc->pl->mod_rel[fn->module]);
        break;
    case MTLBX_WR_MDSZ: out_u64(o, fc->lib->modules[fn->module].bytes.len); break;
    case MTLBX_WR_SOFF: out_u64(o, fc->pl->archive_rel[fn->archive]); break;
    case MTLBX_WR_RFLT: out_u64(o, fc->pl->group_rel[MTLBX_LIST_RLST][fn->reflection]); break;
    case MTLBX_WR_ALIGNED:
        out_zeros(o, pad);
        out_bytes(o, t->value.ptr, t->value.len);
        break;
    default: out_bytes(o, t->value.ptr, t->value.len); break;
    }
}

/* A tag group at the current position; `prefix`: its u32 size, which
 * counts itself unless `excludes`. Section pointers come from pl. */
static void out_group(struct out *o, uint64_t lib_base, const struct mtlbx_wr_library *lib,
                      const struct plan_lib *pl, struct mtlbx_wr_tags g, bool prefix, bool excludes,
                      const struct fn_ctx *fc)
{
    uint64_t start = o->pos + o->len - lib_base, pos = start + (prefix ? 4 : 0);
    uint64_t size = prefix ? 4 : 0;
    for (size_t i = 0; i < g.n; i++) {
        uint64_t pad, len = value_len(wr_tag(lib, g.first + i), start + size, &pad);
        size += (tag_is_wide(wr_tag(lib, g.first + i)->fourcc) ? 8 : 6) + len;
    }
    size += 4;
    if (prefix)
        out_u32(o, (uint32_t)(excludes ? size - 4 : size));
    for (size_t i = 0; i < g.n; i++) {
        const struct mtlbx_wr_tag *t = wr_tag(lib, g.first + i);
        uint64_t pad, len = value_len(t, pos, &pad);
        uint8_t head[8];
        wr32(head, t->fourcc);
        bool wide = tag_is_wide(t->fourcc);
        if (wide)
            wr32(head + 4, (uint32_t)len);
        else
            wr16(head + 4, (uint16_t)len);
        out_bytes(o, head, wide ? 8 : 6);
        if (t->kind == MTLBX_WR_SECTION) {
            enum mtlbx_wr_section sec = MTLBX_WR_SOURCES;
            section_of(t->fourcc, &sec);
            out_u64(o, pl->sec_off[sec]);
            out_u64(o, pl->sec_size[sec]);
        } else {
            out_tag_value(o, t, fc, pad);
        }
        pos += (wide ? 8 : 6) + len;
    }
    out_u32(o, TAG_ENDT);
}

/* Opens a blob's file: beneath the base directory or as given. */
static int blob_open(mtlbx_writer *w, const struct mtlbx_wr_blob *b, char *err, size_t n)
{
    uint64_t size = 0;
    int fd = wr_open_file(w->base_dirfd, b->path, b->beneath, &size, err, n);
    if (fd >= 0 && size != b->len) {
        snprintf(err, n, "it changed while the library was written (%" PRIu64 " bytes, then %" PRIu64 ")", b->len,
                 size);
        close(fd);
        fd = -1;
    }
    return fd;
}

/* A blob's bytes at the current position, hashed into `hash` when it is
 * not NULL. */
static void out_blob(struct out *o, const struct mtlbx_wr_blob *b, uint8_t *hash)
{
    if (o->rc)
        return;
    if (!b->path) {
        if (hash)
            sha256(b->data, b->len, hash);
        /* Straight to the sink, never copied: a sink comparing a file
         * with itself knows its own bytes by their address. */
        out_flush(o);
        if (b->len && o->sink->put(o->sink->ctx, o->w, o->pos, b->data, (size_t)b->len) != 0)
            o->rc = -1;
        o->pos += b->len;
        return;
    }
    char err[300];
    int fd = blob_open(o->w, b, err, sizeof err);
    if (fd < 0) {
        mbx_wr_fail(o->w, -1, "%s: %s", b->path, err);
        o->rc = -1;
        return;
    }
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(b->len < CHUNK ? (size_t)b->len + 1 : CHUNK);
    struct sha256_stream *h = hash ? sha256_stream_open() : NULL;
    if (!buf || (hash && !h)) {
        free(buf);
        sha256_stream_close(h, NULL);
        close(fd);
        mbx_wr_out_of_memory(o->w);
        o->rc = -1;
        return;
    }
    uint64_t left = b->len;
    while (left && o->rc == 0) {
        size_t want = left < CHUNK ? (size_t)left : CHUNK;
        ssize_t got = pread(fd, buf, want, (off_t)(b->len - left));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            mbx_wr_fail(o->w, -1, "%s: %s", b->path, got < 0 ? strerror(errno) : "it became shorter while read");
            o->rc = -1;
            break;
        }
        if (h)
            sha256_stream_write(h, buf, (size_t)got);
        out_bytes(o, buf, (size_t)got);
        left -= (uint64_t)got;
    }
    sha256_stream_close(h, o->rc == 0 ? hash : NULL);
    free(buf);
    close(fd);
}

static void out_modules(struct out *o, const struct mtlbx_wr_library *lib, struct plan_lib *pl)
{
    out_at(o, pl->base + pl->mod_off);
    for (size_t k = 0; k < lib->n_modules && o->rc == 0; k++) {
        size_t m = pl->physical[k];
        const struct mtlbx_wr_module *mod = &lib->modules[m];
        out_blob(o, &mod->bytes, mod->hash_known ? NULL : pl->mod_hash[m]);
    }
    out_flush(o);
}

static void out_library(struct out *o, const struct mtlbx_wr_library *lib, const struct plan_lib *pl)
{
    uint64_t base = pl->base;
    out_at(o, base);
    /* Header (FORMAT §2). */
    uint8_t h[HEADER_SIZE] = { 'M', 'T', 'L', 'B' };
    wr16(h + 4, lib->version_word);
    wr16(h + 6, lib->minor);
    wr16(h + 8, lib->patch);
    h[10] = lib->type_byte;
    h[11] = lib->platform_byte;
    wr16(h + 12, lib->os_major);
    h[14] = lib->os_minor;
    h[15] = lib->os_patch;
    wr64(h + 16, pl->size);
    wr64(h + 24, HEADER_SIZE);
    wr64(h + 32, pl->fl_size);
    wr64(h + 40, pl->pub_off);
    wr64(h + 48, pl->pub_size);
    wr64(h + 56, pl->priv_off);
    wr64(h + 64, pl->priv_size);
    wr64(h + 72, pl->mod_off);
    wr64(h + 80, pl->mod_size);
    out_bytes(o, h, sizeof h);
    out_u32(o, (uint32_t)lib->n_functions);
    for (size_t i = 0; i < lib->n_functions && o->rc == 0; i++) {
        struct fn_ctx fc = { lib, pl, i };
        out_group(o, base, lib, pl, lib->functions[i].tags, true, false, &fc);
    }
    if (lib->has_ext)
        out_group(o, base, lib, pl, lib->ext, false, false, NULL);
    for (size_t i = 0; i < lib->n_functions && o->rc == 0; i++)
        out_group(o, base, lib, pl, lib->functions[i].public_md, true, lib->md_prefix_excludes, NULL);
    for (size_t i = 0; i < lib->n_functions && o->rc == 0; i++)
        out_group(o, base, lib, pl, lib->functions[i].private_md, true, lib->md_prefix_excludes, NULL);
    for (size_t k = 0; k < pl->n_order && o->rc == 0; k++) {
        enum mtlbx_wr_section sec = pl->order[k];
        out_at(o, base + pl->sec_off[sec]);
        if (sec == MTLBX_WR_SOURCES) {
            out_u32(o, (uint32_t)lib->n_archives);
            out_bytes(o, lib->link_command.ptr, lib->link_command.len);
            out_zeros(o, 1);
            if (lib->sources_tag == FOURCC('H', 'S', 'R', 'D')) {
                out_bytes(o, lib->working_dir.ptr, lib->working_dir.len);
                out_zeros(o, 1);
            }
            for (size_t a = 0; a < lib->n_archives && o->rc == 0; a++) {
                const struct mtlbx_wr_archive *ar = &lib->archives[a];
                uint64_t value = ar->id.len + 1 + ar->payload.len;
                out_u32(o, (uint32_t)(4 + 4 + value + 4)); /* leaves itself out (FORMAT §9) */
                out_u32(o, FOURCC('S', 'A', 'R', 'C'));
                out_u32(o, (uint32_t)value);
                out_bytes(o, ar->id.ptr, ar->id.len);
                out_zeros(o, 1);
                out_blob(o, &ar->payload, NULL);
                out_u32(o, TAG_ENDT);
            }
        } else if (sec == MTLBX_WR_DYNAMIC) {
            out_group(o, base, lib, pl, lib->dynamic, false, false, NULL);
        } else {
            enum mtlbx_list_kind kind = list_of(sec);
            const struct mtlbx_wr_list *l = &lib->lists[kind];
            out_u32(o, (uint32_t)l->n_groups);
            for (size_t g = 0; g < l->n_groups && o->rc == 0; g++)
                out_group(o, base, lib, pl, l->groups[g], true, false, NULL);
        }
    }
    out_flush(o);
}

int mbx_wr_write(mtlbx_writer *w, const struct mtlbx_wr_sink *sink, uint64_t *size)
{
    if (w->fatal)
        return MTLBX_WRITER_FATAL;
    struct plan p;
    int rc = plan_make(w, &p);
    struct out *o = NULL;
    if (rc == MTLBX_WRITER_OK && !(o = calloc(1, sizeof *o)))
        rc = mbx_wr_out_of_memory(w);
    if (rc == MTLBX_WRITER_OK) {
        o->w = w;
        o->sink = sink;
        if (size)
            *size = p.size;
        /* Modules first: their digests go into the function lists. */
        for (size_t i = 0; i < p.n && o->rc == 0; i++)
            out_modules(o, &w->libraries[i], &p.libs[i]);
        for (size_t i = 0; i < p.n && o->rc == 0; i++)
            out_library(o, &w->libraries[i], &p.libs[i]);
        if (w->fat && o->rc == 0) {
            out_at(o, 0);
            uint8_t b[20];
            wr32be(b, FAT_MAGIC);
            wr32be(b + 4, (uint32_t)p.n);
            out_bytes(o, b, 8);
            for (size_t i = 0; i < p.n; i++) {
                const struct mtlbx_wr_library *lib = &w->libraries[i];
                wr32be(b, lib->cputype);
                wr32be(b + 4, lib->cpusubtype);
                wr32be(b + 8, (uint32_t)p.libs[i].base);
                wr32be(b + 12, (uint32_t)p.libs[i].size);
                wr32be(b + 16, lib->align);
                out_bytes(o, b, 20);
            }
            /* The zeros before each slice. */
            uint64_t end = 8 + 20 * (uint64_t)p.n;
            for (size_t i = 0; i < p.n; i++) {
                out_zeros(o, p.libs[i].base - end);
                out_at(o, p.libs[i].base + p.libs[i].size);
                end = p.libs[i].base + p.libs[i].size;
            }
            out_flush(o);
        }
        if (o->rc)
            rc = w->fatal ? MTLBX_WRITER_FATAL : MTLBX_WRITER_FAILED;
    }
    free(o);
    plan_free(&p);
    return rc;
}

int wr_layout_size(mtlbx_writer *w, uint64_t *size)
{
    if (w->fatal)
        return MTLBX_WRITER_FATAL;
    struct plan p;
    int rc = plan_make(w, &p);
    if (rc == MTLBX_WRITER_OK)
        *size = p.size;
    plan_free(&p);
    return rc;
}

/* ------------------------------------------------------- where, compare -- */

/* The structure of the laid-out library that covers absolute offset x. */
static void plan_where(const mtlbx_writer *w, const struct plan *p, uint64_t x, char *buf, size_t n)
{
    if (w->fat && x < 8 + 20 * (uint64_t)p->n) {
        snprintf(buf, n, "the fat header");
        return;
    }
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_lib *pl = &p->libs[i];
        const struct mtlbx_wr_library *lib = &w->libraries[i];
        if (x < pl->base || x >= pl->base + pl->size)
            continue;
        uint64_t r = x - pl->base;
        const char *what = "the header";
        if (r >= HEADER_SIZE && r < pl->ext_off)
            what = "the function list";
        else if (r >= pl->ext_off && r < pl->pub_off)
            what = "the header extension";
        else if (r >= pl->pub_off && r < pl->priv_off)
            what = "the public metadata";
        else if (r >= pl->priv_off && r < pl->mod_off)
            what = "the private metadata";
        else if (r >= pl->mod_off && r < pl->mod_off + pl->mod_size)
            what = "the modules";
        for (int s = 0; s < MTLBX_WR_SECTIONS; s++)
            if (pl->present[s] && r >= pl->sec_off[s] && r < pl->sec_off[s] + pl->sec_size[s])
                what = mbx_wr_section_name((enum mtlbx_wr_section)s);
        (void)lib;
        if (p->n > 1)
            snprintf(buf, n, "slice %zu, %s", i, what);
        else
            snprintf(buf, n, "%s", what);
        return;
    }
    snprintf(buf, n, "padding between slices");
}

struct compare_ctx {
    const uint8_t *bytes;
    uint64_t len;
    bool differs;
    uint64_t at;
};

/* Every part is compared (they come in no particular order): the lowest
 * offset that differs is the one reported. */
static int compare_put(void *ctx, mtlbx_writer *w, uint64_t off, const void *data, size_t len)
{
    struct compare_ctx *c = ctx;
    (void)w;
    if (c->differs && off >= c->at)
        return 0;
    if (off > c->len || len > c->len - off) {
        uint64_t at = off < c->len ? c->len : off;
        if (!c->differs || at < c->at)
            c->at = at;
        c->differs = true;
        if (off >= c->len)
            return 0;
        len = (size_t)(c->len - off);
    }
    if (data == c->bytes + off) /* the file's own bytes, in place */
        return 0;
    if (memcmp(c->bytes + off, data, len) != 0) {
        const uint8_t *a = c->bytes + off, *b = data;
        size_t k = 0;
        while (a[k] == b[k])
            k++;
        if (!c->differs || off + k < c->at)
            c->at = off + k;
        c->differs = true;
    }
    return 0;
}

int mbx_writer_compare(mtlbx_writer *w, const uint8_t *bytes, uint64_t len)
{
    struct compare_ctx c = { bytes, len, false, 0 };
    struct mtlbx_wr_sink sink = { compare_put, &c };
    uint64_t size = 0;
    int rc = mbx_wr_write(w, &sink, &size);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!c.differs && size == len)
        return MTLBX_WRITER_OK;
    struct plan p;
    char where[96] = "";
    if (plan_make(w, &p) == MTLBX_WRITER_OK)
        plan_where(w, &p, c.differs ? c.at : (size < len ? size : len), where, sizeof where);
    plan_free(&p);
    if (!c.differs && size < len)
        return mbx_wr_fail(w, (int64_t)size,
                             "%" PRIu64 " bytes follow what the rules lay out (the file is %" PRIu64 " bytes, the "
                             "layout %" PRIu64 ")", len - size, len, size);
    if (!c.differs)
        return mbx_wr_fail(w, (int64_t)len, "the rules lay out %" PRIu64 " bytes, the file has %" PRIu64, size, len);
    return mbx_wr_fail(w, (int64_t)c.at, "the bytes differ from what the rules lay out there (in %s)", where);
}

/* ----------------------------------------------------------------- fd -- */

struct fd_ctx {
    int fd;
    uint64_t total, done;      /* total: set by mbx_wr_write before the first put */
    int (*tick)(void *ctx, uint64_t done, uint64_t total);
    void *tick_ctx;
};

static int fd_put(void *ctx, mtlbx_writer *w, uint64_t off, const void *data, size_t len)
{
    struct fd_ctx *c = ctx;
    const uint8_t *p = data;
    size_t whole = len;
    while (len) {
        ssize_t n = pwrite(c->fd, p, len > ((size_t)1 << 30) ? ((size_t)1 << 30) : len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            mbx_wr_fail(w, -1, "write failed: %s", n < 0 ? strerror(errno) : "no progress");
            return -1;
        }
        p += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    c->done += whole;
    if (c->tick && c->tick(c->tick_ctx, c->done, c->total) != 0) {
        mbx_wr_fail(w, -1, "stopped");
        return -1;
    }
    return 0;
}

int mbx_writer_write_fd_tick(mtlbx_writer *w, int fd, int (*tick)(void *ctx, uint64_t done, uint64_t total),
                           void *ctx)
{
    struct fd_ctx c = { .fd = fd, .tick = tick, .tick_ctx = ctx };
    struct mtlbx_wr_sink sink = { fd_put, &c };
    /* The length is known (and stored in c.total) before the first put. */
    int rc = mbx_wr_write(w, &sink, &c.total);
    if (rc == MTLBX_WRITER_OK && ftruncate(fd, (off_t)c.total) != 0)
        rc = mbx_wr_fail(w, -1, "write failed: %s", strerror(errno));
    return rc;
}

int mbx_writer_write_fd(mtlbx_writer *w, int fd)
{
    return mbx_writer_write_fd_tick(w, fd, NULL, NULL);
}
