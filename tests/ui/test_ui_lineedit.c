/* The prompts' line editor. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "ui/text/lineedit.h"

Test(lineedit, insert_and_move)
{
    struct lineedit e;
    lineedit_set(&e, "ac");
    lineedit_left(&e);
    lineedit_insert(&e, "b", 1);
    cr_assert_str_eq(e.buf, "abc");
    cr_assert_eq(e.cursor, 2);
    lineedit_home(&e);
    lineedit_delete(&e);
    cr_assert_str_eq(e.buf, "bc");
    lineedit_end(&e);
    lineedit_backspace(&e);
    cr_assert_str_eq(e.buf, "b");
}

Test(lineedit, utf8_is_never_split)
{
    struct lineedit e;
    lineedit_set(&e, "a\xc3\xa9");
    lineedit_backspace(&e);
    cr_assert_str_eq(e.buf, "a");
    lineedit_set(&e, "\xe6\xbc\xa2x");
    lineedit_home(&e);
    lineedit_right(&e);
    cr_assert_eq(e.cursor, 3);
    lineedit_left(&e);
    cr_assert_eq(e.cursor, 0);
}

Test(lineedit, kill_word_and_line)
{
    struct lineedit e;
    lineedit_set(&e, "./out/dir/name.air");
    lineedit_kill_word(&e);
    cr_assert_str_eq(e.buf, "./out/dir/");
    lineedit_kill_line(&e);
    cr_assert_str_eq(e.buf, "");
}

Test(lineedit, full_buffer_refuses)
{
    struct lineedit e;
    char big[LINEEDIT_MAX + 10];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    lineedit_set(&e, big);
    cr_assert_eq(e.len, LINEEDIT_MAX - 1);
    cr_assert_not(lineedit_insert(&e, "y", 1));
}
