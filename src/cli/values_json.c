/* Header and function fields as JSON values (see values_json.h). */
#include "config.h"

#include "values_json.h"

#include <stdlib.h>
#include <string.h>

json_t *vj_bytes(struct mtlbx_bytes b)
{
    char small[256];
    if (mtlbx_escape(b.ptr, b.len, 0, small, sizeof small) < sizeof small)
        return json_string(small);
    char *s = mtlbx_escape_dup(b.ptr, b.len, 0);
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    return j;
}

json_t *vj_hex(const uint8_t *p, size_t n)
{
    char buf[129];
    static const char hex[] = "0123456789abcdef";
    if (n > 64)
        n = 64;
    for (size_t i = 0; i < n; i++) {
        buf[2 * i] = hex[p[i] >> 4];
        buf[2 * i + 1] = hex[p[i] & 15];
    }
    buf[2 * n] = '\0';
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
    const struct mtlbx_dynamic_header *dyn = mtlbx_library_dynamic_header(lib);
    if (!dyn->present)
        return json_null();
    json_t *linked = json_array();
    for (size_t i = 0; i < dyn->n_linked; i++)
        json_array_append_new(linked, vj_bytes(dyn->linked[i]));
    return json_pack("{s:o,s:o}", "name", dyn->has_name ? vj_bytes(dyn->name) : json_null(), "linked", linked);
}

json_t *vj_header_field(mtlbx_library *lib, enum mtlbx_header_field f)
{
    const struct mtlbx_header *h = mtlbx_library_header(lib);
    const struct mtlbx_header_ext *ext = mtlbx_library_header_ext(lib);
    char buf[48];
    switch (f) {
    case MTLBX_HF_CONTAINER_VERSION: return version3(h->major, h->minor, h->patch);
    case MTLBX_HF_PLATFORM: return json_string(h->macos ? "macOS" : "iOS");
    case MTLBX_HF_FILE_TYPE: return json_string(mtlbx_file_type_name(h->file_type, buf, sizeof buf));
    case MTLBX_HF_STUB: return json_boolean(h->stub);
    case MTLBX_HF_TARGET_OS: return json_string(mtlbx_target_os_name(h->platform_byte, buf, sizeof buf));
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
    case MTLBX_HF_COUNT: break;
    }
    return json_null();
}

static json_t *entry_tags(const mtlbx_library *lib, const struct mtlbx_function *fn)
{
    json_t *tags = json_array();
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mtlbx_tag_walk_init(&w, mtlbx_library_file(lib), fn->entry_offset + 4, fn->entry_size > 4 ? fn->entry_size - 4 : 0);
    while (mtlbx_tag_walk_next(&w, &t))
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
                                           mtlbx_data_type_name(k->type, buf, sizeof buf), "index", (int)k->index,
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
                                           va->has_type ? json_string(mtlbx_data_type_name(va->type, buf, sizeof buf))
                                                        : json_null()));
    }
    return a;
}

json_t *vj_function_field(mtlbx_library *lib, size_t i, enum mtlbx_function_field f)
{
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    char buf[32];
    bool vers = fn->present & MTLBX_F_VERS;
    switch (f) {
    case MTLBX_FF_HASH: return fn->hash ? vj_hex(fn->hash, 32) : json_null();
    case MTLBX_FF_HASH_OK: return json_boolean(mtlbx_function_hash_state(lib, i) == MTLBX_HASH_OK);
    case MTLBX_FF_TYPE:
        return (fn->present & MTLBX_F_TYPE) ? json_string(mtlbx_function_type_name(fn->type, buf, sizeof buf))
                                             : json_null();
    case MTLBX_FF_AIR_VERSION:
        snprintf(buf, sizeof buf, "%u.%u", fn->air_major, fn->air_minor);
        return vers ? json_string(buf) : json_null();
    case MTLBX_FF_LANGUAGE_VERSION:
        snprintf(buf, sizeof buf, "%u.%u", fn->msl_major, fn->msl_minor);
        return vers ? json_string(buf) : json_null();
    case MTLBX_FF_TAGS: return entry_tags(lib, fn);
    case MTLBX_FF_CONSTANTS: return constants(mtlbx_function_metadata(lib, i));
    case MTLBX_FF_VERTEX_ATTRIBUTES: return vertex_attributes(mtlbx_function_metadata(lib, i));
    case MTLBX_FF_INTERFACE:
    case MTLBX_FF_COUNT: break;
    }
    return json_null();
}

char *vj_text(const json_t *v)
{
    if (!v || json_is_null(v))
        return strdup("-");
    if (json_is_string(v))
        return mtlbx_escape_dup((const uint8_t *)json_string_value(v), json_string_length(v), MTLBX_ESC_TERMINAL);
    /* ENSURE_ASCII: no byte of a name reaches the terminal raw. */
    return json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
}
