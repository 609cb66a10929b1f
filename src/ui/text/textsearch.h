/* Search in the text view, without a terminal: which lines hold the
 * query (case-insensitive, as less -i), stepping from match to match with
 * wrap-around, and where in a drawn line the matches lie. Pure. */
#ifndef MTLBX_UI_TEXTSEARCH_H
#define MTLBX_UI_TEXTSEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/text/hl.h"

/* The lines (0-based, ascending) of a text holding `needle`: line i is
 * data[line_start[i] .. line_start[i + 1]). *n gets the count; returns
 * NULL when there is none, or on no memory (then *n is (size_t)-1). */
size_t *textsearch_lines(const char *data, const size_t *line_start, size_t n_lines, const char *needle,
                         size_t *n);

/* How many entries of `lines` (ascending) come before `line`. */
size_t textsearch_rank(const size_t *lines, size_t n, size_t line);

/* The index in `lines` of the next match after line `cur` (forward) or
 * the one before it; wraps around, setting *wrapped. n must be > 0. */
size_t textsearch_step(const size_t *lines, size_t n, size_t cur, bool forward, bool *wrapped);

/* Where `needle` occurs in s (case-insensitive, not overlapping), as
 * spans of kind HL_NONE; returns how many, at most cap. */
size_t textsearch_spans(const char *s, size_t len, const char *needle, struct hl_span *out, size_t cap);

#endif
