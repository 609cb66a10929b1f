/* What the Core Image reflection nodes say (FORMAT.md §22): the RETR and
 * ARGR tags, one row per ARGR argument and one per struct member, each
 * with the bytes it was decoded from. Bytes of unknown meaning are shown
 * raw, as read. */
#include "config.h"
#include "node.h"
#include "model/model.h"
#include "container/functions.h"
#include "container/metadata.h"
#include "container/nouns.h"
#include "container/value_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The reflection a node belongs to: the function whose public group holds
 * the tag (a shared group is decoded once, for its first function). */
const struct mtlbx_reflection *node_reflection(const mtlbx_node *n)
{
    uint32_t fn = n->kind == MTLBX_NODE_TAG ? n->index : n->sub;
    if (!n->lib || fn >= mbx_library_function_count(n->lib))
        return NULL;
    return &mbx_function_metadata(n->lib, fn)->reflection;
}

static const struct mtlbx_ci_argument *node_ci_argument(const mtlbx_node *n)
{
    const struct mtlbx_reflection *r = node_reflection(n);
    const mtlbx_node *a = n->kind == MTLBX_NODE_CI_MEMBER ? n->parent : n;
    return r && a && a->index < r->n_arguments ? &r->arguments[a->index] : NULL;
}

static const struct mtlbx_ci_member *node_member(const mtlbx_node *n)
{
    const struct mtlbx_reflection *r = node_reflection(n);
    const struct mtlbx_ci_argument *a = node_ci_argument(n);
    if (!r || !a || n->index >= a->n_members)
        return NULL;
    return &r->members[a->first_member + n->index];
}

static const char *type_name(uint8_t type, char *buf, size_t n) { return mbx_data_type_name(type, buf, n); }

bool reflection_tag_summary(mtlbx_file *f, const mtlbx_node *n, char *out, size_t size)
{
    (void)f;
    const struct mtlbx_tag *t = &n->tag;
    char b[32], c[48];
    if (strcmp(t->name, "RETR") == 0 && t->value_len == 1) {
        snprintf(out, size, "returns %s", type_name(t->value[0], b, sizeof b));
        return true;
    }
    if (strcmp(t->name, "ARGR") != 0 || t->value_len == 0)
        return false;
    const struct mtlbx_reflection *r = n->sub == CTX_PUBLIC_MD ? node_reflection(n) : NULL;
    snprintf(out, size, "%s%s", mbx_count_noun(t->value[0], "argument", "arguments", c, sizeof c),
             r && !r->complete ? " (does not decode exactly)" : "");
    return true;
}

bool reflection_tag_fields(struct field_out *o)
{
    const struct mtlbx_tag *t = &o->n->tag;
    char b[32], c[48];
    if (strcmp(t->name, "RETR") == 0 && t->value_len == 1) {
        field_emit(o, "return type", t->value_offset, 1, mbx_data_type_known(t->value[0]) ? 0 : MTLBX_FIELD_WARNING,
                   0, "0x%02x %s", t->value[0], type_name(t->value[0], b, sizeof b));
        return true;
    }
    if (strcmp(t->name, "ARGR") != 0 || t->value_len == 0)
        return false;
    const struct mtlbx_reflection *r = o->n->sub == CTX_PUBLIC_MD ? node_reflection(o->n) : NULL;
    field_emit(o, "count", t->value_offset, 1, 0, 0, "%s",
               mbx_count_noun(t->value[0], "argument", "arguments", c, sizeof c));
    if (r && !r->complete) {
        uint64_t end = r->n_arguments ? r->arguments[r->n_arguments - 1].offset +
                                            r->arguments[r->n_arguments - 1].size
                                      : t->value_offset + 1;
        uint64_t vend = t->value_offset + t->value_len;
        field_emit(o, "undecoded", end, vend > end ? vend - end : 0, MTLBX_FIELD_ERROR, 0,
                   "the value does not decode exactly from here (see the diagnostics)");
    }
    field_emit(o, "arguments", 0, 0, MTLBX_FIELD_HEADING, 0, "one row each below this tag in the tree");
    return true;
}

void ci_argument_label(const mtlbx_node *n, char *buf, size_t size)
{
    const struct mtlbx_ci_argument *a = node_ci_argument(n);
    char name[96], b[32], e[32];
    if (!a) {
        snprintf(buf, size, "argument %u", n->index);
        return;
    }
    field_esc(name, sizeof name, a->name.ptr, a->name.len);
    if (a->type == 0x3A)
        snprintf(buf, size, "texture<%s>  %s", type_name(a->element_type, e, sizeof e), name);
    else if (a->type == 0x3C)
        snprintf(buf, size, "%s *  %s", type_name(a->element_type, e, sizeof e), name);
    else
        snprintf(buf, size, "%s  %s", type_name(a->type, b, sizeof b), name);
}

void ci_argument_fields(struct field_out *o)
{
    const struct mtlbx_ci_argument *a = node_ci_argument(o->n);
    if (!a)
        return;
    char name[512], b[32], c[48];
    field_emit(o, "name", a->offset, a->name.len + 1, 0, 0, "\"%s\"",
               field_esc(name, sizeof name, a->name.ptr, a->name.len));
    uint64_t p = a->offset + a->name.len + 1, x = a->extra_offset;
    field_emit(o, "type", p, 1, mbx_data_type_known(a->type) ? 0 : MTLBX_FIELD_WARNING, 0, "0x%02x %s", a->type,
               type_name(a->type, b, sizeof b));
    if (a->type == 0x3A) {
        field_emit(o, "pixel type", x, 1, mbx_data_type_known(a->element_type) ? 0 : MTLBX_FIELD_WARNING, 0,
                   "0x%02x %s", a->element_type, type_name(a->element_type, b, sizeof b));
        field_emit(o, "unknown u32", x + 1, 4, 0, 0, "%u (always 1 so far; shown raw)", a->texture_word);
        field_emit(o, "texture type", x + 5, 1, 0, 0, "%u (0x%02x)", a->texture_type, a->texture_type);
    } else if (a->type == 0x3C) {
        field_emit(o, "unknown u8", x, 1, 0, 0, "%u (0 so far; shown raw)", a->pointer_byte);
        field_emit(o, "alignment", x + 1, 1, 0, 0, "%u", a->alignment);
        field_emit(o, "pointee size", x + 2, 8, 0, 0, "%s", mbx_count_noun(a->pointee_size, "byte", "bytes", c,
                                                                           sizeof c));
        field_emit(o, "pointee type", x + 10, 1, mbx_data_type_known(a->element_type) ? 0 : MTLBX_FIELD_WARNING, 0,
                   "0x%02x %s", a->element_type, type_name(a->element_type, b, sizeof b));
        if (a->element_type == 0x01)
            field_emit(o, "members", x + 11, 1, 0, 0, "%s (rows below)",
                       mbx_count_noun(a->n_members, "member", "members", c, sizeof c));
    }
}

void ci_member_label(const mtlbx_node *n, char *buf, size_t size)
{
    const struct mtlbx_ci_member *m = node_member(n);
    char name[96], b[32];
    if (!m)
        snprintf(buf, size, "member %u", n->index);
    else
        snprintf(buf, size, "%s  %s", type_name(m->type, b, sizeof b),
                 field_esc(name, sizeof name, m->name.ptr, m->name.len));
}

void ci_member_fields(struct field_out *o)
{
    const struct mtlbx_ci_member *m = node_member(o->n);
    if (!m)
        return;
    char name[512], b[32];
    uint64_t p = m->offset + m->name.len + 1;
    field_emit(o, "name", m->offset, m->name.len + 1, 0, 0, "\"%s\"",
               field_esc(name, sizeof name, m->name.ptr, m->name.len));
    field_emit(o, "type", p, 1, mbx_data_type_known(m->type) ? 0 : MTLBX_FIELD_WARNING, 0, "0x%02x %s", m->type,
               type_name(m->type, b, sizeof b));
    field_emit(o, "unknown u32", p + 1, 4, 0, 0, "%u (0 so far; shown raw)", m->unknown_word);
    field_emit(o, "unknown u8", p + 5, 1, 0, 0, "%u (3 so far; shown raw)", m->unknown_byte);
}
