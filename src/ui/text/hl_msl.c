/* Metal Shading Language colour (hl.h): comments (// and block comments
 * across lines), strings and character literals, numbers, preprocessor
 * lines, [[attributes]], keywords and types (the scalar, vector and
 * matrix types, packed_ types, textures, samplers). */
#include "config.h"

#include "ui/text/hl.h"

#include <string.h>

static const char *const keywords[] = {
    "kernel", "vertex", "fragment", "visible", "mesh", "object", "intersection",
    "device", "constant", "threadgroup", "threadgroup_imageblock", "thread", "ray_data", "object_data",
    "struct", "class", "union", "enum", "typedef", "using", "namespace", "template", "typename",
    "return", "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue",
    "static", "inline", "const", "constexpr", "volatile", "sizeof", "alignas", "alignof",
    "public", "private", "protected", "operator", "true", "false", "nullptr", "auto",
    "static_assert", "decltype", "this", "goto", "extern", "explicit", "virtual", "friend",
    NULL,
};

static const char *const base_types[] = {
    "void", "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
    "half", "float", "double", "bfloat", "size_t", "ptrdiff_t", "int8_t", "uint8_t", "int16_t",
    "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "sampler", "unsigned", "signed",
    NULL,
};

static bool word_in(const char *w, size_t n, const char *const *set)
{
    for (; *set; set++)
        if (strlen(*set) == n && memcmp(*set, w, n) == 0)
            return true;
    return false;
}

static bool starts(const char *w, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(w, p, k) == 0;
}

/* float, float4, half3x3, packed_float3, texture2d, depth2d_array... */
static bool is_type(const char *w, size_t n)
{
    if (starts(w, n, "texture") || starts(w, n, "depth") || starts(w, n, "atomic_") ||
        starts(w, n, "simd_") || starts(w, n, "array") || starts(w, n, "vec"))
        return true;
    if (starts(w, n, "packed_")) {
        w += 7;
        n -= 7;
    }
    size_t k = n;
    /* A vector (4) or matrix (4x4) suffix. */
    if (k >= 3 && w[k - 2] == 'x' && w[k - 1] >= '2' && w[k - 1] <= '4' && w[k - 3] >= '2' && w[k - 3] <= '4')
        k -= 3;
    else if (k >= 2 && w[k - 1] >= '2' && w[k - 1] <= '4')
        k -= 1;
    return word_in(w, k, base_types) || word_in(w, n, base_types);
}

static size_t add(struct hl_span *out, size_t n, size_t cap, size_t start, size_t len, enum hl_kind k)
{
    if (n < cap && len)
        out[n++] = (struct hl_span){ start, len, k };
    return n;
}

/* Past the end of a block comment starting (inside it) at i, or len. */
static size_t comment_end(const char *s, size_t len, size_t i, bool *closed)
{
    for (; i + 1 < len; i++)
        if (s[i] == '*' && s[i + 1] == '/') {
            *closed = true;
            return i + 2;
        }
    *closed = false;
    return len;
}

size_t hl_msl_line(const char *s, size_t len, bool *in_comment, struct hl_span *out, size_t cap)
{
    size_t n = 0, i = 0;
    if (*in_comment) {
        bool closed;
        i = comment_end(s, len, 0, &closed);
        n = add(out, n, cap, 0, i, HL_COMMENT);
        *in_comment = !closed;
    }
    size_t first = i;
    while (first < len && (s[first] == ' ' || s[first] == '\t'))
        first++;
    while (i < len) {
        char c = s[i];
        size_t j = i + 1;
        if (c == '/' && j < len && s[j] == '/') {
            n = add(out, n, cap, i, len - i, HL_COMMENT);
            break;
        }
        if (c == '/' && j < len && s[j] == '*') {
            bool closed;
            j = comment_end(s, len, i + 2, &closed);
            n = add(out, n, cap, i, j - i, HL_COMMENT);
            *in_comment = !closed;
        } else if (c == '#' && i == first) {
            /* The directive, then the rest of the line coloured as code. */
            while (j < len && (s[j] == ' ' || hl_ident_char(s[j])))
                j++;
            n = add(out, n, cap, i, j - i, HL_PREPROC);
        } else if (c == '"' || c == '\'') {
            for (; j < len && s[j] != c; j++)
                if (s[j] == '\\')
                    j++;
            j = j < len ? j + 1 : len;
            n = add(out, n, cap, i, j - i, HL_STRING);
        } else if (c == '[' && j < len && s[j] == '[') {
            const char *e = NULL;
            for (size_t k = j + 1; k + 1 < len; k++)
                if (s[k] == ']' && s[k + 1] == ']') {
                    e = s + k + 2;
                    break;
                }
            j = e ? (size_t)(e - s) : len;
            n = add(out, n, cap, i, j - i, HL_ATTR);
        } else if (c >= '0' && c <= '9' && (i == 0 || !hl_ident_char(s[i - 1]))) {
            while (j < len && (hl_ident_char(s[j]) || s[j] == '.' || s[j] == '\'' ||
                               ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                j++;
            n = add(out, n, cap, i, j - i, HL_NUMBER);
        } else if (hl_ident_char(c) && (i == 0 || !hl_ident_char(s[i - 1]))) {
            while (j < len && hl_ident_char(s[j]))
                j++;
            if (is_type(s + i, j - i))
                n = add(out, n, cap, i, j - i, HL_TYPE);
            else if (word_in(s + i, j - i, keywords))
                n = add(out, n, cap, i, j - i, HL_KEYWORD);
        }
        i = j;
    }
    return n;
}

bool hl_msl_comment_after(const char *s, size_t len, bool in_comment)
{
    struct hl_span none[1];
    /* Spans are not wanted, only the state: a capacity of one is enough
     * since the scan goes on to the end of the line whatever is kept. */
    hl_msl_line(s, len, &in_comment, none, 1);
    return in_comment;
}
