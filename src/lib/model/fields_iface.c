/* What the interface nodes say (labels and detail fields): a function's
 * INTERFACE (its MSL declaration, built by msl_decl.c like `mtlbx sig`),
 * its ARGUMENTs and their STRUCT_MEMBERs, the BC_BLOCKs of a module, and
 * the module facts in a function's detail. All of it from an interface the
 * model keeps (iface_cache.c); nothing here decodes. */
#include "config.h"

#include "node.h"
#include "bitcode/interface.h"
#include "model/model.h"
#include "model/msl.h"
#include "container/functions.h"
#include "container/digits.h"
#include "container/value_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct mtlbx_interface *kept(mtlbx_model *model, const mtlbx_node *n, enum mtlbx_iface_state *st,
                                          const char **error)
{
    const struct mtlbx_interface *iface = NULL;
    enum mtlbx_iface_state s = mbx_function_interface_cached(model, n->lib, n->index, &iface, error);
    if (st)
        *st = s;
    return iface;
}

const struct mtlbx_air_argument *node_argument(mtlbx_model *model, const mtlbx_node *n,
                                               const struct mtlbx_interface **out)
{
    const struct mtlbx_interface *iface = kept(model, n, NULL, NULL);
    if (out)
        *out = iface;
    if (!iface)
        return NULL;
    size_t k = (n->sub & ~MTLBX_NODE_ARG_OUTPUT) >> 16;
    if (n->sub & MTLBX_NODE_ARG_OUTPUT)
        return k < iface->n_outputs ? &iface->outputs[k] : NULL;
    return k < iface->n_inputs ? &iface->inputs[k] : NULL;
}

static bool node_member(mtlbx_model *model, const mtlbx_node *n, struct mtlbx_struct_member *m)
{
    const struct mtlbx_air_argument *a = node_argument(model, n, NULL);
    return a && mbx_argument_member(a, n->sub & 0xFFFF, m);
}

static void label_interface(mtlbx_model *model, const mtlbx_node *n, char *buf, size_t size)
{
    enum mtlbx_iface_state st;
    const char *error;
    const struct mtlbx_interface *iface = kept(model, n, &st, &error);
    if (st == MTLBX_IFACE_NOT_DECODED)
        snprintf(buf, size, "interface  (decoding...)");
    else if (st == MTLBX_IFACE_FAILED)
        snprintf(buf, size, "interface  not decoded: %s", error ? error : "?");
    else if (!iface->stage)
        snprintf(buf, size, "interface  no AIR stage entry");
    else
        snprintf(buf, size, "interface  %s, %zu argument%s%s", iface->stage, iface->n_inputs,
                 iface->n_inputs == 1 ? "" : "s", iface->n_outputs ? ", outputs" : "");
}

void iface_label(mtlbx_model *model, const mtlbx_node *n, char *buf, size_t size)
{
    if (n->kind == MTLBX_NODE_INTERFACE) {
        label_interface(model, n, buf, size);
    } else if (n->kind == MTLBX_NODE_ARGUMENT) {
        const struct mtlbx_air_argument *a = node_argument(model, n, NULL);
        char *text = a ? mbx_msl_argument(a, mbx_function_metadata(n->lib, n->index)) : NULL;
        snprintf(buf, size, "%s%s", n->sub & MTLBX_NODE_ARG_OUTPUT ? "output  " : "", text ? text : "?");
        free(text);
    } else if (n->kind == MTLBX_NODE_STRUCT_MEMBER) {
        struct mtlbx_struct_member m;
        if (node_member(model, n, &m))
            mbx_msl_member(&m, buf, size);
        else
            snprintf(buf, size, "?");
    } else if (n->kind == MTLBX_NODE_BC_BLOCK) {
        const struct mtlbx_interface *iface = kept(model, n, NULL, NULL);
        const struct mtlbx_bc_block *b =
            iface && n->sub < iface->module.n_blocks ? &iface->module.blocks[n->sub] : NULL;
        char id[24];
        snprintf(id, sizeof id, "block %u", b ? b->block_id : 0);
        if (b)
            snprintf(buf, size, "%-22s %" PRIu64 " bytes, %u record%s", b->name ? b->name : id, b->size,
                     b->n_records, b->n_records == 1 ? "" : "s");
        else
            snprintf(buf, size, "?");
    }
}

/* Emits multi-line text one field per line (the detail panel shows one). */
static void emit_lines(struct field_out *o, const char *name, uint64_t off, const char *text)
{
    const char *p = text;
    for (bool first = true; p && *p; first = false) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        field_emit(o, first ? name : "", off, 0, 0, 0, "%.*s", len, p);
        p = nl ? nl + 1 : NULL;
    }
}

static void value_text(char *out, size_t n, const struct mtlbx_md_value *v)
{
    if (v->kind == MTLBX_MD_INT)
        snprintf(out, n, "%" PRId64, v->i);
    else if (v->kind == MTLBX_MD_STRING)
        field_esc(out, n, v->s.ptr, v->s.len);
    else if (v->kind == MTLBX_MD_NODE)
        snprintf(out, n, "{%zu items}", v->n_items);
    else if (v->kind == MTLBX_MD_GLOBAL && n > 1) {
        out[0] = '@';
        field_esc(out + 1, n - 1, v->s.ptr, v->s.len);
    }
    else
        snprintf(out, n, "null");
}

static void property_fields(struct field_out *o, uint64_t off, const struct mtlbx_air_property *p, size_t n)
{
    char key[128], vals[512], one[160];
    for (size_t i = 0; i < n; i++) {
        field_esc(key + 4, sizeof key - 4, p[i].key.ptr, p[i].key.len);
        memcpy(key, "air.", 4);
        size_t used = 0;
        vals[0] = '\0';
        for (size_t v = 0; v < p[i].n_values && used + 2 < sizeof vals; v++) {
            value_text(one, sizeof one, &p[i].values[v]);
            used += (size_t)snprintf(vals + used, sizeof vals - used, "%s%s", v ? ", " : "", one);
        }
        field_emit(o, key, off, 0, 0, 0, "%s", p[i].n_values ? vals : "(flag)");
    }
}

static void interface_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    enum mtlbx_iface_state st;
    const char *error;
    const struct mtlbx_interface *iface = kept(o->m, n, &st, &error);
    if (st == MTLBX_IFACE_NOT_DECODED) {
        field_emit(o, "interface", n->offset, 0, 0, 0, "decoding in the background...");
        return;
    }
    if (st == MTLBX_IFACE_FAILED) {
        field_emit(o, "interface", n->offset, 0, MTLBX_FIELD_ERROR, 0, "not decoded: %s", error ? error : "?");
        return;
    }
    const struct mtlbx_function *fn = mbx_function_at(n->lib, n->index);
    char t[32];
    const char *type = fn->present & MTLBX_F_TYPE ? mbx_function_type_name(fn->type, t, sizeof t) : NULL;
    char *decl = mbx_msl_declaration(iface, fn->name, type, mbx_function_metadata(n->lib, n->index),
                                       MTLBX_MSL_ONE_PER_LINE | MTLBX_MSL_MEMBERS);
    emit_lines(o, "declaration", n->offset, decl ? decl : "(out of memory)");
    free(decl);
    field_emit(o, "stage", n->offset, 0, 0, 0, "%s", iface->stage ? iface->stage : "none (no AIR entry)");
    field_emit(o, "inputs", n->offset, 0, 0, 0, "%zu", iface->n_inputs);
    field_emit(o, "outputs", n->offset, 0, 0, 0, "%zu", iface->n_outputs);
    property_fields(o, n->offset, iface->attributes, iface->n_attributes);
    function_module_fields(o);
}

static void argument_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const struct mtlbx_air_argument *a = node_argument(o->m, n, NULL);
    char s[512];
    if (!a) {
        field_emit(o, "argument", n->offset, 0, 0, 0, "not decoded");
        return;
    }
    char *text = mbx_msl_argument(a, mbx_function_metadata(n->lib, n->index));
    field_emit(o, n->sub & MTLBX_NODE_ARG_OUTPUT ? "output" : "argument", n->offset, 0, 0, 0, "%s",
               text ? text : "?");
    free(text);
    if (a->has_index)
        field_emit(o, "index", n->offset, 0, 0, 0, "%u", a->index);
    field_emit(o, "kind", n->offset, 0, 0, 0, "%s", a->kind.len ? field_esc(s, sizeof s, a->kind.ptr, a->kind.len) : "-");
    if (a->has_name)
        field_emit(o, "name", n->offset, 0, 0, 0, "%s", field_esc(s, sizeof s, a->name.ptr, a->name.len));
    if (a->has_type)
        field_emit(o, "type", n->offset, 0, 0, 0, "%s", field_esc(s, sizeof s, a->type.ptr, a->type.len));
    if (a->has_location)
        field_emit(o, "location", n->offset, 0, 0, 0, "%" PRId64, a->location);
    if (a->access)
        field_emit(o, "access", n->offset, 0, 0, 0, "%s", a->access);
    property_fields(o, n->offset, a->properties, a->n_properties);
}

static void member_fields(struct field_out *o)
{
    struct mtlbx_struct_member m;
    char s[512];
    if (!node_member(o->m, o->n, &m))
        return;
    field_emit(o, "name", o->n->offset, 0, 0, 0, "%s", field_esc(s, sizeof s, m.name.ptr, m.name.len));
    field_emit(o, "type", o->n->offset, 0, 0, 0, "%s", field_esc(s, sizeof s, m.type.ptr, m.type.len));
    field_emit(o, "offset", o->n->offset, 0, 0, 0, "%" PRId64, m.offset);
    field_emit(o, "size", o->n->offset, 0, 0, 0, "%" PRId64, m.size);
    if (m.count)
        field_emit(o, "count", o->n->offset, 0, 0, 0, "%" PRId64, m.count);
}

static void block_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    const struct mtlbx_interface *iface = kept(o->m, n, NULL, NULL);
    if (!iface || n->sub >= iface->module.n_blocks)
        return;
    const struct mtlbx_bc_block *b = &iface->module.blocks[n->sub];
    char num[32];
    field_emit(o, "block", b->offset, 0, 0, 0, "%s (id %u)", b->name ? b->name : "unknown", b->block_id);
    field_emit(o, "offset", b->offset, 0, MTLBX_FIELD_FOLLOW, b->offset, "0x%" PRIx64, b->offset);
    field_emit(o, "size", b->offset, b->size, 0, 0, "%s bytes", mbx_format_count(num, sizeof num, b->size));
    field_emit(o, "records", b->offset, 0, 0, 0, "%u%s", b->n_records,
               b->n_records == 0 && b->block_id == 12 ? " (function body, skipped)"
               : b->skipped                           ? " (not read: the interface does not need it)"
                                                      : "");
    field_emit(o, "depth", b->offset, 0, 0, 0, "%u", b->depth);
}

void iface_fields(struct field_out *o)
{
    switch (o->n->kind) {
    case MTLBX_NODE_INTERFACE: interface_fields(o); break;
    case MTLBX_NODE_ARGUMENT: argument_fields(o); break;
    case MTLBX_NODE_STRUCT_MEMBER: member_fields(o); break;
    case MTLBX_NODE_BC_BLOCK: block_fields(o); break;
    default: break;
    }
}

void function_module_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    enum mtlbx_iface_state st;
    const struct mtlbx_interface *iface = kept(o->m, n, &st, NULL);
    char s[512];
    if (st == MTLBX_IFACE_NOT_DECODED) {
        field_emit(o, "module facts", n->offset, 0, 0, 0, "decoding in the background...");
        return;
    }
    if (!iface || iface->module.failed)
        return;
    if (iface->has_air_version)
        field_emit(o, "AIR version", n->offset, 0, 0, 0, "%u.%u.%u", iface->air_version[0], iface->air_version[1],
                   iface->air_version[2]);
    if (iface->has_language_version)
        field_emit(o, "language", n->offset, 0, 0, 0, "%s %u.%u.%u",
                   field_esc(s, sizeof s, iface->language_name.ptr, iface->language_name.len),
                   iface->language_version[0], iface->language_version[1], iface->language_version[2]);
    if (iface->has_compiler)
        field_emit(o, "compiler", n->offset, 0, 0, 0, "%s",
                   field_esc(s, sizeof s, iface->compiler.ptr, iface->compiler.len));
    for (size_t i = 0; i < iface->n_compile_options; i++)
        field_emit(o, i ? "" : "compile options", n->offset, 0, 0, 0, "%s",
                   field_esc(s, sizeof s, iface->compile_options[i].ptr, iface->compile_options[i].len));
}
