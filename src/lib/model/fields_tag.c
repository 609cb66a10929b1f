/* What one tag says, for the tree (a one-line summary) and the detail
 * panel (one field per decoded value, each with its own bytes). Values
 * decoded at open time (metadata, function records, archives) come from
 * the library's accessors; only fixed-width numbers are read here, from
 * the tag's own value bytes, after checking the value is long enough. */
#include "config.h"
#include "node.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "checks/hash.h"
#include "model/model.h"
#include "container/functions.h"
#include "container/metadata.h"
#include "container/nouns.h"
#include "container/digits.h"
#include "container/sources.h"
#include "container/value_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Per-item fields of CNST/VATT/VATY stop here; the count still says all. */
#define MAX_ITEM_FIELDS 256

static bool is(const struct mtlbx_tag *t, const char *fourcc)
{
    return t->fourcc == FOURCC(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
}

/* Tags whose value is (u64 offset, u64 size) of a section. */
static bool is_section_tag(const struct mtlbx_tag *t)
{
    static const char *const names[] = { "HSRC", "HSRD", "HDYN", "RLST", "VLST",
                                         "ILST", "SLST", "HSRP" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (is(t, names[i]))
            return true;
    return false;
}

static bool is_string_tag(const struct mtlbx_tag *t)
{
    return is(t, "NAME") || is(t, "DEPF") || is(t, "DYNL");
}

/* Fixed-size values: the length each must have to be decoded. */
static uint64_t fixed_len(const struct mtlbx_tag *t)
{
    if (is(t, "TYPE") || is(t, "TESS") || is(t, "LAYR"))
        return 1;
    if (is(t, "MDSZ") || is(t, "SOFF") || is(t, "RFLT") || is(t, "VERS"))
        return 8;
    if (is(t, "UUID") || is_section_tag(t))
        return 16;
    if (is(t, "OFFT"))
        return 24;
    if (is(t, "HASH"))
        return 32;
    return 0;
}

static bool value_ok(const mtlbx_file *f, const struct mtlbx_tag *t)
{
    uint64_t want = fixed_len(t);
    if (want && t->value_len != want)
        return false;
    return t->value_len == 0 || field_bytes(f, t->value_offset, t->value_len) != NULL;
}

static const uint8_t *val(const mtlbx_file *f, const struct mtlbx_tag *t)
{
    return f->data + t->value_offset;
}

static const char *tess_patch(uint8_t v)
{
    switch (v & 3) {
    case 1: return "triangle";
    case 2: return "quad";
    default: return NULL;
    }
}

static const char *vatt_use(unsigned use)
{
    switch (use) {
    case 0: return "standard";
    case 1: return "per-patch";
    case 2: return "control-point";
    default: return NULL;
    }
}

static const struct mtlbx_metadata *tag_metadata(const mtlbx_library *lib, uint32_t index, uint32_t ctx)
{
    if (!lib || ctx != CTX_PUBLIC_MD || index >= mbx_library_function_count(lib))
        return NULL;
    return mbx_function_metadata(lib, index);
}

static bool in_value(const struct mtlbx_tag *t, uint64_t off)
{
    return off >= t->value_offset && off - t->value_offset < t->value_len;
}

/* The string value without its NUL (and without anything after it). */
static size_t str_len(const mtlbx_file *f, const struct mtlbx_tag *t, bool *has_nul)
{
    const uint8_t *p = val(f, t);
    const uint8_t *z = t->value_len ? memchr(p, 0, t->value_len) : NULL;
    *has_nul = z != NULL;
    return z ? (size_t)(z - p) : t->value_len;
}

static void hex_into(char *out, size_t n, const uint8_t *p, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 3 <= n; i++)
        o += (size_t)snprintf(out + o, n - o, "%02x", p[i]);
    if (n)
        out[o < n ? o : n - 1] = 0;
}

unsigned node_tag_flags(mtlbx_file *f, const mtlbx_node *n)
{
    const struct mtlbx_tag *t = &n->tag;
    if (!t->known)
        return MTLBX_NODE_UNKNOWN;
    if (!value_ok(f, t) || t->value_len == 0)
        return 0;
    const uint8_t *v = val(f, t);
    if (is(t, "TYPE") && n->sub == CTX_FUNCTION)
        return mbx_function_type_known(v[0]) ? 0 : MTLBX_NODE_UNKNOWN;
    if (is(t, "LAYR"))
        return mbx_data_type_known(v[0]) ? 0 : MTLBX_NODE_UNKNOWN;
    if (is(t, "TESS"))
        return tess_patch(v[0]) ? 0 : MTLBX_NODE_UNKNOWN;
    if (is(t, "VATY") && t->value_len >= 2) {
        for (uint64_t i = 2; i < t->value_len; i++)
            if (!mbx_data_type_known(v[i]))
                return MTLBX_NODE_UNKNOWN;
        return 0;
    }
    const struct mtlbx_metadata *md = tag_metadata(n->lib, n->index, n->sub);
    if (md && is(t, "CNST")) {
        for (size_t i = 0; i < md->n_constants; i++)
            if (in_value(t, md->constants[i].offset) && !mbx_data_type_known(md->constants[i].type))
                return MTLBX_NODE_UNKNOWN;
    }
    if (md && is(t, "VATT")) {
        for (size_t i = 0; i < md->n_attributes; i++)
            if (in_value(t, md->attributes[i].offset) && !vatt_use(md->attributes[i].use))
                return MTLBX_NODE_UNKNOWN;
    }
    return 0;
}


/* A wide reflection/script buffer: zero padding up to a 16-byte aligned
 * file offset, then a FlatBuffer (u32 root offset, 4-byte identifier).
 * Returns the payload's offset inside the value, or value_len if none. */
static uint64_t flatbuffer_start(const mtlbx_file *f, const struct mtlbx_tag *t)
{
    const uint8_t *v = val(f, t);
    uint64_t pad = (16 - t->value_offset % 16) % 16;
    if (pad + 8 > t->value_len)
        return t->value_len;
    for (uint64_t i = 0; i < pad; i++)
        if (v[i])
            return 0;
    return pad;
}

void tag_summary(mtlbx_file *f, const mtlbx_library *lib, uint32_t index, uint32_t ctx,
                 const struct mtlbx_tag *t, char *out, size_t size)
{
    char a[160], b[32];
    out[0] = 0;
    if (t->fourcc == TAG_ENDT) {
        snprintf(out, size, "end of group");
        return;
    }
    if (!t->known) {
        snprintf(out, size, "(unknown, %s)", mbx_count_noun(t->value_len, "byte", "bytes", b, sizeof b));
        return;
    }
    if (!value_ok(f, t)) {
        snprintf(out, size, "(bad length %s)", mbx_format_count(b, sizeof b, t->value_len));
        return;
    }
    const uint8_t *v = val(f, t);
    const struct mtlbx_header *h = lib ? mbx_library_header(lib) : NULL;
    if (is_string_tag(t)) {
        bool nul;
        size_t len = str_len(f, t, &nul);
        snprintf(out, size, "\"%s\"%s", field_esc(a, sizeof a, v, len), nul ? "" : " (no NUL)");
    } else if (is(t, "TYPE")) {
        snprintf(out, size, "%s", mbx_function_type_name(v[0], b, sizeof b));
    } else if (is(t, "HASH")) {
        hex_into(b, sizeof b, v, 4);
        const char *st = "";
        if (lib && ctx == CTX_FUNCTION && index < mbx_library_function_count(lib)) {
            switch (mbx_function_hash_state(lib, index)) {
            case MTLBX_HASH_MATCHES: st = "  ok"; break;
            case MTLBX_HASH_MISMATCH: st = "  MISMATCH"; break;
            default: break;
            }
        }
        snprintf(out, size, "%s...%s", b, st);
    } else if (is(t, "OFFT")) {
        snprintf(out, size, "pub 0x%" PRIx64 " priv 0x%" PRIx64 " mod 0x%" PRIx64, rd64(v),
                 rd64(v + 8), rd64(v + 16));
    } else if (is(t, "VERS")) {
        snprintf(out, size, "AIR %u.%u / MSL %u.%u", rd16(v), rd16(v + 2), rd16(v + 4), rd16(v + 6));
    } else if (is(t, "MDSZ")) {
        snprintf(out, size, "%s", mbx_count_noun(rd64(v), "byte", "bytes", b, sizeof b));
    } else if (is(t, "SOFF") || is(t, "RFLT")) {
        long ar = is(t, "SOFF") && lib && ctx == CTX_FUNCTION ? mbx_function_archive(lib, index) : -1;
        const struct mtlbx_sources *s = ar >= 0 ? mbx_library_sources(lib) : NULL;
        if (s && (size_t)ar < s->n_archives)
            snprintf(out, size, "0x%" PRIx64 "  archive \"%s\"", rd64(v),
                     field_esc(a, sizeof a, s->archives[ar].id.ptr, s->archives[ar].id.len));
        else
            snprintf(out, size, "0x%" PRIx64, rd64(v));
    } else if (is(t, "TESS")) {
        const char *p = tess_patch(v[0]);
        snprintf(out, size, "%s, %u control points", p ? p : "unknown patch", v[0] >> 2);
    } else if (is(t, "LAYR")) {
        snprintf(out, size, "%s", mbx_data_type_name(v[0], b, sizeof b));
    } else if (is(t, "UUID")) {
        char x[40];
        hex_into(x, sizeof x, v, 16);
        snprintf(out, size, "%.8s-%.4s-%.4s-%.4s-%.12s", x, x + 8, x + 12, x + 16, x + 20);
    } else if (is_section_tag(t)) {
        snprintf(out, size, "0x%" PRIx64 " +%s", (h ? h->base : 0) + rd64(v),
                 mbx_format_count(b, sizeof b, rd64(v + 8)));
    } else if ((is(t, "CNST") || is(t, "VATT") || is(t, "VATY")) && t->value_len >= 2) {
        unsigned n = rd16(v);
        snprintf(out, size, "%u %s", n,
                 is(t, "CNST") ? mbx_noun(n, "constant", "constants")
                 : is(t, "VATT") ? mbx_noun(n, "attribute", "attributes") : mbx_noun(n, "type", "types"));
    } else if (is(t, "DEBI") && t->value_len >= 4) {
        const uint8_t *p = v + 4, *z = memchr(p, 0, t->value_len - 4);
        size_t len = z ? (size_t)(z - p) : t->value_len - 4;
        snprintf(out, size, "line %u  \"%s\"", rd32(v), field_esc(a, sizeof a, p, len));
    } else if (is(t, "SARC")) {
        const uint8_t *z = t->value_len ? memchr(v, 0, t->value_len) : NULL;
        size_t len = z ? (size_t)(z - v) : t->value_len;
        snprintf(out, size, "\"%s\"  %s bytes", field_esc(a, sizeof a, v, len < 64 ? len : 64),
                 mbx_format_count(b, sizeof b, t->value_len - (z ? len + 1 : len)));
    } else {
        snprintf(out, size, "%s", mbx_count_noun(t->value_len, "byte", "bytes", b, sizeof b));
    }
}

/* ------------------------------------------------------------ fields -- */

static void string_field(struct field_out *o, const char *name, uint64_t off, uint64_t avail)
{
    const uint8_t *p = field_bytes(o->f, off, avail);
    if (!p)
        return;
    char s[1024];
    const uint8_t *z = avail ? memchr(p, 0, avail) : NULL;
    size_t len = z ? (size_t)(z - p) : avail;
    field_emit(o, name, off, z ? len + 1 : len, z ? 0 : MTLBX_FIELD_WARNING, 0, "\"%s\"%s",
               field_esc(s, sizeof s, p, len), z ? "" : " (no NUL)");
}

/* A section-relative offset: FOLLOW it when its target is in the file. */
static void offset_field(struct field_out *o, const char *name, uint64_t off, uint64_t rel,
                         uint64_t base, const char *what)
{
    uint64_t target = base + rel;
    bool ok = rel <= UINT64_MAX - base && target < o->f->size;
    field_emit(o, name, off, 8, ok ? MTLBX_FIELD_FOLLOW : MTLBX_FIELD_WARNING, ok ? target : 0,
               "0x%" PRIx64 " -> 0x%" PRIx64 " %s", rel, target, what);
}

static void hash_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    char x[72];
    hex_into(x, sizeof x, val(o->f, t), 32);
    field_emit(o, "expected", t->value_offset, 32, 0, 0, "%s", x);
    const mtlbx_node *n = o->n;
    if (!n->lib || n->sub != CTX_FUNCTION || n->index >= mbx_library_function_count(n->lib))
        return;
    static const char *const states[] = {
        [MTLBX_HASH_UNCHECKED] = "not checked yet", [MTLBX_HASH_PENDING] = "pending",
        [MTLBX_HASH_MATCHES] = "OK", [MTLBX_HASH_MISMATCH] = "MISMATCH",
        [MTLBX_HASH_UNAVAILABLE] = "unavailable (no module bytes)",
    };
    enum mtlbx_hash_state st = mbx_function_hash_state(n->lib, n->index);
    const struct mtlbx_function *fn = mbx_function_at(n->lib, n->index);
    /* No bytes of its own: it is about the module, which FOLLOW reaches. */
    field_emit(o, "state", t->value_offset, 0,
               (st == MTLBX_HASH_MISMATCH ? MTLBX_FIELD_ERROR : 0) |
                   (fn->module_valid ? MTLBX_FIELD_FOLLOW : 0),
               fn->module.offset, "%s", (unsigned)st < 5 ? states[st] : "?");
}

static void offt_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const struct mtlbx_header *h = mbx_library_header(o->n->lib);
    const uint8_t *v = val(o->f, t);
    offset_field(o, "public metadata", t->value_offset, rd64(v), h->public_md.offset, "public group");
    offset_field(o, "private metadata", t->value_offset + 8, rd64(v + 8), h->private_md.offset,
                 "private group");
    offset_field(o, "module", t->value_offset + 16, rd64(v + 16), h->modules.offset, "module");
}

static void soff_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const mtlbx_node *n = o->n;
    uint64_t rel = rd64(val(o->f, t));
    long ar = n->sub == CTX_FUNCTION ? mbx_function_archive(n->lib, n->index) : -1;
    const struct mtlbx_sources *s = mbx_library_sources(n->lib);
    if (ar >= 0 && s && (size_t)ar < s->n_archives) {
        char a[128];
        const struct mtlbx_archive *arc = &s->archives[ar];
        field_emit(o, "source archive", t->value_offset, 8, MTLBX_FIELD_FOLLOW, arc->sarc_offset,
                   "0x%" PRIx64 " -> SARC at 0x%" PRIx64 ", archive \"%s\"", rel, arc->sarc_offset,
                   field_esc(a, sizeof a, arc->id.ptr, arc->id.len));
    } else {
        field_emit(o, "source archive", t->value_offset, 8, MTLBX_FIELD_ERROR, 0,
                   "0x%" PRIx64 " (no archive starts there)", rel);
    }
}

static void rflt_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const struct mtlbx_list *l = mbx_library_list(o->n->lib, MTLBX_LIST_RLST);
    uint64_t rel = rd64(val(o->f, t));
    if (l && l->present)
        offset_field(o, "reflection group", t->value_offset, rel, l->range.offset, "RBUF group");
    else
        field_emit(o, "reflection group", t->value_offset, 8, MTLBX_FIELD_ERROR, 0,
                   "0x%" PRIx64 " (no reflection list)", rel);
}

static void section_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const struct mtlbx_header *h = o->n->lib ? mbx_library_header(o->n->lib) : NULL;
    const uint8_t *v = val(o->f, t);
    char b[32];
    offset_field(o, "offset", t->value_offset, rd64(v), h ? h->base : 0, "section start");
    field_emit(o, "size", t->value_offset + 8, 8, 0, 0, "%s", mbx_count_noun(rd64(v + 8), "byte", "bytes", b, sizeof b));
}

static void data_type_field(struct field_out *o, const char *name, uint64_t off, uint8_t type)
{
    char b[32];
    field_emit(o, name, off, 1, mbx_data_type_known(type) ? 0 : MTLBX_FIELD_WARNING, 0,
               "0x%02x %s", type, mbx_data_type_name(type, b, sizeof b));
}

static void cnst_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const struct mtlbx_metadata *md = tag_metadata(o->n->lib, o->n->index, o->n->sub);
    size_t shown = 0;
    for (size_t i = 0; md && i < md->n_constants && shown < MAX_ITEM_FIELDS; i++) {
        const struct mtlbx_constant *c = &md->constants[i];
        if (!in_value(t, c->offset))
            continue;
        char h[32], s[256];
        snprintf(h, sizeof h, "constant %zu", shown++);
        field_emit(o, h, c->offset, 0, MTLBX_FIELD_HEADING, 0, "%s",
                   field_esc(s, sizeof s, c->name.ptr, c->name.len));
        uint64_t p = c->offset + c->name.len + 1;
        field_emit(o, "name", c->offset, c->name.len + 1, 0, 0, "\"%s\"", s);
        data_type_field(o, "type", p, c->type);
        field_emit(o, "index", p + 1, 2, 0, 0, "%u", c->index);
        field_emit(o, "active", p + 3, 1, 0, 0, "%s", c->active ? "yes" : "no");
    }
}

static void vatt_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const struct mtlbx_metadata *md = tag_metadata(o->n->lib, o->n->index, o->n->sub);
    size_t shown = 0;
    for (size_t i = 0; md && i < md->n_attributes && shown < MAX_ITEM_FIELDS; i++) {
        const struct mtlbx_vertex_attr *a = &md->attributes[i];
        if (!in_value(t, a->offset))
            continue;
        char h[32], s[256], b[32];
        snprintf(h, sizeof h, "attribute %zu", shown++);
        field_emit(o, h, a->offset, 0, MTLBX_FIELD_HEADING, 0, "%s",
                   field_esc(s, sizeof s, a->name.ptr, a->name.len));
        uint64_t p = a->offset + a->name.len + 1;
        const char *use = vatt_use(a->use);
        field_emit(o, "name", a->offset, a->name.len + 1, 0, 0, "\"%s\"", s);
        field_emit(o, "index", p, 2, 0, 0, "%u (bits 0-12)", a->index);
        field_emit(o, "use", p, 2, use ? 0 : MTLBX_FIELD_WARNING, 0, "%s (bits 13-14)",
                   use ? use : "unknown-3");
        field_emit(o, "active", p, 2, 0, 0, "%s (bit 15)", a->active ? "yes" : "no");
        if (a->has_type)
            field_emit(o, "type (VATY)", p, 0, 0, 0, "%s", mbx_data_type_name(a->type, b, sizeof b));
    }
}

static void vaty_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    for (uint64_t i = 2; i < t->value_len && i - 2 < MAX_ITEM_FIELDS; i++) {
        char h[32];
        snprintf(h, sizeof h, "type %" PRIu64, i - 2);
        data_type_field(o, h, t->value_offset + i, val(o->f, t)[i]);
    }
}

static void buffer_fields(struct field_out *o, const struct mtlbx_tag *t)
{
    const uint8_t *v = val(o->f, t);
    uint64_t start = flatbuffer_start(o->f, t);
    char b[32];
    if (start && start < t->value_len)
        field_emit(o, "padding", t->value_offset, start, 0, 0, "%" PRIu64 " zero bytes (16-byte alignment)", start);
    if (start + 8 <= t->value_len && !is(t, "RBUZ")) {
        char id[8];
        field_esc(id, sizeof id, v + start + 4, 4);
        field_emit(o, "root offset", t->value_offset + start, 4, 0, 0, "%u", rd32(v + start));
        field_emit(o, "identifier", t->value_offset + start + 4, 4, 0, 0, "\"%s\"", id);
    }
    field_emit(o, "payload", t->value_offset + start, t->value_len - start, 0, 0, "%s%s",
               mbx_count_noun(t->value_len - start, "byte", "bytes", b, sizeof b),
               is(t, "RBUZ") ? " (compressed reflection, not decoded)" : " FlatBuffer");
}

static void raw_field(struct field_out *o, const struct mtlbx_tag *t, const char *what)
{
    char x[72];
    const uint8_t *v = val(o->f, t);
    size_t n = t->value_len < 32 ? (size_t)t->value_len : 32;
    hex_into(x, sizeof x, v, n);
    field_emit(o, "value", t->value_offset, t->value_len, 0, 0, "%s%s  (%s)", x,
               t->value_len > n ? "..." : "", what);
}

void tag_fields(struct field_out *o)
{
    const struct mtlbx_tag *t = &o->n->tag;
    char b[32];
    const char *desc = mbx_tag_description(t->name);
    field_emit(o, "tag", t->offset, 4, t->known ? 0 : MTLBX_FIELD_WARNING, 0, "%s%s%s", t->name,
               desc ? "  " : t->known ? "" : "  (unknown tag, shown raw)", desc ? desc : "");
    if (t->fourcc == TAG_ENDT)
        return;
    field_emit(o, "length", t->offset + 4, t->header_len - 4, 0, 0, "%s %s (u%u)",
               mbx_format_count(b, sizeof b, t->value_len), mbx_noun(t->value_len, "byte", "bytes"),
               (t->header_len - 4) * 8);
    if (!value_ok(o->f, t)) {
        field_emit(o, "value", t->value_offset, t->value_len, MTLBX_FIELD_ERROR, 0,
                   "length %" PRIu64 ", expected %" PRIu64, t->value_len, fixed_len(t));
        return;
    }
    if (!t->known) {
        raw_field(o, t, "unknown tag");
        return;
    }
    const uint8_t *v = val(o->f, t);
    if (is_string_tag(t)) {
        string_field(o, is(t, "NAME") ? "name" : is(t, "DEPF") ? "dependency" : "library",
                     t->value_offset, t->value_len);
    } else if (is(t, "TYPE")) {
        field_emit(o, "function type", t->value_offset, 1,
                   mbx_function_type_known(v[0]) ? 0 : MTLBX_FIELD_WARNING, 0, "%u %s", v[0],
                   mbx_function_type_name(v[0], b, sizeof b));
    } else if (is(t, "HASH")) {
        hash_fields(o, t);
    } else if (is(t, "OFFT") && o->n->lib) {
        offt_fields(o, t);
    } else if (is(t, "VERS")) {
        field_emit(o, "AIR version", t->value_offset, 4, 0, 0, "%u.%u", rd16(v), rd16(v + 2));
        field_emit(o, "MSL version", t->value_offset + 4, 4, 0, 0, "%u.%u", rd16(v + 4), rd16(v + 6));
    } else if (is(t, "MDSZ")) {
        field_emit(o, "module size", t->value_offset, 8, 0, 0, "%s", mbx_count_noun(rd64(v), "byte", "bytes", b, sizeof b));
    } else if (is(t, "SOFF") && o->n->lib) {
        soff_fields(o, t);
    } else if (is(t, "RFLT") && o->n->lib) {
        rflt_fields(o, t);
    } else if (is(t, "TESS")) {
        const char *p = tess_patch(v[0]);
        field_emit(o, "patch type", t->value_offset, 1, p ? 0 : MTLBX_FIELD_WARNING, 0, "%s (bits 0-1 = %u)",
                   p ? p : "unknown", v[0] & 3);
        field_emit(o, "control points", t->value_offset, 1, 0, 0, "%u (bits 2-7)", v[0] >> 2);
    } else if (is(t, "LAYR")) {
        data_type_field(o, "render target array index type", t->value_offset, v[0]);
    } else if (is(t, "UUID")) {
        char x[40];
        hex_into(x, sizeof x, v, 16);
        field_emit(o, "uuid", t->value_offset, 16, 0, 0, "%s", x);
    } else if (is_section_tag(t)) {
        section_fields(o, t);
    } else if ((is(t, "CNST") || is(t, "VATT") || is(t, "VATY")) && t->value_len >= 2) {
        field_emit(o, "count", t->value_offset, 2, 0, 0, "%u", rd16(v));
        if (is(t, "CNST"))
            cnst_fields(o, t);
        else if (is(t, "VATT"))
            vatt_fields(o, t);
        else
            vaty_fields(o, t);
    } else if (is(t, "DEBI") && t->value_len >= 4) {
        field_emit(o, "line", t->value_offset, 4, 0, 0, "%u", rd32(v));
        string_field(o, "source path", t->value_offset + 4, t->value_len - 4);
    } else if (is(t, "SARC")) {
        const uint8_t *z = t->value_len ? memchr(v, 0, t->value_len) : NULL;
        uint64_t idlen = z ? (uint64_t)(z - v) + 1 : t->value_len;
        string_field(o, "archive id", t->value_offset, t->value_len);
        field_emit(o, "payload", t->value_offset + idlen, t->value_len - idlen, 0, 0,
                   "%s, bzip2%s", mbx_count_noun(t->value_len - idlen, "byte", "bytes", b, sizeof b),
                   t->value_len - idlen >= 4 && v[idlen] == 'B' && v[idlen + 1] == 'Z' ? "" : " (no BZh magic)");
    } else if (is(t, "RBUF") || is(t, "SBUF") || is(t, "RBUZ")) {
        buffer_fields(o, t);
    } else if (reflection_tag_fields(o)) {
        /* RETR, ARGR: fields_reflection.c */
    } else {
        raw_field(o, t, "not decoded");
    }
}
