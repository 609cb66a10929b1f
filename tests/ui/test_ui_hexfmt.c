/* Hex rows: width adaptation, column positions and the text of a row. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ui/text/hexfmt.h"

Test(hexfmt, offset_digits_grow_with_the_file)
{
    cr_assert_eq(hexfmt_offset_digits(0), 8);
    cr_assert_eq(hexfmt_offset_digits(0x100000000ull), 8);
    cr_assert_eq(hexfmt_offset_digits(0x100000001ull), 9);
}

Test(hexfmt, bytes_per_row_fits_the_width)
{
    cr_assert_eq(hexfmt_bytes_per_row(80, 8), 16);    /* the 80x24 case */
    cr_assert_eq(hexfmt_bytes_per_row(76, 8), 16);
    cr_assert_eq(hexfmt_bytes_per_row(75, 8), 8);
    cr_assert_eq(hexfmt_bytes_per_row(200, 8), 32);
    cr_assert_eq(hexfmt_bytes_per_row(30, 8), 4);
    cr_assert_eq(hexfmt_bytes_per_row(5, 8), 4);      /* never zero */
    for (int w = 27; w < 300; w++)
        cr_assert_leq(hexfmt_row_width(hexfmt_bytes_per_row(w, 8), 8), w, "width %d", w);
}

Test(hexfmt, a_full_row)
{
    uint8_t b[16];
    for (int i = 0; i < 16; i++)
        b[i] = (uint8_t)(0x41 + i);
    b[0] = 'M'; b[1] = 'T'; b[2] = 'L'; b[3] = 'B'; b[4] = 0x00; b[5] = 0x1b; b[6] = 0x7f; b[7] = 0xff;
    char out[256];
    size_t n = hexfmt_row(out, sizeof out, 0x10, b, 16, 16, 8);
    cr_assert_eq(n, 76);
    cr_assert_str_eq(out, "00000010  4d 54 4c 42 00 1b 7f ff  49 4a 4b 4c 4d 4e 4f 50  MTLB....IJKLMNOP");
}

Test(hexfmt, a_short_last_row_is_blank_padded)
{
    const uint8_t b[3] = { 1, 2, 3 };
    char out[256];
    hexfmt_row(out, sizeof out, 0x20, b, 3, 8, 8);
    cr_assert_str_eq(out, "00000020  01 02 03" "                 " "...     ");
    cr_assert_eq((int)strlen(out), hexfmt_row_width(8, 8));
}

Test(hexfmt, columns_match_the_text)
{
    uint8_t b[32];
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)('a' + i % 26);
    char out[256];
    hexfmt_row(out, sizeof out, 0, b, 32, 32, 8);
    for (int i = 0; i < 32; i++) {
        char hx[3];
        snprintf(hx, sizeof hx, "%02x", b[i]);
        cr_assert_eq(strncmp(out + hexfmt_hex_col(i, 32, 8), hx, 2), 0, "byte %d", i);
        cr_assert_eq(out[hexfmt_ascii_col(i, 32, 8)], (char)b[i]);
    }
}

Test(hexfmt, too_small_a_buffer_writes_nothing)
{
    const uint8_t b[4] = { 0 };
    char out[10];
    cr_assert_eq(hexfmt_row(out, sizeof out, 0, b, 4, 4, 8), 0);
    cr_assert_str_eq(out, "");
}
