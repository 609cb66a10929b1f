/* Where a function is defined in its library's embedded source (mtlbx_private.h,
 * mtlbx_source_locate): used by `mtlbx src` and by the explorer's function
 * page, so both land on the same line.
 *
 * The sources keep no map from functions to lines, so the definition is
 * found by its name in the members' text, as a reader would: the name as
 * a whole identifier followed by '(' and preceded by a type or qualifier
 * (not by an operator, '(' or ',', which make it a call), whose parameter
 * list is followed by '{' rather than ';' (a prototype). A
 * [[host_name("NAME")]] attribute names a template instantiation and
 * counts too, and so does a template defined under the name less its
 * last "_part"s (MLX-style macros instantiate renderTiles as
 * renderTiles_float). The archive the function's SOFF points at is
 * searched first, then the others; a definition beats a prototype. */
#include "config.h"

#include "mtlbx_private.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* How far past the name the parameter list may run (multi-line lists). */
#define PARAMS_SPAN_MAX 8192

static bool ident_char(uint8_t c)
{
    return isalnum(c) || c == '_';
}

/* The identifier a function is declared with: the stored name, or for a
 * C++ mangled name its demangled base without scope and parameters
 * ("scale" for utils::scale(float3)). malloc'd. */
static char *declared_name(struct mtlbx_bytes name)
{
    char *d = name.len > 2 && name.ptr[0] == '_' && name.ptr[1] == 'Z' ? mtlbx_demangle(name) : NULL;
    if (d) {
        char *paren = strchr(d, '(');
        if (paren)
            *paren = '\0';
        char *tmpl = strchr(d, '<');
        if (tmpl)
            *tmpl = '\0';
        char *colon = strrchr(d, ':');
        char *base = colon ? colon + 1 : d;
        memmove(d, base, strlen(base) + 1);
        return d;
    }
    char *s = malloc(name.len + 1);
    if (s) {
        memcpy(s, name.ptr, name.len);
        s[name.len] = '\0';
    }
    return s;
}

enum found { FOUND_NONE, FOUND_PROTOTYPE, FOUND_DEFINITION };

/* After the '(' at p: the matching ')' and then '{' before ';'? */
static enum found after_params(const uint8_t *p, const uint8_t *end)
{
    int depth = 1;
    const uint8_t *stop = end - p > PARAMS_SPAN_MAX ? p + PARAMS_SPAN_MAX : end;
    for (; p < stop; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            break;
        else if ((*p == ';' || *p == '{') && depth > 0)
            return FOUND_NONE; /* not a parameter list */
    }
    for (p++; p < stop; p++) {
        if (*p == '{')
            return FOUND_DEFINITION;
        if (*p == ';' || *p == '=' || *p == ',')
            return FOUND_PROTOTYPE;
    }
    return FOUND_NONE;
}

/* Is the identifier at [s, s+len) of `text` the name in a declaration? */
static enum found at_declaration(const uint8_t *text, const uint8_t *end, const uint8_t *s, size_t len)
{
    const uint8_t *q = s + len;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q >= end || *q != '(')
        return FOUND_NONE;
    /* What comes before on the same line: a type, qualifier, '*', '&',
     * '>' or ']]' makes it a declaration; nothing, or an operator, a call. */
    const uint8_t *b = s;
    while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    if (b == text || b[-1] == '\n')
        return FOUND_NONE;
    uint8_t c = b[-1];
    if (!(ident_char(c) || c == '*' || c == '&' || c == '>' || c == ']'))
        return FOUND_NONE;
    if (ident_char(c)) {
        const uint8_t *w = b;
        while (w > text && ident_char(w[-1]))
            w--;
        static const char *const not_types[] = { "return", "else", "case", "new", "delete", "sizeof", "co_return" };
        for (size_t i = 0; i < sizeof not_types / sizeof not_types[0]; i++)
            if ((size_t)(b - w) == strlen(not_types[i]) && memcmp(w, not_types[i], (size_t)(b - w)) == 0)
                return FOUND_NONE;
    }
    return after_params(q + 1, end);
}

/* The best place `name` is declared in one member's text. */
static enum found search_text(const uint8_t *text, size_t len, const char *name, size_t *at)
{
    if (!name[0])
        return FOUND_NONE;
    size_t nlen = strlen(name);
    enum found best = FOUND_NONE;
    if (nlen == 0 || nlen > len)
        return best;
    const uint8_t *end = text + len;
    for (const uint8_t *p = text; p + nlen <= end; p++) {
        p = memchr(p, (uint8_t)name[0], (size_t)(end - p));
        if (!p || p + nlen > end)
            break;
        if (memcmp(p, name, nlen) != 0)
            continue;
        /* host_name("NAME") or, in a macro, host_name("NAME_" #suffix). */
        bool quoted = p > text && p[-1] == '"' && p + nlen < end &&
                      (p[nlen] == '"' || (p[nlen] == '_' && p + nlen + 1 < end && p[nlen + 1] == '"'));
        bool whole = !(p > text && ident_char(p[-1])) && !(p + nlen < end && ident_char(p[nlen]));
        if (!whole && !quoted)
            continue;
        enum found f = whole ? at_declaration(text, end, p, nlen) : FOUND_NONE;
        /* [[host_name("NAME")]]: the template instantiation this is. */
        if (f == FOUND_NONE && quoted) {
            const uint8_t *line = p;
            while (line > text && line[-1] != '\n')
                line--;
            static const char attr[] = "host_name";
            for (const uint8_t *k = line; k + sizeof attr - 1 <= p; k++)
                if (memcmp(k, attr, sizeof attr - 1) == 0)
                    f = FOUND_DEFINITION;
        }
        if (f > best) {
            best = f;
            *at = (size_t)(p - text);
            if (f == FOUND_DEFINITION)
                break;
        }
    }
    return best;
}

/* Past the line that closes the body opened after `from` (braces counted
 * outside comments, strings and character literals), or past the line of
 * a prototype's ';'; the text's end when neither comes. */
static size_t definition_end(const uint8_t *t, size_t len, size_t from)
{
    int depth = 0;
    size_t i = from;
    for (; i < len; i++) {
        uint8_t c = t[i];
        if (c == '/' && i + 1 < len && t[i + 1] == '/') {
            while (i < len && t[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && t[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'); i++)
                ;
            i++;
        } else if (c == '"' || c == '\'') {
            for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
                if (t[i] == '\\')
                    i++;
        } else if (c == '{') {
            depth++;
        } else if (c == '}' && depth > 0 && --depth == 0) {
            break;
        } else if (c == ';' && depth == 0) {
            break;
        }
    }
    if (i >= len)
        return len;
    while (i < len && t[i] != '\n')
        i++;
    return i < len ? i + 1 : len;
}

static bool member_is_text(const struct mtlbx_member *m)
{
    return m->type == MTLBX_MEMBER_FILE && m->data && m->size;
}

/* Searches every text member for `name`, the SOFF archive first; keeps
 * the best place in *out. Returns false when no archive decompressed. */
static bool search_archives(mtlbx_library *lib, long first, const char *name, enum found *best,
                            struct mtlbx_source_location *out)
{
    const struct mtlbx_sources *src = mtlbx_library_sources(lib);
    bool any_loaded = false;
    for (size_t k = 0; k <= src->n_archives && *best != FOUND_DEFINITION; k++) {
        /* k == 0: the SOFF archive; then every archive but that one. */
        size_t a;
        if (k == 0) {
            if (first < 0)
                continue;
            a = (size_t)first;
        } else {
            a = k - 1;
            if ((long)a == first)
                continue;
        }
        if (mtlbx_archive_load(lib, a) != MTLBX_ARCHIVE_LOADED)
            continue;
        any_loaded = true;
        const struct mtlbx_archive *ar = &src->archives[a];
        for (size_t m = 0; m < ar->n_members && *best != FOUND_DEFINITION; m++) {
            const struct mtlbx_member *mem = &ar->members[m];
            size_t at = 0;
            if (!member_is_text(mem))
                continue;
            enum found f = search_text(mem->data, (size_t)mem->size, name, &at);
            if (f > *best) {
                *best = f;
                out->archive = a;
                out->member = m;
                out->offset = at;
            }
        }
    }
    return any_loaded;
}

/* Shortest name a template may be cut down to ("renderTiles"). */
#define TEMPLATE_NAME_MIN 3

int mtlbx_source_locate(mtlbx_library *lib, size_t function_index, struct mtlbx_source_location *out)
{
    memset(out, 0, sizeof *out);
    const struct mtlbx_sources *src = mtlbx_library_sources(lib);
    if (!src || !src->present || src->n_archives == 0 || function_index >= mtlbx_library_function_count(lib))
        return -1;
    char *name = declared_name(mtlbx_function_at(lib, function_index)->name);
    if (!name)
        return -2;
    long first = mtlbx_function_archive(lib, function_index);
    enum found best = FOUND_NONE;
    bool any_loaded = search_archives(lib, first, name, &best, out);
    /* A template instantiated by a macro ("renderTiles_" #name) has a host
     * name that appears nowhere whole: its template is defined under the
     * name less its last "_part"s (renderTiles for renderTiles_float). */
    char *cut;
    while (any_loaded && best != FOUND_DEFINITION && (cut = strrchr(name, '_')) &&
           cut - name >= TEMPLATE_NAME_MIN) {
        *cut = '\0';
        enum found shorter = FOUND_NONE;
        struct mtlbx_source_location at;
        search_archives(lib, first, name, &shorter, &at);
        if (shorter == FOUND_DEFINITION) {
            best = shorter;
            *out = at;
        }
    }
    free(name);
    if (!any_loaded)
        return -1;
    if (best == FOUND_NONE)
        return 0;
    const struct mtlbx_member *mem = &src->archives[out->archive].members[out->member];
    out->line = 1;
    for (size_t i = 0; i < out->offset; i++)
        out->line += mem->data[i] == '\n';
    size_t ls = (size_t)out->offset;
    while (ls > 0 && mem->data[ls - 1] != '\n')
        ls--;
    out->line_offset = ls;
    out->end_offset = definition_end(mem->data, (size_t)mem->size, (size_t)out->offset);
    return 1;
}

int mtlbx_source_find_in_text(const uint8_t *text, size_t len, const char *name, size_t *offset)
{
    size_t at = 0;
    enum found f = search_text(text, len, name, &at);
    if (f != FOUND_NONE)
        *offset = at;
    return f == FOUND_DEFINITION ? 2 : f == FOUND_PROTOTYPE ? 1 : 0;
}
