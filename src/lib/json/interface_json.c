/* FUNCTION_INTERFACE (CONTRACT.md "Function interfaces") from a decoded
 * interface. Kept apart from dump_json.c so that `sig --json` and
 * `dump --json --interfaces` build exactly the same object. */
#include "config.h"

#include "interface_json.h"
#include "bitcode/interface_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JSON strings must be UTF-8: invalid bytes become \xNN text. */
static json_t *json_bytes(struct mtlbx_bytes b)
{
    char *s = mbx_escape_dup(b.ptr, b.len, 0);
    json_t *j = json_string(s ? s : "");
    free(s);
    return j;
}

static json_t *md_json(const struct mtlbx_md_value *v)
{
    switch (v->kind) {
    case MTLBX_MD_INT:
        return json_integer((json_int_t)v->i);
    case MTLBX_MD_STRING:
        return json_bytes(v->s);
    case MTLBX_MD_NODE: {
        json_t *a = json_array();
        for (size_t i = 0; i < v->n_items; i++)
            json_array_append_new(a, md_json(&v->items[i]));
        return a;
    }
    default:
        return json_null();
    }
}

/* A key with no value is true, with one value that value, with several a list. */
static json_t *property_value(const struct mtlbx_air_property *p)
{
    if (p->n_values == 0)
        return json_true();
    if (p->n_values == 1)
        return md_json(&p->values[0]);
    json_t *a = json_array();
    for (size_t i = 0; i < p->n_values; i++)
        json_array_append_new(a, md_json(&p->values[i]));
    return a;
}

static void set_key(json_t *o, struct mtlbx_bytes key, json_t *value)
{
    char *k = mbx_escape_dup(key.ptr, key.len, 0);
    if (k)
        json_object_set_new(o, k, value);
    else
        json_decref(value);
    free(k);
}

json_t *interface_properties_json(const struct mtlbx_air_property *p, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++)
        set_key(o, p[i].key, property_value(&p[i]));
    return o;
}

json_t *interface_argument_json(const struct mtlbx_air_argument *a)
{
    json_t *o = json_object();
    json_object_set_new(o, "index", a->has_index ? json_integer(a->index) : json_null());
    json_object_set_new(o, "kind", a->kind.len ? json_bytes(a->kind) : json_null());
    json_object_set_new(o, "name", a->has_name ? json_bytes(a->name) : json_null());
    json_object_set_new(o, "type", a->has_type ? json_bytes(a->type) : json_null());
    json_object_set_new(o, "location", a->has_location ? json_integer((json_int_t)a->location) : json_null());
    json_object_set_new(o, "location_expression",
                        a->has_location_expression ? json_bytes(a->location_expression) : json_null());
    json_object_set_new(o, "function_constant",
                        a->has_function_constant ? json_bytes(a->function_constant) : json_null());
    json_object_set_new(o, "access", a->access ? json_string(a->access) : json_null());
    bool pointer = a->address_space_from == MTLBX_AS_METADATA || a->address_space_from == MTLBX_AS_PARAMETER;
    json_object_set_new(o, "address_space", pointer ? json_integer((json_int_t)a->address_space) : json_null());
    const char *from = mbx_address_space_from_name(a);
    json_object_set_new(o, "address_space_from", from ? json_string(from) : json_null());
    json_object_set_new(o, "properties", interface_properties_json(a->properties, a->n_properties));
    return o;
}

static json_t *arguments_json(const struct mtlbx_air_argument *a, size_t n)
{
    json_t *l = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(l, interface_argument_json(&a[i]));
    return l;
}

char *interface_language_version(const struct mtlbx_interface *iface)
{
    char buf[64];
    char *lang = mbx_escape_dup(iface->language_name.ptr, iface->language_name.len, 0);
    snprintf(buf, sizeof buf, " %u.%u.%u", iface->language_version[0], iface->language_version[1],
             iface->language_version[2]);
    size_t n = (lang ? strlen(lang) : 0) + strlen(buf) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", lang ? lang : "", buf);
    free(lang);
    return s;
}

static json_t *module_json(const struct mtlbx_interface *iface)
{
    char buf[64];
    json_t *o = json_object();
    if (iface->has_air_version) {
        snprintf(buf, sizeof buf, "%u.%u.%u", iface->air_version[0], iface->air_version[1], iface->air_version[2]);
        json_object_set_new(o, "air_version", json_string(buf));
    } else {
        json_object_set_new(o, "air_version", json_null());
    }
    if (iface->has_language_version) {
        char *s = interface_language_version(iface);
        json_object_set_new(o, "language_version", s ? json_string(s) : json_null());
        free(s);
    } else {
        json_object_set_new(o, "language_version", json_null());
    }
    json_t *opts = json_array();
    for (size_t i = 0; i < iface->n_compile_options; i++)
        json_array_append_new(opts, json_bytes(iface->compile_options[i]));
    json_object_set_new(o, "compile_options", opts);
    json_object_set_new(o, "compiler", iface->has_compiler ? json_bytes(iface->compiler) : json_null());
    return o;
}

json_t *interface_json(const struct mtlbx_interface *iface)
{
    if (!iface || iface->module.failed)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "stage", iface->stage ? json_string(iface->stage) : json_null());
    json_object_set_new(o, "inputs", arguments_json(iface->inputs, iface->n_inputs));
    json_object_set_new(o, "outputs", arguments_json(iface->outputs, iface->n_outputs));
    json_object_set_new(o, "attributes", interface_properties_json(iface->attributes, iface->n_attributes));
    json_object_set_new(o, "module", module_json(iface));
    return o;
}

void interface_cut_message(char *out, size_t size)
{
    snprintf(out, size, "interface cut: its metadata stands for more than %d values (nodes that share children); "
             "the rest is left out", MTLBX_BC_MAX_INTERFACE_VALUES);
}

json_t *interface_problem_json(const mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface,
                               const struct mtlbx_error *err)
{
    const char *message = NULL, *severity = "error";
    uint64_t offset = 0;
    char cut[160];
    if (!iface) {
        message = err->message;
        offset = err->has_offset ? err->offset : mbx_function_at(lib, i)->module.offset;
    } else if (iface->module.failed) {
        message = iface->module.error;
        offset = iface->module.error_offset;
    } else if (iface->cut) {
        interface_cut_message(cut, sizeof cut);
        message = cut;
        offset = iface->cut_offset;
        severity = "warning";
    }
    if (!message)
        return NULL;
    char text[320];
    snprintf(text, sizeof text, "function %zu: %s%s", i, iface && iface->cut ? "" : "interface not decoded: ",
             message);
    return json_pack("{s:s,s:I,s:o}", "severity", severity, "offset", (json_int_t)offset, "message",
                     json_bytes((struct mtlbx_bytes){ (const uint8_t *)text, strlen(text) }));
}

json_t *function_interface_json(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i, mtlbx_read_window *win,
                                json_t **diag)
{
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mbx_interface_read(rd, lib, i, win, &err);
    *diag = interface_problem_json(lib, i, iface, &err);
    json_t *j = interface_json(iface);
    mbx_interface_free(iface);
    return j;
}
