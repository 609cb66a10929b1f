/* y: copies what a view has selected to the user's clipboard with OSC 52
 * (a function's name, a field's value, an offset, a line of text, a
 * member's path: the view picks it). What is copied is the terminal-safe
 * text shown on screen, never raw control bytes. */
#include "config.h"

#include "ui/term/term.h"
#include "ui/text/osc52.h"
#include "ui/text/textfmt.h"
#include "ui/verbs/verbs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void verb_copy(struct explorer *ex, const char *what, const char *text)
{
    size_t len = strlen(text), cap = len / 3 * 4 + 64;
    char *seq = malloc(cap);
    size_t n = seq ? osc52_encode((const uint8_t *)text, len, seq, cap) : 0;
    if (n == 0) {
        free(seq);
        ex_error(ex, "too long to copy (%zu bytes; the limit is %d)", len, OSC52_MAX_TEXT);
        return;
    }
    bool sent = term_send_raw(seq, n);
    free(seq);
    if (!sent) {
        ex_error(ex, "could not send the copy to the terminal");
        return;
    }
    char shown[90];
    textfmt_sanitize((const uint8_t *)text, len, shown, sizeof shown, 8, 60);
    ex_message(ex, "copied %s: %s%s (OSC 52; in tmux: set -g set-clipboard on)", what, shown,
               textfmt_width(shown) >= 60 ? "..." : "");
}
