/* Hex rows: "00000010  4d 54 4c 42 ... 00 00  MTLB...." with one extra
 * space between groups of eight bytes, which is what hexdump -C readers
 * expect to count by. */
#include "config.h"

#include "ui/text/hexfmt.h"

#include <string.h>

int hexfmt_offset_digits(uint64_t file_size)
{
    int digits = 8;
    while (digits < 16 && file_size > 0 && ((file_size - 1) >> (digits * 4)) != 0)
        digits++;
    return digits;
}

int hexfmt_hex_col(int i, int bytes_per_row, int offset_digits)
{
    (void)bytes_per_row;
    return offset_digits + 2 + i * 3 + i / 8;
}

int hexfmt_ascii_col(int i, int bytes_per_row, int offset_digits)
{
    return offset_digits + 2 + bytes_per_row * 3 + (bytes_per_row - 1) / 8 + 1 + i;
}

int hexfmt_row_width(int bytes_per_row, int offset_digits)
{
    return hexfmt_ascii_col(bytes_per_row, bytes_per_row, offset_digits);
}

int hexfmt_bytes_per_row(int width, int offset_digits)
{
    static const int choices[] = { 32, 16, 8, 4 };
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++)
        if (hexfmt_row_width(choices[i], offset_digits) <= width)
            return choices[i];
    return 4;
}

size_t hexfmt_row(char *out, size_t size, uint64_t row_offset, const uint8_t *bytes,
                  size_t n_avail, int bytes_per_row, int offset_digits)
{
    static const char hex[] = "0123456789abcdef";
    int width = hexfmt_row_width(bytes_per_row, offset_digits);
    if (size == 0)
        return 0;
    if ((size_t)width >= size) {
        out[0] = '\0';
        return 0;
    }
    memset(out, ' ', (size_t)width);
    out[width] = '\0';
    for (int d = 0; d < offset_digits; d++)
        out[d] = hex[(row_offset >> ((offset_digits - 1 - d) * 4)) & 0xf];
    for (int i = 0; i < bytes_per_row && (size_t)i < n_avail; i++) {
        uint8_t b = bytes[i];
        int c = hexfmt_hex_col(i, bytes_per_row, offset_digits);
        out[c] = hex[b >> 4];
        out[c + 1] = hex[b & 0xf];
        out[hexfmt_ascii_col(i, bytes_per_row, offset_digits)] =
            (b >= 0x20 && b < 0x7f) ? (char)b : '.';
    }
    return (size_t)width;
}
