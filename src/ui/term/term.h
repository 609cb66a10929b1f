/* The terminal: the only place that sets curses up and tears it down,
 * picks colours or monochrome attributes, reads keys and puts (already
 * safe) text on the screen cut to a width. */
#ifndef MTLBX_UI_TERM_H
#define MTLBX_UI_TERM_H

#include <stdbool.h>
#include <stdint.h>
#include <curses.h>
#include <wchar.h>

enum ui_attr {
    AT_NORMAL, AT_TITLE, AT_PANEL_TITLE, AT_PANEL_TITLE_FOCUS,
    AT_SELECT, AT_SELECT_UNFOCUSED, AT_DIM, AT_HEADING,
    AT_OK, AT_BAD, AT_WARN, AT_UNKNOWN, AT_FOLLOW,
    AT_HEX_NODE, AT_HEX_FIELD, AT_HEX_CURSOR, AT_MATCH,
    AT_STATUS, AT_STATUS_ERROR, AT_FOOTER,
    AT_HEX_UNCLAIMED,          /* bytes no structure claims */
    AT_COUNT
};

/* Starts curses on the controlling terminal. Registers the one teardown
 * with atexit and for SIGINT/TERM/HUP/QUIT/SEGV/BUS/ABRT, so the terminal
 * is restored on every exit path. Returns false (message in `why`) if the
 * terminal cannot be used (unknown TERM, not a tty). */
bool term_init(bool no_color, bool ascii, char *why, size_t why_size);
/* Idempotent; safe to call from the signal handler path. */
void term_teardown(void);
/* The file name(s) a SIGBUS message gives: a mapped file that shrinks
 * under the explorer restores the terminal, prints one line naming it and
 * exits 2, as the command line does. */
void term_set_file_names(const char *names);
/* Whether curses is up (between term_init and term_teardown). */
bool term_active(void);

bool term_ascii(void);       /* ASCII line drawing */
bool term_utf8(void);        /* the locale can show UTF-8 text */
attr_t term_attr(enum ui_attr a);
/* `base` (a row's attributes) with `a` added, keeping base's colours when
 * it has some: the selected row stays the selected colour. */
attr_t term_attr_on(attr_t base, enum ui_attr a);

/* Draws `utf8` (already made safe) at (y, x), skipping `skip_cols`
 * columns, cut to `width` columns and padded with blanks to exactly
 * `width`. Returns the columns of text drawn (before padding). */
int term_put(int y, int x, int width, const char *utf8, attr_t attr, int skip_cols);
/* Same without padding. */
int term_put_raw(int y, int x, int width, const char *utf8, attr_t attr);
void term_fill(int y, int x, int width, attr_t attr);
void term_vline(int y, int x, int height);

/* The terminal's size in lines and columns (after a resize too). */
void term_size(int *lines, int *cols);
/* A frame: the screen is cleared, drawn, then sent at once (curses only
 * sends what changed). */
void term_begin_frame(void);
void term_end_frame(void);
/* Sends what was drawn since, outside a frame (a prompt's line). */
void term_flush(void);
/* Ctrl-L: the next frame redraws every cell. */
void term_redraw_all(void);
/* The text cursor, shown at (y, x) while a prompt reads a line. */
void term_show_cursor(int y, int x);
void term_hide_cursor(void);
/* Asks the terminal for mouse presses and the wheel; false when it
 * cannot report them. */
bool term_mouse_start(void);
/* The mouse event behind a KEY_MOUSE: a press at (y, x) (*wheel 0) or a
 * wheel turn (+1 down, -1 up); false when there is none to read. */
bool term_mouse_event(int *y, int *x, int *wheel);
/* Writes bytes to the terminal after what was drawn (an OSC 52 copy);
 * false when not all went out. */
bool term_send_raw(const char *bytes, size_t n);

/* Glyphs that degrade to ASCII: "→" or "->", "…" or ">". */
const char *term_glyph_follow(void);
const char *term_glyph_ellipsis(void);

/* Reads one key, waiting at most `timeout_ms` (-1: forever). Returns
 * ERR on timeout, TERM_KEY_GONE when the terminal is gone (end of file or
 * a read error on it: the caller must end, as reading again returns at
 * once, forever), a KEY_* code, or a character (wide characters above
 * 0x7f arrive in *wide, with the return value 0). */
#define TERM_KEY_GONE (-2)
int term_read_key(int timeout_ms, wint_t *wide);
/* Microseconds spent waiting in term_read_key so far: a key's latency
 * leaves out the time its prompt waited for the user to type. */
uint64_t term_waited_us(void);

#endif
