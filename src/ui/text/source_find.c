/* See source_find.h. A linear scan per candidate name: member texts are
 * at most a few megabytes and this runs once per key press. */
#include "config.h"

#include "ui/text/source_find.h"

#include <string.h>

static bool ident_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool has_stage_word(const uint8_t *line, size_t len)
{
    static const char *const words[] = { "kernel", "vertex", "fragment", "[[visible]]", "[[stitchable]]",
                                         "object", "mesh", "intersection", "tile", "extern" };
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t n = strlen(words[w]);
        for (size_t i = 0; i + n <= len; i++)
            if (memcmp(line + i, words[w], n) == 0 && (i == 0 || !ident_char(line[i - 1])) &&
                (i + n == len || !ident_char(line[i + n]) || words[w][n - 1] == ']'))
                return true;
    }
    return false;
}

int source_find_name(const uint8_t *text, size_t len, const char *name, size_t name_len, size_t *line)
{
    int best = 0;
    size_t line_no = 0, line_start = 0;
    if (name_len == 0)
        return 0;
    for (size_t i = 0; i + name_len <= len; i++) {
        if (text[i] == '\n') {
            line_no++;
            line_start = i + 1;
            continue;
        }
        if (text[i] != (uint8_t)name[0] || memcmp(text + i, name, name_len) != 0)
            continue;
        if ((i > 0 && ident_char(text[i - 1])) || (i + name_len < len && ident_char(text[i + name_len])))
            continue;
        size_t j = i + name_len;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        bool call = j < len && (text[j] == '(' || text[j] == '<');
        int score = 1;
        if (call)
            score = has_stage_word(text + line_start, i - line_start) ? 3 : 2;
        if (score > best) {
            best = score;
            *line = line_no;
            if (best == 3)
                return best;
        }
    }
    return best;
}

int source_find_definition(const uint8_t *text, size_t len, const char *symbol, size_t *line)
{
    /* A C++ name: the identifier before its parameters and template
     * arguments, after its namespaces. */
    char name[512];
    size_t n = strcspn(symbol, "(<");
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, symbol, n);
    name[n] = '\0';
    while (n && name[n - 1] == ' ')
        name[--n] = '\0';
    const char *base = name;
    for (const char *p = name; (p = strstr(p, "::")); p += 2)
        base = p + 2;
    /* A word before the name ("void f") is a return type. */
    const char *sp = strrchr(base, ' ');
    if (sp)
        base = sp + 1;
    size_t blen = strlen(base);
    int score = source_find_name(text, len, base, blen, line);
    if (score >= 2)
        return score;
    /* base_float_half defined as base (a template instantiated under a
     * host_name): a shorter name that is defined beats the whole name
     * found only in a string. */
    size_t whole_line = *line;
    for (size_t k = blen; k-- > 1;) {
        if (base[k] != '_')
            continue;
        size_t at;
        int s = source_find_name(text, len, base, k, &at);
        if (s >= 2) {
            *line = at;
            return s;
        }
    }
    *line = whole_line;
    return score;
}
