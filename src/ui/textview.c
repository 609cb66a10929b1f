/* The pager: a scrollable, searchable view of text from outside the
 * parser (llvm-dis output, source members) or of generated text (help).
 * Lines are made safe only when drawn, so a 60 MB disassembly costs only
 * the lines on screen. */
#include "config.h"

#include "term.h"
#include "textfmt.h"
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HSCROLL_STEP 8
#define HSCROLL_MAX 4000

static void free_text(struct textview *t)
{
    free(t->title);
    free(t->data);
    free(t->line_start);
    memset(t, 0, sizeof *t);
}

void textview_open(struct explorer *ex, const char *title, const char *data, size_t len,
                   const char *save_name)
{
    struct textview *t = &ex->text;
    /* q returns to the view it was opened from. */
    enum ex_screen from = ex->screen == SCREEN_TEXT ? ex->text_return : ex->screen;
    free_text(t);
    t->title = strdup(title ? title : "");
    t->data = malloc(len + 1);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += data[i] == '\n';
    t->line_start = malloc((lines + 1) * sizeof *t->line_start);
    if (!t->title || !t->data || !t->line_start) {
        free_text(t);
        ex_error(ex, "out of memory opening the text view");
        return;
    }
    memcpy(t->data, data, len);
    t->data[len] = '\0';
    t->len = len;
    size_t n = 0;
    t->line_start[n++] = 0;
    for (size_t i = 0; i < len; i++)
        if (data[i] == '\n')
            t->line_start[n++] = i + 1;
    /* A final newline does not start one more (empty) line. */
    if (n > 1 && t->line_start[n - 1] == len)
        n--;
    t->n_lines = n;
    t->line_start[n] = len;
    snprintf(t->save_name, sizeof t->save_name, "%s", save_name ? save_name : "text.txt");
    ex->text_return = from;
    ex->screen = SCREEN_TEXT;
}

void textview_close(struct explorer *ex)
{
    free_text(&ex->text);
    ex->screen = ex->text_return;
    ex->text_return = SCREEN_MAIN;
}

/* Bytes of line i without its newline. */
static void line_bytes(const struct textview *t, size_t i, const uint8_t **p, size_t *len)
{
    size_t s = t->line_start[i], e = t->line_start[i + 1];
    if (e > s && t->data[e - 1] == '\n')
        e--;
    *p = (const uint8_t *)t->data + s;
    *len = e - s;
}

static int page_rows(const struct explorer *ex)
{
    int rows = ex->lay.body.h - 1;
    return rows > 0 ? rows : 1;
}

static void scroll_to_cur(struct explorer *ex)
{
    struct textview *t = &ex->text;
    size_t page = (size_t)page_rows(ex);
    if (t->cur < t->top)
        t->top = t->cur;
    else if (t->cur >= t->top + page)
        t->top = t->cur - page + 1;
    if (t->top + page > t->n_lines)
        t->top = t->n_lines > page ? t->n_lines - page : 0;
}

static void set_cur(struct explorer *ex, long line)
{
    struct textview *t = &ex->text;
    if (line < 0)
        line = 0;
    if (t->n_lines && line >= (long)t->n_lines)
        line = (long)t->n_lines - 1;
    t->cur = (size_t)line;
    scroll_to_cur(ex);
}

static bool find(struct explorer *ex, bool forward)
{
    struct textview *t = &ex->text;
    if (!t->have_query || t->n_lines == 0)
        return false;
    for (size_t k = 1; k <= t->n_lines; k++) {
        size_t i = forward ? (t->cur + k) % t->n_lines
                           : (t->cur + t->n_lines - k % t->n_lines) % t->n_lines;
        const uint8_t *p;
        size_t len;
        line_bytes(t, i, &p, &len);
        if (textfmt_find(p, len, t->query.text) >= 0) {
            if ((forward && i <= t->cur) || (!forward && i >= t->cur))
                ex_message(ex, "search wrapped");
            set_cur(ex, (long)i);
            /* Bring the match into view horizontally too. */
            long at = textfmt_find(p, len, t->query.text);
            int w = ex->lay.body.w - 8;
            if (at > w)
                t->hscroll = (int)at - w / 2;
            else
                t->hscroll = 0;
            return true;
        }
    }
    ex_error(ex, "not found: %s", t->query.text);
    return false;
}

static void save_text(struct explorer *ex)
{
    char path[1024];
    if (!prompt_path(ex, "Save text to", ex->text.save_name, path, sizeof path))
        return;
    action_write_bytes(ex, path, ex->text.data, ex->text.len);
}

void textview_action(struct explorer *ex, enum action a)
{
    struct textview *t = &ex->text;
    long page = page_rows(ex);
    switch (a) {
    case ACT_QUIT: textview_close(ex); break;
    case ACT_ENTER:
        if (!diag_view_follow(ex))
            ex_message(ex, "Enter follows offsets only in the problem list (!)");
        break;
    case ACT_DOWN: set_cur(ex, (long)t->cur + 1); break;
    case ACT_UP: set_cur(ex, (long)t->cur - 1); break;
    case ACT_PAGE_DOWN:
        t->top += (size_t)page;
        set_cur(ex, (long)t->cur + page);
        break;
    case ACT_PAGE_UP:
        t->top = t->top > (size_t)page ? t->top - (size_t)page : 0;
        set_cur(ex, (long)t->cur - page);
        break;
    case ACT_HALF_DOWN: set_cur(ex, (long)t->cur + page / 2); break;
    case ACT_HALF_UP: set_cur(ex, (long)t->cur - page / 2); break;
    case ACT_TOP: set_cur(ex, 0); break;
    case ACT_BOTTOM: set_cur(ex, (long)t->n_lines - 1); break;
    case ACT_LEFT: t->hscroll = t->hscroll > HSCROLL_STEP ? t->hscroll - HSCROLL_STEP : 0; break;
    case ACT_RIGHT:
        if (t->hscroll + HSCROLL_STEP <= HSCROLL_MAX)
            t->hscroll += HSCROLL_STEP;
        break;
    case ACT_SEARCH: {
        char q[QUERY_MAX], why[128];
        /* Starts empty (the old query is one n away), never appended to. */
        if (!prompt_line(ex, "Search text", "", q, sizeof q))
            break;
        struct query parsed;
        if (!query_parse(q, false, &parsed, why, sizeof why)) {
            ex_error(ex, "%s", why);
            break;
        }
        t->query = parsed;
        t->have_query = true;
        find(ex, true);
        break;
    }
    case ACT_SEARCH_NEXT:
    case ACT_SEARCH_PREV:
        if (!t->have_query)
            ex_message(ex, "no search yet: press / first");
        else
            find(ex, a == ACT_SEARCH_NEXT);
        break;
    case ACT_GOTO: {
        char in[64];
        if (!prompt_line(ex, "Go to line", "", in, sizeof in))
            break;
        char *end;
        long line = strtol(in, &end, 10);
        if (end == in || line < 1)
            ex_error(ex, "not a line number: %s", in);
        else
            set_cur(ex, line - 1);
        break;
    }
    case ACT_WRITE: save_text(ex); break;
    default: break;
    }
}

/* A unified diff's lines: added green, removed red, hunk headers as
 * headings; the ---/+++ file lines stay plain. */
static attr_t diff_line_attr(const uint8_t *p, size_t len)
{
    if (len >= 2 && p[0] == '@' && p[1] == '@')
        return term_attr(AT_HEADING);
    if (len >= 3 && (memcmp(p, "+++", 3) == 0 || memcmp(p, "---", 3) == 0))
        return A_BOLD;
    if (len && p[0] == '+')
        return term_attr(AT_OK);
    if (len && p[0] == '-')
        return term_attr(AT_BAD);
    return A_NORMAL;
}

void textview_draw(struct explorer *ex)
{
    struct textview *t = &ex->text;
    const struct rect *r = &ex->lay.body;
    char title[512];
    snprintf(title, sizeof title, " %s   line %zu/%zu%s", t->title, t->n_lines ? t->cur + 1 : 0,
             t->n_lines, t->hscroll ? "  (scrolled right)" : "");
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    int digits = 1;
    for (size_t n = t->n_lines; n >= 10; n /= 10)
        digits++;
    int gutter = digits + 1;
    int text_w = r->w - gutter;
    static char buf[(HSCROLL_MAX + 1100) * 4];
    int rows = page_rows(ex);
    scroll_to_cur(ex);
    for (int k = 0; k < rows; k++) {
        size_t i = t->top + (size_t)k;
        int y = r->y + 1 + k;
        if (i >= t->n_lines) {
            term_fill(y, r->x, r->w, A_NORMAL);
            continue;
        }
        const uint8_t *p;
        size_t len;
        line_bytes(t, i, &p, &len);
        char num[48];
        snprintf(num, sizeof num, "%*zu ", digits & 31, i + 1);
        term_put(y, r->x, gutter, num, term_attr(AT_DIM), 0);
        int max_cols = t->hscroll + (text_w > 1000 ? 1000 : text_w) + 4;
        textfmt_sanitize(p, len, buf, sizeof buf, 8, max_cols);
        attr_t a = i == t->cur ? term_attr(AT_SELECT) : t->diff_colours ? diff_line_attr(p, len) : A_NORMAL;
        if (text_w > 0)
            term_put(y, r->x + gutter, text_w, buf, a, t->hscroll);
    }
}

void textview_goto_line(struct explorer *ex, size_t line)
{
    /* At the top of the page, as less +N shows it. */
    ex->text.top = line;
    set_cur(ex, (long)line);
}
