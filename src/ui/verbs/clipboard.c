/* y: copies what is selected to the user's clipboard with OSC 52: in the
 * tree a function's name (else the node's label), in the detail panel the
 * field's value, in the hex panel the cursor's offset, in the text view
 * the current line, in the member list the member's path. What is copied
 * is the terminal-safe text shown on screen, never raw control bytes. */
#include "config.h"

#include "ui/text/osc52.h"
#include "ui/term/term.h"
#include "ui/text/textfmt.h"
#include "ui/core/ui.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void send(struct explorer *ex, const char *what, const char *text)
{
    size_t len = strlen(text), cap = len / 3 * 4 + 64;
    char *seq = malloc(cap);
    size_t n = seq ? osc52_encode((const uint8_t *)text, len, seq, cap) : 0;
    if (n == 0) {
        free(seq);
        ex_error(ex, "too long to copy (%zu bytes; the limit is %d)", len, OSC52_MAX_TEXT);
        return;
    }
    refresh();
    ssize_t w = write(STDOUT_FILENO, seq, n);
    free(seq);
    if (w != (ssize_t)n) {
        ex_error(ex, "could not send the copy to the terminal");
        return;
    }
    char shown[90];
    textfmt_sanitize((const uint8_t *)text, len, shown, sizeof shown, 8, 60);
    ex_message(ex, "copied %s: %s%s (OSC 52; in tmux: set -g set-clipboard on)", what, shown,
               textfmt_width(shown) >= 60 ? "..." : "");
}

static void copy_main(struct explorer *ex)
{
    mtlbx_node *n = ex_selected_node(ex);
    if (ex->focus == PANEL_HEX) {
        char off[32];
        snprintf(off, sizeof off, "0x%" PRIx64, ex->hex.cursor);
        send(ex, "the offset", off);
        return;
    }
    if (ex->focus == PANEL_DETAIL) {
        const struct field_row *f = detail_selected_field(ex);
        if (f) {
            char what[80];
            snprintf(what, sizeof what, "%.60s", f->name);
            send(ex, what, f->value);
            return;
        }
    }
    if (!n) {
        ex_error(ex, "nothing selected to copy");
        return;
    }
    long fn = action_function_of(n);
    if (n->kind == MTLBX_NODE_FUNCTION && fn >= 0 && n->lib) {
        const struct mtlbx_function *f = mtlbx_function_at(n->lib, (size_t)fn);
        char *name = mtlbx_escape_dup(f->name.ptr, f->name.len, MTLBX_ESC_TERMINAL);
        if (name)
            send(ex, "the name", name);
        free(name);
        return;
    }
    char label[512];
    tree_node_label(ex, ex_current_file_index(ex), n, label, sizeof label);
    send(ex, "the label", label);
}

static void copy_text_line(struct explorer *ex)
{
    struct textview *t = &ex->text;
    if (t->cur >= t->n_lines)
        return;
    size_t s = t->line_start[t->cur], e = t->line_start[t->cur + 1];
    if (e > s && t->data[e - 1] == '\n')
        e--;
    size_t cap = (e - s) * 6 + 1;
    char *safe = malloc(cap);
    if (!safe)
        return;
    textfmt_sanitize((const uint8_t *)t->data + s, e - s, safe, cap, 8, 1 << 30);
    send(ex, "the line", safe);
    free(safe);
}

static void copy_member(struct explorer *ex)
{
    const struct mtlbx_member *mem = members_selected(ex);
    if (!mem)
        return;
    const char *name = mem->name;
    char *safe = mtlbx_escape_dup((const uint8_t *)name, strlen(name), MTLBX_ESC_TERMINAL);
    if (safe)
        send(ex, "the path", safe);
    free(safe);
}

void clipboard_copy(struct explorer *ex)
{
    if (ex->screen == SCREEN_TEXT)
        copy_text_line(ex);
    else if (ex->screen == SCREEN_MEMBERS)
        copy_member(ex);
    else
        copy_main(ex);
}
