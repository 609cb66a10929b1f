/* The growable text buffer (util/text_buf.c): appends stay NUL-terminated
 * whatever their size, printf formats in place, a buffer handed over is
 * filled from its start and handed back with its size, and a failed
 * buffer gives no text. */
#include "config.h"

#include "program/text_buf.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

Test(text_buf, appends_grow_and_stay_terminated)
{
    struct text_buf t = { 0 };
    cr_expect_null(text_buf_take(&t, NULL, NULL), "nothing added: no text");
    char want[5000];
    for (int i = 0; i < 1000; i++) {
        text_buf_add(&t, "abcde", 5);
        memcpy(want + 5 * i, "abcde", 5);
        cr_assert_eq(t.len, (size_t)5 * (i + 1));
        cr_assert_eq(t.s[t.len], '\0');
        cr_assert_geq(t.cap, t.len + 1);
    }
    cr_expect_eq(memcmp(t.s, want, sizeof want), 0);
    text_buf_add(&t, "", 0);
    text_buf_add(&t, "x\0y", 3);      /* bytes, NULs included */
    cr_expect_eq(t.len, 5003);
    cr_expect_eq(t.s[5001], '\0');
    cr_expect_eq(t.s[5002], 'y');
    size_t len, cap;
    char *s = text_buf_take(&t, &len, &cap);
    cr_expect_eq(len, 5003);
    cr_expect_geq(cap, 5004);
    cr_expect_null(t.s, "taken: the buffer is empty again");
    free(s);
}

Test(text_buf, printf_and_strings)
{
    struct text_buf t = { 0 };
    text_buf_str(&t, "n=");
    text_buf_printf(&t, "%d %s %0300d", 42, "words", 7);
    cr_expect_eq(t.len, strlen("n=42 words ") + 300);
    cr_expect_eq(strncmp(t.s, "n=42 words 000", 14), 0);
    cr_expect_eq(t.s[t.len - 1], '7');
    text_buf_free(&t);
    cr_expect_null(t.s);
}

Test(text_buf, an_adopted_buffer_is_filled_from_its_start)
{
    struct text_buf t = { 0 };
    char *buf = malloc(8);
    memcpy(buf, "garbage", 8);
    text_buf_adopt(&t, buf, 8);
    text_buf_str(&t, "hi");
    cr_expect_eq(t.s, buf, "it fits: no new buffer");
    cr_expect_str_eq(t.s, "hi");
    text_buf_str(&t, " there, more than eight");
    size_t len, cap;
    char *s = text_buf_take(&t, &len, &cap);
    cr_expect_str_eq(s, "hi there, more than eight");
    cr_expect_eq(len, strlen(s));
    free(s);
}

Test(text_buf, a_failed_buffer_gives_nothing)
{
    struct text_buf t = { 0 };
    text_buf_str(&t, "kept so far");
    text_buf_add(&t, "x", SIZE_MAX - 2);  /* cannot fit: fails, copies nothing */
    cr_expect(t.failed);
    text_buf_str(&t, "ignored");
    cr_expect_eq(t.len, strlen("kept so far"));
    size_t len = 1, cap = 1;
    cr_expect_null(text_buf_take(&t, &len, &cap));
    cr_expect_eq(len, 0);
    cr_expect_eq(cap, 0);
}
