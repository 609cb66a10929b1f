/* See interface_stream.h: the one writer of an interface's JSON.
 * interface_json.c reads its text back for the callers that want a
 * jansson value (`sig --json`, `diff`); tests/lib/json/test_json_stream.c
 * holds it to what jansson builds from the same interfaces. */
#include "config.h"

#include "interface_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Past this many keys the direct duplicate check below would be
 * quadratic: such an object (hostile input) has its keys sorted. */
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

/* Positions of keys, ordered by escaped key, then position. */
struct key_at {
    const char *name;
    size_t i;
};

static int by_name(const void *a, const void *b)
{
    const struct key_at *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* Keys that are not all plain, or many (hostile input): as JSON strings
 * hold file bytes (mbx_escape_dup: \xNN for what is not UTF-8), two keys
 * are one when their escaped names are; sorting the names finds them
 * without comparing every pair. */
static void put_escaped_properties(struct json_stream *js, const char *key, const struct mtlbx_air_property *p,
                                   size_t n)
{
    char **names = calloc(n ? n : 1, sizeof *names);
    struct key_at *by = malloc((n ? n : 1) * sizeof *by);
    size_t *last = malloc((n ? n : 1) * sizeof *last); /* where a key's value is; SIZE_MAX: a repeat */
    bool ok = names && by && last;
    for (size_t i = 0; i < n && ok; i++) {
        names[i] = mbx_escape_dup(p[i].key.ptr, p[i].key.len, 0);
        by[i] = (struct key_at){ names[i], i };
        ok = names[i] != NULL;
    }
    if (ok) {
        qsort(by, n, sizeof *by, by_name);
        for (size_t g = 0, e; g < n; g = e) { /* one name: its first place takes its last value */
            for (e = g + 1; e < n && strcmp(by[e].name, by[g].name) == 0; e++)
                last[by[e].i] = SIZE_MAX;
            last[by[g].i] = by[e - 1].i;
        }
        json_stream_open(js, key, '{');
        for (size_t i = 0; i < n && !js->failed; i++)
            if (last[i] != SIZE_MAX)
                put_property_value(js, names[i], &p[last[i]]);
        json_stream_close(js);
    } else {
        js->failed = true;
    }
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(by);
    free(last);
}

/* As json_object_set_new builds an object: a repeated key keeps its first
 * place and takes its last value. */
static void put_properties(struct json_stream *js, const char *key, const struct mtlbx_air_property *p, size_t n)
{
    bool direct = n <= DIRECT_MAX_PROPERTIES;
    for (size_t i = 0; i < n && direct; i++)
        direct = plain_key(p[i].key);
    if (!direct) {
        put_escaped_properties(js, key, p, n);
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

void interface_stream_put_argument(struct json_stream *js, const char *key, const struct mtlbx_air_argument *a)
{
    json_stream_open(js, key, '{');
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
        interface_stream_put_argument(js, NULL, &a[i]);
    json_stream_close(js);
}

/* The module's "language_version", "Metal 3.2.0" (malloc'd; NULL on out
 * of memory); only when iface->has_language_version. */
static char *language_version(const struct mtlbx_interface *iface)
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
        char *s = language_version(iface);
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
