/* Safe text for the screen. Everything shown from a file passes through
 * here (textfmt_sanitize for lines of text, textfmt_escape_dup for names,
 * which is the library's terminal escaping), so a name holding an ESC
 * sequence prints as "\x1b[..." and never acts on the terminal. */
#include "config.h"

#include "ui/text/textfmt.h"
#include "container/escape.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>

size_t utf8_decode(const uint8_t *s, size_t len, uint32_t *cp)
{
    if (len == 0)
        return 0;
    uint8_t b = s[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    size_t n;
    uint32_t v, min;
    if ((b & 0xe0) == 0xc0) { n = 2; v = b & 0x1f; min = 0x80; }
    else if ((b & 0xf0) == 0xe0) { n = 3; v = b & 0x0f; min = 0x800; }
    else if ((b & 0xf8) == 0xf0) { n = 4; v = b & 0x07; min = 0x10000; }
    else return 0;
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

int textfmt_cp_width(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 0x20 && cp < 0x7f ? 1 : 0;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

/* Code points that must never reach a terminal as themselves: C1
 * controls act like ESC sequences on some terminals, and bidi overrides
 * reorder what is shown (the "trojan source" trick). */
static bool cp_needs_escape(uint32_t cp)
{
    return mbx_codepoint_unsafe(cp); /* the one policy, shared with the CLI */
}

char *textfmt_escape_dup(const void *bytes, size_t len)
{
    return mbx_escape_dup(bytes, len, MTLBX_ESC_TERMINAL);
}

char *textfmt_escape_str_dup(const char *s) { return textfmt_escape_dup(s, strlen(s)); }

struct out_buf {
    char *p;
    size_t cap, len;
    bool full;
};

static void put(struct out_buf *o, const char *s, size_t n)
{
    if (o->full || o->len + n + 1 > o->cap) {
        o->full = true;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

size_t textfmt_sanitize(const uint8_t *in, size_t len, char *out, size_t cap,
                        int tabstop, int max_cols)
{
    struct out_buf o = { out, cap, 0, false };
    int col = 0;
    if (cap == 0)
        return 0;
    if (tabstop <= 0)
        tabstop = 8;
    for (size_t i = 0; i < len && !o.full && col < max_cols;) {
        uint32_t cp;
        size_t n = utf8_decode(in + i, len - i, &cp);
        char esc[16];
        if (n == 0) {
            snprintf(esc, sizeof esc, "\\x%02x", in[i]);
            put(&o, esc, 4);
            col += 4;
            i++;
            continue;
        }
        if (cp == '\t') {
            int next = (col / tabstop + 1) * tabstop;
            while (col < next && !o.full) {
                put(&o, " ", 1);
                col++;
            }
        } else if (cp_needs_escape(cp)) {
            int w = cp < 0x80 ? snprintf(esc, sizeof esc, "\\x%02x", (unsigned)cp)
                              : snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
            put(&o, esc, (size_t)w);
            col += w;
        } else {
            put(&o, (const char *)in + i, n);
            col += textfmt_cp_width(cp);
        }
        i += n;
    }
    out[o.len] = '\0';
    return o.len;
}

size_t textfmt_step(const uint8_t *s, size_t len, int *cols)
{
    uint32_t cp;
    size_t n = utf8_decode(s, len, &cp);
    if (n == 0) {
        n = 1;
        cp = '?';
    }
    *cols = textfmt_cp_width(cp);
    return n;
}

int textfmt_width(const char *utf8)
{
    const uint8_t *s = (const uint8_t *)utf8;
    size_t len = strlen(utf8);
    int cols = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            cols++;
            i++;
            continue;
        }
        cols += textfmt_cp_width(cp);
        i += n;
    }
    return cols;
}

int textfmt_clip(const char *utf8, int skip_cols, int width, bool ascii_only,
                 wchar_t *out, size_t cap)
{
    const uint8_t *s = (const uint8_t *)utf8;
    size_t len = strlen(utf8), k = 0;
    int col = 0, used = 0;
    if (cap == 0)
        return 0;
    for (size_t i = 0; i < len && k + 1 < cap;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {           /* cannot happen for sanitized text */
            cp = '?';
            n = 1;
        }
        i += n;
        if (ascii_only && cp >= 0x80)
            cp = '?';
        /* The last line of defence: whatever reaches the screen through
         * here cannot act on the terminal, even if a caller forgot to
         * escape it. */
        if (cp_needs_escape(cp))
            cp = '?';
        int w = textfmt_cp_width(cp);
        if (col < skip_cols) {
            col += w;
            /* A wide character cut by the left edge leaves a blank. */
            while (col > skip_cols && used < width && k + 1 < cap) {
                out[k++] = L' ';
                used++;
                skip_cols++;
            }
            continue;
        }
        if (used + w > width)
            break;
        out[k++] = (wchar_t)cp;
        used += w;
        col += w;
    }
    out[k] = L'\0';
    return used;
}

long textfmt_find(const uint8_t *hay, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0 || n > len)
        return -1;
    for (size_t i = 0; i + n <= len; i++) {
        size_t j = 0;
        while (j < n && tolower(hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == n)
            return (long)i;
    }
    return -1;
}
