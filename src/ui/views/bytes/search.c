/* `/`, n, N and `:`. A label search walks the whole node tree on the job
 * worker, collecting every match in display order (with the count shown
 * as "match 3/17" and the matches highlighted); n and N then step through
 * that list at once. A byte search scans the file in chunks on the worker,
 * from the hex cursor, wrapping. Both show progress and Esc cancels them. */
#include "config.h"

#include "ui/core/job.h"
#include "ui/model/search.h"
#include "ui/views/bytes/bytes.h"
#include "ui/widgets/prompt.h"
#include "ui/work/ifacer.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/nouns.h"
#include "container/digits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Give the UI thread the model lock this often (in nodes visited). */
#define YIELD_EVERY 256
/* Bytes a byte search scans between looks at its cancel flag. */
#define BYTE_CHUNK ((uint64_t)16 << 20)

/* ------------------------------------------------------ label search -- */

bool search_match_label(struct explorer *ex, const struct query *q, uint32_t file,
                        const mtlbx_node *n, const char *label)
{
    (void)file;
    /* A function also matches by its arguments' names and types, once
     * the background decoder has decoded its interface. Its texts are
     * published atomically and live until the explorer ends (after any
     * job is cancelled), so the search worker may read them. */
    size_t args_len;
    const char *args = n->kind == MTLBX_NODE_FUNCTION ? ifacer_search_text(ex->ifacer, n->lib, n->index, &args_len)
                                                      : NULL;
    return query_label_matches(q, label) || (args && *args && query_label_matches(q, args)) ||
           (n->kind == MTLBX_NODE_TAG && q->tag_like && strcmp(n->tag.name, q->text) == 0);
}

struct label_search {
    struct explorer *ex;
    struct query q;
    bool forward;
    search_match_fn match;
    const mtlbx_node *current;
    size_t current_pos;          /* hits before the current node */
    bool current_is_hit, passed;
    struct search_results res;
    size_t cap, visited, functions, total_functions;
    bool out_of_memory;
};

/* Whether a search looks inside a node's children. Tags inside functions
 * and metadata groups are only walked for a FourCC-like query (CNST,
 * RFLT...), so a name search over 200,000 functions builds no tag nodes.
 * Source archives are searched even when not expanded yet (their members
 * are decompressed for it). */
static bool descend(const struct label_search *s, const mtlbx_node *n)
{
    switch (n->kind) {
    case MTLBX_NODE_FUNCTION:
    case MTLBX_NODE_TAG_GROUP:
    case MTLBX_NODE_DYNAMIC_HEADER:
        return s->q.tag_like;
    default:
        return true;
    }
}

static void add_hit(struct label_search *s, uint32_t file, mtlbx_node *n)
{
    if (s->res.n >= SEARCH_MAX_HITS) {
        s->res.capped = true;
        return;
    }
    if (s->res.n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct search_hit *v = realloc(s->res.v, cap * sizeof *v);
        if (!v) {
            s->out_of_memory = true;
            return;
        }
        s->res.v = v;
        s->cap = cap;
    }
    s->res.v[s->res.n].file = file;
    s->res.v[s->res.n].node = n;
    s->res.n++;
}

static void visit(struct label_search *s, struct job *j, uint32_t file, mtlbx_node *n, bool is_root)
{
    if (job_cancelled(j))
        return;
    if (++s->visited % YIELD_EVERY == 0) {
        job_set_progress(j, s->functions, s->total_functions);
        job_model_yield();
    }
    if (n->kind == MTLBX_NODE_FUNCTION)
        s->functions++;
    /* With a single file its root is not a row; with several it is. */
    if (!is_root || s->ex->n_files > 1) {
        char label[512];
        tree_node_label(s->ex, file, n, label, sizeof label);
        bool hit = s->match(s->ex, &s->q, file, n, label);
        if (n == s->current) {
            s->passed = true;
            s->current_pos = s->res.n;
            s->current_is_hit = hit;
        }
        if (hit)
            add_hit(s, file, n);
    }
    if (!descend(s, n))
        return;
    mtlbx_model *model = s->ex->files[file].m;
    size_t count = mbx_node_child_count(model, n);
    for (size_t i = 0; i < count && !job_cancelled(j); i++)
        visit(s, j, file, mbx_node_child(model, n, i), false);
}

static void label_work(struct job *j)
{
    struct label_search *s = j->ctx;
    job_model_lock();
    for (uint32_t i = 0; i < s->ex->n_files; i++)
        for (size_t l = 0; l < mbx_file_library_count(s->ex->files[i].f); l++)
            s->total_functions += mbx_library_function_count(mbx_library_at(s->ex->files[i].f, l));
    for (uint32_t i = 0; i < s->ex->n_files && !job_cancelled(j); i++)
        visit(s, j, i, s->ex->files[i].root, true);
    job_model_unlock();
    if (job_cancelled(j) || !s->res.n)
        return;
    search_results_index(&s->res);
}

/* Selects match `i` and says where it is among them. */
static void show_match(struct explorer *ex, size_t i, bool wrapped, bool forward)
{
    struct bytes *b = bytes_of(ex);
    struct search_results *r = &b->search;
    r->cur = i;
    history_push(ex);
    if (!bytes_select_node(ex, r->v[i].file, r->v[i].node, false)) {
        if (b->fview.filter[0])
            ex_error(ex, "match %zu/%zu is hidden by the filter (Esc clears it)", i + 1, r->n);
        else
            ex_error(ex, "found %s but cannot show it in the tree", b->query.text);
        return;
    }
    char a[32], n[32];
    mbx_format_count(a, sizeof a, i + 1);
    mbx_format_count(n, sizeof n, r->n);
    ex_message(ex, "match %s/%s%s%s", a, n, r->capped ? "+" : "",
               !wrapped ? "" : forward ? "  (wrapped to the first match)" : "  (wrapped to the last match)");
}

static void label_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct bytes *b = bytes_of(ex);
    struct label_search *s = j->ctx;
    if (cancelled) {
        ex_message(ex, "search cancelled");
        search_results_free(&s->res);
    } else if (s->out_of_memory) {
        ex_error(ex, "out of memory searching");
        search_results_free(&s->res);
    } else if (!s->res.n) {
        search_results_free(&b->search);
        size_t done, total;
        ifacer_progress(ex->ifacer, &done, &total);
        if (done < total) /* a miss may only mean: not read yet */
            ex_error(ex, "not found: %s  (argument names and types: %zu of %zu functions read so far)", s->q.text,
                     done, total);
        else
            ex_error(ex, "not found: %s%s", s->q.text, s->q.tag_like ? "" : "  (hex bytes: / x 4d544c42)");
        search_results_free(&s->res);
    } else {
        search_results_free(&b->search);
        b->search = s->res;
        bool wrapped;
        size_t pos = s->passed ? s->current_pos : 0;
        size_t i = search_step(b->search.n, pos, s->passed && s->current_is_hit, s->forward, &wrapped);
        show_match(ex, i, wrapped && s->passed, s->forward);
    }
    free(s);
}

static void start_label_search(struct explorer *ex, bool forward)
{
    struct bytes *b = bytes_of(ex);
    struct label_search *s = calloc(1, sizeof *s);
    if (!s) {
        ex_error(ex, "out of memory");
        return;
    }
    s->ex = ex;
    s->q = b->query;
    s->forward = forward;
    s->match = b->search_match ? b->search_match : search_match_label;
    s->current = bytes_selected_node(ex);
    if (!job_start(ex, "searching", label_work, label_finish, s, false))
        free(s);
}

/* ------------------------------------------------------- byte search -- */

struct byte_search {
    const uint8_t *data;
    uint64_t size, from;
    uint8_t pat[QUERY_MAX];
    size_t n;
    bool forward;
    uint32_t file;
    int64_t at;
    char text[QUERY_MAX];
};

/* Scans [lo, hi] in chunks, in the search's direction. */
static int64_t scan(struct byte_search *b, struct job *j, uint64_t lo, uint64_t hi, uint64_t *scanned)
{
    if (lo > hi)
        return -1;
    if (b->forward) {
        for (uint64_t c = lo; c <= hi && !job_cancelled(j); c += BYTE_CHUNK) {
            uint64_t e = hi - c < BYTE_CHUNK ? hi : c + BYTE_CHUNK - 1;
            int64_t r = query_find_bytes_in(b->data, b->size, b->pat, b->n, c, e, true);
            *scanned += e - c + 1;
            job_set_progress(j, (size_t)*scanned, (size_t)b->size);
            if (r >= 0)
                return r;
            if (e == hi)
                break;
        }
    } else {
        for (uint64_t e = hi;; e -= BYTE_CHUNK) {
            if (job_cancelled(j))
                break;
            uint64_t c = e - lo < BYTE_CHUNK ? lo : e - BYTE_CHUNK + 1;
            int64_t r = query_find_bytes_in(b->data, b->size, b->pat, b->n, c, e, false);
            *scanned += e - c + 1;
            job_set_progress(j, (size_t)*scanned, (size_t)b->size);
            if (r >= 0)
                return r;
            if (c == lo)
                break;
        }
    }
    return -1;
}

/* Same order as query_find_bytes: after `from` to the end, then wrap. */
static void byte_work(struct job *j)
{
    struct byte_search *b = j->ctx;
    uint64_t scanned = 0;
    b->at = -1;
    if (b->n == 0 || b->n > b->size)
        return;
    uint64_t last = b->size - b->n, from = b->from;
    if (b->forward) {
        if (from < last)
            b->at = scan(b, j, from + 1, last, &scanned);
        if (b->at < 0)
            b->at = scan(b, j, 0, from < last ? from : last, &scanned);
    } else {
        if (from > 0)
            b->at = scan(b, j, 0, from - 1 < last ? from - 1 : last, &scanned);
        if (b->at < 0)
            b->at = scan(b, j, from < last ? from : last, last, &scanned);
    }
}

static void byte_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct byte_search *b = j->ctx;
    if (cancelled) {
        ex_message(ex, "byte search cancelled");
    } else if (b->at < 0) {
        ex_error(ex, "bytes not found: %s", b->text);
    } else {
        uint64_t at = (uint64_t)b->at;
        history_push(ex);
        hex_goto(ex, b->file, at);
        hex_sync_tree(ex);
        ex_message(ex, "found %s at 0x%" PRIx64 "%s", b->text, at,
                   (b->forward ? at <= b->from : at >= b->from) ? " (wrapped)" : "");
    }
    free(b);
}

static void start_byte_search(struct explorer *ex, bool forward)
{
    struct bytes *bv = bytes_of(ex);
    struct byte_search *b = calloc(1, sizeof *b);
    if (!b) {
        ex_error(ex, "out of memory");
        return;
    }
    b->file = bytes_current_file(ex);
    mtlbx_file *f = ex->files[b->file].f;
    b->data = mbx_file_data(f);
    b->size = mbx_file_size(f);
    b->from = bv->hex.file == b->file ? bv->hex.cursor : 0;
    memcpy(b->pat, bv->query.bytes, bv->query.n_bytes);
    b->n = bv->query.n_bytes;
    b->forward = forward;
    snprintf(b->text, sizeof b->text, "%s", bv->query.text);
    if (!job_start(ex, "searching bytes", byte_work, byte_finish, b, true))
        free(b);
}

/* ------------------------------------------------------------ keys -- */

static void run(struct explorer *ex, bool forward)
{
    struct bytes *b = bytes_of(ex);
    if (b->query.kind == QUERY_BYTES)
        start_byte_search(ex, forward);
    else
        start_label_search(ex, forward);
}

void search_start(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    char in[QUERY_MAX], why[160];
    const char *label = b->focus == PANEL_HEX ? "Search bytes (hex or text)"
                                               : "Search names/tags (x HEX for bytes)";
    if (job_running(ex)) {
        ex_error(ex, "busy: wait, or Esc cancels the running search");
        return;
    }
    if (!prompt_line(ex, label, "", in, sizeof in))
        return;
    struct query q;
    if (!query_parse(in, b->focus == PANEL_HEX, &q, why, sizeof why)) {
        ex_error(ex, "%s", why);
        return;
    }
    b->query = q;
    b->have_query = true;
    search_results_free(&b->search);
    run(ex, true);
}

void search_repeat(struct explorer *ex, bool forward)
{
    struct bytes *b = bytes_of(ex);
    if (!b->have_query) {
        ex_message(ex, "no search yet: press / first");
        return;
    }
    struct search_results *r = &b->search;
    /* Still on the match shown last: step through the list at once. */
    if (b->query.kind == QUERY_LABEL && r->n && r->cur < r->n &&
        r->v[r->cur].node == bytes_selected_node(ex)) {
        bool wrapped;
        size_t i = search_step(r->n, r->cur, true, forward, &wrapped);
        show_match(ex, i, wrapped, forward);
        return;
    }
    run(ex, forward);
}

void goto_offset_prompt(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    char in[128];
    if (!prompt_line(ex, "Go to offset (hex 0x58, decimal 88, +16, -0x10, $)", "", in, sizeof in))
        return;
    uint32_t file = bytes_current_file(ex);
    uint64_t size = mbx_file_size(ex->files[file].f), off;
    uint64_t cur = b->hex.file == file ? b->hex.cursor : 0;
    switch (parse_offset(in, cur, size, &off)) {
    case OFFSET_OK:
        history_push(ex);
        hex_goto(ex, file, off);
        hex_sync_tree(ex);
        ex_message(ex, "at 0x%" PRIx64 " (Backspace goes back)", off);
        break;
    case OFFSET_RANGE:
        ex_error(ex, "%s is outside the file (0 .. 0x%" PRIx64 ")", in, size ? size - 1 : 0);
        break;
    default:
        ex_error(ex, "not an offset: %s (hex needs 0x: 0x58, 88, +16, -0x10 or $)", in);
        break;
    }
}

void goto_next_unclaimed(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    uint32_t file = bytes_current_file(ex);
    const struct mtlbx_layout *layout = ex_file_layout(&ex->files[file]);
    const struct mtlbx_layout_summary *s = layout ? &layout->summary : NULL;
    uint64_t cur = b->hex.file == file ? b->hex.cursor : 0;
    struct mtlbx_range run;
    bool wrapped = false;
    if (!mbx_layout_unclaimed_at(layout, cur, true, &run)) {
        wrapped = mbx_layout_unclaimed_at(layout, 0, false, &run) || mbx_layout_unclaimed_at(layout, 0, true, &run);
        if (!wrapped || (run.offset <= cur && cur - run.offset < run.size && s && s->unclaimed_runs == 1)) {
            if (wrapped)
                ex_message(ex, "this is the only run of unclaimed bytes");
            else
                ex_message(ex, "every byte of this file is claimed by a structure");
            return;
        }
    }
    char count[48];
    history_push(ex);
    hex_goto(ex, file, run.offset);
    hex_sync_tree(ex);
    ex_message(ex, "%s unclaimed at 0x%" PRIx64 "%s (Backspace goes back)",
               mbx_count_noun(run.size, "byte", "bytes", count, sizeof count), run.offset,
               wrapped ? ", from the top" : "");
}
