/* Making bytes from the file safe to show. Valid UTF-8 passes through;
 * invalid bytes become "\xNN". For a terminal, control characters (C0, DEL,
 * C1), bidi and invisible format characters (mbx_codepoint_unsafe) and
 * the backslash itself are escaped too, so an ESC sequence in a function
 * name is displayed, never executed, and U+202E cannot reorder a line. */
#include "config.h"
#include "container/escape.h"

#include <stdlib.h>
#include <string.h>
#include <unictype.h>
#include <stdbool.h>

/* Unicode's own categories rather than a list kept here: a hand-kept list
 * missed 26 format characters (U+0600-0605, U+06DD, U+110BD, U+13430,
 * U+1BCA0, U+1D173... issue 35). libunistring's tables are pure lookups
 * (no locale, no state). Unassigned code points (Cn) go too: Debian 12's
 * tables are Unicode 14, and Unicode 15 made U+13439-1343F format
 * characters, so what is unassigned here may be invisible on a newer
 * terminal. */
bool mbx_codepoint_unsafe(uint32_t cp)
{
    if (cp < 0x80)
        return cp < 0x20 || cp == 0x7F;
    return uc_is_general_category_withtable(cp, UC_CATEGORY_MASK_Cc | UC_CATEGORY_MASK_Cf | UC_CATEGORY_MASK_Zl |
                                                    UC_CATEGORY_MASK_Zp | UC_CATEGORY_MASK_Cn);
}

size_t mbx_utf8_next(const uint8_t *p, size_t left, uint32_t *cp)
{
    uint8_t c = p[0];
    size_t n;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 2; v = c & 0x1F; min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3; v = c & 0x0F; min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4; v = c & 0x07; min = 0x10000;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

size_t mbx_escape(const uint8_t *bytes, size_t len, unsigned flags, char *out, size_t out_size)
{
    static const char hex[] = "0123456789abcdef";
    size_t need = 0, o = 0;
    bool full = out_size == 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = mbx_utf8_next(bytes + i, len - i, &cp);
        char tmp[4];
        const char *piece;
        size_t plen;
        bool control = n && mbx_codepoint_unsafe(cp);
        if (n && !((flags & MTLBX_ESC_TERMINAL) && (control || cp == '\\'))) {
            piece = (const char *)bytes + i;
            plen = n;
        } else if (n == 1 && cp == '\\') {
            piece = "\\\\";
            plen = 2;
        } else {
            /* One escaped byte at a time: a C1 control (2 bytes in UTF-8)
             * shows as \xc2\x9b, which is what is really in the file. */
            n = 1;
            tmp[0] = '\\'; tmp[1] = 'x';
            tmp[2] = hex[bytes[i] >> 4];
            tmp[3] = hex[bytes[i] & 15];
            piece = tmp;
            plen = 4;
        }
        need += plen;
        if (!full && o + plen < out_size) {
            memcpy(out + o, piece, plen);
            o += plen;
        } else {
            full = true;
        }
        i += n;
    }
    if (out_size)
        out[o] = '\0';
    return need;
}

char *mbx_escape_dup(const uint8_t *bytes, size_t len, unsigned flags)
{
    size_t need = mbx_escape(bytes, len, flags, NULL, 0);
    char *s = malloc(need + 1);
    if (s)
        mbx_escape(bytes, len, flags, s, need + 1);
    return s;
}
