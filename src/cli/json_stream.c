/* See json_stream.h. jansson's indented layout, which this reproduces:
 * a container's first item goes on a new line indented one space per open
 * container, later items follow ",\n" and the same indent, a member is
 * "KEY": VALUE, and the closer sits on its own line one level out, unless
 * the container is empty ("[]", "{}"). A value encoded by jansson on its
 * own starts at indent 0, so its lines are shifted right by the depth it
 * is written at; with JSON_ENSURE_ASCII every newline jansson writes is
 * layout (a newline inside a string is the two characters \n). */
#include "config.h"

#include "json_stream.h"

#include <string.h>

#define STREAM_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)
#define COMPACT_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)

void json_stream_init(struct json_stream *js, FILE *out)
{
    memset(js, 0, sizeof *js);
    js->out = out;
}

/* A newline and `depth` spaces, in one write (a putc a space, each
 * taking the stream's lock, was a tenth of dump --json --interfaces). */
static void put_indent(struct json_stream *js, int depth)
{
    static const char line[] = "\n                                                               ";
    const int most = (int)sizeof line - 2; /* spaces in `line` */
    if (js->compact)
        return;
    fwrite(line, 1, (size_t)(depth < most ? depth : most) + 1, js->out);
    for (depth -= most; depth > 0; depth -= most)
        fwrite(line + 1, 1, (size_t)(depth < most ? depth : most), js->out);
}

/* jansson's output callback: copies the text, indenting each new line. */
static int write_shifted(const char *buffer, size_t size, void *data)
{
    struct json_stream *js = data;
    const char *p = buffer, *end = buffer + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n && fwrite(p, 1, n, js->out) != n)
            return -1;
        if (!nl)
            break;
        put_indent(js, js->depth);
        p = nl + 1;
    }
    return ferror(js->out) ? -1 : 0;
}

/* jansson hands its callback every token (a quote, a comma, a key), and
 * a write per token was a quarter of `dump --json --interfaces`: they are
 * gathered here, a bounded buffer at a time, and shifted a line at a time. */
struct gathered {
    struct json_stream *js;
    size_t len;
    char buf[16384];
};

static int gather(const char *buffer, size_t size, void *data)
{
    struct gathered *g = data;
    if (size > sizeof g->buf - g->len) {
        if (g->len && write_shifted(g->buf, g->len, g->js) != 0)
            return -1;
        g->len = 0;
        if (size > sizeof g->buf)
            return write_shifted(buffer, size, g->js);
    }
    memcpy(g->buf + g->len, buffer, size);
    g->len += size;
    return 0;
}

static void encode(struct json_stream *js, const json_t *value)
{
    struct gathered g;
    g.js = js;
    g.len = 0;
    if (json_dump_callback(value, gather, &g, js->compact ? COMPACT_FLAGS : STREAM_FLAGS) != 0 ||
        (g.len && write_shifted(g.buf, g.len, js) != 0))
        js->failed = true;
}

/* Text that jansson writes as it is between quotes: printable ASCII but
 * the quote and the backslash (which it escapes, as it does controls and,
 * with JSON_ENSURE_ASCII, every byte above 0x7E). */
static bool plain_ascii(const char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7E || *s == '"' || *s == '\\')
            return false;
    return true;
}

/* The separator and key before the next item of the open container. */
static void begin_item(struct json_stream *js, const char *key)
{
    if (js->depth > 0) {
        if (js->has_items[js->depth])
            putc(',', js->out);
        js->has_items[js->depth] = true;
        put_indent(js, js->depth);
    }
    if (key && plain_ascii(key)) {
        fprintf(js->out, js->compact ? "\"%s\":" : "\"%s\": ", key);
    } else if (key) {
        json_t *k = json_string(key);
        if (!k) {
            js->failed = true;
            return;
        }
        encode(js, k);
        json_decref(k);
        fputs(js->compact ? ":" : ": ", js->out);
    }
}

void json_stream_open(struct json_stream *js, const char *key, char bracket)
{
    if (js->depth >= JSON_STREAM_MAX_DEPTH) {
        js->failed = true;
        return;
    }
    begin_item(js, key);
    putc(bracket, js->out);
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
    putc(closer, js->out);
}

void json_stream_put(struct json_stream *js, const char *key, json_t *value)
{
    if (!value) {
        js->failed = true;
        return;
    }
    begin_item(js, key);
    encode(js, value);
    json_decref(value);
}

void json_stream_put_int(struct json_stream *js, const char *key, json_int_t value)
{
    begin_item(js, key);
    fprintf(js->out, "%" JSON_INTEGER_FORMAT, value);
}

void json_stream_put_string(struct json_stream *js, const char *key, const char *value)
{
    if (value && plain_ascii(value)) {
        begin_item(js, key);
        fprintf(js->out, "\"%s\"", value);
    } else {
        /* Escapes, and the refusal of bytes that are not UTF-8: jansson's. */
        json_stream_put(js, key, value ? json_string(value) : NULL);
    }
}

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
        begin_item(js, key);
        encode(js, value);
    }
    json_decref(members);
}
