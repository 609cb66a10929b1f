/* The streaming JSON writer (src/lib/json/json_stream.c) and the interfaces it
 * writes without jansson (src/lib/json/interface_stream.c) against jansson
 * itself: every value is written both ways, indented and compact, at the
 * depth `dump --json` writes functions at, and must give the same bytes.
 * Tricky strings (controls, quotes, DEL, every UTF-8 length, bytes that
 * are not UTF-8, a NUL), extreme integers, repeated keys: if the writer
 * ever drifts from jansson's encoding, these fail. */
#include "config.h"

#include "json/interface_json.h"
#include "json/interface_stream.h"
#include "json/json_stream.h"
#include "json/values_json.h"
#include "container/escape.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INDENTED (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)
#define COMPACT (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)

/* What the writer does, given the stream, into a malloc'd string. */
typedef void (*writer_fn)(struct json_stream *js, const void *arg);

static char *run_writer(writer_fn fn, const void *arg, bool compact, bool *failed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    struct json_stream *js = malloc(sizeof *js);
    cr_assert_not_null(js);
    json_stream_init(js, f);
    js->compact = compact;
    /* Inside an object inside an array, as a function's members are. */
    json_stream_open(js, NULL, '[');
    json_stream_open(js, NULL, '{');
    fn(js, arg);
    json_stream_close(js);
    json_stream_close(js);
    json_stream_flush(js);
    *failed = js->failed;
    free(js);
    fclose(f);
    return text;
}

/* jansson's bytes for [{"v": value}]. */
static char *jansson_text(json_t *value, bool compact)
{
    json_t *doc = json_pack("[{s:o}]", "v", value);
    cr_assert_not_null(doc);
    char *s = json_dumps(doc, compact ? COMPACT : INDENTED);
    json_decref(doc);
    cr_assert_not_null(s);
    return s;
}

static void expect_same(writer_fn fn, const void *arg, json_t *value, const char *what)
{
    for (int compact = 0; compact < 2; compact++) {
        bool failed;
        char *got = run_writer(fn, arg, compact, &failed);
        char *want = jansson_text(json_incref(value), compact);
        cr_expect(!failed, "%s: the writer failed", what);
        cr_expect_str_eq(got, want, "%s (%s)", what, compact ? "compact" : "indented");
        free(got);
        free(want);
    }
    json_decref(value);
}

static void write_bytes(struct json_stream *js, const void *arg)
{
    json_stream_put_bytes(js, "v", *(const struct mtlbx_bytes *)arg);
}

static void write_string(struct json_stream *js, const void *arg) { json_stream_put_string(js, "v", arg); }

static void write_int(struct json_stream *js, const void *arg)
{
    json_stream_put_int(js, "v", *(const json_int_t *)arg);
}

static void write_value(struct json_stream *js, const void *arg)
{
    json_stream_put(js, "v", json_incref((json_t *)arg));
}

/* What interface_json.c does with file bytes: escape, then json_string. */
static json_t *escaped_string(const uint8_t *p, size_t n)
{
    char *s = mbx_escape_dup(p, n, 0);
    json_t *j = json_string(s);
    free(s);
    return j;
}

static const struct {
    const char *bytes;
    size_t len;
} tricky[] = {
    { "", 0 },
    { "plain ascii name_123", 20 },
    { "quote \" backslash \\ slash /", 27 },
    { "\b\f\n\r\t", 5 },
    { "\x01\x02\x1f\x1b[31m", 8 },
    { "del \x7f", 5 },
    { "caf\xc3\xa9 \xe2\x80\xae rlo \xef\xbb\xbf", 16 },
    { "astral \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf", 16 },
    { "not utf-8: \xff\xfe \xc3 \x80 \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80", 29 },
    { "cut short \xe2\x82", 12 },
    { "nul \0 after", 11 },
    { "\\x41 looks escaped", 18 },
    { "\xc2\x9b""31m c1", 8 },
};

Test(json_stream, bytes_escape_as_jansson)
{
    for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
        struct mtlbx_bytes b = { (const uint8_t *)tricky[i].bytes, tricky[i].len };
        expect_same(write_bytes, &b, escaped_string(b.ptr, b.len), tricky[i].bytes);
    }
    /* Longer than the escape's stack buffer, and than the output buffer. */
    size_t big = 70000;
    uint8_t *p = malloc(big);
    cr_assert_not_null(p);
    for (size_t i = 0; i < big; i++)
        p[i] = (uint8_t)(i * 7 + 1);
    struct mtlbx_bytes b = { p, big };
    expect_same(write_bytes, &b, escaped_string(p, big), "70,000 bytes of every value");
    free(p);
}

Test(json_stream, strings_as_jansson)
{
    static const char *const strings[] = { "", "a\"b\\c", "\x7f\x01", "\xe2\x80\xa8 \xf0\x90\x80\x80 \xc2\x80" };
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        expect_same(write_string, strings[i], json_string(strings[i]), strings[i]);
}

/* json_string refuses what is not UTF-8: so does the writer, and says so. */
Test(json_stream, refuses_what_jansson_refuses)
{
    static const char *const bad[] = { "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_null(json_string(bad[i]));
        bool failed;
        free(run_writer(write_string, bad[i], false, &failed));
        cr_expect(failed, "string %zu should mark the stream failed", i);
    }
}

Test(json_stream, integers_as_jansson)
{
    static const json_int_t numbers[] = { 0, 1, -1, 9, 10, 4294967295LL, -4294967296LL, INT64_MAX, INT64_MIN };
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
        expect_same(write_int, &numbers[i], json_integer(numbers[i]), "integer");
}

/* Values built with jansson and written by the writer's own encoder. */
Test(json_stream, jansson_values_as_jansson)
{
    json_t *v = json_pack("{s:[],s:{},s:[i,s,b,n,{s:[[]]}],s:f,s:s,s:b}", "empty list", "empty object",
                          "mixed", -5, "\xe2\x80\xae\n", 1, "deep", "x", "real", 0.1, "key \"\x01\xc3\xa9",
                          "v", "false", 0);
    cr_assert_not_null(v);
    expect_same(write_value, v, json_incref(v), "nested jansson value");
    json_decref(v);
}

/* A synthetic interface with the strings above in every field, repeated
 * and unusual property keys, and nested metadata. */
static struct mtlbx_md_value leaf[4], node[2], deep[1];
static struct mtlbx_air_property props[8];
static struct mtlbx_air_argument args[2];
static struct mtlbx_bytes options[3];
static struct mtlbx_interface iface;

static struct mtlbx_bytes bytes_of(size_t i)
{
    i %= sizeof tricky / sizeof *tricky;
    return (struct mtlbx_bytes){ (const uint8_t *)tricky[i].bytes, tricky[i].len };
}

static struct mtlbx_bytes text(const char *s) { return (struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) }; }

static void build_interface(bool hostile_keys)
{
    memset(&iface, 0, sizeof iface);
    leaf[0] = (struct mtlbx_md_value){ .kind = MTLBX_MD_INT, .i = INT64_MIN };
    leaf[1] = (struct mtlbx_md_value){ .kind = MTLBX_MD_STRING, .s = bytes_of(8) };
    leaf[2] = (struct mtlbx_md_value){ .kind = MTLBX_MD_GLOBAL, .s = text("g") };
    leaf[3] = (struct mtlbx_md_value){ .kind = MTLBX_MD_STRING, .s = bytes_of(10) };
    deep[0] = (struct mtlbx_md_value){ .kind = MTLBX_MD_NODE, .n_items = 2, .items = leaf };
    node[0] = (struct mtlbx_md_value){ .kind = MTLBX_MD_NODE, .n_items = 1, .items = deep };
    node[1] = (struct mtlbx_md_value){ .kind = MTLBX_MD_NODE, .n_items = 0, .items = NULL };
    props[0] = (struct mtlbx_air_property){ text("buffer"), 0, NULL };
    props[1] = (struct mtlbx_air_property){ text("location_index"), 2, leaf };
    props[2] = (struct mtlbx_air_property){ text("buffer"), 1, &leaf[1] }; /* repeated: first place, last value */
    props[3] = (struct mtlbx_air_property){ text("nested"), 2, node };
    props[4] = (struct mtlbx_air_property){ text(""), 1, &leaf[3] };
    props[5] = (struct mtlbx_air_property){ text("location_index"), 1, &leaf[0] };
    props[6] = hostile_keys ? (struct mtlbx_air_property){ bytes_of(8), 1, &leaf[2] }
                            : (struct mtlbx_air_property){ text("quote\"key"), 1, &leaf[2] };
    props[7] = hostile_keys ? (struct mtlbx_air_property){ text("not utf-8: \\xff\\xfe"), 0, NULL }
                            : (struct mtlbx_air_property){ text("last"), 0, NULL };
    args[0] = (struct mtlbx_air_argument){ .has_index = true, .index = 4294967295u, .kind = bytes_of(2),
                                           .has_name = true, .name = bytes_of(8), .has_type = true,
                                           .type = bytes_of(6), .has_location = true, .location = -3,
                                           .access = "read_write", .n_properties = 8, .properties = props,
                                           .has_location_expression = true, .location_expression = bytes_of(4),
                                           .has_function_constant = true, .function_constant = bytes_of(10) };
    args[1] = (struct mtlbx_air_argument){ 0 };
    options[0] = bytes_of(3);
    options[1] = bytes_of(7);
    options[2] = bytes_of(0);
    iface.stage = "kernel";
    iface.n_inputs = 2;
    iface.inputs = args;
    iface.n_outputs = 1;
    iface.outputs = &args[1];
    iface.n_attributes = 3;
    iface.attributes = &props[5];
    iface.has_air_version = true;
    iface.air_version[0] = 2;
    iface.air_version[1] = 7;
    iface.air_version[2] = 0;
    iface.has_language_version = true;
    iface.language_name = bytes_of(8);
    iface.language_version[0] = 3;
    iface.language_version[1] = 2;
    iface.n_compile_options = 3;
    iface.compile_options = options;
    iface.has_compiler = true;
    iface.compiler = bytes_of(11);
}

/* What jansson builds from an interface: the reference the one writer
 * (interface_stream.c) is held to. Kept here, beside the test, so that
 * the two are written apart: a repeated key keeps its first place and
 * takes its last value (json_object_set_new), keys are escaped as file
 * bytes are. */
static json_t *ref_bytes(struct mtlbx_bytes b)
{
    char *s = mbx_escape_dup(b.ptr, b.len, 0);
    json_t *j = json_string(s ? s : "");
    free(s);
    return j;
}

static json_t *ref_md(const struct mtlbx_md_value *v)
{
    if (v->kind == MTLBX_MD_INT)
        return json_integer((json_int_t)v->i);
    if (v->kind == MTLBX_MD_STRING)
        return ref_bytes(v->s);
    if (v->kind != MTLBX_MD_NODE)
        return json_null();
    json_t *a = json_array();
    for (size_t i = 0; i < v->n_items; i++)
        json_array_append_new(a, ref_md(&v->items[i]));
    return a;
}

static json_t *ref_properties(const struct mtlbx_air_property *p, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) {
        json_t *v = p[i].n_values == 0 ? json_true() : p[i].n_values == 1 ? ref_md(&p[i].values[0]) : json_array();
        for (size_t k = 0; p[i].n_values > 1 && k < p[i].n_values; k++)
            json_array_append_new(v, ref_md(&p[i].values[k]));
        char *key = mbx_escape_dup(p[i].key.ptr, p[i].key.len, 0);
        cr_assert_not_null(key);
        json_object_set_new(o, key, v);
        free(key);
    }
    return o;
}

static json_t *ref_or_null(bool has, json_t *v)
{
    if (has)
        return v;
    json_decref(v);
    return json_null();
}

static json_t *ref_arguments(const struct mtlbx_air_argument *a, size_t n)
{
    json_t *l = json_array();
    for (size_t i = 0; i < n; i++) {
        bool pointer = a[i].address_space_from == MTLBX_AS_METADATA || a[i].address_space_from == MTLBX_AS_PARAMETER;
        const char *from = mbx_address_space_from_name(&a[i]);
        json_t *o = json_object();
        json_object_set_new(o, "index", ref_or_null(a[i].has_index, json_integer(a[i].index)));
        json_object_set_new(o, "kind", ref_or_null(a[i].kind.len != 0, ref_bytes(a[i].kind)));
        json_object_set_new(o, "name", ref_or_null(a[i].has_name, ref_bytes(a[i].name)));
        json_object_set_new(o, "type", ref_or_null(a[i].has_type, ref_bytes(a[i].type)));
        json_object_set_new(o, "location", ref_or_null(a[i].has_location, json_integer(a[i].location)));
        json_object_set_new(o, "location_expression",
                            ref_or_null(a[i].has_location_expression, ref_bytes(a[i].location_expression)));
        json_object_set_new(o, "function_constant",
                            ref_or_null(a[i].has_function_constant, ref_bytes(a[i].function_constant)));
        json_object_set_new(o, "access", a[i].access ? json_string(a[i].access) : json_null());
        json_object_set_new(o, "address_space", ref_or_null(pointer, json_integer(a[i].address_space)));
        json_object_set_new(o, "address_space_from", from ? json_string(from) : json_null());
        json_object_set_new(o, "properties", ref_properties(a[i].properties, a[i].n_properties));
        json_array_append_new(l, o);
    }
    return l;
}

static json_t *reference_interface(const struct mtlbx_interface *it)
{
    if (!it || it->module.failed)
        return json_null();
    char buf[256];
    json_t *m = json_object();
    snprintf(buf, sizeof buf, "%u.%u.%u", it->air_version[0], it->air_version[1], it->air_version[2]);
    json_object_set_new(m, "air_version", it->has_air_version ? json_string(buf) : json_null());
    char *lang = mbx_escape_dup(it->language_name.ptr, it->language_name.len, 0);
    snprintf(buf, sizeof buf, "%s %u.%u.%u", lang ? lang : "", it->language_version[0], it->language_version[1],
             it->language_version[2]);
    free(lang);
    json_object_set_new(m, "language_version", it->has_language_version ? json_string(buf) : json_null());
    json_t *opts = json_array();
    for (size_t i = 0; i < it->n_compile_options; i++)
        json_array_append_new(opts, ref_bytes(it->compile_options[i]));
    json_object_set_new(m, "compile_options", opts);
    json_object_set_new(m, "compiler", ref_or_null(it->has_compiler, ref_bytes(it->compiler)));
    json_t *o = json_object();
    json_object_set_new(o, "stage", it->stage ? json_string(it->stage) : json_null());
    json_object_set_new(o, "inputs", ref_arguments(it->inputs, it->n_inputs));
    json_object_set_new(o, "outputs", ref_arguments(it->outputs, it->n_outputs));
    json_object_set_new(o, "attributes", ref_properties(it->attributes, it->n_attributes));
    json_object_set_new(o, "module", m);
    return o;
}

static void write_interface(struct json_stream *js, const void *arg)
{
    interface_stream_put(js, "v", arg);
}

/* The writer against jansson's reference, and interface_json() (the same
 * writer building a jansson value) against both. */
static void expect_interface(const struct mtlbx_interface *it, const char *what)
{
    expect_same(write_interface, it, reference_interface(it), what);
    json_t *back = interface_json(it);
    cr_assert_not_null(back, "%s: not read back", what);
    expect_same(write_interface, it, back, what);
}

Test(interface_stream, as_jansson_builds_it)
{
    build_interface(false);
    expect_interface(&iface, "interface");
    /* Keys that are not plain: sorted, escaped. */
    build_interface(true);
    expect_interface(&iface, "interface, hostile keys");
    /* Missing pieces are null. */
    memset(&iface, 0, sizeof iface);
    expect_interface(&iface, "empty interface");
    iface.module.failed = true;
    expect_interface(&iface, "failed module");
    expect_interface(NULL, "no interface");
}

/* More properties than the direct path takes, and as many as it takes,
 * keys repeated far apart in both. */
Test(interface_stream, many_properties)
{
    enum { N = 200 };
    static struct mtlbx_air_property many[N];
    static char names[N][16];
    static struct mtlbx_md_value values[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "k%zu", i % 40);
        many[i] = (struct mtlbx_air_property){ text(names[i]), 1, &values[i] };
        values[i] = (struct mtlbx_md_value){ .kind = MTLBX_MD_INT, .i = (int64_t)i };
    }
    memset(&iface, 0, sizeof iface);
    iface.n_attributes = N;
    iface.attributes = many;
    expect_interface(&iface, "200 attributes");
    iface.n_attributes = 64;
    expect_interface(&iface, "64 attributes");
}

/* ------------------------------------------------------------ requires -- */

static void write_requires(struct json_stream *js, const void *arg)
{
    vj_requires_stream(js, "v", arg);
}

Test(requires_stream, as_vj_requires)
{
    struct mtlbx_requires r = { 0 };
    expect_same(write_requires, &r, vj_requires(&r), "nothing known");
    r.os = MTLBX_OS_MACOS;
    r.has_version = true;
    r.version = (struct mtlbx_os_version){ 14, 0 };
    r.reasons[r.n_reasons++] = (struct mtlbx_req_reason){ MTLBX_REQ_DEPLOYMENT, { 13, 0 }, { 13, 0 }, 0, false };
    r.reasons[r.n_reasons++] = (struct mtlbx_req_reason){ MTLBX_REQ_MSL, { 3, 1 }, { 14, 0 }, 0, false };
    r.reasons[r.n_reasons++] = (struct mtlbx_req_reason){ MTLBX_REQ_AIR, { 2, 6 }, { 14, 0 }, 0, false };
    expect_same(write_requires, &r, vj_requires(&r), "three reasons");
    r.unknown[r.n_unknown++] = (struct mtlbx_req_unknown){ MTLBX_REQ_MSL, { 9, 9 } };
    r.unknown[r.n_unknown++] = (struct mtlbx_req_unknown){ MTLBX_REQ_AIR, { 65535, 65535 } };
    expect_same(write_requires, &r, vj_requires(&r), "reasons and unknown versions");
    r.os = MTLBX_OS_NONE;
    r.has_version = false;
    expect_same(write_requires, &r, vj_requires(&r), "no OS");
}

/* ----------------------------------------- an item rendered elsewhere -- */

/* A member before the one under test, as "interface" follows a function's
 * other members. */
static void write_after_member(struct json_stream *js, const void *arg)
{
    json_stream_put_int(js, "first", 1);
    interface_stream_put(js, "v", arg);
}

/* The same, the second member rendered by a stream of its own (as a hash
 * thread renders it) and appended. */
static void write_rendered_item(struct json_stream *js, const void *arg)
{
    json_stream_put_int(js, "first", 1);
    struct json_stream *item = malloc(sizeof *item);
    cr_assert_not_null(item);
    json_stream_init_item(item, js->depth, js->compact);
    /* A buffer that must grow: items are longer than 16 bytes. */
    json_stream_give(item, malloc(16), 16);
    interface_stream_put(item, "v", arg);
    size_t len, cap;
    char *text = json_stream_take(item, &len, &cap);
    cr_assert(!item->failed);
    cr_assert_geq(cap, len);
    json_stream_put_item(js, text, len);
    free(text);
    free(item);
}

static void expect_rendered_same(const void *arg, const char *what)
{
    for (int compact = 0; compact < 2; compact++) {
        bool failed_direct, failed_rendered;
        char *direct = run_writer(write_after_member, arg, compact, &failed_direct);
        char *rendered = run_writer(write_rendered_item, arg, compact, &failed_rendered);
        cr_expect(!failed_direct && !failed_rendered, "%s: a writer failed", what);
        cr_expect_str_eq(rendered, direct, "%s (%s)", what, compact ? "compact" : "indented");
        free(direct);
        free(rendered);
    }
}

Test(json_stream, rendered_item_as_written_in_place)
{
    build_interface(false);
    expect_rendered_same(&iface, "interface");
    build_interface(true);
    expect_rendered_same(&iface, "interface, hostile keys");
    expect_rendered_same(NULL, "no interface");
    /* Longer than the stream's 16 KB buffer: written past it. */
    enum { N = 2000 };
    static struct mtlbx_air_property many[N];
    static char names[N][16];
    static struct mtlbx_md_value values[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "key%zu", i);
        many[i] = (struct mtlbx_air_property){ text(names[i]), 1, &values[i] };
        values[i] = (struct mtlbx_md_value){ .kind = MTLBX_MD_INT, .i = (int64_t)i };
    }
    memset(&iface, 0, sizeof iface);
    iface.n_attributes = N;
    iface.attributes = many;
    expect_rendered_same(&iface, "2,000 attributes");
}
