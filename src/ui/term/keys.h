/* The explorer's one key table: every binding maps a key, in the contexts
 * where it applies, to a named action and a line of help. The `?` screen,
 * the footer hints and the documentation are all derived from this table,
 * so what the help says is what the keys do. Pure: no terminal needed. */
#ifndef MTLBX_UI_KEYS_H
#define MTLBX_UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum action {
    ACT_NONE = 0,
    ACT_QUIT, ACT_QUIT_NOW, ACT_HELP, ACT_REDRAW,
    ACT_NEXT_PANEL, ACT_PREV_PANEL, ACT_ZOOM, ACT_FOCUS_TREE, ACT_FOCUS_DETAIL, ACT_FOCUS_HEX,
    ACT_DOWN, ACT_UP, ACT_LEFT, ACT_RIGHT,
    ACT_PAGE_DOWN, ACT_PAGE_UP, ACT_HALF_DOWN, ACT_HALF_UP, ACT_TOP, ACT_BOTTOM,
    ACT_ENTER, ACT_BACK,
    ACT_EXPAND, ACT_COLLAPSE, ACT_EXPAND_ALL, ACT_COLLAPSE_ALL,
    ACT_NEXT_SIBLING, ACT_PREV_SIBLING, ACT_NEXT_FUNCTION, ACT_PREV_FUNCTION,
    ACT_SEARCH, ACT_SEARCH_NEXT, ACT_SEARCH_PREV, ACT_GOTO,
    ACT_EXTRACT, ACT_EXTRACT_ALL, ACT_DISASSEMBLE, ACT_SOURCES, ACT_WRITE, ACT_WRITE_ALL,
    ACT_DIAGNOSTICS,
    ACT_COMPARE, ACT_JUMP_B,
    ACT_CANCEL, ACT_FOLDER,
    ACT_TREE_WIDER, ACT_TREE_NARROWER, ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT,
    ACT_NEXT_PROBLEM, ACT_PREV_PROBLEM, ACT_FILTER, ACT_SORT, ACT_CLEAR,
    ACT_SET_MARK, ACT_GOTO_MARK, ACT_COPY,
    ACT_NEXT_UNCLAIMED,
    ACT_FORWARD, ACT_PANE_IFACE, ACT_PANE_BYTES, ACT_RAW_NAMES,
    ACT_LINE_NUMBERS,
    ACT_MARK, ACT_MARK_ALL, ACT_UNMARK_ALL, ACT_MARK_INVERT,
    ACT_COUNT
};

/* Where a binding applies: one bit per panel or full-screen view. */
enum key_context {
    KC_TREE = 1u << 0,
    KC_DETAIL = 1u << 1,
    KC_HEX = 1u << 2,
    KC_TEXT = 1u << 3,     /* the pager: llvm-dis output, member text, help */
    KC_MEMBERS = 1u << 4,  /* the member list of a source archive */
    KC_COMPARE = 1u << 5,  /* the compare view of two files (D) */
    KC_FOLDER = 1u << 6,   /* the folder and archive list (mtlbx DIR) */
    KC_FUNCS = 1u << 7,    /* the function table, home of a library */
    KC_PAGE = 1u << 8,     /* one function's page */
    KC_RELEASE = 1u << 9,  /* two folders or archives compared (D in the folder list) */
    KC_MAIN = KC_TREE | KC_DETAIL | KC_HEX,
    KC_FN = KC_FUNCS | KC_PAGE,
    KC_ALL = KC_MAIN | KC_TEXT | KC_MEMBERS | KC_COMPARE | KC_FOLDER | KC_FN | KC_RELEASE,
};

#define KEYS_PER_BINDING 4

struct key_binding {
    int keys[KEYS_PER_BINDING];    /* 0-terminated; curses KEY_* or a character */
    enum action action;
    unsigned contexts;
    const char *help;
    const char *hint;              /* short footer label, or NULL */
};

/* The table, in help order. */
extern const struct key_binding key_table[];
extern const size_t key_table_len;

/* The action bound to `key` in `context` (one KC_* bit), or ACT_NONE. */
enum action key_lookup(unsigned context, int key);

/* A printable name for a key: "j", "Down", "PgDn", "Enter", "Ctrl-L". */
const char *key_display_name(int key, char *buf, size_t size);

/* "j, Down" for a binding. */
void key_binding_names(const struct key_binding *b, char *buf, size_t size);
/* The same, only the keys that mean this binding in `context` (an
 * earlier binding of the context may take one): "" when none does. */
void key_binding_names_in(const struct key_binding *b, unsigned context, char *buf, size_t size);

/* The help's sections, in order: a context mask and a title. */
struct key_section {
    unsigned mask;
    const char *title;
};
extern const struct key_section key_sections[];
extern const size_t key_sections_len;
/* Whether a binding is listed in a section (each binding lands in the
 * widest section it covers, so the help lists it once per meaning). */
bool key_in_section(const struct key_binding *b, unsigned mask);
/* What the tree's badges and markers mean, for help and docs. */
extern const char *const keys_legend;

/* The help screen as plain text, malloc'd: the keys of `context` (the
 * view it was asked from; 0: none) first, then one section per context. */
char *keys_help_text(unsigned context);

/* A footer line of hints for a context ("Tab panel  / search  q quit"),
 * cut to fit `width` columns at a hint boundary. */
void keys_footer(unsigned context, int width, char *buf, size_t size);
/* The same in a view that is or is not the first one (q's hint says
 * "quit" there, "close" elsewhere). */
void keys_footer_at(unsigned context, bool home, int width, char *buf, size_t size);

/* The section title of one context bit ("Tree panel"). */
const char *key_context_title(unsigned context);

#endif
