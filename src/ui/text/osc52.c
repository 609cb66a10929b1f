/* See osc52.h. */
#include "config.h"

#include "ui/text/osc52.h"

#include <string.h>

size_t osc52_encode(const uint8_t *text, size_t len, char *out, size_t cap)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char head[] = "\x1b]52;c;";
    size_t need = sizeof head - 1 + (len + 2) / 3 * 4 + 1 + 1;
    if (len > OSC52_MAX_TEXT || cap < need)
        return 0;
    size_t o = sizeof head - 1;
    memcpy(out, head, o);
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)text[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)text[i + 1] << 8;
        if (i + 2 < len)
            v |= text[i + 2];
        out[o++] = b64[(v >> 18) & 63];
        out[o++] = b64[(v >> 12) & 63];
        out[o++] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? b64[v & 63] : '=';
    }
    out[o++] = '\a';
    out[o] = '\0';
    return o;
}
