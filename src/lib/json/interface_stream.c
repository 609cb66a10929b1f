/* See interface_stream.h. The keys, their order and every value follow
 * interface_json.c, which `sig --json` and `diff` still build as jansson
 * objects; tests/program/test_json_stream.c writes both for the same
 * interfaces and expects the same bytes. */
#include "config.h"

#include "interface_stream.h"
#include "interface_json.h"
#include "bitcode/interface.h"
#include "json/json_stream.h"

#include <stdlib.h>
#include <string.h>

/* Past this many keys the duplicate check below would be quadratic: such
 * an object (hostile input) goes through jansson instead. */
#define DIRECT_MAX_PROPERTIES 64

static void put_md(struct json_stream *js, const char *key, const struct mtlbx_md_value *v)
{
    switch (v->kind) {
    case MTLBX_MD_INT:
        json_stream_put_int(js, key, (json_int_t)v->i);
        break;
    case MTLBX_MD_STRING:
        json_stream_put_bytes(js, key, v->s);
        break;
    case MTLBX_MD_NODE:
        json_stream_open(js, key, '[');
        for (size_t i = 0; i < v->n_items && !js->failed; i++)
            put_md(js, NULL, &v->items[i]);
        json_stream_close(js);
        break;
    default:
        json_stream_put_null(js, key);
    }
}

/* A key with no value is true, with one value that value, with several a list. */
static void put_property_value(struct json_stream *js, const char *key, const struct mtlbx_air_property *p)
{
    if (p->n_values == 0) {
        json_stream_put_bool(js, key, true);
    } else if (p->n_values == 1) {
        put_md(js, key, &p->values[0]);
    } else {
        json_stream_open(js, key, '[');
        for (size_t i = 0; i < p->n_values && !js->failed; i++)
            put_md(js, NULL, &p->values[i]);
        json_stream_close(js);
    }
}

/* Printable ASCII but the backslash: mbx_escape leaves such a key as it
 * is, so two keys are the same JSON key exactly when their bytes are. */
static bool plain_key(struct mtlbx_bytes k)
{
    for (size_t i = 0; i < k.len; i++)
        if (k.ptr[i] < 0x20 || k.ptr[i] > 0x7E || k.ptr[i] == '\\')
            return false;
    return true;
}

static bool same_key(struct mtlbx_bytes a, struct mtlbx_bytes b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

/* As json_object_set_new builds it: a repeated key keeps its first place
 * and takes its last value. */
static void put_properties(struct json_stream *js, const char *key, const struct mtlbx_air_property *p, size_t n)
{
    bool direct = n <= DIRECT_MAX_PROPERTIES;
    for (size_t i = 0; i < n && direct; i++)
        direct = plain_key(p[i].key);
    if (!direct) {
        json_stream_put(js, key, interface_properties_json(p, n));
        return;
    }
    json_stream_open(js, key, '{');
    for (size_t i = 0; i < n && !js->failed; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = same_key(p[j].key, p[i].key);
        if (seen)
            continue;
        size_t last = i;
        for (size_t j = i + 1; j < n; j++)
            if (same_key(p[j].key, p[i].key))
                last = j;
        char small[128], *name = p[i].key.len < sizeof small ? small : malloc(p[i].key.len + 1);
        if (!name) {
            js->failed = true;
            break;
        }
        memcpy(name, p[i].key.ptr, p[i].key.len);
        name[p[i].key.len] = '\0';
        put_property_value(js, name, &p[last]);
        if (name != small)
            free(name);
    }
    json_stream_close(js);
}

static void put_bytes_or_null(struct json_stream *js, const char *key, bool has, struct mtlbx_bytes b)
{
    if (has)
        json_stream_put_bytes(js, key, b);
    else
        json_stream_put_null(js, key);
}

static void put_argument(struct json_stream *js, const struct mtlbx_air_argument *a)
{
    json_stream_open(js, NULL, '{');
    if (a->has_index)
        json_stream_put_int(js, "index", a->index);
    else
        json_stream_put_null(js, "index");
    put_bytes_or_null(js, "kind", a->kind.len != 0, a->kind);
    put_bytes_or_null(js, "name", a->has_name, a->name);
    put_bytes_or_null(js, "type", a->has_type, a->type);
    if (a->has_location)
        json_stream_put_int(js, "location", (json_int_t)a->location);
    else
        json_stream_put_null(js, "location");
    put_bytes_or_null(js, "location_expression", a->has_location_expression, a->location_expression);
    put_bytes_or_null(js, "function_constant", a->has_function_constant, a->function_constant);
    if (a->access)
        json_stream_put_string(js, "access", a->access);
    else
        json_stream_put_null(js, "access");
    if (a->address_space_from == MTLBX_AS_METADATA || a->address_space_from == MTLBX_AS_PARAMETER)
        json_stream_put_int(js, "address_space", (json_int_t)a->address_space);
    else
        json_stream_put_null(js, "address_space");
    const char *from = mbx_address_space_from_name(a);
    if (from)
        json_stream_put_string(js, "address_space_from", from);
    else
        json_stream_put_null(js, "address_space_from");
    put_properties(js, "properties", a->properties, a->n_properties);
    json_stream_close(js);
}

static void put_arguments(struct json_stream *js, const char *key, const struct mtlbx_air_argument *a, size_t n)
{
    json_stream_open(js, key, '[');
    for (size_t i = 0; i < n && !js->failed; i++)
        put_argument(js, &a[i]);
    json_stream_close(js);
}

static void put_module(struct json_stream *js, const struct mtlbx_interface *iface)
{
    char buf[64];
    json_stream_open(js, "module", '{');
    if (iface->has_air_version) {
        snprintf(buf, sizeof buf, "%u.%u.%u", iface->air_version[0], iface->air_version[1], iface->air_version[2]);
        json_stream_put_string(js, "air_version", buf);
    } else {
        json_stream_put_null(js, "air_version");
    }
    if (iface->has_language_version) {
        char *s = interface_language_version(iface);
        if (s)
            json_stream_put_string(js, "language_version", s);
        else
            json_stream_put_null(js, "language_version");
        free(s);
    } else {
        json_stream_put_null(js, "language_version");
    }
    json_stream_open(js, "compile_options", '[');
    for (size_t i = 0; i < iface->n_compile_options; i++)
        json_stream_put_bytes(js, NULL, iface->compile_options[i]);
    json_stream_close(js);
    put_bytes_or_null(js, "compiler", iface->has_compiler, iface->compiler);
    json_stream_close(js);
}

void interface_stream_put(struct json_stream *js, const char *key, const struct mtlbx_interface *iface)
{
    if (!iface || iface->module.failed) {
        json_stream_put_null(js, key);
        return;
    }
    json_stream_open(js, key, '{');
    if (iface->stage)
        json_stream_put_string(js, "stage", iface->stage);
    else
        json_stream_put_null(js, "stage");
    put_arguments(js, "inputs", iface->inputs, iface->n_inputs);
    put_arguments(js, "outputs", iface->outputs, iface->n_outputs);
    put_properties(js, "attributes", iface->attributes, iface->n_attributes);
    put_module(js, iface);
    json_stream_close(js);
}
