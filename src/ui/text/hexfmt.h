/* Hex dump row formatting, pure: offset, hex bytes, ASCII. The hex panel
 * draws these strings and uses the column helpers to colour single bytes. */
#ifndef MTLBX_UI_HEXFMT_H
#define MTLBX_UI_HEXFMT_H

#include <stddef.h>
#include <stdint.h>

/* Hex digits needed for every offset of a file this size (at least 8). */
int hexfmt_offset_digits(uint64_t file_size);

/* The widest of 32, 16, 8 or 4 bytes a row that fits `width` columns. */
int hexfmt_bytes_per_row(int width, int offset_digits);

/* Columns one row occupies. */
int hexfmt_row_width(int bytes_per_row, int offset_digits);

/* Column of byte i's first hex digit, and of its ASCII character. */
int hexfmt_hex_col(int i, int bytes_per_row, int offset_digits);
int hexfmt_ascii_col(int i, int bytes_per_row, int offset_digits);

/* Formats one row starting at `row_offset`: `n_avail` bytes (fewer than
 * bytes_per_row at the end of the file leave blanks). Non-printable bytes
 * show as '.' in the ASCII column, so the row is always plain ASCII.
 * Returns the length written (out is always NUL-terminated). */
size_t hexfmt_row(char *out, size_t size, uint64_t row_offset, const uint8_t *bytes,
                  size_t n_avail, int bytes_per_row, int offset_digits);

#endif
