/* Line input on the status line (search, offsets, file paths) and yes/no
 * questions. The prompt redraws the screen under it on resize. Every
 * prompt keeps a history (Up/Down), as a shell does: the path prompts
 * share one, and complete paths with Tab. */
#include "config.h"

#include "ui/text/lineedit.h"
#include "ui/text/pathcomplete.h"
#include "ui/term/term.h"
#include "ui/text/rowfmt.h"
#include "ui/text/textfmt.h"
#include "ui/core/core.h"
#include "ui/widgets/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <wchar.h>

#define CTRL(c) ((c) & 0x1f)

/* Reads a key for a prompt; a resize relayouts and repaints underneath,
 * and is reported as ERR so the caller just redraws its own line. */
static int prompt_key(struct explorer *ex, wint_t *wide)
{
    int key = term_read_key(-1, wide);
    if (key == TERM_KEY_GONE) {
        /* No terminal to answer: cancel the prompt, and the main loop
         * then ends the explorer. */
        ex->quit = true;
        return 27;
    }
    if (key == KEY_RESIZE) {
        ex_relayout(ex);
        ex_draw(ex);
        return ERR;
    }
    return key;
}

/* The history of one kind of prompt (by label; all path prompts share
 * "path"), oldest first. It lives as long as the program. */
#define HISTORY_ITEMS 50
#define HISTORY_KINDS 16

struct prompt_history {
    char key[64];
    char *items[HISTORY_ITEMS];
    size_t n;
};

static struct prompt_history histories[HISTORY_KINDS];

static struct prompt_history *history_for(const char *key)
{
    for (size_t i = 0; i < HISTORY_KINDS; i++)
        if (strcmp(histories[i].key, key) == 0)
            return &histories[i];
    for (size_t i = 0; i < HISTORY_KINDS; i++)
        if (histories[i].key[0] == '\0') {
            snprintf(histories[i].key, sizeof histories[i].key, "%s", key);
            return &histories[i];
        }
    return NULL;
}

static void history_add(struct prompt_history *h, const char *text)
{
    if (!h || !*text || (h->n && strcmp(h->items[h->n - 1], text) == 0))
        return;
    char *copy = strdup(text);
    if (!copy)
        return;
    if (h->n == HISTORY_ITEMS) {
        free(h->items[0]);
        memmove(&h->items[0], &h->items[1], (HISTORY_ITEMS - 1) * sizeof h->items[0]);
        h->n--;
    }
    h->items[h->n++] = copy;
}

static void draw_prompt(struct explorer *ex, const char *label, const struct lineedit *e, const char *hint)
{
    const struct rect *r = &ex->lay.status;
    if (ex->lay.too_small) {
        ex_draw(ex);
        return;
    }
    /* The label takes at most half the line; a longer one is cut with an
     * ellipsis, and ": " always parts it from what is typed. */
    char lab[260], cut[256];
    rowfmt_cut(label, r->w / 2 - 2, rowfmt_ellipsis(term_ascii()), cut, sizeof cut);
    snprintf(lab, sizeof lab, "%s: ", cut);
    int lw = textfmt_width(lab);
    term_fill(r->y, r->x, r->w, A_NORMAL);
    term_put_raw(r->y, r->x, lw, lab, A_BOLD);
    /* Typed text is shown made safe; scroll so the cursor stays visible. */
    char shown[LINEEDIT_MAX * 4 + 16];
    char before[LINEEDIT_MAX];
    memcpy(before, e->buf, e->cursor);
    before[e->cursor] = '\0';
    textfmt_sanitize((const uint8_t *)before, e->cursor, shown, sizeof shown, 8, 1 << 20);
    int cursor_col = textfmt_width(shown);
    textfmt_sanitize((const uint8_t *)e->buf, e->len, shown, sizeof shown, 8, 1 << 20);
    int avail = r->w - lw - 1;
    int skip = cursor_col > avail ? cursor_col - avail : 0;
    term_put(r->y, r->x + lw, avail + 1, shown, A_NORMAL, skip);
    /* Tab's candidates, after the text where there is room. */
    int end_col = lw + textfmt_width(shown) - skip + 2;
    if (hint && *hint && end_col < r->w - 4) {
        char safe[600];
        textfmt_sanitize((const uint8_t *)hint, strlen(hint), safe, sizeof safe, 8, 1 << 20);
        term_put(r->y, r->x + end_col, r->w - end_col, safe, term_attr(AT_DIM), 0);
    }
    term_show_cursor(r->y, r->x + lw + cursor_col - skip);
}

static bool prompt_run(struct explorer *ex, const char *label, const char *initial, char *out, size_t size,
                       bool path)
{
    struct lineedit e;
    lineedit_set(&e, initial ? initial : "");
    struct prompt_history *h = history_for(path ? "path" : label);
    size_t pos = h ? h->n : 0;          /* h->n: the line being typed */
    char draft[LINEEDIT_MAX] = "", hint[512] = "";
    bool ok = false;
    for (;;) {
        draw_prompt(ex, label, &e, hint);
        hint[0] = '\0';
        wint_t wide;
        int key = prompt_key(ex, &wide);
        if (key == ERR)
            continue;
        if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            ok = true;
            break;
        }
        if (key == 27 || key == CTRL('G') || key == CTRL('C'))
            break;
        if ((key == KEY_UP || key == CTRL('P')) && h && pos > 0) {
            if (pos == h->n)
                snprintf(draft, sizeof draft, "%s", e.buf);
            lineedit_set(&e, h->items[--pos]);
        } else if ((key == KEY_DOWN || key == CTRL('N')) && h && pos < h->n) {
            pos++;
            lineedit_set(&e, pos == h->n ? draft : h->items[pos]);
        } else if (key == '\t' && path) {
            char done[LINEEDIT_MAX], names[400];
            size_t n = path_complete(e.buf, done, sizeof done, names, sizeof names);
            if (n == 0)
                snprintf(hint, sizeof hint, "(no match)");
            else if (strcmp(done, e.buf) == 0 && n > 1)
                snprintf(hint, sizeof hint, "{%s}", names);
            lineedit_set(&e, done);
        } else if (key == KEY_BACKSPACE || key == 127 || key == CTRL('H'))
            lineedit_backspace(&e);
        else if (key == KEY_DC || key == CTRL('D'))
            lineedit_delete(&e);
        else if (key == KEY_LEFT || key == CTRL('B'))
            lineedit_left(&e);
        else if (key == KEY_RIGHT || key == CTRL('F'))
            lineedit_right(&e);
        else if (key == KEY_HOME || key == CTRL('A'))
            lineedit_home(&e);
        else if (key == KEY_END || key == CTRL('E'))
            lineedit_end(&e);
        else if (key == CTRL('U'))
            lineedit_kill_line(&e);
        else if (key == CTRL('W'))
            lineedit_kill_word(&e);
        else if (key == 0 && wide) {
            char mb[MB_LEN_MAX];
            mbstate_t st;
            memset(&st, 0, sizeof st);
            size_t n = wcrtomb(mb, (wchar_t)wide, &st);
            if (n != (size_t)-1)
                lineedit_insert(&e, mb, n);
        } else if (key >= 0x20 && key < 0x7f) {
            char c = (char)key;
            lineedit_insert(&e, &c, 1);
        }
    }
    term_hide_cursor();
    if (ok) {
        snprintf(out, size, "%s", e.buf);
        history_add(h, e.buf);
    }
    return ok;
}

bool prompt_line(struct explorer *ex, const char *label, const char *initial, char *out, size_t size)
{
    return prompt_run(ex, label, initial, out, size, false);
}

bool prompt_path(struct explorer *ex, const char *label, const char *initial, char *out, size_t size)
{
    return prompt_run(ex, label, initial, out, size, true);
}

bool prompt_yes_no(struct explorer *ex, const char *question)
{
    for (;;) {
        const struct rect *r = &ex->lay.status;
        if (!ex->lay.too_small) {
            char q[600];
            snprintf(q, sizeof q, "%s (y/N) ", question);
            term_put(r->y, r->x, r->w, q, term_attr(AT_STATUS_ERROR), 0);
            term_flush();
        }
        wint_t wide;
        int key = prompt_key(ex, &wide);
        if (key == ERR)
            continue;
        return key == 'y' || key == 'Y';
    }
}
