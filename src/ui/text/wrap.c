/* See wrap.h. */
#include "config.h"

#include "ui/text/textfmt.h"
#include "ui/text/wrap.h"

#include <string.h>

int wrap_text(const char *utf8, int width, size_t *starts, int max_lines)
{
    const uint8_t *s = (const uint8_t *)utf8;
    size_t len = strlen(utf8), i = 0;
    int lines = 0;
    if (max_lines <= 0)
        return 0;
    if (width < 1)
        width = 1;
    while (lines < max_lines) {
        starts[lines++] = i;
        if (lines == max_lines)
            break;
        size_t j = i, last_space = 0;
        int cols = 0;
        while (j < len) {
            int w;
            size_t n = textfmt_step(s + j, len - j, &w);
            if (cols + w > width)
                break;
            cols += w;
            j += n;
            if (s[j - 1] == ' ' && cols >= width * 2 / 3)
                last_space = j;
        }
        if (j >= len)
            break;
        if (j == i)                     /* a character wider than the line */
            j = i + 1;
        i = last_space > i ? last_space : j;
    }
    starts[lines] = len;
    return lines;
}

const char *wrap_line(const char *utf8, const size_t *starts, int i, char *out, size_t size)
{
    size_t len = starts[i + 1] - starts[i];
    if (len >= size)
        len = size - 1;
    memcpy(out, utf8 + starts[i], len);
    out[len] = '\0';
    return out;
}
