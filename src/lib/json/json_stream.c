/* See json_stream.h. jansson's indented layout, which this reproduces:
 * a container's first item goes on a new line indented one space per open
 * container, later items follow ",\n" and the same indent, a member is
 * "KEY": VALUE, and the closer sits on its own line one level out, unless
 * the container is empty ("[]", "{}"). A value encoded by jansson on its
 * own starts at indent 0, so its lines are shifted right by the depth it
 * is written at; with JSON_ENSURE_ASCII every newline jansson writes is
 * layout (a newline inside a string is the two characters \n).
 *
 * Strings are encoded as jansson's dump_string does with JSON_ENSURE_ASCII:
 * '"' and '\\' and the controls \b \f \n \r \t by their short escapes,
 * other controls and every code point above U+007F as \uXXXX (upper-case
 * hex, a surrogate pair above U+FFFF), everything else (DEL included) as
 * it is. tests/program/test_json_stream.c holds the two side by side. */
#include "config.h"

#include "json_stream.h"
#include "container/escape.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)
#define COMPACT_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)

void json_stream_init(struct json_stream *js, FILE *out)
{
    js->out = out;
    js->depth = 0;
    js->has_items[0] = false;
    js->failed = false;
    js->compact = false;
    js->len = 0;
    js->mem = NULL;
    js->mem_len = js->mem_cap = 0;
}

void json_stream_init_item(struct json_stream *js, int depth, bool compact)
{
    json_stream_init(js, NULL);
    js->compact = compact;
    if (depth < 1 || depth > JSON_STREAM_MAX_DEPTH) {
        js->failed = true;
        return;
    }
    js->depth = depth;
    js->has_items[depth] = true;
}

/* n bytes to `out`, or to the memory of a stream without one. */
static void sink(struct json_stream *js, const char *p, size_t n)
{
    if (js->out) {
        if (fwrite(p, 1, n, js->out) != n)
            js->failed = true;
        return;
    }
    /* Its own buffer, not src/program's text_buf: the parser library calls
     * no layer above it. */
    if (n > js->mem_cap - js->mem_len) {
        size_t cap = js->mem_cap ? js->mem_cap : 4096;
        while (cap - js->mem_len < n && cap < SIZE_MAX / 2)
            cap *= 2;
        char *grown = cap - js->mem_len >= n ? realloc(js->mem, cap) : NULL;
        if (!grown) {
            js->failed = true;
            return;
        }
        js->mem = grown;
        js->mem_cap = cap;
    }
    memcpy(js->mem + js->mem_len, p, n);
    js->mem_len += n;
}

bool json_stream_flush(struct json_stream *js)
{
    if (js->len)
        sink(js, js->buf, js->len);
    js->len = 0;
    return !js->failed;
}

void json_stream_give(struct json_stream *js, char *buf, size_t cap)
{
    js->mem = buf;
    js->mem_cap = buf ? cap : 0;
    js->mem_len = 0;
}

char *json_stream_take(struct json_stream *js, size_t *len, size_t *cap)
{
    json_stream_flush(js);
    char *text = js->mem;
    *len = js->failed ? 0 : js->mem_len;
    *cap = js->mem_cap;
    js->mem = NULL;
    js->mem_len = js->mem_cap = 0;
    return text;
}

/* Appends n bytes; a write of the gathered buffer when it is full. */
static void put(struct json_stream *js, const char *p, size_t n)
{
    if (n > sizeof js->buf - js->len) {
        json_stream_flush(js);
        if (n > sizeof js->buf) {
            sink(js, p, n);
            return;
        }
    }
    memcpy(js->buf + js->len, p, n);
    js->len += n;
}

static void put_char(struct json_stream *js, char c)
{
    if (js->len == sizeof js->buf)
        json_stream_flush(js);
    js->buf[js->len++] = c;
}

/* A newline and `depth` spaces. */
static void put_indent(struct json_stream *js, int depth)
{
    static const char line[] = "\n                                                               ";
    const int most = (int)sizeof line - 2; /* spaces in `line` */
    if (js->compact)
        return;
    put(js, line, (size_t)(depth < most ? depth : most) + 1);
    for (depth -= most; depth > 0; depth -= most)
        put(js, line + 1, (size_t)(depth < most ? depth : most));
}

/* jansson's output callback: copies the text, indenting each new line. */
static int write_shifted(const char *buffer, size_t size, void *data)
{
    struct json_stream *js = data;
    const char *p = buffer, *end = buffer + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        put(js, p, n);
        if (!nl)
            break;
        put_indent(js, js->depth);
        p = nl + 1;
    }
    return js->failed ? -1 : 0;
}

static void encode(struct json_stream *js, const json_t *value)
{
    if (json_dump_callback(value, write_shifted, js, js->compact ? COMPACT_FLAGS : STREAM_FLAGS) != 0)
        js->failed = true;
}

static bool valid_utf8(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t cp;
    for (size_t i = 0; i < len;) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = mbx_utf8_next(p + i, len - i, &cp);
        if (!n)
            return false;
        i += n;
    }
    return true;
}

static void put_u16(struct json_stream *js, uint32_t unit)
{
    static const char hex[] = "0123456789ABCDEF";
    char seq[6] = { '\\', 'u', hex[unit >> 12 & 15], hex[unit >> 8 & 15], hex[unit >> 4 & 15], hex[unit & 15] };
    put(js, seq, sizeof seq);
}

/* The quoted string, which valid_utf8() accepted. */
static void put_quoted_valid(struct json_stream *js, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    put_char(js, '"');
    while (p < end) {
        const unsigned char *run = p;
        while (p < end && *p >= 0x20 && *p <= 0x7F && *p != '"' && *p != '\\')
            p++;
        put(js, (const char *)run, (size_t)(p - run));
        if (p == end)
            break;
        uint32_t cp;
        size_t n = mbx_utf8_next(p, (size_t)(end - p), &cp);
        p += n;
        switch (cp) {
        case '\\': put(js, "\\\\", 2); break;
        case '"': put(js, "\\\"", 2); break;
        case '\b': put(js, "\\b", 2); break;
        case '\f': put(js, "\\f", 2); break;
        case '\n': put(js, "\\n", 2); break;
        case '\r': put(js, "\\r", 2); break;
        case '\t': put(js, "\\t", 2); break;
        default:
            if (cp < 0x10000) {
                put_u16(js, cp);
            } else {
                cp -= 0x10000;
                put_u16(js, 0xD800 | (cp & 0xFFC00) >> 10);
                put_u16(js, 0xDC00 | (cp & 0x3FF));
            }
        }
    }
    put_char(js, '"');
}

/* The quoted string, or false (nothing written) when it is not UTF-8. */
static bool put_quoted(struct json_stream *js, const char *s, size_t len)
{
    if (!valid_utf8(s, len))
        return false;
    put_quoted_valid(js, s, len);
    return true;
}

/* The separator and key before the next item of the open container. */
static void begin_item(struct json_stream *js, const char *key)
{
    if (js->depth > 0) {
        if (js->has_items[js->depth])
            put_char(js, ',');
        js->has_items[js->depth] = true;
        put_indent(js, js->depth);
    }
    if (!key)
        return;
    /* Nearly every key is a literal that needs no escape. */
    const char *end = key;
    while (*end >= 0x20 && *end < 0x7F && *end != '"' && *end != '\\')
        end++;
    if (*end == '\0') {
        put_char(js, '"');
        put(js, key, (size_t)(end - key));
        put(js, "\": ", js->compact ? 2 : 3);
        return;
    }
    /* A key that json_object_set would refuse leaves the object without
     * the member: the document is not what it should be. */
    if (!put_quoted(js, key, strlen(key)))
        js->failed = true;
    put(js, ": ", js->compact ? 1 : 2);
}

void json_stream_put_item(struct json_stream *js, const char *text, size_t len)
{
    /* The separator is in the text: the container holds an item now. */
    if (js->depth > 0)
        js->has_items[js->depth] = true;
    put(js, text, len);
}

void json_stream_open(struct json_stream *js, const char *key, char bracket)
{
    if (js->depth >= JSON_STREAM_MAX_DEPTH) {
        js->failed = true;
        return;
    }
    begin_item(js, key);
    put_char(js, bracket);
    js->depth++;
    js->has_items[js->depth] = false;
    js->closer[js->depth] = bracket == '{' ? '}' : ']';
}

void json_stream_close(struct json_stream *js)
{
    if (js->depth == 0) {
        js->failed = true;
        return;
    }
    bool had_items = js->has_items[js->depth];
    char closer = js->closer[js->depth];
    js->depth--;
    if (had_items)
        put_indent(js, js->depth);
    put_char(js, closer);
}

/* A jansson value as jansson would dump it, without its encoder: that
 * hands its callback every token, and costs ten times this. Reals alone
 * (their shortest round-trip spelling is jansson's own) go through it. */
static void put_value(struct json_stream *js, const char *key, const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *v;
        json_stream_open(js, key, '{');
        json_object_foreach((json_t *)value, k, v) {
            put_value(js, k, v);
        }
        json_stream_close(js);
        break;
    }
    case JSON_ARRAY:
        json_stream_open(js, key, '[');
        for (size_t i = 0; i < json_array_size(value); i++)
            put_value(js, NULL, json_array_get(value, i));
        json_stream_close(js);
        break;
    case JSON_STRING: {
        const char *s = json_string_value(value);
        size_t len = json_string_length(value);
        if (!valid_utf8(s, len)) {
            js->failed = true;
            return;
        }
        begin_item(js, key);
        put_quoted_valid(js, s, len);
        break;
    }
    case JSON_INTEGER:
        json_stream_put_int(js, key, json_integer_value(value));
        break;
    case JSON_TRUE:
        json_stream_put_bool(js, key, true);
        break;
    case JSON_FALSE:
        json_stream_put_bool(js, key, false);
        break;
    case JSON_NULL:
        json_stream_put_null(js, key);
        break;
    default:
        begin_item(js, key);
        encode(js, value);
    }
}

void json_stream_put(struct json_stream *js, const char *key, json_t *value)
{
    if (!value) {
        js->failed = true;
        return;
    }
    put_value(js, key, value);
    json_decref(value);
}

void json_stream_put_int(struct json_stream *js, const char *key, json_int_t value)
{
    char digits[24], *p = digits + sizeof digits;
    /* Through the unsigned value: the most negative one has no positive. */
    unsigned long long u = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (value < 0)
        *--p = '-';
    begin_item(js, key);
    put(js, p, (size_t)(digits + sizeof digits - p));
}

void json_stream_put_string(struct json_stream *js, const char *key, const char *value)
{
    size_t len = value ? strlen(value) : 0;
    if (!value || !valid_utf8(value, len)) {
        js->failed = true;
        return;
    }
    begin_item(js, key);
    put_quoted_valid(js, value, len);
}

void json_stream_put_bool(struct json_stream *js, const char *key, bool value)
{
    begin_item(js, key);
    if (value)
        put(js, "true", 4);
    else
        put(js, "false", 5);
}

void json_stream_put_null(struct json_stream *js, const char *key)
{
    begin_item(js, key);
    put(js, "null", 4);
}

void json_stream_put_bytes(struct json_stream *js, const char *key, struct mtlbx_bytes b)
{
    /* ASCII is valid UTF-8, which json_bytes_text copies as it is: only the
     * end at a NUL, as a C string has it, is left to do. */
    bool ascii = true;
    for (size_t i = 0; i < b.len && ascii; i++)
        ascii = b.ptr[i] < 0x80;
    if (ascii) {
        const uint8_t *nul = b.len ? memchr(b.ptr, 0, b.len) : NULL;
        begin_item(js, key);
        put_quoted_valid(js, (const char *)b.ptr, nul ? (size_t)(nul - b.ptr) : b.len);
        return;
    }
    char small[256];
    if (json_bytes_text(b.ptr, b.len, small, sizeof small) < sizeof small) {
        json_stream_put_string(js, key, small);
        return;
    }
    char *s = json_bytes_text_dup(b.ptr, b.len);
    json_stream_put_string(js, key, s);
    free(s);
}

size_t json_bytes_text(const void *bytes, size_t len, char *out, size_t out_size)
{
    return mbx_escape(bytes, len, 0, out, out_size);
}

char *json_bytes_text_dup(const void *bytes, size_t len) { return mbx_escape_dup(bytes, len, 0); }

void json_stream_put_members(struct json_stream *js, json_t *members)
{
    if (!json_is_object(members)) {
        js->failed = true;
        json_decref(members);
        return;
    }
    const char *key;
    json_t *value;
    json_object_foreach(members, key, value) {
        put_value(js, key, value);
    }
    json_decref(members);
}
