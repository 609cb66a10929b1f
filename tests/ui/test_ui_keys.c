/* The key table: dispatch, consistency and the help derived from it. */
#include "config.h"

#include <criterion/criterion.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/term/keys.h"

Test(keys, the_issue_s_minimum_keys_dispatch)
{
    cr_assert_eq(key_lookup(KC_TREE, 'j'), ACT_DOWN);
    cr_assert_eq(key_lookup(KC_TREE, KEY_DOWN), ACT_DOWN);
    cr_assert_eq(key_lookup(KC_TREE, 'k'), ACT_UP);
    cr_assert_eq(key_lookup(KC_TREE, 'h'), ACT_LEFT);
    cr_assert_eq(key_lookup(KC_TREE, 'l'), ACT_RIGHT);
    cr_assert_eq(key_lookup(KC_TREE, KEY_NPAGE), ACT_PAGE_DOWN);
    cr_assert_eq(key_lookup(KC_TREE, KEY_PPAGE), ACT_PAGE_UP);
    cr_assert_eq(key_lookup(KC_TREE, 'g'), ACT_TOP);
    cr_assert_eq(key_lookup(KC_TREE, 'G'), ACT_BOTTOM);
    cr_assert_eq(key_lookup(KC_TREE, '\t'), ACT_NEXT_PANEL);
    cr_assert_eq(key_lookup(KC_HEX, '\t'), ACT_NEXT_PANEL);
    cr_assert_eq(key_lookup(KC_DETAIL, '\n'), ACT_ENTER);
    cr_assert_eq(key_lookup(KC_DETAIL, '\r'), ACT_ENTER);
    cr_assert_eq(key_lookup(KC_TREE, KEY_BACKSPACE), ACT_BACK);
    cr_assert_eq(key_lookup(KC_TREE, 127), ACT_BACK);
    cr_assert_eq(key_lookup(KC_TREE, '/'), ACT_SEARCH);
    cr_assert_eq(key_lookup(KC_TREE, 'n'), ACT_SEARCH_NEXT);
    cr_assert_eq(key_lookup(KC_TREE, 'N'), ACT_SEARCH_PREV);
    cr_assert_eq(key_lookup(KC_TREE, ':'), ACT_GOTO);
    cr_assert_eq(key_lookup(KC_HEX, 'o'), ACT_GOTO);
    cr_assert_eq(key_lookup(KC_TREE, '?'), ACT_HELP);
    cr_assert_eq(key_lookup(KC_TREE, 'q'), ACT_QUIT);
    cr_assert_eq(key_lookup(KC_TREE, 'e'), ACT_EXTRACT);
    cr_assert_eq(key_lookup(KC_TREE, 'd'), ACT_DISASSEMBLE);
    cr_assert_eq(key_lookup(KC_TREE, 's'), ACT_SOURCES);
    cr_assert_eq(key_lookup(KC_TREE, 'w'), ACT_WRITE);
}

/* Space marks in the function table (as file managers mark files) and
 * pages down everywhere else; the function table's help does not offer
 * it for paging. */
Test(keys, space_marks_in_the_function_table_only)
{
    cr_assert_eq(key_lookup(KC_FUNCS, ' '), ACT_MARK);
    cr_assert_eq(key_lookup(KC_FUNCS, KEY_IC), ACT_MARK);
    cr_assert_eq(key_lookup(KC_FUNCS, 'w'), ACT_WRITE);
    cr_assert_eq(key_lookup(KC_FUNCS, 'a'), ACT_MARK_ALL);
    cr_assert_eq(key_lookup(KC_FUNCS, 'u'), ACT_UNMARK_ALL);
    cr_assert_eq(key_lookup(KC_FUNCS, 'v'), ACT_MARK_INVERT);
    cr_assert_eq(key_lookup(KC_FUNCS, 'm'), ACT_SET_MARK);
    cr_assert_eq(key_lookup(KC_PAGE, ' '), ACT_PAGE_DOWN);
    cr_assert_eq(key_lookup(KC_TREE, ' '), ACT_PAGE_DOWN);
    cr_assert_eq(key_lookup(KC_TEXT, ' '), ACT_PAGE_DOWN);
    char *help = keys_help_text(KC_FUNCS);
    cr_assert_not_null(help);
    char *all = strstr(help, "All keys, by view");
    cr_assert_not_null(all);
    *all = '\0';
    cr_expect_not_null(strstr(help, "Space, Insert"));
    cr_expect_null(strstr(help, "Ctrl-F, Space"), "%s", help);
    cr_expect_not_null(strstr(help, "PgDn, Ctrl-F "));
    free(help);
}

Test(keys, context_decides_the_meaning)
{
    cr_assert_eq(key_lookup(KC_HEX, 'h'), ACT_LEFT);
    cr_assert_eq(key_lookup(KC_TEXT, 'q'), ACT_QUIT);
    cr_assert_eq(key_lookup(KC_TEXT, 27), ACT_QUIT);     /* Esc closes a view */
    cr_assert_eq(key_lookup(KC_TREE, 27), ACT_CLEAR);    /* but never quits: it clears */
    cr_assert_eq(key_lookup(KC_TEXT, 'e'), ACT_NONE);
    cr_assert_eq(key_lookup(KC_MEMBERS, 'W'), ACT_WRITE_ALL);
    cr_assert_eq(key_lookup(KC_TREE, 'W'), ACT_NONE);
    cr_assert_eq(key_lookup(KC_TEXT, 'w'), ACT_WRITE);
    cr_assert_eq(key_lookup(KC_TREE, 0), ACT_NONE);
    cr_assert_eq(key_lookup(KC_TREE, 'Z'), ACT_NONE);
}

/* A key must not mean two things in one context (the second binding
 * would be dead and its help a lie). */
Test(keys, no_key_is_bound_twice_in_one_context)
{
    static const unsigned ctx[] = { KC_TREE, KC_DETAIL, KC_HEX, KC_TEXT, KC_MEMBERS };
    for (size_t c = 0; c < 5; c++)
        for (size_t i = 0; i < key_table_len; i++)
            for (int k = 0; k < KEYS_PER_BINDING && key_table[i].keys[k]; k++) {
                if (!(key_table[i].contexts & ctx[c]))
                    continue;
                for (size_t j = i + 1; j < key_table_len; j++) {
                    if (!(key_table[j].contexts & ctx[c]))
                        continue;
                    for (int m = 0; m < KEYS_PER_BINDING && key_table[j].keys[m]; m++)
                        cr_assert_neq(key_table[i].keys[k], key_table[j].keys[m],
                                      "key %d bound twice in context %u", key_table[i].keys[k], ctx[c]);
                }
            }
}

Test(keys, every_binding_is_in_the_help)
{
    char *help = keys_help_text(0);
    cr_assert_not_null(help);
    for (size_t i = 0; i < key_table_len; i++)
        cr_assert_not_null(strstr(help, key_table[i].help), "missing: %s", key_table[i].help);
    cr_assert_not_null(strstr(help, "Tree panel"));
    cr_assert_not_null(strstr(help, "Backspace"));
    free(help);
}

Test(keys, names)
{
    char b[32];
    cr_assert_str_eq(key_display_name('j', b, sizeof b), "j");
    cr_assert_str_eq(key_display_name(KEY_NPAGE, b, sizeof b), "PgDn");
    cr_assert_str_eq(key_display_name('\n', b, sizeof b), "Enter");
    cr_assert_str_eq(key_display_name(12, b, sizeof b), "Ctrl-L");
    cr_assert_str_eq(key_display_name(KEY_F(1), b, sizeof b), "F1");
    cr_assert_str_eq(key_display_name(' ', b, sizeof b), "Space");
}

Test(keys, footer_fits_its_width)
{
    char b[512];
    for (int w = 0; w < 200; w += 9) {
        keys_footer(KC_TREE, w, b, sizeof b);
        cr_assert_leq((int)strlen(b), w);
    }
    keys_footer(KC_TREE, 200, b, sizeof b);
    cr_assert_not_null(strstr(b, "? help"));
    cr_assert_not_null(strstr(b, "d llvm-dis"));
}

/* The man page and the README document every key (when the source tree
 * is at hand): their KEYS sections are printed by src/ui/keydoc. */
static void doc_names_every_binding(const char *relative)
{
    const char *src = getenv("MTLBX_SRCDIR");
    if (!src)
        src = getenv("srcdir");
    if (!src)
        cr_skip_test("MTLBX_SRCDIR not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", src, relative);
    FILE *f = fopen(path, "r");
    if (!f)
        cr_skip_test("no %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    for (size_t i = 0; i < key_table_len; i++)
        cr_expect_not_null(strstr(text, key_table[i].help), "%s lacks: %s (run src/ui/keydoc)",
                           relative, key_table[i].help);
}

Test(keys, the_man_page_names_every_binding)
{
    doc_names_every_binding("man/mtlbx.1");
}

Test(keys, the_readme_names_every_binding)
{
    doc_names_every_binding("README.md");
}
