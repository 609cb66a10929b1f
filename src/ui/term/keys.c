/* The key table and everything derived from it (lookup, names, help,
 * footer). Keeping bindings as data is what lets help and docs never
 * drift from behaviour (tig's request table does the same). */
#include "config.h"

#include "program/text_buf.h"
#include "ui/term/keys.h"

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTRL(c) ((c) & 0x1f)

/* Per the peer survey (PEERS.md §3): every binding has an arrow or
 * PgUp-style alias, nothing needs Alt or Shift-Tab, single letters for the
 * common verbs. Context-specific entries come before general ones with the
 * same key, because lookup takes the first match. */
const struct key_binding key_table[] = {
    /* Everywhere */
    { { '?', KEY_F(1) }, ACT_HELP, KC_ALL, "this help screen", "help" },
    { { 'Q' }, ACT_QUIT_NOW, KC_ALL, "quit at once, from any view", NULL },
    { { CTRL('L') }, ACT_REDRAW, KC_ALL, "redraw the screen", NULL },
    { { 'q' }, ACT_QUIT, KC_ALL, "close this view: back to the view it was opened from (the first one quits)", "close" },
    { { KEY_BACKSPACE, 127, CTRL('H'), CTRL('O') }, ACT_BACK, KC_ALL, "back to the previous place: a view, or a jump inside one", "back" },
    { { CTRL(']') }, ACT_FORWARD, KC_ALL, "forward again, after going back", NULL },
    { { 'm' }, ACT_SET_MARK, KC_ALL, "m then a letter: mark this place", NULL },
    { { '\'' }, ACT_GOTO_MARK, KC_ALL, "' then a letter: go back to that mark", NULL },
    { { 27 }, ACT_QUIT, KC_TEXT | KC_MEMBERS | KC_COMPARE | KC_PAGE | KC_RELEASE, "close this view, as q does", NULL },

    /* Marking functions in the function table, as file managers mark
     * files (mc's Insert, ranger's, lf's and nnn's Space; m is vim's place
     * mark): before the moves, since Space pages down everywhere else. */
    { { ' ', KEY_IC }, ACT_MARK, KC_FUNCS, "mark or unmark the function and move down (Space pages down elsewhere)", NULL },
    { { 'a' }, ACT_MARK_ALL, KC_FUNCS, "mark every function shown (the filter's)", NULL },
    { { 'v' }, ACT_MARK_INVERT, KC_FUNCS, "invert the marks of the functions shown", NULL },
    { { 'u' }, ACT_UNMARK_ALL, KC_FUNCS, "unmark every function, shown or not", NULL },
    { { 'w' }, ACT_WRITE, KC_FUNCS, "write a library (.metallib) of the marked functions, or of this one when none is marked: mtlbx pack --from", NULL },
    { { 'w' }, ACT_WRITE, KC_PAGE, "write a library (.metallib) of this function alone: mtlbx pack --from FILE -f NAME", NULL },

    /* Moving */
    { { 'j', KEY_DOWN }, ACT_DOWN, KC_ALL, "move down", NULL },
    { { 'k', KEY_UP }, ACT_UP, KC_ALL, "move up", NULL },
    { { 'h', KEY_LEFT }, ACT_LEFT, KC_TREE, "collapse, or go to the parent", NULL },
    { { 'l', KEY_RIGHT }, ACT_RIGHT, KC_TREE, "expand, or go to the first child", NULL },
    { { 'h', KEY_LEFT }, ACT_LEFT, KC_HEX, "previous byte", NULL },
    { { 'l', KEY_RIGHT }, ACT_RIGHT, KC_HEX, "next byte", NULL },
    { { 'h', KEY_LEFT }, ACT_LEFT, KC_TEXT, "scroll left", NULL },
    { { 'l', KEY_RIGHT }, ACT_RIGHT, KC_TEXT, "scroll right", NULL },
    { { KEY_NPAGE, CTRL('F'), ' ' }, ACT_PAGE_DOWN, KC_ALL, "page down", NULL },
    { { KEY_PPAGE, CTRL('B') }, ACT_PAGE_UP, KC_ALL, "page up", NULL },
    { { CTRL('D') }, ACT_HALF_DOWN, KC_ALL, "half a page down", NULL },
    { { CTRL('U') }, ACT_HALF_UP, KC_ALL, "half a page up", NULL },
    { { 'g', KEY_HOME }, ACT_TOP, KC_ALL, "go to the top", NULL },
    { { 'G', KEY_END }, ACT_BOTTOM, KC_ALL, "go to the bottom", NULL },

    /* The function table and a function's page */
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_FUNCS, "open the function's page", "open" },
    { { 'i' }, ACT_PANE_IFACE, KC_FN, "interface: the binding table (index, kind, access, type, name; struct members)", "iface" },
    { { 's' }, ACT_SOURCES, KC_FN, "source: the embedded .metal member at the function's definition", "source" },
    { { 'd' }, ACT_DISASSEMBLE, KC_FN, "IR: llvm-dis of the function's module (cached per module hash)", "IR" },
    { { 'b' }, ACT_PANE_BYTES, KC_FN, "bytes: the tree, detail and hex panels on this function", "bytes" },
    { { 'r' }, ACT_RAW_NAMES, KC_FN, "names as stored (mangled) or demangled", NULL },
    { { '\t' }, ACT_FORWARD, KC_FN, "forward again, as Ctrl-] does", NULL },

    /* Panels */
    { { '\t', KEY_F(6) }, ACT_NEXT_PANEL, KC_MAIN, "next panel (tree, detail, hex)", "panel" },
    { { KEY_BTAB }, ACT_PREV_PANEL, KC_MAIN, "previous panel", NULL },
    { { 'z', '\\' }, ACT_ZOOM, KC_MAIN, "maximise the panel, or restore the three panels", NULL },
    { { '1' }, ACT_FOCUS_TREE, KC_MAIN, "focus the tree", NULL },
    { { '2' }, ACT_FOCUS_DETAIL, KC_MAIN, "focus the detail panel", NULL },
    { { '3' }, ACT_FOCUS_HEX, KC_MAIN, "focus the hex panel", NULL },

    /* Tree */
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_TREE, "expand or collapse; on a source member, show its text", "open" },
    { { '+' }, ACT_EXPAND, KC_TREE, "expand", NULL },
    { { '-' }, ACT_COLLAPSE, KC_TREE, "collapse", NULL },
    { { '*' }, ACT_EXPAND_ALL, KC_TREE, "expand everything below (up to a limit)", NULL },
    { { '=' }, ACT_COLLAPSE_ALL, KC_TREE, "collapse everything to the libraries", NULL },
    { { '}' }, ACT_NEXT_SIBLING, KC_TREE, "next sibling", NULL },
    { { '{' }, ACT_PREV_SIBLING, KC_TREE, "previous sibling", NULL },
    { { ']' }, ACT_NEXT_FUNCTION, KC_MAIN, "next function", NULL },
    { { '[' }, ACT_PREV_FUNCTION, KC_MAIN, "previous function", NULL },

    /* Detail and hex */
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_DETAIL, "follow an offset field (->) to its target; else show the whole field", "follow" },
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_HEX, "select the node that owns the byte", NULL },

    /* Search and go to */
    { { '/' }, ACT_SEARCH, KC_MAIN, "search names and tags; in the bytes view \"x 4d544c42\" for hex bytes, '\"text' for raw bytes", "search" },
    { { '/' }, ACT_SEARCH, KC_TEXT, "search the text", "search" },
    { { '/' }, ACT_SEARCH, KC_MEMBERS, "search member names", "search" },
    { { '/' }, ACT_SEARCH, KC_COMPARE, "search the changes (names, fields)", "search" },
    { { '/' }, ACT_SEARCH, KC_FUNCS, "search the functions: names, argument names and types; says match i/N", "search" },
    { { 'n' }, ACT_SEARCH_NEXT, KC_ALL, "next match", NULL },
    { { 'N' }, ACT_SEARCH_PREV, KC_ALL, "previous match", NULL },
    { { ':', 'o' }, ACT_GOTO, KC_MAIN, "go to an offset: 0x58, 1234, +16, -0x10, $ (end)", "offset" },
    { { ':' }, ACT_GOTO, KC_TEXT, "go to a line number", NULL },
    { { '&' }, ACT_FILTER, KC_TEXT, "show only the lines that match the search (& again: all lines)", "only matches" },
    { { '#' }, ACT_LINE_NUMBERS, KC_TEXT, "hide or show the line numbers", NULL },
    { { 'u' }, ACT_NEXT_UNCLAIMED, KC_MAIN, "go to the next run of unclaimed bytes (no structure explains them)",
      NULL },

    /* Verbs */
    { { 'e' }, ACT_EXTRACT, KC_MAIN, "extract the function's module (.air); on a list or library, all of them", "extract" },
    { { 'E' }, ACT_EXTRACT_ALL, KC_MAIN, "extract every module of the library into a directory", NULL },
    { { 'd' }, ACT_DISASSEMBLE, KC_MAIN, "disassemble the function with llvm-dis into the text view", "llvm-dis" },
    { { 's' }, ACT_SOURCES, KC_MAIN, "decompress the embedded source archive and list its members", "sources" },
    { { 'w' }, ACT_WRITE, KC_MAIN, "write the selected node's raw bytes to a file", "write" },
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_MEMBERS, "show the member's text", "view" },
    { { 'w' }, ACT_WRITE, KC_MEMBERS, "write the selected member to a file", "write" },
    { { 'W', 'a' }, ACT_WRITE_ALL, KC_MEMBERS, "write all members under a directory", "write all" },
    { { 'w' }, ACT_WRITE, KC_TEXT, "save the text to a file", "save" },
    { { '!' }, ACT_DIAGNOSTICS, KC_MAIN, "list every problem of the file in full, by offset", "problems" },
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_TEXT, "in the problem list: go to the finding's offset", NULL },

    /* Comparing two files */
    { { 'D' }, ACT_COMPARE, KC_MAIN | KC_FUNCS, "compare the two open files: what changed, one row per change", "compare" },
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_COMPARE, "jump to the change in file A (in B when only B has it)", "jump A" },
    { { 'b' }, ACT_JUMP_B, KC_COMPARE, "jump to the change in file B", "jump B" },
    { { 'd' }, ACT_DISASSEMBLE, KC_COMPARE, "on a changed function, diff -u of its two llvm-dis outputs", "llvm-dis diff" },

    /* Folders and archives (mtlbx DIR, mtlbx App.ipa) */
    { { 'D' }, ACT_COMPARE, KC_FOLDER, "compare two folders or archives: libraries added, removed, changed", "compare" },
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_FOLDER, "open the library (an archive member is decompressed now)", "open" },
    { { '\n', '\r', KEY_ENTER }, ACT_ENTER, KC_RELEASE, "compare the changed pair's two libraries (the compare view)", "compare" },
    { { 27 }, ACT_CANCEL, KC_FOLDER, "stop the scan (what was found stays)", "stop scan" },
    { { '/' }, ACT_SEARCH, KC_FOLDER, "search every library: paths, function names, argument names and types", "search" },
    { { 'S' }, ACT_SORT, KC_FOLDER, "sort by the next column: size, functions, version, target, MSL, problems, path", "sort" },
    { { 'F' }, ACT_FOLDER, KC_MAIN | KC_FUNCS, "back to the folder or archive list (mtlbx DIR)", NULL },

    /* Readable names, filter and sort, marks, copy */
    { { '>' }, ACT_TREE_WIDER, KC_MAIN, "widen the tree panel", NULL },
    { { '<' }, ACT_TREE_NARROWER, KC_MAIN, "narrow the tree panel", NULL },
    { { 'L' }, ACT_SCROLL_RIGHT, KC_TREE, "scroll the tree's names right", NULL },
    { { 'H' }, ACT_SCROLL_LEFT, KC_TREE, "scroll the tree's names back left", NULL },
    { { 'e' }, ACT_EXTRACT, KC_FN, "extract the function's module (.air)", NULL },
    { { '!' }, ACT_DIAGNOSTICS, KC_FUNCS, "list every problem of the file in full, by offset", NULL },
    { { 'f', '|' }, ACT_FILTER, KC_FUNCS, "filter the functions: words that must all match the row (name, kernel, msl 4.0, air 2.6, macOS 14.0)", "filter" },
    { { 'S' }, ACT_SORT, KC_FUNCS, "sort by the next column shown: file (several libraries), stage, args, msl, size, hash, src, requires (when wide enough), name, file order", "sort" },
    { { 27 }, ACT_CLEAR, KC_FUNCS, "clear the filter and the search", NULL },
    { { 'y' }, ACT_COPY, KC_FN, "copy the function's name to the clipboard (OSC 52)", NULL },
    { { 'p' }, ACT_NEXT_PROBLEM, KC_MAIN, "next problem: a hash mismatch or a diagnostic (! lists them all)", NULL },
    { { 'P' }, ACT_PREV_PROBLEM, KC_MAIN, "previous problem", NULL },
    { { 'f', '|' }, ACT_FILTER, KC_MAIN, "filter the functions: words that must all match the row (name, kernel, msl 4.0, air 2.6, macOS 14.0)", "filter" },
    { { 'S' }, ACT_SORT, KC_MAIN, "sort the functions: file order, name, module size, type", NULL },
    { { 27 }, ACT_CLEAR, KC_MAIN, "clear the filter and the search highlights", NULL },
    { { 'y' }, ACT_COPY, KC_MAIN, "copy the name, field or offset to the clipboard (OSC 52)", "copy" },
    { { 'y' }, ACT_COPY, KC_TEXT, "copy the current line to the clipboard (OSC 52)", "copy" },
    { { 'y' }, ACT_COPY, KC_MEMBERS, "copy the member's path to the clipboard (OSC 52)", "copy" },
};
const size_t key_table_len = sizeof key_table / sizeof key_table[0];

enum action key_lookup(unsigned context, int key)
{
    if (key == 0)
        return ACT_NONE;
    for (size_t i = 0; i < key_table_len; i++) {
        const struct key_binding *b = &key_table[i];
        if (!(b->contexts & context))
            continue;
        for (int k = 0; k < KEYS_PER_BINDING && b->keys[k]; k++)
            if (b->keys[k] == key)
                return b->action;
    }
    return ACT_NONE;
}

const char *key_display_name(int key, char *buf, size_t size)
{
    static const struct { int key; const char *name; } names[] = {
        { KEY_DOWN, "Down" }, { KEY_UP, "Up" }, { KEY_LEFT, "Left" },
        { KEY_RIGHT, "Right" }, { KEY_NPAGE, "PgDn" }, { KEY_PPAGE, "PgUp" },
        { KEY_HOME, "Home" }, { KEY_END, "End" }, { KEY_ENTER, "KpEnter" },
        { KEY_BACKSPACE, "Backspace" }, { KEY_BTAB, "Shift-Tab" },
        { '\t', "Tab" }, { '\n', "Enter" }, { '\r', "Return" }, { ' ', "Space" },
        { 27, "Esc" }, { 127, "Del" }, { KEY_IC, "Insert" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].key == key) {
            snprintf(buf, size, "%s", names[i].name);
            return buf;
        }
    if (key >= KEY_F(1) && key <= KEY_F(12))
        snprintf(buf, size, "F%d", key - KEY_F(0));
    else if (key > 0 && key < 32)
        snprintf(buf, size, "Ctrl-%c", key + '@');
    else if (key > 32 && key < 127)
        snprintf(buf, size, "%c", key);
    else
        snprintf(buf, size, "key-%d", key);
    return buf;
}

/* Aliases that only duplicate another key on most terminals are left out
 * of the printed names so help stays short (Return = Enter, Ctrl-H =
 * Backspace, Del = Backspace, keypad Enter). */
static int key_is_quiet_alias(int key)
{
    return key == '\r' || key == KEY_ENTER || key == CTRL('H') || key == 127;
}

void key_binding_names(const struct key_binding *b, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < KEYS_PER_BINDING && b->keys[k]; k++) {
        char one[32];
        if (key_is_quiet_alias(b->keys[k]))
            continue;
        key_display_name(b->keys[k], one, sizeof one);
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", one);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
}

void key_binding_names_in(const struct key_binding *b, unsigned context, char *buf, size_t size)
{
    /* Only the keys that reach this binding here (Space marks in the
     * function table: page down does not list it there). */
    struct key_binding here = *b;
    int n = 0;
    for (int k = 0; k < KEYS_PER_BINDING && b->keys[k]; k++)
        if (key_lookup(context, b->keys[k]) == b->action)
            here.keys[n++] = b->keys[k];
    for (int k = n; k < KEYS_PER_BINDING; k++)
        here.keys[k] = 0;
    key_binding_names(&here, buf, size);
}

const char *key_context_title(unsigned context)
{
    switch (context) {
    case KC_TREE: return "Tree panel";
    case KC_DETAIL: return "Detail panel";
    case KC_HEX: return "Hex panel";
    case KC_TEXT: return "Text view (llvm-dis, member text, this help)";
    case KC_MEMBERS: return "Source member list";
    case KC_COMPARE: return "Compare view";
    case KC_FOLDER: return "Folder and archive list";
    case KC_RELEASE: return "Release compare";
    case KC_FUNCS: return "Function table";
    case KC_PAGE: return "Function page";
    default: return "Keys";
    }
}

const struct key_section key_sections[] = {
    { KC_ALL, "Everywhere" },
    { KC_FN, "Function table and function page" },
    { KC_FUNCS, "Function table (the home of a library)" },
    { KC_PAGE, "Function page (Enter on a function)" },
    { KC_MAIN, "Tree, detail and hex panels" },
    { KC_TREE, "Tree panel" },
    { KC_DETAIL, "Detail panel" },
    { KC_HEX, "Hex panel" },
    { KC_TEXT, "Text view (llvm-dis output, member text, this help)" },
    { KC_MEMBERS, "Source member list" },
    { KC_COMPARE, "Compare view (D with two files open; Backspace in the panels returns to it)" },
    { KC_FOLDER, "Folder and archive list (mtlbx DIR, mtlbx App.ipa)" },
    { KC_RELEASE, "Release compare (D in the list of two folders or archives)" },
};
const size_t key_sections_len = sizeof key_sections / sizeof key_sections[0];

/* A binding is listed under "Everywhere" when it applies to all views,
 * under the main-panels section when it covers all three panels, and under
 * every other single context it names. */
bool key_in_section(const struct key_binding *b, unsigned mask)
{
    unsigned c = b->contexts;
    if (mask == KC_ALL)
        return c == KC_ALL;
    if (c == KC_ALL)
        return false;
    if (mask == KC_MAIN || mask == KC_FN)
        return (c & mask) == mask;
    if ((mask & KC_MAIN) && (c & KC_MAIN) == KC_MAIN)
        return false;
    if ((mask & KC_FN) && (c & KC_FN) == KC_FN)
        return false;
    return (c & mask) != 0;
}

const char *const keys_legend =
    "Hash status in the tree: ok = SHA-256 matches, BAD = mismatch,\n"
    "... = not checked yet (checked in the background), -- = no HASH.\n"
    "Row markers: ! an error inside this node, or a field in error\n"
    "(yellow: warnings only), ? an unknown tag or value.\n"
    "A count before a move repeats it: 5j, 10G (1, 2 and 3 start a count\n"
    "only in the panel they focus). Long names are cut in the middle in\n"
    "the tree, at their end in the function table (whole under its rows).\n"
    "Mouse: a click selects and focuses, the wheel scrolls (--no-mouse).\n";

char *keys_help_text(unsigned context)
{
    struct text_buf t = { 0 };
    text_buf_printf(&t, "mtlbx explorer keys  (q closes this help; / searches it)\n");
    /* What works where the user is comes first (htop, tig). */
    if (context) {
        text_buf_printf(&t, "\nThis view: %s\n", key_context_title(context));
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (!(b->contexts & context))
                continue;
            char names[96];
            key_binding_names_in(b, context, names, sizeof names);
            if (names[0])
                text_buf_printf(&t, "  %-22s %s\n", names, b->help);
        }
        text_buf_printf(&t, "\nAll keys, by view\n");
    }
    for (size_t s = 0; s < key_sections_len; s++) {
        int shown = 0;
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (!key_in_section(b, key_sections[s].mask))
                continue;
            if (!shown++)
                text_buf_printf(&t, "\n%s\n", key_sections[s].title);
            char names[96];
            key_binding_names(b, names, sizeof names);
            text_buf_printf(&t, "  %-22s %s\n", names, b->help);
        }
    }
    text_buf_printf(&t, "\n%s", keys_legend);
    char *text = text_buf_take(&t, NULL, NULL);
    return text ? text : strdup("");
}

/* Footer hints go in order of what a newcomer needs first: open, the
 * verbs, search, help and quit; at 80 columns all of those show. A hint
 * that does not fit is left out and shorter ones after it still go in. */
void keys_footer(unsigned context, int width, char *buf, size_t size)
{
    keys_footer_at(context, false, width, buf, size);
}

void keys_footer_at(unsigned context, bool home, int width, char *buf, size_t size)
{
    static const enum action order[] = {
        ACT_ENTER, ACT_PANE_IFACE, ACT_SOURCES, ACT_DISASSEMBLE, ACT_PANE_BYTES, ACT_EXTRACT,
        ACT_SEARCH, ACT_HELP, ACT_QUIT, ACT_FILTER, ACT_SORT,
        ACT_WRITE, ACT_WRITE_ALL, ACT_JUMP_B, ACT_GOTO, ACT_NEXT_PANEL, ACT_BACK, ACT_CANCEL,
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (b->action != order[o] || !b->hint || !(b->contexts & context))
                continue;
            char name[32], item[64];
            if (b->keys[0] == KEY_BACKSPACE)
                snprintf(name, sizeof name, "Bksp");
            else
                key_display_name(b->keys[0], name, sizeof name);
            /* q closes a view, and at the first one quits. */
            const char *hint = home && b->action == ACT_QUIT ? "quit" : b->hint;
            int n = snprintf(item, sizeof item, "%s%s %s", used ? "  " : "", name, hint);
            if (n < 0 || used + (size_t)n >= size || (int)(used + (size_t)n) > width)
                break;
            memcpy(buf + used, item, (size_t)n + 1);
            used += (size_t)n;
            break;
        }
    }
}
