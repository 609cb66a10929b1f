/* m then a letter marks the selection, the detail row and the hex cursor;
 * ' then the letter goes back there (a jump: Backspace returns), as in vim
 * and less. */
#include "config.h"

#include "ui/term/term.h"
#include "ui/core/ui.h"

static int read_letter(struct explorer *ex, const char *ask)
{
    ex_message(ex, "%s", ask);
    ex_draw(ex);
    wint_t wide;
    int key;
    do
        key = term_read_key(-1, &wide);
    while (key == KEY_RESIZE || key == ERR);
    ex->status[0] = '\0';
    if (key >= 'a' && key <= 'z')
        return key;
    if (key >= 'A' && key <= 'Z')
        return key - 'A' + 'a';
    return 0;
}

void marks_set(struct explorer *ex)
{
    struct jump j = ex_here(ex);
    int c = read_letter(ex, "mark: press a letter (a-z)");
    if (!c) {
        ex_message(ex, "no mark set (marks are letters a-z)");
        return;
    }
    if (!j.node)
        return;
    ex->marks[c - 'a'] = j;
    ex_message(ex, "mark %c set ('%c comes back here)", c, c);
}

void marks_jump(struct explorer *ex)
{
    int c = read_letter(ex, "go to mark: press its letter");
    if (!c) {
        ex_message(ex, "marks are letters a-z");
        return;
    }
    struct jump *j = &ex->marks[c - 'a'];
    if (!j->node) {
        ex_error(ex, "mark %c is not set (m%c sets it)", c, c);
        return;
    }
    ex_push_history(ex);
    if (!ex_restore_jump(ex, j)) {
        ex_error(ex, "mark %c is hidden by the filter (Esc clears it)", c);
        return;
    }
    ex_message(ex, "at mark %c (Backspace goes back)", c);
}
