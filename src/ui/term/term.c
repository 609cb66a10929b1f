/* Terminal set-up and the single teardown path (htop's CRT, tig's
 * die callback): whatever ends the process — q, an error, Ctrl-C, SIGTERM,
 * a hang-up or a crash — goes through term_teardown first. */
#include "config.h"

#include "ui/term/term.h"
#include "ui/text/textfmt.h"
#include "program/fatal_cleanup.h"

#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t curses_on;
static bool registered;
static bool use_ascii, use_utf8, use_color;
static attr_t attrs[AT_COUNT];
static SCREEN *screen;

void term_teardown(void)
{
    if (!curses_on)
        return;
    curses_on = 0;
    curs_set(1);
    endwin();
    fflush(stdout);
}

/* What a SIGBUS names: set once the files are open. */
static char bus_names[512];

void term_set_file_names(const char *names)
{
    size_t i = 0;
    /* The user's own paths, but they may hold bytes that act on a terminal. */
    for (; names[i] && i + 1 < sizeof bus_names; i++)
        bus_names[i] = (unsigned char)names[i] < 0x20 || names[i] == 0x7f ? '?' : names[i];
    bus_names[i] = '\0';
}

/* $TERM for a message: anyone can set it, escape sequences included, so
 * only printable ASCII is shown as itself (and a long value is cut). */
static void shown_term(char *out, size_t size)
{
    const char *t = getenv("TERM");
    if (!t) {
        snprintf(out, size, "(unset)");
        return;
    }
    size_t i = 0;
    for (; t[i] && i + 1 < size; i++)
        out[i] = (unsigned char)t[i] < 0x20 || (unsigned char)t[i] >= 0x7f ? '?' : t[i];
    out[i] = '\0';
}

static void on_signal(int sig)
{
    fatal_cleanup_claim(); /* two threads must not tear down twice */
    term_teardown();
    fatal_cleanup_run(); /* a half-written file, a running llvm-dis */
    if (sig == SIGBUS) {
        /* A mapped file changed or shrank (CONTRACT.md): like the command
         * line, one line naming it and exit status 2, not a crash. */
        static const char a[] = "mtlbx: ";
        static const char b[] = ": the file changed or shrank while it was being read\n";
        const char *p = bus_names[0] ? bus_names : "(file)";
        if (write(STDERR_FILENO, a, sizeof a - 1) < 0 || write(STDERR_FILENO, p, strlen(p)) < 0 ||
            write(STDERR_FILENO, b, sizeof b - 1) < 0)
            _exit(2);
        _exit(2);
    }
    /* Die of the same signal so the parent sees the real cause (and a
     * core dump still happens for SIGSEGV). */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    if (!registered) {
        atexit(term_teardown);
        registered = true;
    }
}

/* Each attribute's look. Monochrome first: every meaning must survive
 * NO_COLOR and vt100. With colour, `color` on the attribute's own pair
 * of fg on bg when it has one (`pair`), else `color` alone. */
struct look {
    attr_t mono, color;
    bool pair;
    short fg, bg;                /* -1: the terminal's own */
};
#define SAME(m) { .mono = (m), .color = (m) }
#define PAIR(m, f, b, c) { .mono = (m), .color = (c), .pair = true, .fg = (f), .bg = (b) }

static const struct look looks[AT_COUNT] = {
    [AT_NORMAL] = SAME(A_NORMAL),
    [AT_TITLE] = PAIR(A_REVERSE | A_BOLD, COLOR_WHITE, COLOR_BLUE, A_BOLD),
    [AT_PANEL_TITLE] = PAIR(A_UNDERLINE, COLOR_WHITE, COLOR_BLUE, A_NORMAL),
    [AT_PANEL_TITLE_FOCUS] = PAIR(A_REVERSE | A_BOLD, COLOR_BLACK, COLOR_CYAN, A_BOLD),
    [AT_SELECT] = PAIR(A_REVERSE, COLOR_BLACK, COLOR_CYAN, A_NORMAL),
    [AT_SELECT_UNFOCUSED] = { .mono = A_BOLD | A_UNDERLINE, .color = A_REVERSE },
    [AT_DIM] = SAME(A_DIM),
    [AT_HEADING] = PAIR(A_BOLD, COLOR_BLUE, -1, A_BOLD),
    [AT_OK] = PAIR(A_NORMAL, COLOR_GREEN, -1, A_NORMAL),
    /* Not standout: with NO_COLOR that is reverse video, the look of the
     * selected row. Error rows carry a "!" marker of their own instead. */
    [AT_BAD] = PAIR(A_BOLD, COLOR_RED, -1, A_BOLD),
    [AT_WARN] = PAIR(A_BOLD, COLOR_YELLOW, -1, A_BOLD),
    [AT_UNKNOWN] = PAIR(A_BOLD, COLOR_MAGENTA, -1, A_BOLD),
    [AT_FOLLOW] = PAIR(A_BOLD, COLOR_CYAN, -1, A_NORMAL),
    [AT_HEX_NODE] = PAIR(A_BOLD | A_UNDERLINE, COLOR_BLACK, COLOR_YELLOW, A_NORMAL),
    [AT_HEX_FIELD] = PAIR(A_STANDOUT | A_BOLD, COLOR_WHITE, COLOR_RED, A_BOLD),
    [AT_HEX_CURSOR] = SAME(A_REVERSE),
    [AT_MATCH] = PAIR(A_REVERSE | A_BOLD, COLOR_BLACK, COLOR_GREEN, A_NORMAL),
    [AT_STATUS] = SAME(A_NORMAL),
    [AT_STATUS_ERROR] = PAIR(A_BOLD | A_REVERSE, COLOR_WHITE, COLOR_RED, A_BOLD),
    [AT_FOOTER] = PAIR(A_REVERSE, COLOR_WHITE, COLOR_BLUE, A_NORMAL),
    [AT_HEX_UNCLAIMED] = PAIR(A_DIM | A_UNDERLINE, COLOR_WHITE, COLOR_MAGENTA, A_NORMAL),
};

#undef SAME
#undef PAIR

static void setup_attrs(void)
{
    if (use_color) {
        start_color();
        use_default_colors();
    }
    /* Pair a is attribute a's (AT_NORMAL, 0, has none). */
    for (int a = 0; a < AT_COUNT; a++) {
        const struct look *l = &looks[a];
        if (!use_color)
            attrs[a] = l->mono;
        else if (!l->pair)
            attrs[a] = l->color;
        else {
            init_pair((short)a, l->fg, l->bg);
            attrs[a] = COLOR_PAIR(a) | l->color;
        }
    }
}

bool term_init(bool no_color, bool ascii, char *why, size_t why_size)
{
    const char *cs = nl_langinfo(CODESET);
    use_utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    use_ascii = ascii || !use_utf8;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(why, why_size, "the explorer needs a terminal on stdin and stdout");
        return false;
    }
    /* newterm, not initscr: initscr exits by itself on an unknown TERM. */
    screen = newterm(NULL, stdout, stdin);
    if (!screen) {
        char t[64];
        shown_term(t, sizeof t);
        snprintf(why, why_size, "cannot use terminal type '%s'", t);
        return false;
    }
    set_term(screen);
    /* A terminal that cannot move the cursor (TERM=dumb) would show an
     * empty screen: refuse it and point at the command line instead. */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        char t[64];
        shown_term(t, sizeof t);
        endwin();
        delscreen(screen);
        screen = NULL;
        snprintf(why, why_size, "terminal type '%s' cannot position the cursor; try mtlbx info FILE", t);
        return false;
    }
    curses_on = 1;
    install_handlers();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    use_color = !no_color && has_colors();
    setup_attrs();
    return true;
}

bool term_active(void) { return curses_on; }
bool term_ascii(void) { return use_ascii; }
bool term_utf8(void) { return use_utf8; }
attr_t term_attr(enum ui_attr a) { return attrs[a]; }

const char *term_glyph_follow(void) { return use_ascii ? "->" : "\xe2\x86\x92"; }
const char *term_glyph_ellipsis(void) { return use_ascii ? "~" : "\xe2\x80\xa6"; }

static int put(int y, int x, int width, const char *utf8, attr_t attr, int skip, bool pad)
{
    wchar_t wbuf[1024];
    if (width <= 0)
        return 0;
    if (width > 1000)
        width = 1000;
    /* Nothing is cut silently: a padded line that does not fit ends in
     * an ellipsis (raw pieces are the callers' to cut). */
    bool cut = pad && width > 1 && textfmt_width(utf8) - skip > width;
    int used = textfmt_clip(utf8, skip, cut ? width - 1 : width, !use_utf8, wbuf,
                            sizeof wbuf / sizeof wbuf[0] - 1);
    if (cut) {
        size_t k = wcslen(wbuf);
        wbuf[k] = use_ascii ? L'~' : L'\x2026';
        wbuf[k + 1] = L'\0';
        used++;
    }
    attr_t old_a;
    short old_p;
    attr_get(&old_a, &old_p, NULL);
    attrset(attr);
    mvaddnwstr(y, x, wbuf, -1);
    if (pad)
        for (int i = used; i < width; i++)
            mvaddch(y, x + i, ' ');
    attrset(old_a);
    return used;
}

int term_put(int y, int x, int width, const char *utf8, attr_t attr, int skip_cols)
{
    return put(y, x, width, utf8, attr, skip_cols, true);
}

int term_put_raw(int y, int x, int width, const char *utf8, attr_t attr)
{
    return put(y, x, width, utf8, attr, 0, false);
}

void term_fill(int y, int x, int width, attr_t attr)
{
    attrset(attr);
    for (int i = 0; i < width; i++)
        mvaddch(y, x + i, ' ');
    attrset(A_NORMAL);
}

/* Drawn as text, not ACS: the alternate character set is what breaks on
 * PuTTY, in screen and over some SSH paths (tig #1307, #566). */
void term_vline(int y, int x, int height)
{
    for (int i = 0; i < height; i++)
        term_put_raw(y + i, x, 1, use_ascii ? "|" : "\xe2\x94\x82", A_NORMAL);
}

static uint64_t waited_us;

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t term_waited_us(void)
{
    return waited_us;
}

/* After get_wch() gave no key: a timeout, or a terminal that is gone? A
 * closed terminal polls as hung up or in error, or as readable with no
 * byte to read (read() would return 0). A real timeout is neither. */
static bool terminal_gone(void)
{
    struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
    if (poll(&p, 1, 0) < 0)
        return errno != EINTR;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
        return true;
    int avail = 0;
    return (p.revents & POLLIN) && (ioctl(STDIN_FILENO, FIONREAD, &avail) != 0 || avail == 0);
}

int term_read_key(int timeout_ms, wint_t *wide)
{
    wint_t ch;
    *wide = 0;
    timeout(timeout_ms);
    uint64_t t0 = now_us();
    int r = get_wch(&ch);
    waited_us += now_us() - t0;
    if (r == ERR)
        return terminal_gone() ? TERM_KEY_GONE : ERR;
    if (r == KEY_CODE_YES)
        return (int)ch;
    if (ch < 0x80)
        return (int)ch;
    *wide = ch;
    return 0;
}

attr_t term_attr_on(attr_t base, enum ui_attr a)
{
    attr_t add = term_attr(a);
    /* OR-ing two colour pairs would make a third, unrelated one. */
    if (base & A_COLOR)
        add &= ~A_COLOR;
    return base | add;
}

void term_size(int *lines, int *cols)
{
    *lines = LINES;
    *cols = COLS;
}

void term_begin_frame(void) { erase(); }
void term_end_frame(void) { refresh(); }
void term_flush(void) { refresh(); }
void term_redraw_all(void) { clearok(curscr, TRUE); }

void term_show_cursor(int y, int x)
{
    curs_set(1);
    move(y, x);
    refresh();
}

void term_hide_cursor(void) { curs_set(0); }

bool term_mouse_start(void)
{
    mmask_t want = BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED;
    mmask_t got = mousemask(want, NULL);
    mouseinterval(0);           /* report presses at once: no click timing */
    return got != 0;
}

bool term_mouse_event(int *y, int *x, int *wheel)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return false;
    *y = ev.y;
    *x = ev.x;
    if (ev.bstate & BUTTON4_PRESSED)
        *wheel = -1;
    else if (ev.bstate & BUTTON5_PRESSED)
        *wheel = 1;
    else if (ev.bstate & BUTTON1_PRESSED)
        *wheel = 0;
    else
        return false;
    return true;
}

bool term_send_raw(const char *bytes, size_t n)
{
    refresh();
    return write(STDOUT_FILENO, bytes, n) == (ssize_t)n;
}
