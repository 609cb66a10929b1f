/* What a node says: its one-line label for the tree and its fields for the
 * detail panel. Everything here reads the parsed library through its
 * accessors and never hashes, decompresses or builds nodes, so the views
 * can call it for every visible row on every redraw. Every string that
 * comes from the file goes through mbx_escape(MTLBX_ESC_TERMINAL). */
#include "config.h"
#include "node.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "checks/hash.h"
#include "checks/requirements.h"
#include "model/model.h"
#include "container/functions.h"
#include "container/metadata.h"
#include "container/nouns.h"
#include "container/digits.h"
#include "container/sources.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>

/* Problems listed per node; the DIAGNOSTICS node lists them all. */
#define MAX_DIAG_FIELDS 64
/* Functions named as users of one shared metadata group or archive. */
#define MAX_USERS 8

/* Where a string span lies in the file, and how many bytes it covers:
 * with its NUL when the NUL is there (a hostile string may stop at the
 * end of its section or of the file). */
static uint64_t str_off(const mtlbx_file *f, struct mtlbx_bytes b)
{
    return (uint64_t)(b.ptr - f->data);
}

static uint64_t str_size(const mtlbx_file *f, struct mtlbx_bytes b)
{
    const uint8_t *p = field_bytes(f, str_off(f, b), (uint64_t)b.len + 1);
    return p && p[b.len] == 0 ? (uint64_t)b.len + 1 : b.len;
}

static const char *fn_name(const mtlbx_library *lib, size_t i, char *out, size_t n)
{
    const struct mtlbx_function *fn = i < mbx_library_function_count(lib) ? mbx_function_at(lib, i) : NULL;
    if (!fn || !(fn->present & MTLBX_F_NAME)) {
        snprintf(out, n, "(no name)");
        return out;
    }
    return field_esc(out, n, fn->name.ptr, fn->name.len);
}

/* The platform as a word: the target-OS byte when set, else the flag. */
static const char *platform(const struct mtlbx_header *h, char *buf, size_t n)
{
    if (h->platform_byte)
        return mbx_target_os_name(h->platform_byte, buf, n);
    return h->macos ? "macOS" : "iOS";
}

static const char *hash_badge(enum mtlbx_hash_state st)
{
    switch (st) {
    case MTLBX_HASH_MATCHES: return "[hash ok]";
    case MTLBX_HASH_MISMATCH: return "[hash MISMATCH]";
    case MTLBX_HASH_UNAVAILABLE: return "[no hash]";
    default: return "[hash ?]";
    }
}

static const char *list_title(uint32_t kind)
{
    static const char *const t[] = { "Variable list", "Imported symbols", "Reflection list",
                                     "Script list" };
    return kind < MTLBX_LIST_COUNT ? t[kind] : "List";
}

static const char *member_type(enum mtlbx_member_type t)
{
    static const char *const names[] = { "file", "directory", "symlink", "hard link",
                                         "device", "fifo", "other" };
    return (unsigned)t <= MTLBX_MEMBER_OTHER ? names[t] : "other";
}

static const struct mtlbx_archive *archive_of(const mtlbx_node *n, uint32_t i)
{
    const struct mtlbx_sources *s = n->lib ? mbx_library_sources(n->lib) : NULL;
    return s && i < s->n_archives ? &s->archives[i] : NULL;
}

static bool group_empty(const mtlbx_node *n)
{
    return n->size <= 8;
}

/* ------------------------------------------------------------ labels -- */

static void label_function(const mtlbx_node *n, char *buf, size_t size)
{
    const struct mtlbx_function *fn = mbx_function_at(n->lib, n->index);
    char t[32], name[256];
    const char *type = fn->present & MTLBX_F_TYPE ? mbx_function_type_name(fn->type, t, sizeof t) : "-";
    snprintf(buf, size, "%-12s %s  %s", type, fn_name(n->lib, n->index, name, sizeof name),
             hash_badge(mbx_function_hash_state(n->lib, n->index)));
}

static void label_group(mtlbx_file *f, const mtlbx_node *n, char *buf, size_t size)
{
    char name[256], b[32];
    const char *len = group_empty(n) ? "(empty)" : mbx_format_count(b, sizeof b, n->size);
    const char *unit = group_empty(n) ? "" : " bytes";
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    /* A list entry says what it is through its first tag: the NAME of a
     * variable or imported symbol, the RBUF of a reflection group. */
    if (n->sub >= CTX_LIST && n->size > 4 && (mbx_tag_walk_init(&w, f, n->offset + 4, n->size - 4),
                                               mbx_tag_walk_next(&w, &t))) {
        tag_summary(f, n->lib, n->index, n->sub, &t, name, sizeof name);
        snprintf(buf, size, "Group %u  %s  %s", n->index, t.name, name);
    } else if (n->sub >= CTX_LIST)
        snprintf(buf, size, "Group %u  %s%s", n->index, len, unit);
    else if (n->parent && n->parent->kind == MTLBX_NODE_FUNCTION)
        snprintf(buf, size, "%s metadata  %s%s", n->sub == CTX_PUBLIC_MD ? "Public" : "Private", len, unit);
    else
        snprintf(buf, size, "Group  %s  %s%s", fn_name(n->lib, n->index, name, sizeof name), len, unit);
}

static void label_library(mtlbx_file *f, const mtlbx_node *n, char *buf, size_t size)
{
    const struct mtlbx_header *h = mbx_library_header(n->lib);
    char p[32], b[32], at[40] = "";
    size_t nf = mbx_library_function_count(n->lib);
    if (mbx_file_library_count(f) > 1)
        snprintf(at, sizeof at, " %u @0x%" PRIx64, n->index, h->base);
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_embedding(f, n->index);
    if (g) /* the AIR of a GPU slice's code */
        snprintf(at + strlen(at), sizeof at - strlen(at), " (slice %zu)", g->slice);
    if (!h->complete) {
        snprintf(buf, size, "Library%s  (truncated header, %" PRIu64 " bytes)", at, h->available);
        return;
    }
    /* Before 1.2.6 no deployment version is recorded: show none, not 0.0. */
    char os[24] = "";
    if (h->platform_byte || h->os_major)
        snprintf(os, sizeof os, " %u.%u", h->os_major, h->os_minor);
    /* What it needs to load (requirements.c), when that is known. */
    struct mtlbx_requires req;
    char needs[48] = "";
    mbx_library_requires(n->lib, &req);
    if (req.has_version && mbx_os_name(req.os))
        snprintf(needs, sizeof needs, "  loads on %s %u.%u+", mbx_os_name(req.os), req.version.major,
                 req.version.minor);
    snprintf(buf, size, "Library%s  %u.%u.%u %s%s  %s %s%s", at, h->major, h->minor, h->patch,
             platform(h, p, sizeof p), os, mbx_format_count(b, sizeof b, nf), nf == 1 ? "function" : "functions",
             needs);
}

static void label_archive(const mtlbx_node *n, char *buf, size_t size)
{
    const struct mtlbx_archive *a = archive_of(n, n->index);
    char id[128], b[32];
    if (!a)
        return;
    field_esc(id, sizeof id, a->id.ptr, a->id.len);
    if (a->state == MTLBX_ARCHIVE_LOADED)
        snprintf(buf, size, "Archive \"%s\"  %s %s", id, mbx_format_count(b, sizeof b, a->n_members),
                 a->n_members == 1 ? "member" : "members");
    else if (a->state == MTLBX_ARCHIVE_FAILED)
        snprintf(buf, size, "Archive \"%s\"  (does not decode)", id);
    else
        snprintf(buf, size, "Archive \"%s\"  %s bytes bzip2", id, mbx_format_count(b, sizeof b, a->payload.len));
}

static void label_member(const mtlbx_node *n, char *buf, size_t size)
{
    const struct mtlbx_archive *a = archive_of(n, n->sub);
    if (!a || a->state != MTLBX_ARCHIVE_LOADED || n->index >= a->n_members)
        return;
    const struct mtlbx_member *m = &a->members[n->index];
    char name[512], b[32];
    field_esc(name, sizeof name, (const uint8_t *)m->name, strlen(m->name));
    if (m->type == MTLBX_MEMBER_FILE)
        snprintf(buf, size, "%s  %s", name, mbx_count_noun(m->size, "byte", "bytes", b, sizeof b));
    else
        snprintf(buf, size, "%s  (%s)", name, member_type(m->type));
}

static void label_diagnostics(mtlbx_model *m, const mtlbx_node *n, char *buf, size_t size)
{
    size_t first, count;
    size_t errors = node_diag_range(m, n->lib, 0, UINT64_MAX, &first, &count);
    snprintf(buf, size, "Diagnostics  %zu %s, %zu %s", errors, errors == 1 ? "error" : "errors",
             count - errors, count - errors == 1 ? "warning" : "warnings");
}

void mbx_node_label(mtlbx_model *m, const mtlbx_node *n, char *buf, size_t size)
{
    if (!buf || !size)
        return;
    buf[0] = 0;
    if (!m || !n)
        return;
    mtlbx_file *f = m->f;
    char a[512], b[32], c[32];
    const struct mtlbx_header *h = n->lib ? mbx_library_header(n->lib) : NULL;
    switch (n->kind) {
    case MTLBX_NODE_FILE: {
        const char *path = mbx_file_path(f);
        const char *base = path ? strrchr(path, '/') : NULL;
        base = base ? base + 1 : path ? path : "(memory)";
        field_esc(a, sizeof a, (const uint8_t *)base, strlen(base));
        if (f->fat)
            snprintf(buf, size, "%s  fat, %zu libraries, %s", a, mbx_file_library_count(f),
                     mbx_count_noun(f->size, "byte", "bytes", b, sizeof b));
        else
            snprintf(buf, size, "%s  %s", a, mbx_count_noun(f->size, "byte", "bytes", b, sizeof b));
        break;
    }
    case MTLBX_NODE_FAT_HEADER:
        snprintf(buf, size, "Fat header  %zu slices", mbx_fat_slice_count(f));
        break;
    case MTLBX_NODE_FAT_SLICE: {
        const struct mbx_fat_slice *s = mbx_fat_slice(f, n->index);
        const char *cpu = s ? mbx_cputype_name(s->cputype) : NULL;
        if (!s)
            break;
        if (!cpu)
            snprintf(c, sizeof c, "cputype 0x%08x", s->cputype);
        snprintf(buf, size, "Slice %u  %s  @0x%x  %s", n->index, cpu ? cpu : c, s->offset,
                 mbx_count_noun(s->size, "byte", "bytes", b, sizeof b));
        break;
    }
    case MTLBX_NODE_LIBRARY: label_library(f, n, buf, size); break;
    case MTLBX_NODE_HEADER:
        if (!h->complete)
            snprintf(buf, size, "Header  (truncated, %" PRIu64 " of 88 bytes)", n->size);
        else
            snprintf(buf, size, "Header  %u.%u.%u %s %s%s", h->major, h->minor, h->patch,
                     platform(h, c, sizeof c), mbx_file_type_name(h->file_type, b, sizeof b),
                     h->stub ? " stub" : "");
        break;
    case MTLBX_NODE_FUNCTION_LIST:
        snprintf(buf, size, "Functions (%s)", mbx_format_count(b, sizeof b, mbx_library_function_count(n->lib)));
        break;
    case MTLBX_NODE_FUNCTION: label_function(n, buf, size); break;
    case MTLBX_NODE_TAG:
        if (n->tag.fourcc == TAG_ENDT) {
            snprintf(buf, size, "ENDT");
            break;
        }
        if (!reflection_tag_summary(f, n, a, sizeof a))
            tag_summary(f, n->lib, n->index, n->sub, &n->tag, a, sizeof a);
        snprintf(buf, size, "%s  %s", n->tag.name, a);
        break;
    case MTLBX_NODE_TAG_GROUP: label_group(f, n, buf, size); break;
    case MTLBX_NODE_HEADER_EXT: {
        size_t nt = mbx_library_header_ext(n->lib)->n_tags;
        if (nt)
            snprintf(buf, size, "Header extension  %zu %s", nt, nt == 1 ? "tag" : "tags");
        else
            snprintf(buf, size, "Header extension  (empty)");
        break;
    }
    case MTLBX_NODE_PUBLIC_MD:
    case MTLBX_NODE_PRIVATE_MD:
        snprintf(buf, size, "%s metadata  %s", n->kind == MTLBX_NODE_PUBLIC_MD ? "Public" : "Private",
                 mbx_count_noun(n->size, "byte", "bytes", b, sizeof b));
        break;
    case MTLBX_NODE_MODULE_LIST:
        snprintf(buf, size, "Modules (%s)  %s bytes", mbx_format_count(c, sizeof c, mbx_library_function_count(n->lib)),
                 mbx_format_count(b, sizeof b, n->size));
        break;
    case MTLBX_NODE_MODULE:
        snprintf(buf, size, "Module  %s  %s bytes", fn_name(n->lib, n->index, a, sizeof a),
                 mbx_format_count(b, sizeof b, n->size));
        break;
    case MTLBX_NODE_SOURCES: {
        const struct mtlbx_sources *s = mbx_library_sources(n->lib);
        snprintf(buf, size, "Sources %s  %zu %s", s->tag, s->n_archives, s->n_archives == 1 ? "archive" : "archives");
        break;
    }
    case MTLBX_NODE_ARCHIVE: label_archive(n, buf, size); break;
    case MTLBX_NODE_MEMBER: label_member(n, buf, size); break;
    case MTLBX_NODE_DYNAMIC_HEADER: {
        const struct mtlbx_dynamic_header *d = mbx_library_dynamic_header(n->lib);
        if (d->has_name)
            snprintf(buf, size, "Dynamic header  \"%s\"", field_esc(a, sizeof a, d->name.ptr, d->name.len));
        else
            snprintf(buf, size, "Dynamic header");
        break;
    }
    case MTLBX_NODE_LIST: {
        const struct mtlbx_list *l = mbx_library_list(n->lib, (enum mtlbx_list_kind)n->sub);
        snprintf(buf, size, "%s (%s)  %zu %s", list_title(n->sub), l->tag, l->n_groups,
                 l->n_groups == 1 ? "group" : "groups");
        break;
    }
    case MTLBX_NODE_DIAGNOSTICS: label_diagnostics(m, n, buf, size); break;
    case MTLBX_NODE_BC_BLOCK:
    case MTLBX_NODE_INTERFACE:
    case MTLBX_NODE_ARGUMENT:
    case MTLBX_NODE_STRUCT_MEMBER: iface_label(m, n, buf, size); break;
    case MTLBX_NODE_CI_ARGUMENT: ci_argument_label(n, buf, size); break;
    case MTLBX_NODE_CI_MEMBER: ci_member_label(n, buf, size); break;
    case MTLBX_NODE_GPU_SLICE:
    case MTLBX_NODE_GPU_PIECE:
    case MTLBX_NODE_GPU_FUNCTION: gpu_node_label(f, n, buf, size); break;
    default: break;
    }
}

/* ------------------------------------------------------------ fields -- */

static void header_fields(struct field_out *o)
{
    const struct mtlbx_header *h = mbx_library_header(o->n->lib);
    uint64_t b = h->base, end = h->base + h->available;
    const uint8_t *p = o->f->data + b;
    char s[64], t[32], u[32];
#define HAVE(off, len) ((off) + (len) <= 88 && b + (off) + (len) <= end)
    if (HAVE(0, 4))
        field_emit(o, "magic", b, 4, 0, 0, "\"%s\"", field_esc(s, sizeof s, p, 4));
    if (HAVE(4, 2))
        field_emit(o, "version word", b + 4, 2, 0, 0, "0x%04x: major %u, macOS flag %s", h->version_word,
                   h->major, h->macos ? "set" : "clear");
    if (HAVE(4, 6)) {
        field_emit(o, "container version", b + 4, 6, 0, 0, "%u.%u.%u", h->major, h->minor, h->patch);
        field_emit(o, "as YuAo reads it", b + 4, 6, 0, 0, "platform %s, file version %u.%u",
                   h->macos ? "macOS" : "iOS", h->minor, h->patch);
    }
    if (HAVE(10, 1)) {
        const char *ft = mbx_file_type_name(h->file_type, s, sizeof s);
        field_emit(o, "file type", b + 10, 1, strncmp(ft, "unknown", 7) ? 0 : MTLBX_FIELD_WARNING, 0,
                   "%u %s (bits 0-6)", h->file_type, ft);
        field_emit(o, "stub", b + 10, 1, 0, 0, "%s (bit 7)", h->stub ? "yes" : "no");
    }
    if (HAVE(11, 1)) {
        const char *os = mbx_target_os_name(h->platform_byte, s, sizeof s);
        field_emit(o, "target OS", b + 11, 1, strncmp(os, "unknown-", 8) ? 0 : MTLBX_FIELD_WARNING, 0,
                   "0x%02x %s%s", h->platform_byte, os, h->platform_byte & 0x80 ? ", 64-bit" : "");
    }
    if (HAVE(12, 4)) {
        field_emit(o, "OS version", b + 12, 4, 0, 0, "%u.%u.%u", h->os_major, h->os_minor, h->os_patch);
        field_emit(o, "as YuAo reads it", b + 12, 4, 0, 0, "%u.%u", h->os_major, h->os_minor_u16);
    }
    if (HAVE(16, 8)) {
        bool ok = h->declared_size == h->available;
        field_emit(o, "file size", b + 16, 8, ok ? 0 : MTLBX_FIELD_ERROR, 0, "%s%s%s%s",
                   mbx_count_noun(h->declared_size, "byte", "bytes", t, sizeof t), ok ? ", matches" : ", but there are ",
                   ok ? "" : mbx_format_count(u, sizeof u, h->available), ok ? "" : " bytes");
    }
    static const char *const names[4][2] = {
        { "function list offset", "function list size" },
        { "public metadata offset", "public metadata size" },
        { "private metadata offset", "private metadata size" },
        { "module list offset", "module list size" },
    };
    for (int i = 0; i < 4; i++) {
        uint64_t off = 0x18 + 16 * (uint64_t)i;
        if (!HAVE(off, 16))
            break;
        uint64_t target = b + h->raw_offset[i];
        bool in = h->raw_offset[i] < o->f->size && target < o->f->size;
        field_emit(o, names[i][0], b + off, 8, in ? MTLBX_FIELD_FOLLOW : MTLBX_FIELD_ERROR, in ? target : 0,
                   "0x%" PRIx64 "%s", h->raw_offset[i], in ? "" : " (outside the file)");
        field_emit(o, names[i][1], b + off + 8, 8, 0, 0, "%s%s", mbx_count_noun(h->raw_size[i], "byte", "bytes", t, sizeof t),
                   i == 0 ? " (the u32 count is not included)" : "");
    }
#undef HAVE
}

static void library_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const struct mtlbx_header *h = mbx_library_header(n->lib);
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(n->lib);
    const struct mtlbx_sources *src = mbx_library_sources(n->lib);
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(n->lib);
    char a[64], b[32];
    size_t first, count;
    field_emit(o, "offset", h->base, 0, 0, 0, "0x%" PRIx64, h->base);
    field_emit(o, "size", h->base, 0, 0, 0, "%s", mbx_count_noun(h->available, "byte", "bytes", b, sizeof b));
    if (h->complete) {
        field_emit(o, "container version", h->base + 4, 6, 0, 0, "%u.%u.%u", h->major, h->minor, h->patch);
        field_emit(o, "target", h->base + 11, 5, 0, 0, "%s", mbx_target_text(h, a, sizeof a));
    }
    field_emit(o, "functions", h->function_list.offset, 0, 0, 0, "%s",
               mbx_format_count(b, sizeof b, mbx_library_function_count(n->lib)));
    if (ext && ext->present)
        field_emit(o, "header extension", ext->range.offset, 0, MTLBX_FIELD_FOLLOW, ext->range.offset,
                   "%zu %s", ext->n_tags, mbx_noun(ext->n_tags, "tag", "tags"));
    else
        field_emit(o, "header extension", h->base, 0, 0, 0, "absent");
    if (ext && ext->has_uuid) {
        char x[40];
        uint64_t at = h->base;
        for (size_t i = 0; i < ext->n_tags; i++)
            if (ext->tags[i].fourcc == FOURCC('U', 'U', 'I', 'D'))
                at = ext->tags[i].value_offset;
        for (int i = 0; i < 16; i++)
            snprintf(x + 2 * i, 3, "%02x", ext->uuid[i]);
        field_emit(o, "uuid", at, at == h->base ? 0 : 16, 0, 0, "%s", x);
    }
    if (src && src->present)
        field_emit(o, "embedded sources", src->range.offset, 0, MTLBX_FIELD_FOLLOW, src->range.offset,
                   "%s, %zu archives", src->tag, src->n_archives);
    if (dyn && dyn->present)
        field_emit(o, "dynamic header", dyn->range.offset, 0, MTLBX_FIELD_FOLLOW, dyn->range.offset, "%s",
                   dyn->has_name ? field_esc(a, sizeof a, dyn->name.ptr, dyn->name.len) : "(no name)");
    size_t errors = node_diag_range(o->m, n->lib, 0, UINT64_MAX, &first, &count);
    field_emit(o, "diagnostics", h->base, 0, errors ? MTLBX_FIELD_ERROR : count ? MTLBX_FIELD_WARNING : 0, 0,
               "%zu errors, %zu warnings", errors, count - errors);
}

/* The section pair as the header declares it (its offset and size words),
 * for the FUNCTION_LIST / PUBLIC_MD / PRIVATE_MD / MODULE_LIST nodes. */
static void section_pair_fields(struct field_out *o, int i)
{
    const struct mtlbx_header *h = mbx_library_header(o->n->lib);
    char b[32];
    uint64_t w = h->base + 0x18 + 16 * (uint64_t)i;
    if (h->base)
        field_emit(o, "offset", w, 8, MTLBX_FIELD_FOLLOW, o->n->offset, "0x%" PRIx64 " (file offset 0x%" PRIx64 ")",
                   h->raw_offset[i], o->n->offset);
    else
        field_emit(o, "offset", w, 8, MTLBX_FIELD_FOLLOW, o->n->offset, "0x%" PRIx64, h->raw_offset[i]);
    field_emit(o, "size", w + 8, 8, 0, 0, "%s", mbx_count_noun(h->raw_size[i], "byte", "bytes", b, sizeof b));
}

static void function_list_fields(struct field_out *o)
{
    const uint8_t *p = field_bytes(o->f, o->n->offset, 4);
    section_pair_fields(o, 0);
    if (p)
        field_emit(o, "count", o->n->offset, 4, 0, 0, "%u", rd32(p));
}

static void function_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    mtlbx_library *lib = n->lib;
    const struct mtlbx_function *fn = mbx_function_at(lib, n->index);
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, n->index);
    char s[512], b[32];
    field_emit(o, "index", n->offset, 0, 0, 0, "%u", n->index);
    if (n->size >= 4)
        field_emit(o, "entry size", fn->entry_offset, 4, 0, 0, "%s (includes itself)",
                   mbx_count_noun(fn->entry_size, "byte", "bytes", b, sizeof b));
    /* One line per tag of the entry, as the tree shows its children. */
    if (n->size > 4) {
        struct mtlbx_tag_walk w;
        struct mtlbx_tag t;
        mbx_tag_walk_init(&w, o->f, n->offset + 4, n->size - 4);
        for (unsigned i = 0; i < 4096 && mbx_tag_walk_next(&w, &t); i++) {
            tag_summary(o->f, lib, n->index, CTX_FUNCTION, &t, s, sizeof s);
            field_emit(o, t.name, t.offset, t.header_len + t.value_len, t.known ? 0 : MTLBX_FIELD_WARNING, 0,
                       "%s", s);
        }
    }
    field_emit(o, "module", fn->module.offset, 0, fn->module_valid ? MTLBX_FIELD_FOLLOW : MTLBX_FIELD_ERROR,
               fn->module.offset, "0x%" PRIx64 " +%s%s%s", fn->module.offset, mbx_format_count(b, sizeof b, fn->module.size),
               fn->module_size_inferred ? " (no MDSZ: size inferred)" : "",
               fn->module_valid ? "" : " (outside the module list)");
    enum mtlbx_hash_state st = mbx_function_hash_state(lib, n->index);
    static const char *const states[] = { "not checked yet", "pending", "OK", "MISMATCH",
                                          "unavailable (no HASH tag or no module bytes)" };
    field_emit(o, "hash", fn->module.offset, 0, st == MTLBX_HASH_MISMATCH ? MTLBX_FIELD_ERROR : 0, 0, "%s",
               (unsigned)st < 5 ? states[st] : "?");
    if (fn->module_valid)
        function_module_fields(o);
    if (md && md->public_group.size)
        field_emit(o, "public metadata", md->public_group.offset, 0, MTLBX_FIELD_FOLLOW,
                   md->public_group.offset, "0x%" PRIx64 " +%" PRIu64, md->public_group.offset, md->public_group.size);
    if (md && md->private_group.size)
        field_emit(o, "private metadata", md->private_group.offset, 0, MTLBX_FIELD_FOLLOW,
                   md->private_group.offset, "0x%" PRIx64 " +%" PRIu64, md->private_group.offset, md->private_group.size);
    long ar = fn->present & MTLBX_F_SOFF ? mbx_function_archive(lib, n->index) : -1;
    const struct mtlbx_archive *a = ar >= 0 ? archive_of(n, (uint32_t)ar) : NULL;
    if (a)
        field_emit(o, "source archive", a->sarc_offset, 0, MTLBX_FIELD_FOLLOW, a->sarc_offset, "\"%s\"",
                   field_esc(s, sizeof s, a->id.ptr, a->id.len));
    gpu_function_code_fields(o, lib, n->index);
}

/* Functions may share a metadata group or a source archive: name those
 * that point at this node's (one pass over the functions, on demand). */
static bool uses_group(const mtlbx_node *n, size_t i)
{
    const struct mtlbx_metadata *md = mbx_function_metadata(n->lib, i);
    struct mtlbx_range r = n->sub == CTX_PUBLIC_MD ? md->public_group : md->private_group;
    return r.size && r.offset == n->offset;
}

static bool uses_archive(const mtlbx_node *n, size_t i)
{
    return (mbx_function_at(n->lib, i)->present & MTLBX_F_SOFF) &&
           mbx_function_archive(n->lib, i) == (long)n->index;
}

static bool uses_reflection(const mtlbx_node *n, size_t i)
{
    const struct mtlbx_function *fn = mbx_function_at(n->lib, i);
    const struct mtlbx_list *l = mbx_library_list(n->lib, MTLBX_LIST_RLST);
    return (fn->present & MTLBX_F_RFLT) && l && fn->rflt <= UINT64_MAX - l->range.offset &&
           l->range.offset + fn->rflt == n->offset;
}

static void users_fields(struct field_out *o, bool (*uses)(const mtlbx_node *, size_t))
{
    const mtlbx_node *n = o->n;
    char s[256];
    size_t nf = mbx_library_function_count(n->lib), users = 0;
    for (size_t i = 0; i < nf; i++) {
        if (!uses(n, i) || users++ >= MAX_USERS)
            continue;
        const struct mtlbx_function *fn = mbx_function_at(n->lib, i);
        field_emit(o, "used by", fn->entry_offset, 0, MTLBX_FIELD_FOLLOW, fn->entry_offset, "%s",
                   fn_name(n->lib, i, s, sizeof s));
    }
    if (users > MAX_USERS)
        field_emit(o, "used by", n->offset, 0, 0, 0, "... %zu functions in all", users);
}

/* The size prefix of a group, and which of the two conventions it uses:
 * counting itself (the metal driver) or not (the standalone tool). */
static void group_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const uint8_t *p = field_bytes(o->f, n->offset, 4);
    char b[32];
    if (!p)
        return;
    uint32_t prefix = rd32(p);
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, o->f, n->offset + 4, n->size - 4);
    uint64_t pos = n->offset + 4;
    unsigned tags = 0;
    while (tags < 65536 && mbx_tag_walk_next(&w, &t)) {
        pos = t.value_offset + t.value_len;
        tags++;
    }
    uint64_t used = pos - n->offset + (w.ended ? 4 : 0);
    const char *conv = !w.ended ? "" : prefix == used ? " (counts itself)"
                                   : prefix + 4 == used ? " (does not count itself)" : " (matches neither convention)";
    field_emit(o, "size prefix", n->offset, 4, w.ended && prefix != used && prefix + 4 != used ? MTLBX_FIELD_WARNING : 0,
               0, "%s%s", mbx_count_noun(prefix, "byte", "bytes", b, sizeof b), conv);
    field_emit(o, "tags", n->offset + 4, 0, 0, 0, "%u%s", tags, w.ended ? " + ENDT" : " (no ENDT)");
    if (n->sub == CTX_PUBLIC_MD || n->sub == CTX_PRIVATE_MD)
        users_fields(o, uses_group);
    else if (n->sub == CTX_LIST + MTLBX_LIST_RLST)
        users_fields(o, uses_reflection);
}

static void module_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const struct mtlbx_function *fn = mbx_function_at(n->lib, n->index);
    char s[256], b[32];
    field_emit(o, "function", fn->entry_offset, 0, MTLBX_FIELD_FOLLOW, fn->entry_offset, "%s",
               fn_name(n->lib, n->index, s, sizeof s));
    field_emit(o, "size", n->offset, 0, fn->module_valid ? 0 : MTLBX_FIELD_ERROR, 0, "%s%s%s",
               mbx_count_noun(fn->module.size, "byte", "bytes", b, sizeof b), fn->module_size_inferred ? " (no MDSZ: inferred)" : "",
               fn->module_valid ? "" : " (outside the module list)");
    enum mtlbx_hash_state st = mbx_function_hash_state(n->lib, n->index);
    static const char *const states[] = { "not checked yet", "pending", "OK", "MISMATCH", "unavailable" };
    field_emit(o, "hash", n->offset, 0, st == MTLBX_HASH_MISMATCH ? MTLBX_FIELD_ERROR : 0, 0, "%s",
               (unsigned)st < 5 ? states[st] : "?");
    if (!n->size)
        return;
    struct mtlbx_wrapper w;
    uint64_t m = n->offset;
    if (!mbx_function_wrapper(n->lib, n->index, &w) || !w.present || n->size < 20) {
        const uint8_t *p = field_bytes(o->f, m, 4);
        if (p)
            field_emit(o, "magic", m, 4, MTLBX_FIELD_WARNING, 0, "%02x %02x %02x %02x (no bitcode wrapper)",
                       p[0], p[1], p[2], p[3]);
        return;
    }
    const char *cpu = mbx_cputype_name(w.cputype);
    field_emit(o, "wrapper magic", m, 4, 0, 0, "0x%08x", w.magic);
    field_emit(o, "wrapper version", m + 4, 4, 0, 0, "%u", w.version);
    field_emit(o, "bitcode offset", m + 8, 4, MTLBX_FIELD_FOLLOW, m + w.bitcode_offset, "%u", w.bitcode_offset);
    field_emit(o, "bitcode size", m + 12, 4, 0, 0, "%s", mbx_count_noun(w.bitcode_size, "byte", "bytes", b, sizeof b));
    field_emit(o, "cputype", m + 16, 4, 0, 0, "0x%08x%s%s", w.cputype, cpu ? " " : "", cpu ? cpu : "");
    if ((uint64_t)w.bitcode_offset + 4 <= n->size)
        field_emit(o, "bitcode magic", m + w.bitcode_offset, 4, w.bitcode_magic_ok ? 0 : MTLBX_FIELD_WARNING,
                   0, "%s", w.bitcode_magic_ok ? "BC C0 DE" : "missing");
    uint64_t used = (uint64_t)w.bitcode_offset + w.bitcode_size;
    if (used <= n->size && used < n->size)
        field_emit(o, "padding", m + used, n->size - used, 0, 0, "%" PRIu64 " bytes (covered by HASH)",
                   n->size - used);
}

static void sources_fields(struct field_out *o)
{
    const struct mtlbx_sources *s = mbx_library_sources(o->n->lib);
    char t[2048];
    field_emit(o, "located by", o->n->offset, 0, 0, 0, "%s (%s)", s->tag,
               strcmp(s->tag, "HSRD") ? "no working directory" : "with working directory");
    if (s->range.size >= 4) /* a section cut short at the end of the file has no count */
        field_emit(o, "archive count", o->n->offset, 4, 0, 0, "%u", s->declared_count);
    if (s->link_command.ptr)
        field_emit(o, "link command", str_off(o->f, s->link_command), str_size(o->f, s->link_command),
                   0, 0, "%s", field_esc(t, sizeof t, s->link_command.ptr, s->link_command.len));
    if (s->has_working_dir && s->working_dir.ptr)
        field_emit(o, "working directory", str_off(o->f, s->working_dir), str_size(o->f, s->working_dir),
                   0, 0, "%s", field_esc(t, sizeof t, s->working_dir.ptr, s->working_dir.len));
}

static void archive_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const struct mtlbx_archive *a = archive_of(n, n->index);
    char s[256], b[32];
    if (!a)
        return;
    field_emit(o, "group size", a->group_offset, 4, 0, 0, "%s (not counting itself)",
               mbx_count_noun(a->group_size, "byte", "bytes", b, sizeof b));
    field_emit(o, "tag", a->sarc_offset, 8, 0, 0, "SARC, u32 length (SOFF points here)");
    field_emit(o, "id", str_off(o->f, a->id), str_size(o->f, a->id), 0, 0, "\"%s\"",
               field_esc(s, sizeof s, a->id.ptr, a->id.len));
    field_emit(o, "payload", a->payload_offset, a->payload.len, 0, 0, "%s, %s", mbx_count_noun(a->payload.len, "byte", "bytes", b, sizeof b),
               a->payload.len >= 4 && a->payload.ptr[0] == 'B' && a->payload.ptr[1] == 'Z' ? "bzip2" : "not bzip2");
    static const char *const states[] = { "not decompressed yet (expand to list members)", "decompressed",
                                          "does not decode" };
    field_emit(o, "state", a->payload_offset, 0, a->state == MTLBX_ARCHIVE_FAILED ? MTLBX_FIELD_ERROR : 0, 0,
               "%s", (unsigned)a->state < 3 ? states[a->state] : "?");
    if (a->state == MTLBX_ARCHIVE_LOADED)
        field_emit(o, "tar", a->payload_offset, 0, 0, 0, "%s, %zu members",
                   mbx_count_noun(a->tar_len, "byte", "bytes", b, sizeof b), a->n_members);
    users_fields(o, uses_archive);
}

static void member_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const struct mtlbx_archive *a = archive_of(n, n->sub);
    if (!a || a->state != MTLBX_ARCHIVE_LOADED || n->index >= a->n_members)
        return;
    const struct mtlbx_member *m = &a->members[n->index];
    char s[1024], b[32];
    field_emit(o, "name", n->offset, 0, 0, 0, "%s", field_esc(s, sizeof s, (const uint8_t *)m->name, strlen(m->name)));
    field_emit(o, "type", n->offset, 0, 0, 0, "%s", member_type(m->type));
    field_emit(o, "size", n->offset, 0, 0, 0, "%s (decompressed)", mbx_count_noun(m->size, "byte", "bytes", b, sizeof b));
    field_emit(o, "mode", n->offset, 0, 0, 0, "%04o", m->mode);
    if (m->link_target)
        field_emit(o, "link target", n->offset, 0, 0, 0, "%s",
                   field_esc(s, sizeof s, (const uint8_t *)m->link_target, strlen(m->link_target)));
    field_emit(o, "bytes", n->offset, n->size, 0, 0, "inside the compressed payload of archive %u", n->sub);
}

static void dynamic_fields(struct field_out *o)
{
    const struct mtlbx_dynamic_header *d = mbx_library_dynamic_header(o->n->lib);
    char s[512];
    if (d->has_name)
        field_emit(o, "name", str_off(o->f, d->name), str_size(o->f, d->name), 0, 0, "\"%s\"",
                   field_esc(s, sizeof s, d->name.ptr, d->name.len));
    for (size_t i = 0; i < d->n_linked && i < 1024; i++)
        field_emit(o, "linked library", str_off(o->f, d->linked[i]), str_size(o->f, d->linked[i]), 0, 0,
                   "\"%s\"", field_esc(s, sizeof s, d->linked[i].ptr, d->linked[i].len));
}

static void list_fields(struct field_out *o)
{
    const struct mtlbx_list *l = mbx_library_list(o->n->lib, (enum mtlbx_list_kind)o->n->sub);
    field_emit(o, "located by", o->n->offset, 0, 0, 0, "%s in the header extension", l->tag);
    if (o->n->size >= 4)
        field_emit(o, "count", o->n->offset, 4, l->declared_count == l->n_groups ? 0 : MTLBX_FIELD_WARNING, 0,
                   "%u declared, %zu %s read", l->declared_count, l->n_groups,
                   mbx_noun(l->n_groups, "group", "groups"));
}

static void file_fields(struct field_out *o)
{
    mtlbx_file *f = o->f;
    char s[1024], b[32];
    const char *path = mbx_file_path(f);
    if (path)
        field_emit(o, "path", 0, 0, 0, 0, "%s", field_esc(s, sizeof s, (const uint8_t *)path, strlen(path)));
    field_emit(o, "size", 0, 0, 0, 0, "%s", mbx_count_noun(f->size, "byte", "bytes", b, sizeof b));
    field_emit(o, "format", 0, 4, 0, 0, "%s", f->fat ? "fat container (CB FE BA BE)" : "single library (MTLB)");
    field_emit(o, "libraries", 0, 0, 0, 0, "%zu", mbx_file_library_count(f));
}

static void fat_header_fields(struct field_out *o)
{
    field_emit(o, "magic", 0, 4, 0, 0, "CB FE BA BE");
    const uint8_t *p = field_bytes(o->f, 4, 4);
    if (p)
        field_emit(o, "slice count", 4, 4, 0, 0, "%u (big-endian)", rd32be(p));
}

static void fat_slice_fields(struct field_out *o)
{
    const struct mbx_fat_slice *s = mbx_fat_slice(o->f, o->n->index);
    if (!s)
        return;
    uint64_t e = s->entry_offset;
    if (!field_bytes(o->f, e, 20))
        return;
    const char *cpu = mbx_cputype_name(s->cputype);
    char b[32];
    bool in = s->offset < o->f->size;
    field_emit(o, "cputype", e, 4, 0, 0, "0x%08x%s%s", s->cputype, cpu ? " " : "", cpu ? cpu : "");
    field_emit(o, "cpusubtype", e + 4, 4, 0, 0, "%u", s->cpusubtype);
    field_emit(o, "offset", e + 8, 4, in ? MTLBX_FIELD_FOLLOW : MTLBX_FIELD_ERROR, s->offset, "0x%x", s->offset);
    field_emit(o, "size", e + 12, 4, 0, 0, "%s", mbx_count_noun(s->size, "byte", "bytes", b, sizeof b));
    field_emit(o, "align", e + 16, 4, 0, 0, "2^%u", s->align);
}

static void diag_field(struct field_out *o, const struct mtlbx_diag *d)
{
    char s[1024];
    bool err = d->severity == MTLBX_ERROR;
    field_emit(o, err ? "error" : "warning", d->offset, 0,
               (err ? MTLBX_FIELD_ERROR : MTLBX_FIELD_WARNING) | MTLBX_FIELD_FOLLOW, d->offset,
               "0x%" PRIx64 ": %s", d->offset,
               field_esc(s, sizeof s, (const uint8_t *)d->message, d->message ? strlen(d->message) : 0));
}

/* Every problem (the DIAGNOSTICS node), or those inside the node's span. */
static void diag_fields(struct field_out *o, bool all)
{
    const mtlbx_node *n = o->n;
    size_t first, count;
    if (all)
        node_diag_range(o->m, n->lib, 0, UINT64_MAX, &first, &count);
    else
        node_diag_range(o->m, n->lib, n->offset, n->size, &first, &count);
    size_t cap = all ? MTLBX_MAX_DIAGS + 1 : MAX_DIAG_FIELDS;
    if (count && !all)
        field_emit(o, "problems", n->offset, 0, MTLBX_FIELD_HEADING, 0, "%zu", count);
    for (size_t k = 0; k < count && k < cap; k++) {
        const struct mtlbx_diag *d = node_diag_sorted(o->m, n->lib, first + k);
        if (d)
            diag_field(o, d);
    }
    if (count > cap)
        field_emit(o, "problems", n->offset, 0, 0, 0, "... and %zu more (see Diagnostics)", count - cap);
}

void mbx_node_fields(mtlbx_model *m, const mtlbx_node *n, mtlbx_field_fn fn, void *ctx)
{
    if (!m || !n || !fn)
        return;
    struct field_out o = { .m = m, .f = m->f, .n = n, .fn = fn, .ctx = ctx };
    switch (n->kind) {
    case MTLBX_NODE_FILE: file_fields(&o); break;
    case MTLBX_NODE_FAT_HEADER: fat_header_fields(&o); break;
    case MTLBX_NODE_FAT_SLICE: fat_slice_fields(&o); break;
    case MTLBX_NODE_LIBRARY: library_fields(&o); break;
    case MTLBX_NODE_HEADER: header_fields(&o); break;
    case MTLBX_NODE_FUNCTION_LIST: function_list_fields(&o); break;
    case MTLBX_NODE_FUNCTION: function_fields(&o); break;
    case MTLBX_NODE_TAG: tag_fields(&o); break;
    case MTLBX_NODE_TAG_GROUP: group_fields(&o); break;
    case MTLBX_NODE_HEADER_EXT: {
        const struct mtlbx_header_ext *ext = mbx_library_header_ext(n->lib);
        field_emit(&o, "tags", n->offset, 0, 0, 0, "%zu, ended by ENDT, no size prefix", ext->n_tags);
        break;
    }
    case MTLBX_NODE_PUBLIC_MD: section_pair_fields(&o, 1); break;
    case MTLBX_NODE_PRIVATE_MD: section_pair_fields(&o, 2); break;
    case MTLBX_NODE_MODULE_LIST: section_pair_fields(&o, 3); break;
    case MTLBX_NODE_MODULE: module_fields(&o); break;
    case MTLBX_NODE_SOURCES: sources_fields(&o); break;
    case MTLBX_NODE_ARCHIVE: archive_fields(&o); break;
    case MTLBX_NODE_MEMBER: member_fields(&o); break;
    case MTLBX_NODE_DYNAMIC_HEADER: dynamic_fields(&o); break;
    case MTLBX_NODE_BC_BLOCK:
    case MTLBX_NODE_INTERFACE:
    case MTLBX_NODE_ARGUMENT:
    case MTLBX_NODE_STRUCT_MEMBER: iface_fields(&o); break;
    case MTLBX_NODE_LIST: list_fields(&o); break;
    case MTLBX_NODE_CI_ARGUMENT: ci_argument_fields(&o); break;
    case MTLBX_NODE_CI_MEMBER: ci_member_fields(&o); break;
    case MTLBX_NODE_GPU_SLICE:
    case MTLBX_NODE_GPU_PIECE:
    case MTLBX_NODE_GPU_FUNCTION: gpu_node_fields(&o); break;
    case MTLBX_NODE_DIAGNOSTICS: diag_fields(&o, true); return;
    default: break;
    }
    if (n->kind != MTLBX_NODE_FILE && n->kind != MTLBX_NODE_LIBRARY)
        diag_fields(&o, false);
}
