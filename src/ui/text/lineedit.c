/* Line editing on a fixed buffer; cursor moves skip UTF-8 continuation
 * bytes so a multi-byte character is never split. */
#include "config.h"

#include "ui/text/lineedit.h"

#include <string.h>

static bool is_cont(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

void lineedit_set(struct lineedit *e, const char *text)
{
    size_t n = strlen(text);
    if (n >= LINEEDIT_MAX)
        n = LINEEDIT_MAX - 1;
    while (n > 0 && is_cont(text[n]))
        n--;                    /* never end inside a character */
    memcpy(e->buf, text, n);
    e->buf[n] = '\0';
    e->len = e->cursor = n;
}

bool lineedit_insert(struct lineedit *e, const char *bytes, size_t n)
{
    if (e->len + n >= LINEEDIT_MAX)
        return false;
    memmove(e->buf + e->cursor + n, e->buf + e->cursor, e->len - e->cursor + 1);
    memcpy(e->buf + e->cursor, bytes, n);
    e->len += n;
    e->cursor += n;
    return true;
}

static size_t prev_boundary(const struct lineedit *e, size_t pos)
{
    if (pos == 0)
        return 0;
    pos--;
    while (pos > 0 && is_cont(e->buf[pos]))
        pos--;
    return pos;
}

static size_t next_boundary(const struct lineedit *e, size_t pos)
{
    if (pos >= e->len)
        return e->len;
    pos++;
    while (pos < e->len && is_cont(e->buf[pos]))
        pos++;
    return pos;
}

static void erase(struct lineedit *e, size_t from, size_t to)
{
    memmove(e->buf + from, e->buf + to, e->len - to + 1);
    e->len -= to - from;
    e->cursor = from;
}

void lineedit_backspace(struct lineedit *e)
{
    if (e->cursor > 0)
        erase(e, prev_boundary(e, e->cursor), e->cursor);
}

void lineedit_delete(struct lineedit *e)
{
    if (e->cursor < e->len) {
        size_t keep = e->cursor;
        erase(e, e->cursor, next_boundary(e, e->cursor));
        e->cursor = keep;
    }
}

void lineedit_left(struct lineedit *e) { e->cursor = prev_boundary(e, e->cursor); }
void lineedit_right(struct lineedit *e) { e->cursor = next_boundary(e, e->cursor); }
void lineedit_home(struct lineedit *e) { e->cursor = 0; }
void lineedit_end(struct lineedit *e) { e->cursor = e->len; }

void lineedit_kill_line(struct lineedit *e)
{
    erase(e, 0, e->cursor);
}

void lineedit_kill_word(struct lineedit *e)
{
    size_t p = e->cursor;
    while (p > 0 && (e->buf[p - 1] == ' ' || e->buf[p - 1] == '/'))
        p--;
    while (p > 0 && e->buf[p - 1] != ' ' && e->buf[p - 1] != '/')
        p--;
    erase(e, p, e->cursor);
}
