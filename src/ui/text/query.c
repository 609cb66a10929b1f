/* Prompt parsing. Kept apart from the prompts themselves so the grammar
 * of offsets and searches is unit-tested and documented in one place. */
#include "config.h"

#include "ui/text/query.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static bool parse_number(const char *s, uint64_t *out)
{
    char *end;
    s = skip_space(s);
    if (!*s || *s == '-' || *s == '+')
        return false;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!isxdigit((unsigned char)*s))
            return false;
    }
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || end == s)
        return false;
    /* A trailing 'h' (hexdump style "58h") means hexadecimal. */
    if (base == 10 && (*end == 'h' || *end == 'H')) {
        errno = 0;
        v = strtoull(s, &end, 16);
        if (errno)
            return false;
        end++;
    }
    /* Anything else after the digits is refused, not guessed at: "1e9"
     * or "4d" read as hex while "1234" is decimal would jump somewhere
     * the user did not mean. Hex says so: 0x4d or 4dh. */
    end = (char *)skip_space(end);
    if (*end)
        return false;
    *out = v;
    return true;
}

enum offset_parse_result parse_offset(const char *text, uint64_t current,
                                      uint64_t file_size, uint64_t *out)
{
    const char *s = skip_space(text);
    uint64_t v;
    if (*s == '$' && !*skip_space(s + 1)) {
        if (file_size == 0)
            return OFFSET_RANGE;
        *out = file_size - 1;
        return OFFSET_OK;
    }
    if (*s == '+' || *s == '-') {
        if (!parse_number(s + 1, &v))
            return OFFSET_SYNTAX;
        if (*s == '+') {
            if (v >= file_size || current >= file_size - v)
                return OFFSET_RANGE;
            *out = current + v;
        } else {
            /* current is normally inside the file, but an empty file has
             * no byte at all: "-0" must not name offset 0 there. */
            if (v > current || current - v >= file_size)
                return OFFSET_RANGE;
            *out = current - v;
        }
        return OFFSET_OK;
    }
    if (!parse_number(s, &v))
        return OFFSET_SYNTAX;
    if (v >= file_size)
        return OFFSET_RANGE;
    *out = v;
    return OFFSET_OK;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long parse_hex_bytes(const char *text, uint8_t *out, size_t cap)
{
    size_t n = 0;
    const char *s = text;
    for (;;) {
        s = skip_space(s);
        if (!*s)
            break;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            s += 2;
        /* Pairs of digits until a space or the end. */
        int digits = 0;
        while (hexval((unsigned char)*s) >= 0) {
            if (digits % 2 == 0) {
                if (n >= cap)
                    return -1;
                out[n] = (uint8_t)(hexval((unsigned char)*s) << 4);
            } else {
                out[n++] |= (uint8_t)hexval((unsigned char)*s);
            }
            digits++;
            s++;
        }
        if (digits == 0 || digits % 2)
            return -1;
        if (*s && *s != ' ' && *s != '\t')
            return -1;
    }
    return n ? (long)n : -1;
}

static bool is_tag_like(const char *s)
{
    if (strlen(s) != 4)
        return false;
    for (int i = 0; i < 4; i++)
        if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]))
            return false;
    return true;
}

bool query_parse(const char *input, bool in_hex, struct query *q, char *why, size_t why_size)
{
    memset(q, 0, sizeof *q);
    const char *s = skip_space(input);
    if (!*s) {
        snprintf(why, why_size, "empty search");
        return false;
    }
    if ((s[0] == 'x' || s[0] == 'X') && (s[1] == ' ' || s[1] == ':')) {
        long n = parse_hex_bytes(s + 2, q->bytes, sizeof q->bytes);
        if (n < 0) {
            snprintf(why, why_size, "not hex bytes: %.60s (try x 4d544c42)", s + 2);
            return false;
        }
        q->kind = QUERY_BYTES;
        q->n_bytes = (size_t)n;
        snprintf(q->text, sizeof q->text, "%s", skip_space(s + 2));
        return true;
    }
    if (s[0] == '"') {
        size_t n = strlen(s + 1);
        if (n && s[n] == '"')
            n--;              /* a closing quote is optional */
        if (n == 0 || n > sizeof q->bytes) {
            snprintf(why, why_size, "empty or too long string");
            return false;
        }
        q->kind = QUERY_BYTES;
        memcpy(q->bytes, s + 1, n);
        q->n_bytes = n;
        snprintf(q->text, sizeof q->text, "\"%.*s\"", (int)n, s + 1);
        return true;
    }
    if (in_hex) {
        long n = parse_hex_bytes(s, q->bytes, sizeof q->bytes);
        q->kind = QUERY_BYTES;
        if (n > 0) {
            q->n_bytes = (size_t)n;
        } else {
            size_t len = strlen(s);
            if (len > sizeof q->bytes)
                len = sizeof q->bytes;
            memcpy(q->bytes, s, len);
            q->n_bytes = len;
        }
        snprintf(q->text, sizeof q->text, "%s", s);
        return true;
    }
    return query_parse_text(s, q, why, why_size);
}

bool query_parse_text(const char *input, struct query *q, char *why, size_t why_size)
{
    memset(q, 0, sizeof *q);
    const char *s = skip_space(input);
    if (!*s) {
        snprintf(why, why_size, "empty search");
        return false;
    }
    q->kind = QUERY_LABEL;
    snprintf(q->text, sizeof q->text, "%s", s);
    q->tag_like = is_tag_like(q->text);
    return true;
}

/* Lowest match in [lo, hi] (inclusive start positions), or -1. */
static int64_t scan_up(const uint8_t *data, uint64_t lo, uint64_t hi,
                       const uint8_t *pat, size_t n)
{
    for (uint64_t i = lo; i <= hi;) {
        const uint8_t *p = memchr(data + i, pat[0], hi - i + 1);
        if (!p)
            return -1;
        i = (uint64_t)(p - data);
        if (memcmp(p, pat, n) == 0)
            return (int64_t)i;
        i++;
    }
    return -1;
}

/* Highest match in [lo, hi], or -1. */
static int64_t scan_down(const uint8_t *data, uint64_t lo, uint64_t hi,
                         const uint8_t *pat, size_t n)
{
    for (uint64_t i = hi + 1; i-- > lo;)
        if (data[i] == pat[0] && memcmp(data + i, pat, n) == 0)
            return (int64_t)i;
    return -1;
}

int64_t query_find_bytes(const uint8_t *data, uint64_t size, const uint8_t *pat, size_t n,
                         uint64_t from, bool forward)
{
    if (n == 0 || n > size)
        return -1;
    uint64_t last = size - n;           /* last possible start */
    int64_t r = -1;
    if (forward) {
        if (from < last)
            r = scan_up(data, from + 1, last, pat, n);
        if (r < 0)                      /* wrap; `from` itself comes last */
            r = scan_up(data, 0, from < last ? from : last, pat, n);
    } else {
        if (from > 0)
            r = scan_down(data, 0, from - 1 < last ? from - 1 : last, pat, n);
        if (r < 0)
            r = scan_down(data, from < last ? from : last, last, pat, n);
    }
    return r;
}

int64_t query_find_bytes_in(const uint8_t *data, uint64_t size, const uint8_t *pat, size_t n,
                            uint64_t lo, uint64_t hi, bool forward)
{
    if (n == 0 || n > size)
        return -1;
    if (hi > size - n)
        hi = size - n;
    if (lo > hi)
        return -1;
    return forward ? scan_up(data, lo, hi, pat, n) : scan_down(data, lo, hi, pat, n);
}

bool query_label_matches(const struct query *q, const char *label)
{
    size_t n = strlen(q->text), len = strlen(label);
    if (n == 0 || n > len)
        return false;
    for (size_t i = 0; i + n <= len; i++) {
        size_t j = 0;
        while (j < n && tolower((unsigned char)label[i + j]) == tolower((unsigned char)q->text[j]))
            j++;
        if (j == n)
            return true;
    }
    return false;
}
