/* A function NAME typed by a user, resolved against every function of a
 * file: the one place that decides what `dis`, `sig`, `src` and
 * `extract -f` mean by NAME (model/names.h, mbx_resolve_function_name).
 *
 * A name is looked at in up to three forms: as stored, demangled, and
 * demangled without its parameter list ("utils::scale" for
 * _ZN5utils5scaleEDv3_ff). The pattern is tried as an exact name, then as
 * a shell glob (fnmatch) when it holds * ? or [, then as a prefix; on a
 * miss the closest names are offered (name_suggest.c).
 *
 * An exact name never demangles anything: "utils::scale" is looked for in
 * the stored names by its Itanium encoding (_ZN5utils5scaleE...), so that
 * `sig FILE foo` costs a comparison per function whatever the names hold
 * (issue 35: one name that demangles to gigabytes made it run for minutes).
 * Globs and prefixes must see the demangled text; the demangler is
 * bounded (bitcode/demangle.c), and a name past its bound is matched as
 * stored. */
#include "config.h"

#include "bitcode/demangle.h"
#include "model/name_match.h"
#include "model/names.h"
#include "container/file.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool span_is(const char *s, size_t len, const char *p, size_t plen)
{
    return len == plen && memcmp(s, p, len) == 0;
}

static bool span_starts(const char *s, size_t len, const char *p, size_t plen)
{
    return len >= plen && memcmp(s, p, plen) == 0;
}

static bool prefix(const struct name_forms *f, const char *p, size_t plen)
{
    return span_starts(f->raw, f->raw_len, p, plen) ||
           (f->demangled && span_starts(f->demangled, strlen(f->demangled), p, plen));
}

/* fnmatch wants NUL-terminated text: a name holding a NUL byte (hostile
 * input) is matched up to it. */
static bool glob(const struct name_forms *f, const char *p)
{
    char small[512];
    char *raw = f->raw_len < sizeof small ? small : malloc(f->raw_len + 1);
    bool hit = false;
    if (raw) {
        if (f->raw_len) /* a nameless function has no pointer */
            memcpy(raw, f->raw, f->raw_len);
        raw[f->raw_len] = '\0';
        hit = fnmatch(p, raw, 0) == 0;
        if (raw != small)
            free(raw);
    }
    if (!hit && f->demangled) {
        hit = fnmatch(p, f->demangled, 0) == 0;
        if (!hit) {
            char c = f->demangled[f->base_len];
            f->demangled[f->base_len] = '\0';
            hit = fnmatch(p, f->demangled, 0) == 0;
            f->demangled[f->base_len] = c;
        }
    }
    return hit;
}

static bool has_glob_chars(const char *p)
{
    return strpbrk(p, "*?[") != NULL;
}

/* ------------------------------------------------ exact, by encoding -- */

/* A typed C++ name, "utils::scale" or "utils::scale(float __vector(3),
 * float)", as the identifiers of its scope path and where its parameter
 * list starts (NULL: none). */
#define SCOPE_DEPTH_MAX 32
struct scoped_name {
    size_t n;
    const char *id[SCOPE_DEPTH_MAX];
    size_t len[SCOPE_DEPTH_MAX];
    const char *params;
};

static bool ident_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* False when p is no such path (an operator, a template, a lambda...). */
static bool parse_scoped(const char *p, struct scoped_name *out)
{
    out->n = 0;
    out->params = NULL;
    for (;;) {
        if (!ident_start(*p) || out->n == SCOPE_DEPTH_MAX)
            return false;
        const char *s = p;
        while (ident_char(*p))
            p++;
        out->id[out->n] = s;
        out->len[out->n++] = (size_t)(p - s);
        if (p[0] == ':' && p[1] == ':') {
            p += 2;
            continue;
        }
        if (*p == '(') {
            out->params = p;
            return true;
        }
        return *p == '\0';
    }
}

/* Reads "<length><identifier>" at *p (an Itanium <source-name>) and
 * checks that it is id; advances *p past it. */
static bool source_name_is(const char **p, const char *end, const char *id, size_t len)
{
    const char *q = *p;
    size_t n = 0;
    if (q >= end || *q < '1' || *q > '9')
        return false;
    while (q < end && *q >= '0' && *q <= '9' && n <= len)
        n = n * 10 + (size_t)(*q++ - '0');
    if (n != len || (size_t)(end - q) < len || memcmp(q, id, len) != 0)
        return false;
    *p = q + len;
    return true;
}

/* Whether the stored name is the Itanium encoding of the scope path s,
 * followed by nothing (a variable) or a parameter list: the names
 * "utils::scale" stands for when demangled and cut at '(' (_Z5scalef,
 * _ZL5scalef, _ZN5utils5scaleEDv3_ff, _ZNK5utils5scaleEv, _ZSt4swap...).
 * A template (I...) or an ABI tag (B...) right after the name makes the
 * demangled text another one ("void scale<float>(float)"), as in the
 * demangled comparison this replaces. */
static bool encodes(struct mtlbx_bytes name, const struct scoped_name *s)
{
    if (name.len < 3 || name.ptr[0] != '_' || name.ptr[1] != 'Z')
        return false; /* also a nameless function: no pointer to offset */
    const char *p = (const char *)name.ptr + 2, *end = (const char *)name.ptr + name.len;
    size_t k = 0;
    if (*p == 'N') {
        for (p++; p < end && (*p == 'r' || *p == 'V' || *p == 'K'); p++)
            ;
        if (p < end && (*p == 'R' || *p == 'O'))
            p++;
        if (s->n > 1 && s->len[0] == 3 && memcmp(s->id[0], "std", 3) == 0 && end - p >= 2 && p[0] == 'S' &&
            p[1] == 't') {
            p += 2;
            k = 1;
        }
        if (k == 0 && s->n < 2)
            return false; /* a nested name has two parts at least */
        for (; k < s->n; k++)
            if (!source_name_is(&p, end, s->id[k], s->len[k]))
                return false;
        if (p >= end || *p++ != 'E')
            return false;
    } else {
        if (s->n == 2 && s->len[0] == 3 && memcmp(s->id[0], "std", 3) == 0 && end - p >= 2 && p[0] == 'S' &&
            p[1] == 't') {
            p += 2;
            k = 1;
        } else if (s->n != 1) {
            return false;
        } else if (*p == 'L') {
            p++; /* internal linkage */
        }
        if (!source_name_is(&p, end, s->id[k], s->len[k]))
            return false;
    }
    return p == end || (*p != 'I' && *p != 'B');
}

/* An exact match of a typed C++ name: by its encoding, and for a whole
 * declaration ("scale(float)") by the demangled text of the names whose
 * encoding already matches, only those. */
static bool exact_mangled(struct mtlbx_bytes name, const struct scoped_name *s, const char *p)
{
    if (!encodes(name, s))
        return false;
    if (!s->params)
        return true;
    char *d = mbx_demangle(name);
    bool hit = d && strcmp(d, p) == 0;
    free(d);
    return hit;
}

static bool push(struct mtlbx_name_matches *m, size_t *cap, size_t lib, size_t fn)
{
    if (m->n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        struct mtlbx_function_ref *v = realloc(m->v, c * sizeof *v);
        if (!v)
            return false;
        m->v = v;
        *cap = c;
    }
    m->v[m->n++] = (struct mtlbx_function_ref){ lib, fn };
    return true;
}

enum pass { PASS_EXACT, PASS_GLOB, PASS_PREFIX };

/* Every function matching in one way; false on no memory. Exact names
 * and prefixes are looked for among the stored names first, and in their
 * other forms only when no stored name matches: an exact name by its
 * encoding, a prefix among the demangled names. */
static bool collect(const mtlbx_file *f, const char *p, enum pass pass, struct mtlbx_name_matches *m,
                    size_t *cap)
{
    size_t plen = strlen(p);
    struct scoped_name scoped;
    bool is_scoped = parse_scoped(p, &scoped);
    for (int other = pass == PASS_GLOB; other < 2 && m->n == 0; other++) {
        if (other && pass == PASS_EXACT && !is_scoped)
            break; /* no C++ name encodes it */
        for (size_t l = 0; l < mbx_file_library_count(f); l++) {
            const mtlbx_library *lib = mbx_library_at(f, l);
            for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
                struct mtlbx_bytes name = name_entry(lib, i)->name;
                bool hit;
                if (!other) {
                    hit = pass == PASS_EXACT ? span_is((const char *)name.ptr, name.len, p, plen)
                                             : span_starts((const char *)name.ptr, name.len, p, plen);
                } else if (pass == PASS_EXACT) {
                    hit = exact_mangled(name, &scoped, p);
                } else {
                    struct name_forms fm;
                    name_forms_get(name, &fm);
                    hit = pass == PASS_GLOB ? glob(&fm, p) : fm.demangled && prefix(&fm, p, plen);
                    m->undemangled += fm.too_long;
                    free(fm.demangled);
                }
                if (hit && !push(m, cap, l, i))
                    return false;
            }
        }
    }
    return true;
}

bool mbx_resolve_function_name(const mtlbx_file *f, const char *pattern, struct mtlbx_name_matches *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    out->how = MTLBX_NAME_EXACT;
    if (!collect(f, pattern, PASS_EXACT, out, &cap))
        goto no_memory;
    if (out->n)
        return true;
    if (has_glob_chars(pattern)) {
        out->how = MTLBX_NAME_GLOB;
        if (!collect(f, pattern, PASS_GLOB, out, &cap))
            goto no_memory;
        if (out->n)
            return true;
    } else if (*pattern) {
        out->how = MTLBX_NAME_PREFIX;
        if (!collect(f, pattern, PASS_PREFIX, out, &cap))
            goto no_memory;
        if (out->n > 1)
            out->how = MTLBX_NAME_AMBIGUOUS;
        if (out->n)
            return true;
    }
    out->how = MTLBX_NAME_MISSING;
    struct mtlbx_function_ref best[NAME_SUGGESTIONS_MAX];
    size_t n_best = 0;
    if (*pattern)
        name_suggest(f, pattern, best, &n_best);
    for (size_t k = 0; k < n_best; k++)
        if (!push(out, &cap, best[k].library, best[k].function))
            goto no_memory;
    return true;
no_memory:
    mbx_name_matches_free(out);
    return false;
}

void mbx_name_matches_free(struct mtlbx_name_matches *m)
{
    free(m->v);
    m->v = NULL;
    m->n = 0;
}
