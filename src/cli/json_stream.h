/* A streaming writer for one JSON document, so that `dump --json` holds
 * one function's jansson object at a time instead of the whole tree. The
 * skeleton (the root, the libraries, the function arrays) is written here;
 * every value inside it is a json_t, encoded by jansson and freed at once.
 * The bytes are exactly what json_dumpf(tree, JSON_INDENT(1) |
 * JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) would print for the whole tree,
 * or with `compact` set, what JSON_COMPACT in place of JSON_INDENT(1)
 * would (one line: `find --json`). */
#ifndef MTLBX_JSON_STREAM_H
#define MTLBX_JSON_STREAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define JSON_STREAM_MAX_DEPTH 8

struct json_stream {
    FILE *out;
    int depth;                                   /* containers open */
    bool has_items[JSON_STREAM_MAX_DEPTH + 1];   /* per open container */
    char closer[JSON_STREAM_MAX_DEPTH + 1];      /* '}' or ']' */
    bool failed;                                 /* a NULL value, an encoder error, too deep */
    bool compact;                                /* one line, as JSON_COMPACT (set after init) */
};

void json_stream_init(struct json_stream *js, FILE *out);
/* Opens an object ('{') or array ('[') as the next item: a member named
 * `key` of the open object, or (key NULL) an element of the open array or
 * the document itself. */
void json_stream_open(struct json_stream *js, const char *key, char bracket);
void json_stream_close(struct json_stream *js);
/* Writes `value` as the next item and releases it (json_decref). A NULL
 * value (a failed allocation) marks the stream failed. */
void json_stream_put(struct json_stream *js, const char *key, json_t *value);
/* The same for a number and a string, written without a json_t: the
 * layout's 400,000 small objects would spend most of their time making and
 * dumping one each. The bytes are still jansson's (a string that needs an
 * escape goes through it); a NULL or non-UTF-8 string marks the stream
 * failed, as json_string would. */
void json_stream_put_int(struct json_stream *js, const char *key, json_int_t value);
void json_stream_put_string(struct json_stream *js, const char *key, const char *value);
/* Writes every member of the object `members`, in order, as members of the
 * open object, and releases it. */
void json_stream_put_members(struct json_stream *js, json_t *members);

#endif
