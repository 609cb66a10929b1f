/* Parsing what the user types at the prompts: offsets for `:`/`o`, and
 * search queries for `/` (names and tags, hex bytes, raw strings). Pure. */
#ifndef MTLBX_UI_QUERY_H
#define MTLBX_UI_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum offset_parse_result {
    OFFSET_OK = 0,
    OFFSET_SYNTAX = -1,        /* not a number we understand */
    OFFSET_RANGE = -2,         /* a number, but outside the file */
};

/* "0x58", "88", "+16", "-0x10" (relative to `current`), "$" (last byte).
 * `file_size` bounds the result (an offset must name a byte of the file). */
enum offset_parse_result parse_offset(const char *text, uint64_t current,
                                      uint64_t file_size, uint64_t *out);

/* "4d 54 4c 42", "4d544c42", "0x4d 0x54": bytes, or -1 if not hex pairs. */
long parse_hex_bytes(const char *text, uint8_t *out, size_t cap);

enum query_kind {
    QUERY_LABEL,               /* node labels: names, tag FourCCs, kinds */
    QUERY_BYTES,               /* a byte sequence in the file */
};

#define QUERY_MAX 256

struct query {
    enum query_kind kind;
    char text[QUERY_MAX];      /* as typed, minus any prefix */
    uint8_t bytes[QUERY_MAX];
    size_t n_bytes;
    bool tag_like;             /* four upper-case letters or digits: also match tags */
};

/* "x 4d544c42" or "x:4d.." is hex; a leading '"' searches raw bytes; in the
 * hex panel (`in_hex`) a plain query is hex if it can be, else raw text;
 * elsewhere it searches labels. Returns false for an empty or bad query,
 * with a reason in `why`. */
bool query_parse(const char *input, bool in_hex, struct query *q, char *why, size_t why_size);
/* The query of a view that searches text, not the file's bytes (the list
 * views' names, paths and types, the pager's lines): the whole input, as
 * typed, is the text, so a function called "x y" or a quoted type is
 * found as itself instead of being read as hex or raw bytes. False for
 * an empty query, with a reason in `why`. */
bool query_parse_text(const char *input, struct query *q, char *why, size_t why_size);

/* Byte search with wrap-around: the first match after `from` going
 * forward (or before `from` going backward). Returns -1 if none. */
int64_t query_find_bytes(const uint8_t *data, uint64_t size, const uint8_t *pat, size_t n,
                         uint64_t from, bool forward);

/* Lowest (forward) or highest match starting in [lo, hi], or -1: the
 * piece a chunked, cancellable byte search calls over and over. */
int64_t query_find_bytes_in(const uint8_t *data, uint64_t size, const uint8_t *pat, size_t n,
                            uint64_t lo, uint64_t hi, bool forward);

/* Case-insensitive substring test for label search. */
bool query_label_matches(const struct query *q, const char *label);

#endif
