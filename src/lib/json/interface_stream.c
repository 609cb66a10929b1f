/* The one writer of an interface's JSON (interface_stream.h), into a
 * stream for `dump --json --interfaces` and the API, or as a jansson
 * value for `sig --json` and `diff` (interface_json.h).
 * tests/lib/json/test_json_stream.c holds it to what jansson builds from
 * the same interfaces with a builder of its own. */
#include "config.h"

#include "interface_stream.h"
#include "interface_json.h"
#include "bitcode/interface.h"
#include "json/json_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Past this many keys the direct duplicate check below would be
 * quadratic: such an object (hostile input) has its keys sorted. */
#define DIRECT_MAX_PROPERTIES 64

/* Where the writer puts an interface: into a JSON stream, or (js NULL)
 * into a jansson value it builds, for the callers that want one
 * (interface_json.h). One writer either way, so the two cannot differ. */
struct out {
    struct json_stream *js;
    json_t *root;              /* the value built */
    json_t *open[JSON_STREAM_MAX_DEPTH + 1]; /* containers being filled (NULL: lost to a failure) */
    int depth;
    bool failed;
};

static bool failed(const struct out *o)
{
    return o->js ? o->js->failed : o->failed;
}

static void fail(struct out *o)
{
    if (o->js)
        o->js->failed = true;
    else
        o->failed = true;
}

/* Puts v (a new reference, NULL when memory ran out) in the open
 * container, or makes it the root. */
static void add(struct out *o, const char *key, json_t *v)
{
    json_t *parent = o->depth ? o->open[o->depth - 1] : NULL;
    if (!v || (o->depth && !parent)) {
        json_decref(v);
        o->failed = true;
    } else if (!o->depth) {
        json_decref(o->root);
        o->root = v;
    } else if (json_is_object(parent) ? json_object_set_new(parent, key, v) : json_array_append_new(parent, v)) {
        o->failed = true;
    }
}

static void w_open(struct out *o, const char *key, char bracket)
{
    if (o->js) {
        json_stream_open(o->js, key, bracket);
        return;
    }
    if (o->depth >= JSON_STREAM_MAX_DEPTH) {
        o->failed = true;
        return;
    }
    json_t *c = bracket == '{' ? json_object() : json_array();
    add(o, key, c);
    o->open[o->depth++] = o->failed ? NULL : c; /* held by its parent, or the root */
}

static void w_close(struct out *o)
{
    if (o->js)
        json_stream_close(o->js);
    else if (o->depth > 0)
        o->depth--;
    else
        o->failed = true;
}

static void w_int(struct out *o, const char *key, json_int_t v)
{
    if (o->js)
        json_stream_put_int(o->js, key, v);
    else
        add(o, key, json_integer(v));
}

/* NULL or not UTF-8 fails, as it fails a stream. */
static void w_string(struct out *o, const char *key, const char *v)
{
    if (o->js)
        json_stream_put_string(o->js, key, v);
    else
        add(o, key, v ? json_string(v) : NULL);
}

static void w_bytes(struct out *o, const char *key, struct mtlbx_bytes b)
{
    if (o->js) {
        json_stream_put_bytes(o->js, key, b);
        return;
    }
    char *s = json_bytes_text_dup(b.ptr, b.len);
    add(o, key, s ? json_string(s) : NULL);
    free(s);
}

static void w_bool(struct out *o, const char *key, bool v)
{
    if (o->js)
        json_stream_put_bool(o->js, key, v);
    else
        add(o, key, json_boolean(v));
}

static void w_null(struct out *o, const char *key)
{
    if (o->js)
        json_stream_put_null(o->js, key);
    else
        add(o, key, json_null());
}

static void put_md(struct out *o, const char *key, const struct mtlbx_md_value *v)
{
    switch (v->kind) {
    case MTLBX_MD_INT:
        w_int(o, key, (json_int_t)v->i);
        break;
    case MTLBX_MD_STRING:
        w_bytes(o, key, v->s);
        break;
    case MTLBX_MD_NODE:
        w_open(o, key, '[');
        for (size_t i = 0; i < v->n_items && !failed(o); i++)
            put_md(o, NULL, &v->items[i]);
        w_close(o);
        break;
    default:
        w_null(o, key);
    }
}

/* A key with no value is true, with one value that value, with several a list. */
static void put_property_value(struct out *o, const char *key, const struct mtlbx_air_property *p)
{
    if (p->n_values == 0) {
        w_bool(o, key, true);
    } else if (p->n_values == 1) {
        put_md(o, key, &p->values[0]);
    } else {
        w_open(o, key, '[');
        for (size_t i = 0; i < p->n_values && !failed(o); i++)
            put_md(o, NULL, &p->values[i]);
        w_close(o);
    }
}

/* Printable ASCII but the backslash: json_bytes_text leaves such a key as it
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
 * hold file bytes (json_bytes_text: \xNN for what is not UTF-8), two keys
 * are one when their escaped names are; sorting the names finds them
 * without comparing every pair. */
static void put_escaped_properties(struct out *o, const char *key, const struct mtlbx_air_property *p,
                                   size_t n)
{
    char **names = calloc(n ? n : 1, sizeof *names);
    struct key_at *by = malloc((n ? n : 1) * sizeof *by);
    size_t *last = malloc((n ? n : 1) * sizeof *last); /* where a key's value is; SIZE_MAX: a repeat */
    bool ok = names && by && last;
    for (size_t i = 0; i < n && ok; i++) {
        names[i] = json_bytes_text_dup(p[i].key.ptr, p[i].key.len);
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
        w_open(o, key, '{');
        for (size_t i = 0; i < n && !failed(o); i++)
            if (last[i] != SIZE_MAX)
                put_property_value(o, names[i], &p[last[i]]);
        w_close(o);
    } else {
        fail(o);
    }
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(by);
    free(last);
}

/* As json_object_set_new builds an object: a repeated key keeps its first
 * place and takes its last value. */
static void put_properties(struct out *o, const char *key, const struct mtlbx_air_property *p, size_t n)
{
    bool direct = n <= DIRECT_MAX_PROPERTIES;
    for (size_t i = 0; i < n && direct; i++)
        direct = plain_key(p[i].key);
    if (!direct) {
        put_escaped_properties(o, key, p, n);
        return;
    }
    w_open(o, key, '{');
    for (size_t i = 0; i < n && !failed(o); i++) {
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
            fail(o);
            break;
        }
        memcpy(name, p[i].key.ptr, p[i].key.len);
        name[p[i].key.len] = '\0';
        put_property_value(o, name, &p[last]);
        if (name != small)
            free(name);
    }
    w_close(o);
}

static void put_bytes_or_null(struct out *o, const char *key, bool has, struct mtlbx_bytes b)
{
    if (has)
        w_bytes(o, key, b);
    else
        w_null(o, key);
}

static void put_argument(struct out *o, const char *key, const struct mtlbx_air_argument *a)
{
    w_open(o, key, '{');
    if (a->has_index)
        w_int(o, "index", a->index);
    else
        w_null(o, "index");
    put_bytes_or_null(o, "kind", a->kind.len != 0, a->kind);
    put_bytes_or_null(o, "name", a->has_name, a->name);
    put_bytes_or_null(o, "type", a->has_type, a->type);
    if (a->has_location)
        w_int(o, "location", (json_int_t)a->location);
    else
        w_null(o, "location");
    put_bytes_or_null(o, "location_expression", a->has_location_expression, a->location_expression);
    put_bytes_or_null(o, "function_constant", a->has_function_constant, a->function_constant);
    if (a->access)
        w_string(o, "access", a->access);
    else
        w_null(o, "access");
    if (a->address_space_from == MTLBX_AS_METADATA || a->address_space_from == MTLBX_AS_PARAMETER)
        w_int(o, "address_space", (json_int_t)a->address_space);
    else
        w_null(o, "address_space");
    const char *from = mbx_address_space_from_name(a);
    if (from)
        w_string(o, "address_space_from", from);
    else
        w_null(o, "address_space_from");
    put_properties(o, "properties", a->properties, a->n_properties);
    w_close(o);
}

static void put_arguments(struct out *o, const char *key, const struct mtlbx_air_argument *a, size_t n)
{
    w_open(o, key, '[');
    for (size_t i = 0; i < n && !failed(o); i++)
        put_argument(o, NULL, &a[i]);
    w_close(o);
}

/* The module's "language_version", "Metal 3.2.0" (malloc'd; NULL on out
 * of memory); only when iface->has_language_version. */
static char *language_version(const struct mtlbx_interface *iface)
{
    char buf[64];
    char *lang = json_bytes_text_dup(iface->language_name.ptr, iface->language_name.len);
    snprintf(buf, sizeof buf, " %u.%u.%u", iface->language_version[0], iface->language_version[1],
             iface->language_version[2]);
    size_t n = (lang ? strlen(lang) : 0) + strlen(buf) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", lang ? lang : "", buf);
    free(lang);
    return s;
}

static void put_module(struct out *o, const struct mtlbx_interface *iface)
{
    char buf[64];
    w_open(o, "module", '{');
    if (iface->has_air_version) {
        snprintf(buf, sizeof buf, "%u.%u.%u", iface->air_version[0], iface->air_version[1], iface->air_version[2]);
        w_string(o, "air_version", buf);
    } else {
        w_null(o, "air_version");
    }
    if (iface->has_language_version) {
        char *s = language_version(iface);
        if (s)
            w_string(o, "language_version", s);
        else
            w_null(o, "language_version");
        free(s);
    } else {
        w_null(o, "language_version");
    }
    w_open(o, "compile_options", '[');
    for (size_t i = 0; i < iface->n_compile_options; i++)
        w_bytes(o, NULL, iface->compile_options[i]);
    w_close(o);
    put_bytes_or_null(o, "compiler", iface->has_compiler, iface->compiler);
    w_close(o);
}

static void put_interface(struct out *o, const char *key, const struct mtlbx_interface *iface)
{
    if (!iface || iface->module.failed) {
        w_null(o, key);
        return;
    }
    w_open(o, key, '{');
    if (iface->stage)
        w_string(o, "stage", iface->stage);
    else
        w_null(o, "stage");
    put_arguments(o, "inputs", iface->inputs, iface->n_inputs);
    put_arguments(o, "outputs", iface->outputs, iface->n_outputs);
    put_properties(o, "attributes", iface->attributes, iface->n_attributes);
    put_module(o, iface);
    w_close(o);
}

void interface_stream_put(struct json_stream *js, const char *key, const struct mtlbx_interface *iface)
{
    struct out o = { .js = js };
    put_interface(&o, key, iface);
}

/* The value built, or NULL when memory ran out. */
static json_t *built(struct out *o)
{
    if (!o->failed && o->root)
        return o->root;
    json_decref(o->root);
    return NULL;
}

json_t *interface_json(const struct mtlbx_interface *iface)
{
    struct out o = { 0 };
    put_interface(&o, NULL, iface);
    return built(&o);
}

json_t *interface_argument_json(const struct mtlbx_air_argument *a)
{
    struct out o = { 0 };
    put_argument(&o, NULL, a);
    return built(&o);
}
