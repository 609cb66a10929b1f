/* The pager widget (less): a scrollable, searchable text from outside the
 * parser (llvm-dis output, source members) or generated (help, the
 * problem list), drawn in a rectangle. Lines are made safe only when
 * drawn, so a 60 MB disassembly costs only the lines on screen. As in
 * less: matches are highlighted, "match i/N", n and N wrap with a
 * message, & shows only the matching lines, the title gives a percentage,
 * # hides line numbers; LLVM IR and MSL are coloured (hl_llvm.c,
 * hl_msl.c). The text view (views/text) is a pager in a view. */
#ifndef MTLBX_UI_WIDGETS_PAGER_H
#define MTLBX_UI_WIDGETS_PAGER_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/term/keys.h"
#include "ui/text/layout.h"
#include "ui/text/query.h"

struct explorer;

enum pager_syntax { PAGER_PLAIN, PAGER_LLVM, PAGER_MSL };

struct pager {
    char *title;
    char *data;                  /* an owned copy of the text, raw bytes */
    size_t len;
    size_t *line_start;          /* n_lines + 1 entries */
    size_t n_lines;
    size_t top, cur;             /* first line shown; the highlighted line */
    int rows, width;             /* lines and columns shown (set when drawn) */
    int hscroll;
    char save_name[256];         /* the default file name to save it under */
    bool diff_colours;           /* colour + - @@ lines (a unified diff) */
    enum pager_syntax syntax;    /* from save_name's suffix */
    bool *comment_in;            /* MSL: line i starts inside a block comment */
    struct query query;
    bool have_query;
    size_t *matches, n_matches;  /* lines holding the query (textsearch.c) */
    bool only_matches;           /* &: only those lines are shown */
    bool hide_numbers;           /* #: no line-number gutter */
};

/* Copies the text in (the old one goes); false when out of memory (the
 * pager is then empty). `line` (0-based) is shown at the top, the cursor
 * on it. */
bool pager_load(struct pager *p, const char *title, const char *data, size_t len, const char *save_name,
                size_t line);
void pager_free(struct pager *p);
void pager_draw(struct pager *p, const struct rect *r);
/* The moves, /, n, N, :, &, #, h and l; false for any other action. */
bool pager_action(struct explorer *ex, struct pager *p, enum action a);
/* "/query: match 3/17" for the status line ("" without a search). */
void pager_status(const struct pager *p, char *buf, size_t size);
/* Line `line` (0-based) at the top of the page, the cursor on it. */
void pager_goto_line(struct pager *p, size_t line);
/* The bytes of line i, without its newline. */
void pager_line(const struct pager *p, size_t i, const char **s, size_t *len);

#endif
