/* libFuzzer harness over the explorer's pure formatting and layout code
 * (src/ui: hexfmt, textfmt, layout, lineedit, query, rows, rowfmt, keys). These
 * turn file bytes and typed text into what reaches the terminal, so each
 * check below is a promise the drawing code relies on: output terminated
 * inside its buffer, nothing that acts on a terminal, widths and
 * rectangles inside the screen, results inside the file. The first input
 * byte picks the unit; the rest feeds it. */
#include "config.h"

#include "ui/text/hexfmt.h"
#include "ui/term/keys.h"
#include "ui/text/layout.h"
#include "ui/text/lineedit.h"
#include "ui/text/query.h"
#include "ui/text/rowfmt.h"
#include "ui/model/rows.h"
#include "ui/text/textfmt.h"
#include "ui/text/wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: broken promise: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

/* A cursor over the input, handing out small integers and byte runs. */
struct in {
    const uint8_t *p;
    size_t n;
};
static unsigned take8(struct in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}
static unsigned take16(struct in *in) { return take8(in) | (take8(in) << 8); }
static uint64_t take64(struct in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)take8(in) << (8 * i);
    return v;
}
/* A NUL-terminated copy of the next up-to-`max` bytes (stopping at a NUL). */
static char *take_str(struct in *in, size_t max)
{
    size_t n = 0;
    while (n < in->n && n < max && in->p[n])
        n++;
    char *s = malloc(n + 1);
    if (!s)
        abort();
    memcpy(s, in->p, n);
    s[n] = '\0';
    in->p += n < in->n ? n + 1 : n;
    in->n -= n < in->n ? n + 1 : n;
    return s;
}

/* Valid UTF-8 holding no C0/C1 control, DEL or bidi override: inert. */
static bool inert_utf8(const char *s)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (n == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
            (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
            return false;
        i += n;
    }
    return true;
}

static void fuzz_hexfmt(struct in *in)
{
    uint64_t fsize = take64(in), row_off = take64(in);
    int width = (int)take16(in);
    int digits = hexfmt_offset_digits(fsize);
    CHECK(digits >= 8 && digits <= 16);
    int bpr = hexfmt_bytes_per_row(width, digits);
    CHECK(bpr == 32 || bpr == 16 || bpr == 8 || bpr == 4);
    int rw = hexfmt_row_width(bpr, digits);
    CHECK(bpr == 4 || rw <= width);
    size_t cap = take16(in) % 256;
    char *out = malloc(cap ? cap : 1);
    size_t avail = in->n < (size_t)bpr ? in->n : (size_t)bpr;
    size_t n = hexfmt_row(out, cap, row_off, in->p, avail, bpr, digits);
    if (cap) {
        CHECK(n < cap && out[n] == '\0' && strlen(out) == n);
        CHECK(n == 0 || (int)n == rw);
        for (size_t i = 0; i < n; i++)
            CHECK(out[i] >= 0x20 && out[i] < 0x7f);
    }
    for (int i = 0; i < bpr; i++) {
        CHECK(hexfmt_hex_col(i, bpr, digits) + 2 <= rw);
        CHECK(hexfmt_ascii_col(i, bpr, digits) < rw);
    }
    free(out);
}

static void fuzz_textfmt(struct in *in)
{
    int tabstop = (int)(take8(in) % 20) - 2;
    int max_cols = (int)take16(in) % 600;
    size_t cap = take16(in) % 2048;
    char *out = malloc(cap ? cap : 1);
    out[0] = 'x';
    size_t n = textfmt_sanitize(in->p, in->n, out, cap, tabstop, max_cols);
    if (cap) {
        CHECK(n < cap && out[n] == '\0' && strlen(out) == n);
        CHECK(inert_utf8(out));
        int w = textfmt_width(out);
        CHECK(w >= 0);
        int skip = max_cols / 3, width = max_cols % 97;
        size_t wcap = (size_t)(tabstop + 2) * 7 % 300;
        wchar_t *wout = malloc((wcap ? wcap : 1) * sizeof *wout);
        int used = textfmt_clip(out, skip, width, tabstop & 1, wout, wcap);
        CHECK(used >= 0 && used <= (width > 0 ? width : 0));
        if (wcap) {
            size_t k = 0;
            while (k < wcap && wout[k])
                k++;
            CHECK(k < wcap);
            for (size_t i = 0; i < k; i++)
                CHECK(wout[i] >= 0x20 && wout[i] != 0x7f);
        }
        free(wout);
        char needle[8];
        size_t nl = n < 7 ? n : 7;
        memcpy(needle, out, nl);
        needle[nl] = '\0';
        long at = textfmt_find(in->p, in->n, needle);
        CHECK(at < 0 || ((size_t)at + nl <= in->n && nl > 0));
    }
    free(out);
}

static void fuzz_layout(struct in *in)
{
    /* Terminal sizes come from TIOCGWINSZ: unsigned shorts. */
    int lines = (int)take16(in), cols = (int)take16(in);
    int z = (int)(take8(in) % 5) - 1;
    struct layout l;
    layout_compute(lines, cols, (enum panel_id)z, &l);
    if (l.too_small)
        return;
    const struct rect *all[] = { &l.title, &l.panel[0], &l.panel[1], &l.panel[2],
                                 &l.separator, &l.body, &l.status, &l.footer };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const struct rect *r = all[i];
        CHECK(r->h >= 0 && r->w >= 0);
        if (!r->h || !r->w)
            continue;
        CHECK(r->y >= 0 && r->x >= 0 && r->y + r->h <= lines && r->x + r->w <= cols);
    }
    /* Shown panels never overlap one another. */
    for (int a = 0; a < PANEL_COUNT; a++)
        for (int b = a + 1; b < PANEL_COUNT; b++) {
            const struct rect *p = &l.panel[a], *q = &l.panel[b];
            if (!p->h || !p->w || !q->h || !q->w)
                continue;
            bool apart = p->y + p->h <= q->y || q->y + q->h <= p->y || p->x + p->w <= q->x ||
                         q->x + q->w <= p->x;
            CHECK(apart);
        }
    for (int a = 0; a < PANEL_COUNT; a++)
        CHECK(layout_rows(&l.panel[a]) >= 0);
}

static bool on_boundary(const struct lineedit *e, size_t pos)
{
    return pos == 0 || pos >= e->len || ((unsigned char)e->buf[pos] & 0xc0) != 0x80;
}

static void fuzz_lineedit(struct in *in)
{
    struct lineedit e;
    /* Callers pre-fill the line with UTF-8 (names pass safe_component()
     * first), so keep the initial text's longest valid UTF-8 prefix. */
    char *init = take_str(in, 1500);
    size_t ok = 0, len = strlen(init);
    for (size_t n; ok < len && (n = utf8_decode((const uint8_t *)init + ok, len - ok, &(uint32_t){ 0 })) > 0;)
        ok += n;
    init[ok] = '\0';
    lineedit_set(&e, init);
    free(init);
    CHECK(e.len < LINEEDIT_MAX && e.buf[e.len] == '\0' && e.cursor == e.len);
    for (int steps = 0; in->n && steps < 400; steps++) {
        unsigned op = take8(in);
        switch (op % 10) {
        case 0: {
            /* Typed text: the prompt only ever inserts one whole, valid,
             * non-NUL character at a time, so feed it that. */
            size_t k = 1 + take8(in) % 4;
            char buf[4];
            for (size_t i = 0; i < k; i++)
                buf[i] = (char)take8(in);
            uint32_t cp;
            if (utf8_decode((const uint8_t *)buf, k, &cp) == k && cp != 0)
                (void)lineedit_insert(&e, buf, k);
            break;
        }
        case 1: lineedit_backspace(&e); break;
        case 2: lineedit_delete(&e); break;
        case 3: lineedit_left(&e); break;
        case 4: lineedit_right(&e); break;
        case 5: lineedit_home(&e); break;
        case 6: lineedit_end(&e); break;
        case 7: lineedit_kill_line(&e); break;
        case 8: lineedit_kill_word(&e); break;
        default: {
            char big[LINEEDIT_MAX + 8];
            memset(big, 'a' + op % 26, sizeof big);
            size_t k = take16(in) % sizeof big;
            (void)lineedit_insert(&e, big, k);
        }
        }
        CHECK(e.len < LINEEDIT_MAX && e.buf[e.len] == '\0' && strlen(e.buf) == e.len);
        CHECK(e.cursor <= e.len && on_boundary(&e, e.cursor));
    }
}

static void fuzz_query(struct in *in)
{
    /* `current` is the hex cursor: always a byte of the file. */
    uint64_t fsize = take64(in) % (in->n + 64), cur = take64(in);
    cur = fsize ? cur % fsize : 0;
    bool in_hex = take8(in) & 1;
    char *text = take_str(in, 700);
    uint64_t off = 0;
    enum offset_parse_result r = parse_offset(text, cur, fsize, &off);
    CHECK(r == OFFSET_OK || r == OFFSET_SYNTAX || r == OFFSET_RANGE);
    if (r == OFFSET_OK)
        CHECK(off < fsize);
    uint8_t bytes[16];
    long nb = parse_hex_bytes(text, bytes, sizeof bytes);
    CHECK(nb == -1 || (nb > 0 && (size_t)nb <= sizeof bytes));
    struct query q;
    char why[48];
    memset(why, 'x', sizeof why);
    if (query_parse(text, in_hex, &q, why, sizeof why)) {
        CHECK(q.n_bytes <= QUERY_MAX && memchr(q.text, '\0', sizeof q.text));
        (void)query_label_matches(&q, text);
        if (q.kind == QUERY_BYTES && q.n_bytes) {
            /* The haystack is the rest of the input, as if it were a file. */
            uint64_t hs = in->n;
            for (int dir = 0; dir < 2; dir++) {
                int64_t at = query_find_bytes(in->p, hs, q.bytes, q.n_bytes, hs ? cur % (hs + 2) : 0, dir);
                CHECK(at < 0 || ((uint64_t)at + q.n_bytes <= hs && !memcmp(in->p + at, q.bytes, q.n_bytes)));
            }
        }
    } else {
        CHECK(memchr(why, '\0', sizeof why));
    }
    free(text);
}

/* A synthetic tree for rows: node ids are integers, and each node's child
 * count is read from the input, so the fuzzer shapes the tree. */
struct synth {
    const uint8_t *p;
    size_t n;
};
static size_t synth_count(void *ctx, uint32_t file, void *node)
{
    struct synth *s = ctx;
    (void)file;
    uintptr_t id = (uintptr_t)node;
    return s->n ? s->p[id % s->n] % 9 : 0;
}
static void *synth_child(void *ctx, uint32_t file, void *node, size_t i)
{
    (void)ctx;
    (void)file;
    return (void *)((uintptr_t)node * 8 + i + 1);
}

static void fuzz_rows(struct in *in)
{
    struct synth s = { in->p, in->n > 64 ? 64 : in->n };
    struct rows_source src = { synth_count, synth_child, &s };
    struct tree_rows r = { 0 };
    CHECK(rows_append(&r, (void *)(uintptr_t)1, 0, 0) == 0);
    for (int steps = 0; in->n && steps < 300; steps++) {
        unsigned op = take8(in);
        size_t i = r.n ? take16(in) % r.n : 0;
        switch (op % 7) {
        case 0: case 1: {
            if (r.n > 5000)
                break;
            size_t before = r.n;
            bool was = r.v[i].expanded;
            long k = rows_expand(&r, i, &src);
            CHECK(k >= 0);
            CHECK(was ? k == 0 : r.n == before + (size_t)k);
            break;
        }
        case 2: {
            size_t end = rows_subtree_end(&r, i);
            rows_collapse(&r, i);
            (void)end;
            CHECK(rows_subtree_end(&r, i) == i + 1 && !r.v[i].expanded);
            break;
        }
        case 3: {
            long p = rows_parent(&r, i);
            CHECK(p < 0 ? r.v[i].depth == 0 : ((size_t)p < i && r.v[p].depth + 1 == r.v[i].depth));
            if (p >= 0)
                CHECK(rows_find_child(&r, (size_t)p, r.v[i].node) >= 0);
            break;
        }
        case 4: {
            long nx = rows_next_sibling(&r, i), pv = rows_prev_sibling(&r, i);
            CHECK(nx < 0 || ((size_t)nx > i && r.v[nx].depth == r.v[i].depth));
            CHECK(pv < 0 || ((size_t)pv < i && r.v[pv].depth == r.v[i].depth));
            break;
        }
        default:
            (void)rows_child_count(&r, i, &src);
        }
        /* Depth grows by at most one from a row to the next. */
        for (size_t j = 1; j < r.n; j++)
            CHECK(r.v[j].depth <= r.v[j - 1].depth + 1);
    }
    rows_free(&r);
}

static void fuzz_keys(struct in *in)
{
    int key = (int)(take16(in) | (take16(in) << 16));
    unsigned ctx = 1u << (take8(in) % 5);
    enum action a = key_lookup(ctx, key);
    CHECK(a >= ACT_NONE && a < ACT_COUNT);
    size_t cap = 1 + take8(in) % 40;
    char name[48];
    memset(name, 'x', sizeof name);
    const char *s = key_display_name(key, name, cap);
    CHECK(s && (s != name || memchr(name, '\0', cap)));
    CHECK(inert_utf8(s));
    int width = (int)take16(in) % 300 - 10;
    size_t fcap = 1 + take16(in) % 400;
    char *foot = malloc(fcap);
    keys_footer(ctx, width, foot, fcap);
    CHECK(memchr(foot, '\0', fcap));
    CHECK(textfmt_width(foot) <= (width > 0 ? width : 0));
    free(foot);
}

/* One tree row: every piece inside the panel's width, the label inert
 * and cut on a character boundary. The label comes from file bytes made
 * terminal-safe first, as the node model does. */
static void fuzz_rowfmt(struct in *in)
{
    struct row_input ri = { 0 };
    ri.width = (int)(take16(in) % 400) - 10;
    ri.depth = (int)(take16(in) % 600);
    unsigned bits = take8(in);
    ri.expanded = bits & 1;
    ri.expandable = bits & 2;
    ri.is_function = bits & 4;
    ri.ascii = bits & 8;
    ri.is_name = bits & 16;
    ri.hscroll = bits & 32 ? take8(in) : 0;
    ri.flags = take8(in) & 7;
    ri.hash = (enum mtlbx_hash_state)(take8(in) % 5);
    char label[1500];
    textfmt_sanitize(in->p, in->n, label, sizeof label, 8, 1400);
    ri.label = label;
    struct row_layout rl;
    rowfmt_tree(&ri, &rl);
    CHECK(rl.mark_text && rl.glyph);
    CHECK(rl.glyph_col < 0 || rl.glyph_col < ri.width);
    CHECK(rl.badge_col < 0 || (rl.badge_text && rl.badge_col + 3 <= ri.width));
    if (rl.label_col >= 0) {
        CHECK(rl.label_col < ri.width && memchr(rl.label, '\0', sizeof rl.label));
        CHECK(inert_utf8(rl.label));
        CHECK(rl.label_col + textfmt_width(rl.label) <= ri.width);
    }
    /* rowfmt_cut on its own, into buffers of any size. */
    size_t cap = 1 + take8(in) % 64;
    char *out = malloc(cap);
    int w = (int)(take8(in) % 80) - 4;
    (void)rowfmt_cut(label, w, "\xe2\x80\xa6", out, cap);
    CHECK(memchr(out, '\0', cap));
    CHECK(inert_utf8(out));
    CHECK(textfmt_width(out) <= (w > 0 ? w : 0));
    /* And cut in the middle. */
    (void)rowfmt_cut_middle(label, w, "\xe2\x80\xa6", out, cap);
    CHECK(memchr(out, '\0', cap));
    CHECK(inert_utf8(out));
    CHECK(textfmt_width(out) <= (w > 0 ? w : 0));
    free(out);
    /* Wrapping: lines in order, each within the width but the last. */
    size_t starts[5];
    int lw = (int)(take8(in) % 40) - 2;
    int n = wrap_text(label, lw, starts, 4);
    CHECK(n >= 1 && n <= 4 && starts[0] == 0 && starts[n] == strlen(label));
    for (int i = 0; i < n; i++)
        CHECK(starts[i] <= starts[i + 1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct in in = { data, size };
    switch (take8(&in) % 8) {
    case 0: fuzz_hexfmt(&in); break;
    case 1: fuzz_textfmt(&in); break;
    case 2: fuzz_layout(&in); break;
    case 3: fuzz_lineedit(&in); break;
    case 4: fuzz_query(&in); break;
    case 5: fuzz_rows(&in); break;
    case 6: fuzz_keys(&in); break;
    default: fuzz_rowfmt(&in); break;
    }
    return 0;
}
