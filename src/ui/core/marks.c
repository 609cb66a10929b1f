/* m then a letter names the current place (a view and where in it, as
 * the history keeps places); ' then the letter goes back there (a jump:
 * Backspace returns), as in vim and less. */
#include "config.h"

#include "ui/core/core.h"
#include "ui/term/term.h"

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
    if (key == TERM_KEY_GONE) {
        ex->quit = true;
        return 0;
    }
    if (key >= 'a' && key <= 'z')
        return key;
    if (key >= 'A' && key <= 'Z')
        return key - 'A' + 'a';
    return 0;
}

void marks_set(struct explorer *ex)
{
    struct jump j = view_here(ex);
    int c = read_letter(ex, "mark: press a letter (a-z)");
    if (!c) {
        ex_message(ex, "no mark set (marks are letters a-z)");
        return;
    }
    if (j.view == VIEW_NONE)
        return;
    ex->marks[c - 'a'] = j;
    ex_message(ex, "mark %c set ('%c comes back here)", c, c);
}

void marks_jump(struct explorer *ex)
{
    int c = read_letter(ex, "go to mark: press its letter");
    if (!c) {
        if (!ex->quit)
            ex_message(ex, "marks are letters a-z");
        return;
    }
    struct jump j = ex->marks[c - 'a'];
    if (j.view == VIEW_NONE) {
        ex_error(ex, "mark %c is not set (m%c sets it)", c, c);
        return;
    }
    history_push(ex);
    if (!goto_jump(ex, &j))
        return; /* goto_jump said why */
    if (!ex->status[0])
        ex_message(ex, "at mark %c (Backspace goes back)", c);
}
