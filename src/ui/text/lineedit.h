/* A one-line text editor for the prompts (search, offsets, file paths):
 * insert, delete, move by character, kill line and word. Pure, UTF-8. */
#ifndef MTLBX_UI_LINEEDIT_H
#define MTLBX_UI_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#define LINEEDIT_MAX 1024

struct lineedit {
    char buf[LINEEDIT_MAX];    /* always NUL-terminated UTF-8 */
    size_t len, cursor;        /* byte positions, on character boundaries */
};

void lineedit_set(struct lineedit *e, const char *text);
/* Inserts bytes at the cursor; false if it does not fit. */
bool lineedit_insert(struct lineedit *e, const char *bytes, size_t n);
void lineedit_backspace(struct lineedit *e);
void lineedit_delete(struct lineedit *e);
void lineedit_left(struct lineedit *e);
void lineedit_right(struct lineedit *e);
void lineedit_home(struct lineedit *e);
void lineedit_end(struct lineedit *e);
void lineedit_kill_line(struct lineedit *e);   /* Ctrl-U: everything before the cursor */
void lineedit_kill_word(struct lineedit *e);   /* Ctrl-W: the word before the cursor */

#endif
