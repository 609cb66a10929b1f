/* Making text from the file (llvm-dis output, source members, names) safe
 * and measurable for the screen, without a terminal: control bytes become
 * visible escapes, tabs are expanded, valid UTF-8 is kept, and strings are
 * cut to a number of screen columns on character boundaries. */
#ifndef MTLBX_UI_TEXTFMT_H
#define MTLBX_UI_TEXTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* Decodes one UTF-8 character; returns the bytes it used, or 0 if the
 * bytes at s are not valid UTF-8 (overlong, surrogate, truncated...). */
size_t utf8_decode(const uint8_t *s, size_t len, uint32_t *cp);

/* Screen columns of a code point: 0 or more; unknown widths count as 1. */
int textfmt_cp_width(uint32_t cp);

/* Turns one line of raw bytes into displayable UTF-8: tabs expand to the
 * next multiple of `tabstop` columns, C0/C1 controls, DEL and bidi
 * overrides become "\xNN" or "\uNNNN", invalid UTF-8 bytes "\xNN".
 * Stops once `max_cols` columns are produced (the rest is off screen).
 * Always NUL-terminates; returns the bytes written. */
size_t textfmt_sanitize(const uint8_t *in, size_t len, char *out, size_t cap,
                        int tabstop, int max_cols);

/* A name, path or message (from the file, or typed by the user) as one
 * piece of text for the screen, the explorer's one use of the library's
 * terminal escaping (container/escape.h): controls, bidi and invisible
 * characters and invalid UTF-8 become \xNN, a backslash \\. Every view
 * and verb that shows such a string asks here. Malloc'd; NULL out of
 * memory. */
char *textfmt_escape_dup(const void *bytes, size_t len);
char *textfmt_escape_str_dup(const char *s);

/* One character of possibly invalid UTF-8: its bytes (at least 1 while
 * len > 0; an invalid byte counts as one '?') and its columns. */
size_t textfmt_step(const uint8_t *s, size_t len, int *cols);

/* Columns that a (valid UTF-8) string occupies. */
int textfmt_width(const char *utf8);

/* The part of `utf8` visible after skipping `skip_cols` columns, at most
 * `width` columns wide, as wide characters (NUL-terminated in `out`).
 * Control characters (C0, C1, DEL, bidi overrides) become '?'; with
 * `ascii_only`, so does anything outside ASCII (a locale that cannot
 * display it). Returns the columns used. */
int textfmt_clip(const char *utf8, int skip_cols, int width, bool ascii_only,
                 wchar_t *out, size_t cap);

/* Case-insensitive (ASCII) search for `needle` in a byte range.
 * Returns the offset of the first match or -1. */
long textfmt_find(const uint8_t *hay, size_t len, const char *needle);

#endif
