/* The manifest's text scanned for each library's "functions" array
 * (manifest_scan.h). */
#include "config.h"

#include "manifest_scan.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A manifest of 20,000 functions is 15 MB of text and would be ten times
 * that as one jansson tree. The text is scanned (strings and brackets
 * only) for each library's "functions" array; the rest is parsed whole,
 * with those arrays left empty, and the functions one at a time, so
 * memory holds one function's tree. Text that does not scan as expected
 * is parsed whole instead: jansson then says what is wrong with it. */
size_t mbx_manifest_skip_ws(const char *t, size_t n, size_t p)
{
    while (p < n && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
        p++;
    return p;
}

/* Past the JSON value at p (a string, container or scalar), or FN_NONE. */
static size_t skip_value(const char *t, size_t n, size_t p)
{
    if (p >= n)
        return FN_NONE;
    if (t[p] == '"') {
        for (p++; p < n; p++)
            if (t[p] == '\\')
                p++;
            else if (t[p] == '"')
                return p + 1;
        return FN_NONE;
    }
    if (t[p] == '{' || t[p] == '[') {
        size_t depth = 0;
        for (; p < n; p++) {
            if (t[p] == '"') {
                p = skip_value(t, n, p);
                if (p == FN_NONE)
                    return FN_NONE;
                p--;
            } else if (t[p] == '{' || t[p] == '[') {
                if (++depth > 4096)
                    return FN_NONE;
            } else if (t[p] == '}' || t[p] == ']') {
                if (--depth == 0)
                    return p + 1;
            }
        }
        return FN_NONE;
    }
    size_t start = p;
    while (p < n && t[p] && !strchr(",]} \t\r\n", t[p]))
        p++;
    return p > start ? p : FN_NONE; /* a scalar is at least one byte */
}

/* Calls `member` for each member of the object at p: key as raw text
 * between its quotes, value span. False when it does not scan. */
static bool scan_object(const char *t, size_t n, size_t p,
                        bool (*member)(void *ctx, const char *key, size_t klen, size_t v, size_t vend), void *ctx)
{
    if (p >= n || t[p] != '{')
        return false;
    p = mbx_manifest_skip_ws(t, n, p + 1);
    if (p < n && t[p] == '}')
        return true;
    for (;;) {
        size_t k = p, kend = skip_value(t, n, p);
        if (k >= n || t[k] != '"' || kend == FN_NONE)
            return false;
        p = mbx_manifest_skip_ws(t, n, kend);
        if (p >= n || t[p] != ':')
            return false;
        size_t v = mbx_manifest_skip_ws(t, n, p + 1), vend = skip_value(t, n, v);
        if (vend == FN_NONE || !member(ctx, t + k + 1, kend - k - 2, v, vend))
            return false;
        p = mbx_manifest_skip_ws(t, n, vend);
        if (p < n && t[p] == ',') {
            p = mbx_manifest_skip_ws(t, n, p + 1);
            continue;
        }
        return p < n && t[p] == '}';
    }
}

struct span_scan {
    const char *t;
    size_t n;
    struct fn_span *spans;
    size_t n_spans, cap;
    size_t found;              /* per library: the functions span, FN_NONE none */
};

static bool library_member(void *ctx, const char *key, size_t klen, size_t v, size_t vend)
{
    struct span_scan *sc = ctx;
    if (klen == 9 && memcmp(key, "functions", 9) == 0 && sc->t[v] == '[')
        sc->spans[sc->n_spans - 1] = (struct fn_span){ v, vend };
    return true;
}

static bool root_member(void *ctx, const char *key, size_t klen, size_t v, size_t vend)
{
    struct span_scan *sc = ctx;
    if (!(klen == 9 && memcmp(key, "libraries", 9) == 0) || sc->t[v] != '[')
        return true;
    size_t p = mbx_manifest_skip_ws(sc->t, vend, v + 1);
    while (p < vend && sc->t[p] != ']') {
        size_t e = skip_value(sc->t, vend, p);
        if (e == FN_NONE)
            return false;
        if (sc->n_spans == sc->cap) {
            size_t cap = sc->cap ? sc->cap * 2 : 4;
            struct fn_span *g = realloc(sc->spans, cap * sizeof *g);
            if (!g)
                return false;
            sc->spans = g;
            sc->cap = cap;
        }
        sc->spans[sc->n_spans++] = (struct fn_span){ FN_NONE, FN_NONE };
        if (sc->t[p] == '{' && !scan_object(sc->t, e, p, library_member, sc))
            return false;
        p = mbx_manifest_skip_ws(sc->t, vend, e);
        if (p < vend && sc->t[p] == ',')
            p = mbx_manifest_skip_ws(sc->t, vend, p + 1);
        else if (p >= vend || sc->t[p] != ']')
            return false; /* not an array: jansson will say so */
    }
    return true;
}

/* The text without its functions arrays ("[]" and their newlines, so
 * jansson's line numbers stay right), and the arrays' spans. NULL: parse
 * the text whole. */
char *mbx_manifest_skeleton(const char *t, size_t n, struct fn_span **spans, size_t *n_spans, size_t *out_len)
{
    struct span_scan sc = { t, n, NULL, 0, 0, 0 };
    *spans = NULL;
    *n_spans = 0;
    if (!scan_object(t, n, mbx_manifest_skip_ws(t, n, 0), root_member, &sc) || !sc.n_spans) {
        free(sc.spans);
        return NULL;
    }
    char *out = malloc(n + 1);
    size_t o = 0, p = 0;
    for (size_t i = 0; out && i < sc.n_spans; i++) {
        if (sc.spans[i].start == FN_NONE)
            continue;
        memcpy(out + o, t + p, sc.spans[i].start - p);
        o += sc.spans[i].start - p;
        out[o++] = '[';
        out[o++] = ']';
        for (size_t k = sc.spans[i].start; k < sc.spans[i].end; k++)
            if (t[k] == '\n')
                out[o++] = '\n';
        p = sc.spans[i].end;
    }
    if (!out) {
        free(sc.spans);
        return NULL;
    }
    memcpy(out + o, t + p, n - p);
    o += n - p;
    *out_len = o;
    *spans = sc.spans;
    *n_spans = sc.n_spans;
    return out;
}

