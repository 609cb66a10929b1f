/* See json_more.h. Values come from the library's accessors only. */
#include "config.h"

#include "json_more.h"
#include "json_stream.h"
#include "checks/validate.h"
#include "container/hex.h"
#include "container/metadata.h"
#include "container/sources.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <stdlib.h>
#include <string.h>

/* Names from the file may hold any byte: invalid UTF-8 becomes \xNN. */
static json_t *text(struct mtlbx_bytes b)
{
    char *s = json_bytes_text_dup(b.ptr, b.len);
    json_t *j = s ? json_string(s) : json_null();
    free(s);
    return j;
}

static json_t *number(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *data_type(uint8_t type)
{
    char buf[24];
    return json_string(mbx_data_type_name(type, buf, sizeof buf));
}

static json_t *span(struct mtlbx_range r)
{
    return r.size ? json_pack("{s:o,s:o}", "offset", number(r.offset), "size", number(r.size)) : json_null();
}

static json_t *hex(const uint8_t *p, uint64_t n)
{
    char *s = malloc(2 * (size_t)n + 1);
    if (!s)
        return json_null();
    mtlbx_hex_lower(s, p, (size_t)n);
    json_t *j = json_string(s);
    free(s);
    return j;
}

json_t *tessellation_json(const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    if (!fn || !(fn->present & MTLBX_F_TESS))
        return json_null();
    unsigned patch = fn->tess & 3;
    char buf[24];
    snprintf(buf, sizeof buf, "unknown-%u", patch);
    return json_pack("{s:s,s:i}", "patch", patch == 1 ? "triangle" : patch == 2 ? "quad" : buf, "control_points",
                     (int)(fn->tess >> 2));
}

static json_t *argument_json(const struct mtlbx_reflection *r, const struct mtlbx_ci_argument *a)
{
    bool texture = a->type == 0x3A, pointer = a->type == 0x3C;
    json_t *members = json_array();
    for (size_t m = 0; m < a->n_members; m++) {
        const struct mtlbx_ci_member *cm = &r->members[a->first_member + m];
        json_array_append_new(members, json_pack("{s:o,s:o}", "name", text(cm->name), "type", data_type(cm->type)));
    }
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name", text(a->name), "type", data_type(a->type),
                     "element_type", a->has_element ? data_type(a->element_type) : json_null(), "texture_type",
                     texture ? number(a->texture_type) : json_null(), "alignment",
                     pointer ? number(a->alignment) : json_null(), "size",
                     pointer ? number(a->pointee_size) : json_null(), "members", members);
}

json_t *reflection_json(const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_reflection *r = &mbx_function_metadata(lib, i)->reflection;
    if (!r->has_return && !r->has_arguments)
        return json_null();
    json_t *args = json_array();
    for (size_t k = 0; k < r->n_arguments; k++)
        json_array_append_new(args, argument_json(r, &r->arguments[k]));
    return json_pack("{s:o,s:o}", "return_type", r->has_return ? data_type(r->return_type) : json_null(),
                     "arguments", args);
}

/* One list group: the value of its NAME (to the NUL) and its tag names. */
static json_t *group_json(const mtlbx_library *lib, struct mtlbx_range g)
{
    json_t *name = NULL, *tags = json_array();
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, mbx_library_file(lib), g.offset + 4, g.size > 4 ? g.size - 4 : 0);
    while (mbx_tag_walk_next(&w, &t)) {
        json_array_append_new(tags, json_string(t.name));
        if (!name && strcmp(t.name, "NAME") == 0) {
            const uint8_t *nul = memchr(t.value, 0, (size_t)t.value_len);
            name = text((struct mtlbx_bytes){ t.value, nul ? (size_t)(nul - t.value) : (size_t)t.value_len });
        }
    }
    return json_pack("{s:o,s:o}", "name", name ? name : json_null(), "tags", tags);
}

json_t *symbol_list_json(const mtlbx_library *lib, enum mtlbx_list_kind kind)
{
    const struct mtlbx_list *l = mbx_library_list(lib, kind);
    if (!l || !l->present)
        return json_null();
    json_t *a = json_array();
    for (size_t g = 0; g < l->n_groups; g++)
        json_array_append_new(a, group_json(lib, l->groups[g]));
    return a;
}

/* span()'s value, streamed. */
static void put_span(struct json_stream *js, const char *key, struct mtlbx_range r)
{
    if (!r.size) {
        json_stream_put_null(js, key);
        return;
    }
    json_stream_open(js, key, '{');
    json_stream_put_int(js, "offset", (json_int_t)r.offset);
    json_stream_put_int(js, "size", (json_int_t)r.size);
    json_stream_close(js);
}

void function_stream_more(struct json_stream *js, const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, i);
    /* null (no TESS, no reflection: most functions) is jansson's one
     * shared value, nothing built. */
    json_stream_put(js, "tessellation", tessellation_json(lib, i));
    json_stream_put(js, "reflection", reflection_json(lib, i));
    put_span(js, "public_metadata", md->public_group);
    put_span(js, "private_metadata", md->private_group);
}

/* Section pointers are (offset, size) relative to the library; the UUID
 * and anything else are shown as hex. */
static json_t *ext_entry_json(const mtlbx_file *f, const struct mtlbx_tag *t)
{
    static const char *const pairs[] = { "HSRC", "HSRD", "HDYN", "VLST", "ILST", "RLST", "SLST", "HSRP" };
    const uint8_t *v = mbx_file_data(f) + t->value_offset;
    json_t *o = json_pack("{s:s,s:o}", "tag", t->name, "offset_in_file", number(t->offset));
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
        if (strcmp(t->name, pairs[k]) == 0 && t->value_len == 16) {
            uint64_t off = 0, size = 0;
            for (int b = 7; b >= 0; b--) {
                off = off << 8 | v[b];
                size = size << 8 | v[8 + b];
            }
            json_object_set_new(o, "offset", number(off));
            json_object_set_new(o, "size", number(size));
            return o;
        }
    json_object_set_new(o, "value", hex(v, t->value_len));
    return o;
}

void library_json_more(mtlbx_library *lib, json_t *lib_obj)
{
    /* Before the diagnostics are listed: a module that is not bitcode is one. */
    mbx_library_validate_modules(lib);
    json_object_set_new(lib_obj, "imported_symbols", symbol_list_json(lib, MTLBX_LIST_ILST));
    json_object_set_new(lib_obj, "exported_variables", symbol_list_json(lib, MTLBX_LIST_VLST));
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    json_t *entries = json_null();
    if (ext->present) {
        entries = json_array();
        for (size_t i = 0; i < ext->n_tags; i++)
            json_array_append_new(entries, ext_entry_json(mbx_library_file(lib), &ext->tags[i]));
    }
    json_object_set_new(lib_obj, "header_extension_entries", entries);
    json_t *sections = json_object_get(lib_obj, "sections");
    if (!sections)
        return;
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (src && src->present)
        json_object_set_new(sections, "sources", span(src->range));
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(lib);
    if (dyn->present)
        json_object_set_new(sections, "dynamic_header", span(dyn->range));
}

void fat_slice_json_more(const struct mbx_fat_slice *s, json_t *slice)
{
    const char *cpu = mbx_cputype_name(s->cputype);
    json_object_set_new(slice, "cpu", cpu ? json_string(cpu) : json_null());
}
