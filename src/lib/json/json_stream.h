/* A streaming writer for one JSON document, so that `dump --json` holds
 * one function at a time instead of the whole tree. The skeleton and the
 * hot values (numbers, strings, the function interfaces) are written
 * directly; any other value may be a json_t, encoded by jansson and freed
 * at once. The bytes are exactly what json_dumpf(tree, JSON_INDENT(1) |
 * JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) would print for the whole tree,
 * or with `compact` set, what JSON_COMPACT in place of JSON_INDENT(1)
 * would (one line: `find --json`). Output is gathered in `buf` and written
 * a buffer at a time: json_stream_flush() before touching `out` directly. */
#ifndef MTLBX_JSON_STREAM_H
#define MTLBX_JSON_STREAM_H

#include "container/types.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The document's skeleton (8) plus an interface nested to
 * MTLBX_BC_MAX_MD_NESTING, with room to spare. */
#define JSON_STREAM_MAX_DEPTH 96

struct json_stream {
    FILE *out;
    int depth;                                   /* containers open */
    bool has_items[JSON_STREAM_MAX_DEPTH + 1];   /* per open container */
    char closer[JSON_STREAM_MAX_DEPTH + 1];      /* '}' or ']' */
    bool failed;                                 /* a NULL value, an encoder or write error, too deep */
    bool compact;                                /* one line, as JSON_COMPACT (set after init) */
    size_t len;                                  /* bytes in buf not yet written to out */
    char *mem;                                   /* out NULL: the text so far (json_stream_take) */
    size_t mem_len, mem_cap;
    char buf[16384];
};

void json_stream_init(struct json_stream *js, FILE *out);
/* A stream that gathers, in memory, one item of an open container `depth`
 * deep that already holds an item, laid out as a stream at that place
 * writes it (separator and key included): a worker thread renders an item
 * this way, and the stream of the document appends it in its turn
 * (json_stream_put_item). */
void json_stream_init_item(struct json_stream *js, int depth, bool compact);
/* A buffer of `cap` bytes (malloc'd, or NULL) for a memory stream to
 * write into, before anything is written: it is grown as need be. */
void json_stream_give(struct json_stream *js, char *buf, size_t cap);
/* The buffer of a memory stream (malloc'd, the caller's now), its text's
 * length in *len and its size in *cap; `failed` says whether the text is
 * whole. */
char *json_stream_take(struct json_stream *js, size_t *len, size_t *cap);
/* `text`, an item json_stream_init_item's stream rendered for this place,
 * as the next item of the open container. */
void json_stream_put_item(struct json_stream *js, const char *text, size_t len);
/* Writes what is gathered to `out`; false (and `failed`) on a write error. */
bool json_stream_flush(struct json_stream *js);
/* Opens an object ('{') or array ('[') as the next item: a member named
 * `key` of the open object, or (key NULL) an element of the open array or
 * the document itself. */
void json_stream_open(struct json_stream *js, const char *key, char bracket);
void json_stream_close(struct json_stream *js);
/* Writes `value` as the next item and releases it (json_decref). A NULL
 * value (a failed allocation) marks the stream failed. */
void json_stream_put(struct json_stream *js, const char *key, json_t *value);
/* The same for a number, a string, true/false and null, written without a
 * json_t, byte for byte as jansson would (json_integer, json_string,
 * json_boolean, json_null). A NULL or non-UTF-8 string marks the stream
 * failed, as json_string would refuse it. */
void json_stream_put_int(struct json_stream *js, const char *key, json_int_t value);
void json_stream_put_string(struct json_stream *js, const char *key, const char *value);
void json_stream_put_bool(struct json_stream *js, const char *key, bool value);
void json_stream_put_null(struct json_stream *js, const char *key);
/* File bytes as a string, as json_string(json_bytes_text_dup(b)) is:
 * bytes that are not UTF-8 become \xNN text, and the text ends at a NUL
 * byte. */
void json_stream_put_bytes(struct json_stream *js, const char *key, struct mtlbx_bytes b);
/* The one spelling of file bytes (a name, a key, a path) as the text of
 * a JSON string, which every JSON writer of the library uses: valid UTF-8
 * is kept as it is (controls too: the encoder escapes them) and each byte
 * that is not UTF-8 becomes the text \xNN, so that jansson accepts it.
 * Into `out` (always NUL-terminated, cut on a character boundary); the
 * return is the length the whole text needs. */
size_t json_bytes_text(const void *bytes, size_t len, char *out, size_t out_size);
/* The same text, malloc'd; NULL out of memory. */
char *json_bytes_text_dup(const void *bytes, size_t len);
/* Writes every member of the object `members`, in order, as members of the
 * open object, and releases it. */
void json_stream_put_members(struct json_stream *js, json_t *members);

#endif
