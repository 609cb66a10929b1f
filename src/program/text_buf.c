/* See text_buf.h. */
#include "config.h"

#include "text_buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for n more bytes and the NUL after them. */
static bool reserve(struct text_buf *t, size_t n)
{
    if (t->failed)
        return false;
    if (t->cap > t->len && n < t->cap - t->len)
        return true;
    if (n > SIZE_MAX - t->len - 1) {
        t->failed = true;
        return false;
    }
    size_t want = t->len + n + 1, cap = t->cap ? t->cap : 256;
    while (cap < want)
        cap = cap > SIZE_MAX / 2 ? want : cap * 2;
    char *g = realloc(t->s, cap);
    if (!g) {
        t->failed = true;
        return false;
    }
    t->s = g;
    t->cap = cap;
    return true;
}

void text_buf_add(struct text_buf *t, const void *p, size_t n)
{
    if (!reserve(t, n))
        return;
    if (n)
        memcpy(t->s + t->len, p, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void text_buf_str(struct text_buf *t, const char *s)
{
    text_buf_add(t, s, strlen(s));
}

void text_buf_printf(struct text_buf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        return;
    }
    if (!reserve(t, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void text_buf_adopt(struct text_buf *t, char *buf, size_t cap)
{
    free(t->s);
    *t = (struct text_buf){ .s = buf, .cap = buf ? cap : 0 };
    if (buf && cap)
        buf[0] = '\0';
}

char *text_buf_take(struct text_buf *t, size_t *len, size_t *cap)
{
    char *s = t->failed ? NULL : t->s;
    if (len)
        *len = s ? t->len : 0;
    if (cap)
        *cap = s ? t->cap : 0;
    if (!s)
        free(t->s);
    *t = (struct text_buf){ 0 };
    return s;
}

void text_buf_free(struct text_buf *t)
{
    free(t->s);
    *t = (struct text_buf){ 0 };
}
