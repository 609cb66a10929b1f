/* Text from the file made safe for the screen. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <string.h>
#include <wchar.h>

#include "ui/text/textfmt.h"

static void utf8_locale(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "en_US.UTF-8");
}

TestSuite(textfmt, .init = utf8_locale);

static const char *san(const char *in, size_t len)
{
    static char out[1024];
    textfmt_sanitize((const uint8_t *)in, len, out, sizeof out, 8, 1000);
    return out;
}

Test(textfmt, escape_sequences_become_visible)
{
    const char evil[] = "name\x1b]0;pwned\x07\x1b[2J";
    const char *s = san(evil, sizeof evil - 1);
    cr_assert_str_eq(s, "name\\x1b]0;pwned\\x07\\x1b[2J");
    cr_assert_null(strchr(s, 0x1b));
}

Test(textfmt, invalid_utf8_and_c1_controls_are_escaped)
{
    cr_assert_str_eq(san("a\xff" "b", 3), "a\\xffb");
    cr_assert_str_eq(san("\xc0\xaf", 2), "\\xc0\\xaf");               /* overlong '/' */
    cr_assert_str_eq(san("\xc2\x9b" "1m", 4), "\\u009b1m");            /* C1 CSI */
    cr_assert_str_eq(san("x\xe2\x80\xae" "y", 5), "x\\u202ey");         /* bidi override */
    cr_assert_str_eq(san("\xed\xa0\x80", 3), "\\xed\\xa0\\x80");        /* surrogate */
}

Test(textfmt, valid_utf8_and_backslashes_are_kept)
{
    cr_assert_str_eq(san("caf\xc3\xa9 \xe6\xbc\xa2", 9), "caf\xc3\xa9 \xe6\xbc\xa2");
    cr_assert_str_eq(san("c\"a\\00\"", 7), "c\"a\\00\"");
}

Test(textfmt, tabs_expand_to_columns)
{
    cr_assert_str_eq(san("a\tb", 3), "a       b");
    cr_assert_str_eq(san("abcdefgh\tx", 10), "abcdefgh        x");
    cr_assert_str_eq(san("\xe6\xbc\xa2\tx", 5), "\xe6\xbc\xa2      x");  /* wide char is 2 columns */
}

Test(textfmt, stops_after_max_cols)
{
    char out[64];
    textfmt_sanitize((const uint8_t *)"0123456789", 10, out, sizeof out, 8, 4);
    cr_assert_str_eq(out, "0123");
}

Test(textfmt, output_buffer_is_never_overrun)
{
    char out[8];
    textfmt_sanitize((const uint8_t *)"\x01\x02\x03\x04", 4, out, sizeof out, 8, 100);
    cr_assert_lt(strlen(out), sizeof out);
}

Test(textfmt, clip_by_columns)
{
    wchar_t w[64];
    cr_assert_eq(textfmt_clip("hello world", 0, 5, false, w, 64), 5);
    cr_assert(wcscmp(w, L"hello") == 0);
    cr_assert_eq(textfmt_clip("hello world", 6, 20, false, w, 64), 5);
    cr_assert(wcscmp(w, L"world") == 0);
    /* A wide character that does not fit is left out, not cut. */
    cr_assert_eq(textfmt_clip("a\xe6\xbc\xa2", 0, 2, false, w, 64), 1);
    /* A locale that cannot show it gets '?'. */
    textfmt_clip("caf\xc3\xa9", 0, 10, true, w, 64);
    cr_assert(wcscmp(w, L"caf?") == 0);
}

Test(textfmt, clip_never_passes_a_control_character)
{
    wchar_t w[64];
    textfmt_clip("a\x1b[2J\xc2\x9b\xe2\x80\xae" "b", 0, 40, false, w, 64);
    cr_assert(wcscmp(w, L"a?[2J??b") == 0);
}

Test(textfmt, width_and_find)
{
    cr_assert_eq(textfmt_width("abc"), 3);
    cr_assert_eq(textfmt_width("\xe6\xbc\xa2"), 2);
    cr_assert_eq(textfmt_find((const uint8_t *)"define void @Foo()", 18, "@foo"), 12);
    cr_assert_eq(textfmt_find((const uint8_t *)"abc", 3, "abcd"), -1);
}
