/* The spellings of values (writer_internal.h): one strictness for the
 * manifest's reader and writer and for mtlbx_writer_set (writer_api.c). */
#include "config.h"

#include "writer_internal.h"
#include "manifest.h"
#include "container/escape.h"
#include "container/hex.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *mbx_wr_hex(const uint8_t *p, size_t n)
{
    if (n > (SIZE_MAX - 1) / 2)
        return NULL;
    char *s = malloc(2 * n + 1);
    if (s)
        mtlbx_hex_lower(s, p, n);
    return s;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool mbx_wr_unhex(const char *text, uint8_t **out, size_t *n)
{
    size_t len = strlen(text);
    if (len % 2)
        return false;
    uint8_t *b = malloc(len / 2 + 1);
    if (!b)
        return false;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(text[2 * i]), lo = hexval(text[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(b);
            return false;
        }
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    *out = b;
    *n = len / 2;
    return true;
}

bool mbx_wr_text_ok(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t l = mbx_utf8_next(p + i, n - i, &cp);
        if (l == 0 || cp == 0)
            return false;
        i += l;
    }
    return true;
}

bool mbx_wr_cstring_ok(const uint8_t *p, size_t n)
{
    return n >= 1 && p[n - 1] == 0 && mbx_wr_text_ok(p, n - 1);
}

/* name(v) == text for some v < limit, or text is PREFIX followed by v. */
static bool by_name(const char *text, const char *(*name)(uint8_t, char *, size_t), unsigned limit,
                    const char *prefix, int base, uint8_t *out)
{
    char buf[40];
    for (unsigned v = 0; v < limit; v++)
        if (strcmp(name((uint8_t)v, buf, sizeof buf), text) == 0) {
            *out = (uint8_t)v;
            return true;
        }
    size_t pl = strlen(prefix);
    if (strncmp(text, prefix, pl) != 0 || !text[pl])
        return false;
    char *end;
    unsigned long v = strtoul(text + pl, &end, base);
    if (*end || v >= limit || text[pl] == '-' || text[pl] == '+' || text[pl] == ' ')
        return false;
    /* Only the spelling the name function gives (no leading zeros ...). */
    if (strcmp(name((uint8_t)v, buf, sizeof buf), text) != 0)
        return false;
    *out = (uint8_t)v;
    return true;
}

bool mbx_wr_function_type_parse(const char *name, uint8_t *out)
{
    return by_name(name, mbx_function_type_name, 256, "unknown-", 10, out);
}

bool mbx_wr_file_type_parse(const char *name, uint8_t *out)
{
    return by_name(name, mbx_file_type_name, 128, "unknown-", 10, out);
}

bool mbx_wr_target_os_parse(const char *name, uint8_t *out)
{
    return by_name(name, mbx_target_os_name, 256, "unknown-0x", 16, out);
}

bool mbx_wr_version_parse(const char *text, int parts, const unsigned long *max, unsigned long *out)
{
    const char *p = text;
    for (int k = 0; k < parts; k++) {
        if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
            return false;
        unsigned long v = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (unsigned long)(*p - '0');
            if (v > max[k])
                return false;
            p++;
        }
        out[k] = v;
        if (k + 1 < parts && *p++ != '.')
            return false;
    }
    return *p == 0;
}

bool mbx_wr_fourcc_printable(uint32_t fourcc, char out[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned c = (fourcc >> (8 * i)) & 0xFF;
        if (c < 0x21 || c > 0x7E)
            return false;
        out[i] = (char)c;
    }
    out[4] = 0;
    return true;
}
