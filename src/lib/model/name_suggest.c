/* "Did you mean": the functions closest to a NAME that matched nothing
 * (name_resolve.c), best first: names that hold it (ignoring case), the
 * shorter the closer, then names a few edits away, the fewer the closer.
 *
 * It must stay quick on any file: it looks at every function, and the
 * plain way (a full edit-distance table per name, and a substring test
 * that compares at every position) cost 26 to 62 s on 200,000 functions
 * with 250-character names (issue 35). So, per name:
 *  - the substring test is memmem (glibc's two-way search: linear) on the
 *    name lower-cased;
 *  - the edit distance has a cut-off (a few edits, at most EDITS_MAX),
 *    and a name whose letters alone already differ by more (the bag
 *    distance, a lower bound of the edit distance, from letter counts)
 *    is not compared further;
 *  - the distance itself is Myers' bit-parallel algorithm (a column of
 *    the table in ceil(m/64) machine words), one pass giving both the
 *    distance to the whole name and to its first m letters.
 * The cost is then linear in the names' total length. */
#include "config.h"

#include "model/name_match.h"
#include "model/names.h"
#include "container/file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Names (and patterns) longer than this are not compared by edits. */
#define DISTANCE_LEN_MAX 256
#define WORDS_MAX (DISTANCE_LEN_MAX / 64)
/* The most edits a suggestion may be away, whatever the pattern's length. */
#define EDITS_MAX 16

struct scored {
    struct mtlbx_function_ref ref;
    size_t score;              /* lower is closer */
};

/* Keeps the NAME_SUGGESTIONS_MAX lowest scores, in order (ties: first seen). */
static void keep_best(struct scored *best, size_t *n, struct mtlbx_function_ref ref, size_t score)
{
    size_t at = *n;
    while (at > 0 && best[at - 1].score > score)
        at--;
    if (at >= NAME_SUGGESTIONS_MAX)
        return;
    size_t last = *n < NAME_SUGGESTIONS_MAX ? *n : NAME_SUGGESTIONS_MAX - 1;
    memmove(best + at + 1, best + at, (last - at) * sizeof *best);
    best[at] = (struct scored){ ref, score };
    if (*n < NAME_SUGGESTIONS_MAX)
        (*n)++;
}

/* What is known of the pattern before the names are read. */
struct pattern {
    const char *p;
    size_t len;
    char *lower;               /* the pattern lower-cased (ASCII) */
    size_t limit;              /* the most edits a suggestion may be away */
    int count[256];            /* letters of the lowered pattern */
    /* Myers' match vectors: bit i of peq[c][w] is set when the lowered
     * pattern's letter 64*w+i is c (names are lowered too). */
    size_t words;
    uint64_t peq[256][WORDS_MAX];
    /* A scratch buffer for a lowered name. */
    char *buf;
    size_t cap;
};

static bool pattern_init(struct pattern *pt, const char *p)
{
    memset(pt, 0, sizeof *pt);
    pt->p = p;
    pt->len = strlen(p);
    pt->limit = pt->len / 3 > 2 ? pt->len / 3 : 2;
    if (pt->limit > EDITS_MAX)
        pt->limit = EDITS_MAX;
    if (!(pt->lower = malloc(pt->len + 1)))
        return false;
    for (size_t i = 0; i <= pt->len; i++)
        pt->lower[i] = (char)tolower((unsigned char)p[i]);
    for (size_t i = 0; i < pt->len; i++)
        pt->count[(unsigned char)pt->lower[i]]++;
    if (pt->len <= DISTANCE_LEN_MAX) {
        pt->words = (pt->len + 63) / 64;
        for (size_t i = 0; i < pt->len; i++) {
            unsigned char c = (unsigned char)pt->lower[i];
            pt->peq[c][i / 64] |= (uint64_t)1 << (i % 64);
        }
    }
    return true;
}

/* s lower-cased (ASCII) into the scratch buffer; NULL when out of memory. */
static const char *lowered(struct pattern *pt, const char *s, size_t len)
{
    if (len > pt->cap) {
        char *b = realloc(pt->buf, len);
        if (!b)
            return NULL;
        pt->buf = b;
        pt->cap = len;
    }
    for (size_t i = 0; i < len; i++)
        pt->buf[i] = (char)tolower((unsigned char)s[i]);
    return pt->buf;
}

/* Whether the lowered text holds the lowered pattern. */
static bool contains(const struct pattern *pt, const char *low, size_t len)
{
    return low && pt->len && pt->len <= len && memmem(low, len, pt->lower, pt->len) != NULL;
}

/* The bag distance of the pattern to low[0..n) (lowered): the larger of
 * the letters one has beyond the other's, each way. No edit script is
 * shorter. */
static size_t bag_distance(struct pattern *pt, const char *low, size_t n)
{
    size_t extra = 0, missing = pt->len;
    for (size_t i = 0; i < n; i++) {
        if (pt->count[(unsigned char)low[i]]-- > 0)
            missing--;
        else
            extra++;
    }
    for (size_t i = 0; i < n; i++)
        pt->count[(unsigned char)low[i]]++;
    return extra > missing ? extra : missing;
}

/* One block of 64 rows of a column (Hyyrö's formulation of Myers, as in
 * edlib): the vertical deltas pv/mv (+1/-1 going down) become the next
 * column's, given the horizontal delta `hin` entering at the block's top;
 * returns the one leaving at `last` (the block's last row that counts). */
static int advance_block(uint64_t *pv, uint64_t *mv, uint64_t eq, int hin, uint64_t last)
{
    uint64_t hin_neg = hin < 0 ? 1 : 0, hin_pos = hin > 0 ? 1 : 0;
    uint64_t xv = eq | *mv;
    eq |= hin_neg;
    uint64_t xh = (((eq & *pv) + *pv) ^ *pv) | eq;
    uint64_t ph = *mv | ~(xh | *pv);
    uint64_t mh = *pv & xh;
    int hout = (ph & last) ? 1 : (mh & last) ? -1 : 0;
    ph = (ph << 1) | hin_pos;
    mh = (mh << 1) | hin_neg;
    *pv = mh | ~(xv | ph);
    *mv = ph & xv;
    return hout;
}

/* The edit distance from the lowered pattern to s[0..n) (lowered) in
 * *whole, and to s[0..pattern length) in *start when n is longer. */
static void distances(const struct pattern *pt, const char *s, size_t n, size_t *whole, size_t *start)
{
    uint64_t pv[WORDS_MAX], mv[WORDS_MAX];
    size_t words = pt->words;
    for (size_t w = 0; w < words; w++)
        pv[w] = ~(uint64_t)0, mv[w] = 0;
    uint64_t last = (uint64_t)1 << ((pt->len - 1) % 64);
    size_t score = pt->len;    /* the bottom row: distance to s[0..j) */
    *start = (size_t)-1;
    for (size_t j = 0; j < n; j++) {
        unsigned char c = (unsigned char)s[j];
        int h = 1;             /* the top row grows by one a column */
        for (size_t w = 0; w < words; w++)
            h = advance_block(&pv[w], &mv[w], pt->peq[c][w], h, w + 1 < words ? (uint64_t)1 << 63 : last);
        score = (size_t)((long)score + h);
        if (j + 1 == pt->len)
            *start = score;
    }
    *whole = score;
}

/* The closest of the name's two readings (whole, or its start as long
 * as the pattern: a typo in the start of a longer name), or limit + 1;
 * s is lowered. */
static size_t edits(struct pattern *pt, const char *s, size_t len)
{
    size_t far = pt->limit + 1;
    if (!pt->words || len == 0)
        return far;
    bool whole = len <= DISTANCE_LEN_MAX && (len > pt->len ? len - pt->len : pt->len - len) <= pt->limit;
    bool start = len > pt->len;
    if (whole && bag_distance(pt, s, len) > pt->limit)
        whole = false;
    if (start && bag_distance(pt, s, pt->len) > pt->limit)
        start = false;
    if (!whole && !start)
        return far;
    size_t dw, ds;
    distances(pt, s, whole ? len : pt->len, &dw, &ds);
    size_t d = far;
    if (whole && dw < d)
        d = dw;
    if (start && ds < d)
        d = ds;
    if (start && !whole && dw < d) /* s cut at the pattern's length: then dw is ds */
        d = dw;
    return d;
}

void name_suggest(const mtlbx_file *f, const char *p, struct mtlbx_function_ref *out, size_t *n_out)
{
    *n_out = 0;
    struct pattern *pt = malloc(sizeof *pt);
    if (!pt || !pattern_init(pt, p)) {
        free(pt);
        return; /* no memory: no suggestion */
    }
    struct scored best[NAME_SUGGESTIONS_MAX];
    size_t n_best = 0;
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
            struct name_forms fm;
            name_forms_get(name_entry(lib, i)->name, &fm);
            /* The name shown: demangled up to its parameters, else as stored. */
            size_t len = fm.demangled ? fm.base_len : fm.raw_len;
            struct mtlbx_function_ref ref = { l, i };
            const char *low = lowered(pt, fm.raw, fm.raw_len);
            bool hit = contains(pt, low, fm.raw_len);
            if (!hit && fm.demangled)
                hit = contains(pt, low = lowered(pt, fm.demangled, len), len);
            if (hit) {
                /* Substring hits rank before any edit distance: limit+1 is
                 * their base. Closer in length, closer in meaning. */
                size_t extra = len > pt->len ? len - pt->len : 0;
                keep_best(best, &n_best, ref, extra > 1000 ? 1000 : extra);
            } else if (low) {
                size_t d = edits(pt, low, len);
                if (d <= pt->limit)
                    keep_best(best, &n_best, ref, 1001 + d);
            }
            free(fm.demangled);
        }
    }
    for (size_t k = 0; k < n_best; k++)
        out[k] = best[k].ref;
    *n_out = n_best;
    free(pt->lower);
    free(pt->buf);
    free(pt);
}
