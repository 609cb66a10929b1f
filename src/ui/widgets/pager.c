/* See pager.h. */
#include "config.h"

#include "ui/core/core.h"
#include "ui/term/term.h"
#include "ui/text/hl.h"
#include "ui/text/rowfmt.h"
#include "ui/text/textfmt.h"
#include "ui/text/textsearch.h"
#include "ui/widgets/pager.h"
#include "ui/widgets/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HSCROLL_STEP 8
#define HSCROLL_MAX 4000

void pager_free(struct pager *t)
{
    free(t->title);
    free(t->data);
    free(t->line_start);
    free(t->comment_in);
    free(t->matches);
    memset(t, 0, sizeof *t);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* What the text is, from the name it would be saved under. */
static enum pager_syntax syntax_of(const char *save_name)
{
    if (ends_with(save_name, ".ll"))
        return PAGER_LLVM;
    static const char *const msl[] = { ".metal", ".h", ".hpp", ".hh", ".metalh", ".inc", ".cpp", ".cc", ".c" };
    for (size_t i = 0; i < sizeof msl / sizeof msl[0]; i++)
        if (ends_with(save_name, msl[i]))
            return PAGER_MSL;
    return PAGER_PLAIN;
}

/* Block comments run across lines: where each line starts, computed
 * once (a source member is small; IR needs none). */
static void find_comment_states(struct pager *t)
{
    t->comment_in = calloc(t->n_lines + 1, sizeof *t->comment_in);
    if (!t->comment_in)
        return; /* colour without multi-line comments */
    bool in = false;
    for (size_t i = 0; i < t->n_lines; i++) {
        t->comment_in[i] = in;
        size_t s = t->line_start[i], e = t->line_start[i + 1];
        in = hl_msl_comment_after(t->data + s, e - s, in);
    }
}

bool pager_load(struct pager *t, const char *title, const char *data, size_t len, const char *save_name,
                size_t line)
{
    pager_free(t);
    t->title = strdup(title ? title : "");
    t->data = malloc(len + 1);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += data[i] == '\n';
    t->line_start = malloc((lines + 1) * sizeof *t->line_start);
    if (!t->title || !t->data || !t->line_start) {
        pager_free(t);
        return false;
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
    t->syntax = syntax_of(t->save_name);
    if (t->syntax == PAGER_MSL)
        find_comment_states(t);
    if (line)
        pager_goto_line(t, line);
    return true;
}

/* Bytes of line i without its newline. */
static void line_bytes(const struct pager *t, size_t i, const uint8_t **p, size_t *len)
{
    size_t s = t->line_start[i], e = t->line_start[i + 1];
    if (e > s && t->data[e - 1] == '\n')
        e--;
    *p = (const uint8_t *)t->data + s;
    *len = e - s;
}

void pager_line(const struct pager *t, size_t i, const char **s, size_t *len)
{
    const uint8_t *p;
    line_bytes(t, i, &p, len);
    *s = (const char *)p;
}

static int page_rows(const struct pager *t)
{
    return t->rows > 0 ? t->rows : 1;
}

/* The lines shown: all of them, or with & only the matching ones. Lines
 * are named by their index in the text; a rank is a place among the
 * shown lines. */
static size_t shown_count(const struct pager *t)
{
    return t->only_matches ? t->n_matches : t->n_lines;
}

static size_t rank_of(const struct pager *t, size_t line)
{
    return t->only_matches ? textsearch_rank(t->matches, t->n_matches, line) : line;
}

static size_t line_at(const struct pager *t, size_t rank)
{
    return t->only_matches ? t->matches[rank] : rank;
}

static void scroll_to_cur(struct pager *t)
{
    size_t page = (size_t)page_rows(t), n = shown_count(t);
    if (n == 0) {
        t->top = 0;
        return;
    }
    size_t cur = rank_of(t, t->cur), top = rank_of(t, t->top);
    if (cur < top)
        top = cur;
    else if (cur >= top + page)
        top = cur - page + 1;
    if (top + page > n)
        top = n > page ? n - page : 0;
    t->top = line_at(t, top);
}

/* The shown line `delta` shown lines away from the current one. */
static void move_cur(struct pager *t, long delta)
{
    size_t n = shown_count(t);
    if (n == 0)
        return;
    long r = (long)rank_of(t, t->cur) + delta;
    if (r < 0)
        r = 0;
    if (r >= (long)n)
        r = (long)n - 1;
    t->cur = line_at(t, (size_t)r);
    scroll_to_cur(t);
}

static void set_cur(struct pager *t, long line)
{
    if (line < 0)
        line = 0;
    if (t->n_lines && line >= (long)t->n_lines)
        line = (long)t->n_lines - 1;
    t->cur = (size_t)line;
    if (t->only_matches && t->n_matches) {
        /* The nearest matching line at or after it. */
        size_t r = textsearch_rank(t->matches, t->n_matches, t->cur);
        t->cur = t->matches[r < t->n_matches ? r : t->n_matches - 1];
    }
    scroll_to_cur(t);
}

/* A match found by a search sits a third of the way down the page, with
 * context above it (less puts it at the top), unless it already shows. */
static void show_match(struct pager *t, size_t line)
{
    size_t page = (size_t)page_rows(t);
    size_t r = rank_of(t, line), top = rank_of(t, t->top);
    t->cur = line;
    if (r < top || r >= top + page)
        t->top = line_at(t, r > page / 3 ? r - page / 3 : 0);
    scroll_to_cur(t);
    /* Bring the match into view horizontally too. */
    const uint8_t *p;
    size_t len;
    line_bytes(t, line, &p, &len);
    long at = textfmt_find(p, len, t->query.text);
    int w = t->width > 16 ? t->width - 8 : 72; /* before the first draw: 80 columns */
    t->hscroll = at > w ? (int)at - w / 2 : 0;
}

/* n / N: the next or previous matching line, wrapping with a message. */
static void find(struct explorer *ex, struct pager *t, bool forward)
{
    if (!t->have_query || t->n_lines == 0)
        return;
    if (t->n_matches == 0) {
        ex_error(ex, "not found: %s", t->query.text);
        return;
    }
    bool wrapped;
    size_t k = textsearch_step(t->matches, t->n_matches, t->cur, forward, &wrapped);
    show_match(t, t->matches[k]);
    if (wrapped)
        ex_message(ex, forward ? "search hit the bottom, continued at the top"
                               : "search hit the top, continued at the bottom");
}

/* Finds every line holding the new query, then the first match after the
 * current line. */
static void search_new(struct explorer *ex, struct pager *t, const struct query *q)
{
    size_t n;
    size_t *lines = textsearch_lines(t->data, t->line_start, t->n_lines, q->text, &n);
    if (n == (size_t)-1) {
        ex_error(ex, "out of memory searching the text");
        return;
    }
    free(t->matches);
    t->matches = lines;
    t->n_matches = n;
    t->query = *q;
    t->have_query = true;
    if (n == 0) {
        /* & with nothing to show would leave an empty page. */
        t->only_matches = false;
        ex_error(ex, "not found: %s", q->text);
        return;
    }
    /* The current line itself counts, as in less: step from the one before. */
    bool wrapped;
    size_t k = t->cur == 0 ? 0 : textsearch_step(t->matches, n, t->cur - 1, true, &wrapped);
    if (t->cur == 0 && t->matches[0] != 0)
        k = 0;
    show_match(t, t->matches[k]);
}

static void toggle_filter(struct explorer *ex, struct pager *t)
{
    if (!t->only_matches && (!t->have_query || t->n_matches == 0)) {
        ex_message(ex, "& shows only the lines that match a search: search with / first");
        return;
    }
    t->only_matches = !t->only_matches;
    set_cur(t, (long)t->cur);
    ex_message(ex, t->only_matches ? "only the %zu matching lines (& again: all lines)" : "all lines",
               t->n_matches);
}

void pager_status(const struct pager *t, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!t->have_query)
        return;
    size_t r = textsearch_rank(t->matches, t->n_matches, t->cur);
    bool on = r < t->n_matches && t->matches[r] == t->cur;
    char where[48];
    if (on)
        snprintf(where, sizeof where, "%zu/%zu", r + 1, t->n_matches);
    else
        snprintf(where, sizeof where, "-/%zu", t->n_matches);
    snprintf(buf, size, "/%.60s: match %s%s", t->query.text, where, t->only_matches ? "  (& only matching lines)" : "");
}

bool pager_action(struct explorer *ex, struct pager *t, enum action a)
{
    long page = page_rows(t);
    switch (a) {
    case ACT_DOWN: move_cur(t, 1); break;
    case ACT_UP: move_cur(t, -1); break;
    case ACT_PAGE_DOWN: {
        /* A page down shows the next page, as in less. */
        size_t n = shown_count(t), top = rank_of(t, t->top) + (size_t)page;
        if (n && top < n)
            t->top = line_at(t, top);
        move_cur(t, page);
        break;
    }
    case ACT_PAGE_UP: {
        size_t top = rank_of(t, t->top);
        if (shown_count(t))
            t->top = line_at(t, top > (size_t)page ? top - (size_t)page : 0);
        move_cur(t, -page);
        break;
    }
    case ACT_HALF_DOWN: move_cur(t, page / 2); break;
    case ACT_HALF_UP: move_cur(t, -page / 2); break;
    case ACT_TOP: move_cur(t, -(long)shown_count(t)); break;
    case ACT_BOTTOM: move_cur(t, (long)shown_count(t)); break;
    case ACT_FILTER: toggle_filter(ex, t); break;
    case ACT_LINE_NUMBERS:
        t->hide_numbers = !t->hide_numbers;
        ex_message(ex, t->hide_numbers ? "line numbers hidden (# shows them)" : "line numbers shown");
        break;
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
        if (!query_parse_text(q, &parsed, why, sizeof why)) {
            ex_error(ex, "%s", why);
            break;
        }
        search_new(ex, t, &parsed);
        break;
    }
    case ACT_SEARCH_NEXT:
    case ACT_SEARCH_PREV:
        if (!t->have_query)
            ex_message(ex, "no search yet: press / first");
        else
            find(ex, t, a == ACT_SEARCH_NEXT);
        break;
    case ACT_GOTO: {
        char in[64];
        if (!prompt_line(ex, "Go to line", "", in, sizeof in))
            break;
        char *end;
        long line = strtol(in, &end, 10);
        if (end == in || line < 1) {
            ex_error(ex, "not a line number: %s", in);
        } else {
            t->only_matches = false; /* the line asked for may not match */
            set_cur(t, line - 1);
        }
        break;
    }
    default: return false;
    }
    return true;
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

/* Syntax kinds as attributes that read without colour too: keywords
 * and attributes bold, comments dim. */
static attr_t kind_attr(enum hl_kind k)
{
    switch (k) {
    case HL_COMMENT: return term_attr(AT_DIM);
    case HL_STRING: return term_attr(AT_OK);
    case HL_NUMBER: return term_attr(AT_FOLLOW);
    case HL_KEYWORD: return term_attr(AT_HEADING);
    case HL_TYPE: return term_attr(AT_OK);
    case HL_GLOBAL: return term_attr(AT_UNKNOWN);
    case HL_META: return term_attr(AT_DIM);
    case HL_ATTR: return term_attr(AT_WARN);
    case HL_PREPROC: return term_attr(AT_UNKNOWN);
    default: return A_NORMAL;
    }
}

/* Columns of the first n bytes of safe text. */
static int cols_of(const char *s, size_t n)
{
    int cols = 0;
    for (size_t i = 0; i < n;) {
        int w;
        i += textfmt_step((const uint8_t *)s + i, n - i, &w);
        cols += w;
    }
    return cols;
}

/* Draws spans of a line already drawn plain at (y, x), `width` columns
 * shown from column `skip`. */
static void overdraw(int y, int x, int width, int skip, const char *buf, const struct hl_span *sp, size_t n,
                     bool syntax)
{
    char piece[(HSCROLL_MAX + 1100) * 4];
    size_t done = 0;
    int col = 0;
    for (size_t k = 0; k < n; k++) {
        col += cols_of(buf + done, sp[k].start - done);
        size_t len = sp[k].len < sizeof piece ? sp[k].len : sizeof piece - 1;
        memcpy(piece, buf + sp[k].start, len);
        piece[len] = '\0';
        int w = cols_of(piece, len);
        done = sp[k].start + sp[k].len;
        int c0 = col;
        col += w;
        if (c0 + w <= skip || c0 >= skip + width)
            continue;
        int cut = skip > c0 ? skip - c0 : 0, at = c0 > skip ? c0 - skip : 0;
        int room = width - at < w - cut ? width - at : w - cut;
        attr_t a = syntax ? kind_attr(sp[k].kind) : term_attr(AT_MATCH) | A_UNDERLINE | A_BOLD;
        if (room > 0 && a != A_NORMAL)
            term_put(y, x + at, room, piece, a, cut);
    }
}

#define SPANS_MAX 256

void pager_draw(struct pager *t, const struct rect *r)
{
    t->rows = r->h - 1 > 0 ? r->h - 1 : 1;
    t->width = r->w;
    int rows = t->rows;
    scroll_to_cur(t);
    size_t n_shown = shown_count(t), top = n_shown ? rank_of(t, t->top) : 0;
    size_t last = top + (size_t)rows < n_shown ? top + (size_t)rows : n_shown;
    /* As less: how far the bottom of the page is through the text. */
    unsigned pct = n_shown ? (unsigned)(last * 100 / n_shown) : 100;
    /* Where one is is never cut: a long title (a function's name at 80
     * columns, a member's path) gives way at its end. */
    char where[160], name[512], title[700];
    snprintf(where, sizeof where, "line %zu/%zu  %u%%%s%s", t->n_lines ? t->cur + 1 : 0, t->n_lines, pct,
             t->only_matches ? "  [& matching lines]" : "", t->hscroll ? "  (scrolled right)" : "");
    int room = r->w - 4 - textfmt_width(where);
    rowfmt_cut(t->title, room > 8 ? room : 8, rowfmt_ellipsis(term_ascii()), name, sizeof name);
    snprintf(title, sizeof title, " %s   %s", name, where);
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    int digits = 1;
    for (size_t n = t->n_lines; n >= 10; n /= 10)
        digits++;
    int gutter = t->hide_numbers ? 0 : digits + 1;
    int text_w = r->w - gutter;
    static char buf[(HSCROLL_MAX + 1100) * 4];
    struct hl_span spans[SPANS_MAX];
    for (int k = 0; k < rows; k++) {
        size_t rank = top + (size_t)k;
        int y = r->y + 1 + k;
        if (rank >= n_shown) {
            term_fill(y, r->x, r->w, A_NORMAL);
            continue;
        }
        size_t i = line_at(t, rank);
        const uint8_t *p;
        size_t len;
        line_bytes(t, i, &p, &len);
        if (gutter) {
            char num[48];
            snprintf(num, sizeof num, "%*zu ", digits & 31, i + 1);
            term_put(y, r->x, gutter, num, term_attr(AT_DIM), 0);
        }
        int max_cols = t->hscroll + (text_w > 1000 ? 1000 : text_w) + 4;
        size_t blen = textfmt_sanitize(p, len, buf, sizeof buf, 8, max_cols);
        attr_t a = i == t->cur ? term_attr(AT_SELECT) : t->diff_colours ? diff_line_attr(p, len) : A_NORMAL;
        if (text_w <= 0)
            continue;
        term_put(y, r->x + gutter, text_w, buf, a, t->hscroll);
        /* The selected line keeps its one colour; others get syntax. */
        size_t n = 0;
        if (i != t->cur && t->syntax == PAGER_LLVM) {
            n = hl_llvm_line(buf, blen, spans, SPANS_MAX);
        } else if (i != t->cur && t->syntax == PAGER_MSL) {
            bool in = t->comment_in && t->comment_in[i];
            n = hl_msl_line(buf, blen, &in, spans, SPANS_MAX);
        }
        overdraw(y, r->x + gutter, text_w, t->hscroll, buf, spans, n, true);
        if (t->have_query && t->n_matches) {
            n = textsearch_spans(buf, blen, t->query.text, spans, SPANS_MAX);
            overdraw(y, r->x + gutter, text_w, t->hscroll, buf, spans, n, false);
        }
    }
}

void pager_goto_line(struct pager *t, size_t line)
{
    /* At the top of the page, as less +N shows it. */
    t->top = line;
    set_cur(t, (long)line);
}
