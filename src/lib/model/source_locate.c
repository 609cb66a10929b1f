/* Where a function is defined in its library's embedded source
 * (model/source_locate.h, mbx_source_locate): used by `mtlbx src` and by the explorer's function
 * page, so both land on the same line.
 *
 * The sources keep no map from functions to lines, so the definition is
 * found by its name in the members' text, as a reader would: the name as
 * a whole identifier followed by '(' and preceded by a type or qualifier
 * (not by an operator, '(' or ',', which make it a call), whose parameter
 * list is followed by '{' rather than ';' (a prototype). The type may end
 * the line before (GNU style: "kernel void\nfoo(...)\n{"). A
 * [[host_name("NAME")]] attribute names a template instantiation and
 * counts too, and so does a template defined under the name less its
 * last "_part"s (MLX-style macros instantiate renderTiles as
 * renderTiles_float). Comments are not code: a definition commented out
 * is no definition. The archive the function's SOFF points at is
 * searched first, then the others; a definition beats a prototype.
 *
 * The search is one pass over each member, a tokenizer that never looks
 * back and never scans ahead per candidate (issue 35: a memcmp of the
 * whole name at every position, an 8 KiB scan per "f(", and a search of
 * every archive again for each "_part" cut made a 48 MiB member take
 * minutes): a name and all its cuts are recognised as identifiers of
 * their length, each compared once, and every open parameter list is
 * followed as the text goes by, on a stack bounded by the span a list
 * may have. */
#include "config.h"

#include "bitcode/demangle.h"
#include "model/source_locate.h"
#include "container/functions.h"
#include "container/sources.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* How far past its '(' a parameter list and the '{' or ';' after it may
 * run (multi-line lists). */
#define PARAMS_SPAN_MAX 8192
/* Open lists followed at once: within one span each needs a name and a
 * '(', two bytes at least. */
#define OPEN_MAX (PARAMS_SPAN_MAX / 2 + 2)
/* Shortest name a template may be cut down to ("renderTiles"). */
#define TEMPLATE_NAME_MIN 3

static bool ident_char(uint8_t c)
{
    /* Bytes of UTF-8 sequences too: identifiers may hold them. */
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* ----------------------------------------------------- the name -- */

/* The identifier of an Itanium encoding, read from the mangled name
 * itself: for a name the demangler leaves as stored (past its bound),
 * "f" for _Z1fSt4pairI... or "scale" for _ZN5utils5scaleEDv3_ff. NULL
 * when the encoding is not that simple (then the name is searched as
 * stored, and found nowhere). */
static char *encoded_base(struct mtlbx_bytes name)
{
    const uint8_t *p = name.ptr + 2, *end = name.ptr + name.len;
    bool nested = p < end && *p == 'N';
    if (nested) {
        for (p++; p < end && (*p == 'r' || *p == 'V' || *p == 'K'); p++)
            ;
        if (p < end && (*p == 'R' || *p == 'O'))
            p++;
    } else if (p < end && *p == 'L') {
        p++;
    }
    if (end - p >= 2 && p[0] == 'S' && p[1] == 't')
        p += 2;
    const uint8_t *base = NULL;
    size_t base_len = 0;
    while (p < end && *p >= '1' && *p <= '9') {
        size_t n = 0;
        while (p < end && *p >= '0' && *p <= '9' && n <= (size_t)(end - p))
            n = n * 10 + (size_t)(*p++ - '0');
        if (n > (size_t)(end - p))
            return NULL;
        base = p;
        base_len = n;
        p += n;
        if (!nested)
            break;
    }
    /* Nested, the name ends with 'E' or its own template arguments. */
    if (!base || (nested && (p >= end || (*p != 'E' && *p != 'I'))))
        return NULL;
    char *s = malloc(base_len + 1);
    if (s) {
        memcpy(s, base, base_len);
        s[base_len] = '\0';
    }
    return s;
}

/* The identifier a function is declared with: the stored name, or for a
 * C++ mangled name its demangled base without scope, template arguments,
 * return type and parameters ("scale" for utils::scale(float3)). malloc'd. */
static char *declared_name(struct mtlbx_bytes name)
{
    char *d;
    enum mtlbx_demangle_status st = mbx_demangle_bounded(name, &d);
    if (st == MTLBX_DEMANGLED) {
        char *paren = strchr(d, '(');
        if (paren)
            *paren = '\0';
        char *tmpl = strchr(d, '<');
        if (tmpl)
            *tmpl = '\0';
        char *base = d;
        for (char *c = d; *c; c++)
            if (*c == ':' || *c == ' ')
                base = c + 1;
        memmove(d, base, strlen(base) + 1);
        return d;
    }
    if (st == MTLBX_DEMANGLE_TOO_LONG && (d = encoded_base(name)))
        return d;
    char *s = malloc(name.len + 1);
    if (s) {
        if (name.len) /* a nameless function has no pointer */
            memcpy(s, name.ptr, name.len);
        s[name.len] = '\0';
    }
    return s;
}

/* ------------------------------------------------------ the search -- */

enum found { FOUND_NONE, FOUND_PROTOTYPE, FOUND_DEFINITION };

/* What is looked for: the name, and with `cuts` also every start of it
 * that ends before a '_' (at TEMPLATE_NAME_MIN letters or more). A level
 * is the length of one of them. */
struct wanted {
    const char *name;
    size_t len;
    bool cuts;
};

static bool is_level(const struct wanted *w, size_t n)
{
    return n == w->len || (w->cuts && n >= TEMPLATE_NAME_MIN && n < w->len && w->name[n] == '_');
}

/* Where something was found: member `seq` in search order, then offset;
 * `head`, where its declaration starts (the name, or the type before it
 * when the name starts its line). */
struct place {
    bool found;
    size_t seq, archive, member, offset, head;
};

/* What the search keeps: the whole name's first definition and first
 * prototype, and the longest cut's first definition. */
struct results {
    struct place def, proto, cut;
    size_t cut_level;
};

static bool earlier(const struct place *p, size_t seq, size_t offset)
{
    return !p->found || seq < p->seq || (seq == p->seq && offset < p->offset);
}

struct cursor {                /* the member being searched */
    size_t seq, archive, member;
};

static void set(struct place *p, const struct cursor *c, size_t offset, size_t head)
{
    *p = (struct place){ true, c->seq, c->archive, c->member, offset, head };
}

static void record(const struct wanted *w, struct results *r, const struct cursor *c, size_t level, size_t offset,
                   size_t head, enum found f)
{
    if (level == w->len) {
        struct place *p = f == FOUND_DEFINITION ? &r->def : &r->proto;
        if (earlier(p, c->seq, offset))
            set(p, c, offset, head);
    } else if (f == FOUND_DEFINITION) {
        if (!r->cut.found || level > r->cut_level || (level == r->cut_level && earlier(&r->cut, c->seq, offset))) {
            set(&r->cut, c, offset, head);
            r->cut_level = level;
        }
    }
}

/* A name followed by '(' whose parameter list is open, or closed and
 * waiting for the '{' (a definition) or ';' (a prototype) after it. */
struct candidate {
    size_t level, offset, head, depth, expire; /* expire: index of the first byte past its span */
};

/* One member's scan state; the candidate arrays are the caller's. */
struct scan {
    const struct wanted *w;
    struct results *r;
    const struct cursor *c;
    struct candidate *open, *waiting;
    size_t n_open, n_waiting;
};

static void resolve_waiting(struct scan *s, size_t at, enum found f)
{
    for (size_t k = 0; k < s->n_waiting; k++)
        if (at < s->waiting[k].expire)
            record(s->w, s->r, s->c, s->waiting[k].level, s->waiting[k].offset, s->waiting[k].head, f);
    s->n_waiting = 0;
}

/* Drops what has run past its span; the oldest first. */
static void expire(struct candidate *v, size_t *n, size_t at)
{
    size_t keep = 0;
    for (size_t k = 0; k < *n; k++)
        if (at < v[k].expire)
            v[keep++] = v[k];
    *n = keep;
}

static void push(struct candidate *v, size_t *n, struct candidate c, size_t at)
{
    if (*n == OPEN_MAX)
        expire(v, n, at);
    if (*n == OPEN_MAX) { /* cannot happen: OPEN_MAX fit in a span */
        memmove(v, v + 1, (*n - 1) * sizeof *v);
        (*n)--;
    }
    v[(*n)++] = c;
}

static bool word_is(const uint8_t *s, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(s, word, n) == 0;
}

/* Words before a name that make it a call or an expression, not a
 * declaration. */
static bool is_expression_word(const uint8_t *s, size_t n)
{
    static const char *const words[] = { "return", "else", "case", "new", "delete", "sizeof", "co_return" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (word_is(s, n, words[i]))
            return true;
    return false;
}

/* Scans one text: every declaration of a level's name is recorded. */
static void search_text(struct scan *s, const uint8_t *t, size_t len)
{
    const struct wanted *w = s->w;
    size_t depth = 0, line = 0, host_name_at = (size_t)-1;
    /* The token before: none (the text's start), an identifier, or a
     * punctuation byte; and a level's name waiting for its '('. */
    enum { PREV_NONE, PREV_WORD, PREV_PUNCT } prev = PREV_NONE;
    const uint8_t *prev_word = NULL;
    size_t prev_len = 0;
    uint8_t prev_punct = 0;
    bool pending = false;
    size_t pending_level = 0, pending_at = 0, pending_head = 0;
    s->n_open = s->n_waiting = 0;
    for (size_t i = 0; i < len;) {
        uint8_t c = t[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n') {
            if (c == '\n')
                line = i + 1;
            i++;
            continue;
        }
        if (c == '/' && i + 1 < len && t[i + 1] == '/') {
            while (i < len && t[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < len && t[i + 1] == '*') {
            for (i += 2; i < len && !(t[i] == '*' && i + 1 < len && t[i + 1] == '/'); i++)
                if (t[i] == '\n')
                    line = i + 1;
            i = i < len ? i + 2 : len;
            continue;
        }
        if (ident_char(c)) {
            size_t b = i;
            while (i < len && ident_char(t[i]))
                i++;
            size_t n = i - b;
            pending = false;
            if (word_is(t + b, n, "host_name"))
                host_name_at = b;
            if (is_level(w, n) && memcmp(t + b, w->name, n) == 0) {
                bool typed = prev == PREV_WORD ? !is_expression_word(prev_word, prev_len)
                             : prev == PREV_PUNCT && (prev_punct == '*' || prev_punct == '&' ||
                                                      prev_punct == '>' || prev_punct == ']');
                if (typed) {
                    pending = true;
                    pending_level = n;
                    pending_at = b;
                    /* GNU style: the name starts its line, the type is above. */
                    pending_head = prev == PREV_WORD && (size_t)(prev_word - t) < line ? (size_t)(prev_word - t) : b;
                }
            }
            prev = PREV_WORD, prev_word = t + b, prev_len = n;
            continue;
        }
        if (c == '"' || c == '\'') {
            /* A literal ends at its quote or at the line's end. */
            size_t b = ++i;
            while (i < len && t[i] != c && t[i] != '\n')
                i += t[i] == '\\' && i + 1 < len && t[i + 1] != '\n' ? 2 : 1;
            size_t n = i - b;
            if (i < len && t[i] == c)
                i++;
            /* host_name("NAME") or, in a macro, host_name("NAME_" #suffix):
             * the template instantiation this is. */
            if (c == '"' && host_name_at != (size_t)-1 && host_name_at >= line) {
                if (is_level(w, n) && memcmp(t + b, w->name, n) == 0)
                    record(w, s->r, s->c, n, b, b, FOUND_DEFINITION);
                if (n > 1 && t[b + n - 1] == '_' && is_level(w, n - 1) && memcmp(t + b, w->name, n - 1) == 0)
                    record(w, s->r, s->c, n - 1, b, b, FOUND_DEFINITION);
            }
            pending = false;
            prev = PREV_PUNCT, prev_punct = c;
            continue;
        }
        /* Punctuation. */
        if (c == '(') {
            if (pending)
                push(s->open, &s->n_open,
                     (struct candidate){ pending_level, pending_at, pending_head, depth, i + 1 + PARAMS_SPAN_MAX }, i);
            depth++;
        } else if (c == ')') {
            if (depth > 0) {
                depth--;
                if (s->n_open && s->open[s->n_open - 1].depth == depth) {
                    struct candidate k = s->open[--s->n_open];
                    if (i < k.expire)
                        push(s->waiting, &s->n_waiting, k, i);
                }
            }
        } else if (c == '{' || c == ';') {
            resolve_waiting(s, i, c == '{' ? FOUND_DEFINITION : FOUND_PROTOTYPE);
            s->n_open = 0; /* a list holds neither: those were no parameter lists */
        } else if (c == ',' || c == '=') {
            resolve_waiting(s, i, FOUND_PROTOTYPE);
        }
        pending = false;
        prev = PREV_PUNCT, prev_punct = c;
        i++;
    }
}

/* ------------------------------------------------------ the archives -- */

static bool member_is_text(const struct mtlbx_member *m)
{
    return m->type == MTLBX_MEMBER_FILE && m->data && m->size;
}

/* Searches every text member, the SOFF archive first, each once.
 * Returns false when no archive decompressed; *oom when the scan state
 * could not be had. */
static bool search_archives(mtlbx_library *lib, long first, const struct wanted *w, struct results *r, bool *oom)
{
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    struct scan s = { .w = w, .r = r };
    s.open = malloc(OPEN_MAX * sizeof *s.open);
    s.waiting = malloc(OPEN_MAX * sizeof *s.waiting);
    *oom = !s.open || !s.waiting;
    bool any_loaded = false;
    struct cursor cur = { 0 };
    s.c = &cur;
    for (size_t k = 0; !*oom && k <= src->n_archives && !r->def.found; k++) {
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
        if (mbx_archive_load(lib, a) != MTLBX_ARCHIVE_LOADED)
            continue;
        any_loaded = true;
        const struct mtlbx_archive *ar = &src->archives[a];
        /* The first definition of the whole name ends the search, once the
         * member it is in has been searched to its end (an earlier one in
         * it may close later). */
        for (size_t m = 0; m < ar->n_members && !r->def.found; m++) {
            const struct mtlbx_member *mem = &ar->members[m];
            if (!member_is_text(mem))
                continue;
            cur = (struct cursor){ cur.seq + 1, a, m };
            search_text(&s, mem->data, (size_t)mem->size);
        }
    }
    free(s.open);
    free(s.waiting);
    return any_loaded;
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

int mbx_source_locate(mtlbx_library *lib, size_t function_index, struct mtlbx_source_location *out)
{
    memset(out, 0, sizeof *out);
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (!src || !src->present || src->n_archives == 0 || function_index >= mbx_library_function_count(lib))
        return -1;
    char *name = declared_name(mbx_function_at(lib, function_index)->name);
    if (!name)
        return -2;
    struct wanted w = { name, strlen(name), true };
    struct results r = { 0 };
    bool oom = false;
    bool any_loaded = w.len && search_archives(lib, mbx_function_archive(lib, function_index), &w, &r, &oom);
    free(name);
    if (oom)
        return -2;
    if (!any_loaded)
        return w.len ? -1 : 0;
    /* The name's definition, else the template's under a cut name (a
     * definition beats the name's prototype), else that prototype. */
    const struct place *p = r.def.found ? &r.def : r.cut.found ? &r.cut : r.proto.found ? &r.proto : NULL;
    if (!p)
        return 0;
    out->archive = p->archive;
    out->member = p->member;
    out->offset = p->offset;
    const struct mtlbx_member *mem = &src->archives[out->archive].members[out->member];
    out->line = 1;
    for (size_t i = 0; i < p->head; i++)
        out->line += mem->data[i] == '\n';
    size_t ls = p->head;
    while (ls > 0 && mem->data[ls - 1] != '\n')
        ls--;
    out->line_offset = ls;
    out->end_offset = definition_end(mem->data, (size_t)mem->size, (size_t)out->offset);
    return 1;
}

int mbx_source_find_in_text(const uint8_t *text, size_t len, const char *name, size_t *offset)
{
    struct wanted w = { name, strlen(name), false };
    struct results r = { 0 };
    struct cursor cur = { 1, 0, 0 };
    struct scan s = { .w = &w, .r = &r, .c = &cur };
    s.open = malloc(OPEN_MAX * sizeof *s.open);
    s.waiting = malloc(OPEN_MAX * sizeof *s.waiting);
    if (s.open && s.waiting && w.len)
        search_text(&s, text, len);
    free(s.open);
    free(s.waiting);
    const struct place *p = r.def.found ? &r.def : r.proto.found ? &r.proto : NULL;
    if (p)
        *offset = p->offset;
    return r.def.found ? 2 : r.proto.found ? 1 : 0;
}
