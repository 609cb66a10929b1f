/* Syntax colour for the text view: one small highlighter per language,
 * pure functions from one line of (already terminal-safe) text to spans
 * of a kind. The view maps kinds to attributes, so NO_COLOR and --ascii
 * still tell them apart by bold, dim and underline. */
#ifndef MTLBX_UI_HL_H
#define MTLBX_UI_HL_H

#include <stdbool.h>
#include <stddef.h>

enum hl_kind {
    HL_NONE, HL_COMMENT, HL_STRING, HL_NUMBER, HL_KEYWORD, HL_TYPE,
    HL_GLOBAL,                 /* @name (IR) */
    HL_LOCAL,                  /* %name (IR) */
    HL_META,                   /* !name, !0 (IR) */
    HL_ATTR,                   /* #0 (IR), [[buffer(0)]] (MSL) */
    HL_PREPROC,                /* #include ... (MSL) */
};

/* Spans in order, not overlapping; text between them is plain. */
struct hl_span {
    size_t start, len;
    enum hl_kind kind;
};

/* Shared by both: is c part of an identifier? */
bool hl_ident_char(char c);

/* One line of LLVM assembly (llvm-dis output). Returns the spans written,
 * at most `cap` (a longer line is coloured up to there). */
size_t hl_llvm_line(const char *s, size_t len, struct hl_span *out, size_t cap);

/* One line of Metal Shading Language (C++). `*in_comment` says whether
 * the line starts inside a block comment and is left saying whether it
 * ends inside one. */
size_t hl_msl_line(const char *s, size_t len, bool *in_comment, struct hl_span *out, size_t cap);

/* Whether a line ends inside a block comment, given how it starts (the
 * text view tracks this from the top of a member). */
bool hl_msl_comment_after(const char *s, size_t len, bool in_comment);

#endif
