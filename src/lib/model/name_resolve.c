/* A function NAME typed by a user, resolved against every function of a
 * file: the one place that decides what `dis`, `sig`, `src` and
 * `extract -f` mean by NAME (mtlbx_private.h, mtlbx_resolve_function_name).
 *
 * A name is looked at in up to three forms: as stored, demangled, and
 * demangled without its parameter list ("utils::scale" for
 * _ZN5utils5scaleEDv3_ff). The pattern is tried as an exact name, then as
 * a shell glob (fnmatch) when it holds * ? or [, then as a prefix; on a
 * miss the closest names are offered, best first: names that contain the
 * pattern (ignoring case), then names a few edits away. */
#include "config.h"

#include "mtlbx_private.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SUGGESTIONS_MAX 5

/* One function's name in its forms; demangled text is malloc'd. */
struct name_forms {
    const char *raw;
    size_t raw_len;
    char *demangled;           /* NULL when not mangled */
    size_t base_len;           /* demangled up to '(' */
};

static void forms_get(struct mtlbx_bytes name, struct name_forms *f)
{
    f->raw = (const char *)name.ptr;
    f->raw_len = name.len;
    f->demangled = NULL;
    f->base_len = 0;
    if (name.len > 2 && name.ptr[0] == '_' && name.ptr[1] == 'Z') {
        f->demangled = mtlbx_demangle(name);
        if (f->demangled) {
            char *paren = strchr(f->demangled, '(');
            f->base_len = paren ? (size_t)(paren - f->demangled) : strlen(f->demangled);
        }
    }
}

static bool span_is(const char *s, size_t len, const char *p, size_t plen)
{
    return len == plen && memcmp(s, p, len) == 0;
}

static bool span_starts(const char *s, size_t len, const char *p, size_t plen)
{
    return len >= plen && memcmp(s, p, plen) == 0;
}

static bool exact(const struct name_forms *f, const char *p, size_t plen)
{
    return span_is(f->raw, f->raw_len, p, plen) ||
           (f->demangled && (span_is(f->demangled, strlen(f->demangled), p, plen) ||
                             span_is(f->demangled, f->base_len, p, plen)));
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

static bool contains_nocase(const char *s, size_t len, const char *p, size_t plen)
{
    if (plen == 0 || plen > len)
        return false;
    for (size_t i = 0; i + plen <= len; i++) {
        size_t j = 0;
        while (j < plen && tolower((unsigned char)s[i + j]) == tolower((unsigned char)p[j]))
            j++;
        if (j == plen)
            return true;
    }
    return false;
}

/* Edit distance ignoring ASCII case, or `limit` + 1 once it is certain to
 * exceed `limit` (names of very different lengths are not compared). */
#define DISTANCE_LEN_MAX 256

static size_t distance(const char *a, size_t alen, const char *b, size_t blen, size_t limit)
{
    if (alen > DISTANCE_LEN_MAX || blen > DISTANCE_LEN_MAX)
        return limit + 1;
    if ((alen > blen ? alen - blen : blen - alen) > limit)
        return limit + 1;
    size_t row[DISTANCE_LEN_MAX + 1];
    for (size_t j = 0; j <= blen; j++)
        row[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        size_t diag = row[0], best = row[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = diag + cost;
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return limit + 1;
    }
    return row[blen];
}

struct scored {
    struct mtlbx_function_ref ref;
    size_t score;              /* lower is closer */
};

/* Keeps the SUGGESTIONS_MAX lowest scores, in order (ties: first seen). */
static void keep_best(struct scored *best, size_t *n, struct mtlbx_function_ref ref, size_t score)
{
    size_t at = *n;
    while (at > 0 && best[at - 1].score > score)
        at--;
    if (at >= SUGGESTIONS_MAX)
        return;
    size_t last = *n < SUGGESTIONS_MAX ? *n : SUGGESTIONS_MAX - 1;
    memmove(best + at + 1, best + at, (last - at) * sizeof *best);
    best[at] = (struct scored){ ref, score };
    if (*n < SUGGESTIONS_MAX)
        (*n)++;
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

/* A library of at most this many functions is read through its table,
 * which then holds them all (about 4.7 MB): `extract -f` with 200 names
 * resolves each in a pass of its own, and decoding every entry again for
 * each took it from 0.12 s to 0.9 s on 20,000 functions. A bigger one is
 * peeked at, so memory stays flat (a miss reads every name four times:
 * filling the table cost `sig NAME` 65 MB at 200,000 functions, about
 * 300 MB at a million). */
#define NAME_TABLE_MAX 32768

static const struct mtlbx_function *entry(const mtlbx_library *lib, size_t i)
{
    return mtlbx_library_function_count(lib) <= NAME_TABLE_MAX ? mtlbx_function_at(lib, i) : mtlbx_function_peek(lib, i);
}

enum pass { PASS_EXACT, PASS_GLOB, PASS_PREFIX };

/* Every function matching in one way; false on no memory. Exact names
 * and prefixes are looked for among the stored names first, and among
 * the demangled forms only when no stored name matches: demangling every
 * name would make `dis FILE NAME` slow on 200,000 functions. */
static bool collect(const mtlbx_file *f, const char *p, enum pass pass, struct mtlbx_name_matches *m,
                    size_t *cap)
{
    size_t plen = strlen(p);
    for (int demangled = pass == PASS_GLOB; demangled < 2 && m->n == 0; demangled++) {
        for (size_t l = 0; l < mtlbx_file_library_count(f); l++) {
            const mtlbx_library *lib = mtlbx_library_at(f, l);
            for (size_t i = 0; i < mtlbx_library_function_count(lib); i++) {
                struct mtlbx_bytes name = entry(lib, i)->name;
                bool hit;
                if (!demangled) {
                    hit = pass == PASS_EXACT ? span_is((const char *)name.ptr, name.len, p, plen)
                                             : span_starts((const char *)name.ptr, name.len, p, plen);
                } else {
                    struct name_forms fm;
                    forms_get(name, &fm);
                    hit = (fm.demangled || pass == PASS_GLOB) &&
                          (pass == PASS_EXACT ? exact(&fm, p, plen)
                           : pass == PASS_GLOB ? glob(&fm, p)
                                               : prefix(&fm, p, plen));
                    free(fm.demangled);
                }
                if (hit && !push(m, cap, l, i))
                    return false;
            }
        }
    }
    return true;
}

static void suggest(const mtlbx_file *f, const char *p, struct scored *best, size_t *n_best)
{
    size_t plen = strlen(p);
    /* Substring hits rank before any edit distance: limit+1 is their base. */
    size_t limit = plen / 3 > 2 ? plen / 3 : 2;
    for (size_t l = 0; l < mtlbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mtlbx_library_at(f, l);
        for (size_t i = 0; i < mtlbx_library_function_count(lib); i++) {
            struct name_forms fm;
            forms_get(entry(lib, i)->name, &fm);
            const char *s = fm.demangled ? fm.demangled : fm.raw;
            size_t len = fm.demangled ? fm.base_len : fm.raw_len;
            struct mtlbx_function_ref ref = { l, i };
            if (contains_nocase(fm.raw, fm.raw_len, p, plen) || contains_nocase(s, len, p, plen)) {
                /* Closer in length, closer in meaning. */
                size_t extra = len > plen ? len - plen : 0;
                keep_best(best, n_best, ref, extra > 1000 ? 1000 : extra);
            } else {
                size_t d = distance(s, len, p, plen, limit);
                /* A typo in the start of a longer name ("steel_gemm_nn_flot16"). */
                if (len > plen) {
                    size_t d_start = distance(s, plen, p, plen, limit);
                    d = d_start < d ? d_start : d;
                }
                if (d <= limit)
                    keep_best(best, n_best, ref, 1001 + d);
            }
            free(fm.demangled);
        }
    }
}

bool mtlbx_resolve_function_name(const mtlbx_file *f, const char *pattern, struct mtlbx_name_matches *out)
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
    struct scored best[SUGGESTIONS_MAX];
    size_t n_best = 0;
    if (*pattern)
        suggest(f, pattern, best, &n_best);
    for (size_t k = 0; k < n_best; k++)
        if (!push(out, &cap, best[k].ref.library, best[k].ref.function))
            goto no_memory;
    return true;
no_memory:
    mtlbx_name_matches_free(out);
    return false;
}

void mtlbx_name_matches_free(struct mtlbx_name_matches *m)
{
    free(m->v);
    m->v = NULL;
    m->n = 0;
}
