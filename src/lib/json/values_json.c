/* Header and function fields as JSON values (see values_json.h). */
#include "config.h"

#include "values_json.h"
#include "interface_json.h"
#include "json_stream.h"
#include "bitcode/interface_reader.h"
#include "checks/hash.h"
#include "checks/requirements.h"
#include "model/msl.h"
#include "compare/compare.h"
#include "container/escape.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/hex.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

json_t *vj_bytes(struct mtlbx_bytes b)
{
    char small[256];
    if (json_bytes_text(b.ptr, b.len, small, sizeof small) < sizeof small)
        return json_string(small);
    char *s = json_bytes_text_dup(b.ptr, b.len);
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    return j;
}

json_t *vj_hex(const uint8_t *p, size_t n)
{
    char buf[129];
    mtlbx_hex_lower(buf, p, n > 64 ? 64 : n);
    return json_string(buf);
}

static json_t *version3(unsigned x, unsigned y, unsigned z)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%u.%u.%u", x, y, z);
    return json_string(buf);
}

static json_t *dynamic_header(const mtlbx_library *lib)
{
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(lib);
    if (!dyn->present)
        return json_null();
    json_t *linked = json_array();
    for (size_t i = 0; i < dyn->n_linked; i++)
        json_array_append_new(linked, vj_bytes(dyn->linked[i]));
    return json_pack("{s:o,s:o}", "name", dyn->has_name ? vj_bytes(dyn->name) : json_null(), "linked", linked);
}

json_t *vj_requires(const struct mtlbx_requires *r)
{
    char buf[128];
    const char *os = mbx_os_name(r->os);
    json_t *reasons = json_array(), *unknown = json_array();
    for (size_t i = 0; i < r->n_reasons; i++)
        json_array_append_new(reasons, json_string(mbx_req_reason_text(r->os, &r->reasons[i], buf, sizeof buf)));
    for (size_t i = 0; i < r->n_unknown; i++)
        json_array_append_new(unknown, json_string(mbx_req_unknown_text(&r->unknown[i], buf, sizeof buf)));
    json_t *version = json_null();
    if (r->has_version) {
        snprintf(buf, sizeof buf, "%u.%u", r->version.major, r->version.minor);
        version = json_string(buf);
    }
    return json_pack("{s:o,s:o,s:o,s:o}", "os", os ? json_string(os) : json_null(), "version", version, "reasons",
                     reasons, "unknown", unknown);
}

void vj_requires_stream(struct json_stream *js, const char *key, const struct mtlbx_requires *r)
{
    char buf[128];
    const char *os = mbx_os_name(r->os);
    json_stream_open(js, key, '{');
    if (os)
        json_stream_put_string(js, "os", os);
    else
        json_stream_put_null(js, "os");
    if (r->has_version) {
        snprintf(buf, sizeof buf, "%u.%u", r->version.major, r->version.minor);
        json_stream_put_string(js, "version", buf);
    } else {
        json_stream_put_null(js, "version");
    }
    json_stream_open(js, "reasons", '[');
    for (size_t i = 0; i < r->n_reasons; i++)
        json_stream_put_string(js, NULL, mbx_req_reason_text(r->os, &r->reasons[i], buf, sizeof buf));
    json_stream_close(js);
    json_stream_open(js, "unknown", '[');
    for (size_t i = 0; i < r->n_unknown; i++)
        json_stream_put_string(js, NULL, mbx_req_unknown_text(&r->unknown[i], buf, sizeof buf));
    json_stream_close(js);
    json_stream_close(js);
}

json_t *vj_header_field(mtlbx_library *lib, enum mtlbx_header_field f)
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    char buf[48];
    switch (f) {
    case MTLBX_HF_REQUIRES: {
        struct mtlbx_requires r;
        mbx_library_requires(lib, &r);
        return vj_requires(&r);
    }
    case MTLBX_HF_CONTAINER_VERSION: return version3(h->major, h->minor, h->patch);
    case MTLBX_HF_PLATFORM: return json_string(h->macos ? "macOS" : "iOS");
    case MTLBX_HF_FILE_TYPE: return json_string(mbx_file_type_name(h->file_type, buf, sizeof buf));
    case MTLBX_HF_STUB: return json_boolean(h->stub);
    case MTLBX_HF_TARGET_OS: return json_string(mbx_target_os_name(h->platform_byte, buf, sizeof buf));
    case MTLBX_HF_OS_VERSION: return version3(h->os_major, h->os_minor, h->os_patch);
    case MTLBX_HF_UUID: return ext->has_uuid ? vj_hex(ext->uuid, 16) : json_null();
    case MTLBX_HF_HEADER_EXTENSION: {
        if (!ext->present)
            return json_null();
        json_t *tags = json_array();
        for (size_t i = 0; i < ext->n_tags; i++)
            json_array_append_new(tags, json_string(ext->tags[i].name));
        return tags;
    }
    case MTLBX_HF_DYNAMIC_HEADER: return dynamic_header(lib);
    case MTLBX_HF_FUNCTION_ORDER: {
        json_t *names = json_array();
        for (size_t i = 0; names && i < mbx_library_function_count(lib); i++)
            json_array_append_new(names, vj_bytes(mbx_function_peek(lib, i)->name));
        return names;
    }
    case MTLBX_HF_COUNT: break;
    }
    return json_null();
}

static json_t *entry_tags(const mtlbx_library *lib, const struct mtlbx_function *fn)
{
    json_t *tags = json_array();
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, mbx_library_file(lib), fn->entry_offset + 4, fn->entry_size > 4 ? fn->entry_size - 4 : 0);
    while (mbx_tag_walk_next(&w, &t))
        json_array_append_new(tags, json_string(t.name));
    return tags;
}

static json_t *constants(const struct mtlbx_metadata *md)
{
    char buf[32];
    json_t *a = json_array();
    for (size_t c = 0; c < md->n_constants; c++) {
        const struct mtlbx_constant *k = &md->constants[c];
        json_array_append_new(a, json_pack("{s:o,s:s,s:i,s:b}", "name", vj_bytes(k->name), "type",
                                           mbx_data_type_name(k->type, buf, sizeof buf), "index", (int)k->index,
                                           "active", k->active));
    }
    return a;
}

static json_t *vertex_attributes(const struct mtlbx_metadata *md)
{
    char buf[32];
    json_t *a = json_array();
    for (size_t c = 0; c < md->n_attributes; c++) {
        const struct mtlbx_vertex_attr *va = &md->attributes[c];
        json_array_append_new(a, json_pack("{s:o,s:i,s:i,s:b,s:o}", "name", vj_bytes(va->name), "index",
                                           (int)va->index, "use", (int)va->use, "active", va->active, "type",
                                           va->has_type ? json_string(mbx_data_type_name(va->type, buf, sizeof buf))
                                                        : json_null()));
    }
    return a;
}

static json_t *arguments(const struct mtlbx_air_argument *v, size_t n)
{
    json_t *list = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(list, interface_argument_json(&v[k]));
    return list;
}

json_t *vj_interface(const struct mtlbx_interface *iface)
{
    if (!iface || iface->module.failed)
        return json_null();
    return json_pack("{s:o,s:o,s:o}", "stage", iface->stage ? json_string(iface->stage) : json_null(), "inputs",
                     arguments(iface->inputs, iface->n_inputs), "outputs", arguments(iface->outputs, iface->n_outputs));
}

static char *esc(struct mtlbx_bytes b) { return mbx_escape_dup(b.ptr, b.len, MTLBX_ESC_TERMINAL); }

/* "buffer(3)", or the kind alone when it has no location. */
static char *binding_text(const struct mtlbx_air_argument *a)
{
    char *kind = a->kind.len ? esc(a->kind) : strdup("argument");
    char *s = NULL;
    char *expr = a->has_location_expression ? esc(a->location_expression) : NULL;
    if (kind && (a->has_location                ? asprintf(&s, "%s(%lld)", kind, (long long)a->location)
                 : a->has_location_expression ? asprintf(&s, "%s(expr %s)", kind, expr ? expr : "?")
                                              : asprintf(&s, "%s", kind)) < 0)
        s = NULL;
    free(expr);
    free(kind);
    return s;
}

char *vj_argument_text(const struct mtlbx_air_argument *a)
{
    char *bind = binding_text(a), *name = a->has_name ? esc(a->name) : NULL, *type = a->has_type ? esc(a->type) : NULL;
    char *s = NULL;
    if (asprintf(&s, "%s%s%s%s%s", bind ? bind : "?", name ? " " : "", name ? name : "", type ? ": " : "",
                 type ? type : "") < 0)
        s = NULL;
    free(bind), free(name), free(type);
    return s;
}

static const struct mtlbx_air_property *find_property(const struct mtlbx_air_argument *a, struct mtlbx_bytes key)
{
    for (size_t k = 0; k < a->n_properties; k++)
        if (a->properties[k].key.len == key.len && memcmp(a->properties[k].key.ptr, key.ptr, key.len) == 0)
            return &a->properties[k];
    return NULL;
}

/* Arguments with more properties than this are summarised (the search is
 * quadratic and a hostile module may hold thousands). */
#define PROPERTY_DETAIL_MAX 64

/* "~struct_type_info +read" (changed, added and removed keys), "index
 * 1 -> 2", or "device float* -> constant float*"; malloc'd, NULL when
 * nothing can be named. */
static char *property_changes(const struct mtlbx_air_argument *a, const struct mtlbx_air_argument *b)
{
    if (a->n_properties > PROPERTY_DETAIL_MAX || b->n_properties > PROPERTY_DETAIL_MAX)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    if (a->has_index != b->has_index || (a->has_index && a->index != b->index))
        fprintf(m, "index %ld -> %ld ", a->has_index ? (long)a->index : -1L, b->has_index ? (long)b->index : -1L);
    /* Older AIR's address spaces are in no property: named here. */
    char *as_a = mbx_msl_argument_type(a), *as_b = mbx_msl_argument_type(b);
    if (as_a && as_b && strcmp(as_a, as_b) != 0)
        fprintf(m, "%s -> %s ", as_a, as_b);
    free(as_a);
    free(as_b);
    for (size_t k = 0; k < b->n_properties; k++) {
        const struct mtlbx_air_property *q = &b->properties[k], *p = find_property(a, q->key);
        char *key = esc(q->key);
        if (!p || !mbx_air_property_equal(p, q))
            fprintf(m, "%c%s ", p ? '~' : '+', key ? key : "?");
        free(key);
    }
    for (size_t k = 0; k < a->n_properties; k++)
        if (!find_property(b, a->properties[k].key)) {
            char *key = esc(a->properties[k].key);
            fprintf(m, "-%s ", key ? key : "?");
            free(key);
        }
    if (fclose(m) != 0 || len == 0) {
        free(buf);
        return NULL;
    }
    buf[len - 1] = '\0';       /* the last space */
    return buf;
}

static char *change_text(const struct mtlbx_argument_change *c)
{
    const char *out = c->output ? "output " : "";
    char *s = NULL, *whole = vj_argument_text(c->a ? c->a : c->b);
    int rc = 0;
    if (c->what & (MTLBX_ARG_ADDED | MTLBX_ARG_REMOVED)) {
        rc = asprintf(&s, "%c%s%s", c->what & MTLBX_ARG_ADDED ? '+' : '-', out, whole ? whole : "?");
    } else if (c->what & (MTLBX_ARG_REBOUND | MTLBX_ARG_RETYPED)) {
        /* "buffer(3) params: constant T& -> buffer(4)": the old argument,
         * then what is new about it. */
        char *bind = c->what & MTLBX_ARG_REBOUND ? binding_text(c->b) : NULL;
        char *type = c->what & MTLBX_ARG_RETYPED ? (c->b->has_type ? esc(c->b->type) : strdup("-")) : NULL;
        rc = asprintf(&s, "%s%s -> %s%s%s", out, whole ? whole : "?", bind ? bind : "", bind && type ? " " : "",
                      type ? type : "");
        free(bind), free(type);
    } else if ((c->a->access == NULL) != (c->b->access == NULL) ||
               (c->a->access && strcmp(c->a->access, c->b->access) != 0)) {
        rc = asprintf(&s, "%s%s: access %s -> %s", out, whole ? whole : "?", c->a->access ? c->a->access : "-",
                      c->b->access ? c->b->access : "-");
    } else {
        char *keys = property_changes(c->a, c->b);
        rc = asprintf(&s, "%s%s: %s", out, whole ? whole : "?", keys ? keys : "properties changed");
        free(keys);
    }
    free(whole);
    return rc < 0 ? NULL : s;
}

json_t *vj_interface_changes(mtlbx_interface_reader *ra, const mtlbx_library *a, size_t i,
                             mtlbx_interface_reader *rb, const mtlbx_library *b, size_t j)
{
    json_t *list = json_array();
    struct mtlbx_interface *x = mbx_interface_read(ra, a, i, NULL, NULL);
    struct mtlbx_interface *y = mbx_interface_read(rb, b, j, NULL, NULL);
    struct mtlbx_interface_diff d;
    if (x && y && !x->module.failed && !y->module.failed && mbx_interface_compare(x, y, &d)) {
        if (d.stage_changed) {
            char *s = NULL;
            if (asprintf(&s, "stage %s -> %s", x->stage ? x->stage : "-", y->stage ? y->stage : "-") >= 0)
                json_array_append_new(list, json_string(s));
            free(s);
        }
        for (size_t k = 0; k < d.n_changes; k++) {
            char *s = change_text(&d.changes[k]);
            if (s)
                json_array_append_new(list, json_string(s));
            free(s);
        }
        mbx_interface_diff_free(&d);
    }
    mbx_interface_free(x);
    mbx_interface_free(y);
    return list;
}

json_t *vj_function_interface(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i)
{
    struct mtlbx_interface *iface = mbx_interface_read(rd, lib, i, NULL, NULL);
    json_t *v = vj_interface(iface);
    mbx_interface_free(iface);
    return v;
}

json_t *vj_function_field(mtlbx_library *lib, size_t i, enum mtlbx_function_field f)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    char buf[32];
    bool vers = fn->present & MTLBX_F_VERS;
    switch (f) {
    case MTLBX_FF_HASH: return fn->hash ? vj_hex(fn->hash, 32) : json_null();
    case MTLBX_FF_HASH_OK: return json_boolean(mbx_function_hash_state(lib, i) == MTLBX_HASH_MATCHES);
    case MTLBX_FF_TYPE:
        return (fn->present & MTLBX_F_TYPE) ? json_string(mbx_function_type_name(fn->type, buf, sizeof buf))
                                             : json_null();
    case MTLBX_FF_AIR_VERSION:
        snprintf(buf, sizeof buf, "%u.%u", fn->air_major, fn->air_minor);
        return vers ? json_string(buf) : json_null();
    case MTLBX_FF_LANGUAGE_VERSION:
        snprintf(buf, sizeof buf, "%u.%u", fn->msl_major, fn->msl_minor);
        return vers ? json_string(buf) : json_null();
    case MTLBX_FF_TAGS: return entry_tags(lib, fn);
    case MTLBX_FF_CONSTANTS: return constants(mbx_function_metadata(lib, i));
    case MTLBX_FF_VERTEX_ATTRIBUTES: return vertex_attributes(mbx_function_metadata(lib, i));
    case MTLBX_FF_INTERFACE: return vj_function_interface(NULL, lib, i);
    case MTLBX_FF_MODULE_HASH: {
        /* What the bytes hash to now (the stored HASH is "hash"). */
        uint8_t actual[32];
        enum mtlbx_hash_state st = mbx_function_verify(lib, i, actual);
        return st == MTLBX_HASH_MATCHES || st == MTLBX_HASH_MISMATCH ? vj_hex(actual, 32) : json_null();
    }
    case MTLBX_FF_COUNT: break;
    }
    return json_null();
}

char *vj_text(const json_t *v)
{
    if (!v || json_is_null(v))
        return strdup("-");
    if (json_is_string(v))
        return mbx_escape_dup((const uint8_t *)json_string_value(v), json_string_length(v), MTLBX_ESC_TERMINAL);
    /* ENSURE_ASCII escapes controls and everything past ASCII, but
     * writes DEL (0x7F) as it is, which JSON allows and a terminal acts
     * on: it becomes \u007F, so no byte of a name reaches the terminal raw
     * and the text is still the same JSON value. */
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    size_t dels = 0, n = 0;
    for (; s && s[n]; n++)
        dels += s[n] == 0x7F;
    if (!dels)
        return s;
    char *out = malloc(n + 5 * dels + 1), *o = out;
    for (size_t i = 0; out && i < n; i++) {
        if (s[i] == 0x7F) {
            memcpy(o, "\\u007F", 6);  /* upper-case hex, as jansson writes the others */
            o += 6;
        } else {
            *o++ = s[i];
        }
    }
    if (out)
        *o = '\0';
    free(s);
    return out;
}
