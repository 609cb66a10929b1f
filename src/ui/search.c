/* `/`, n, N and `:`. Label searches walk the node tree in display order
 * from the selection, wrapping at the end; byte searches scan the file
 * from the hex cursor. */
#include "config.h"

#include "ui.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct walk {
    struct explorer *ex;
    const struct query *q;
    const mtlbx_node *current;
    bool forward, passed, stop;
    mtlbx_node *hit, *first, *before, *last;
    uint32_t hit_file, first_file, before_file, last_file;
};

/* Whether a search looks inside a node's children. Tags inside functions
 * and metadata groups are only walked for a FourCC-like query (CNST,
 * RFLT...), so a name search over 200,000 functions builds no tag nodes.
 * An archive is only searched once it has been decompressed. */
static bool descend(const struct walk *w, const mtlbx_node *n)
{
    switch (n->kind) {
    case MTLBX_NODE_FUNCTION:
    case MTLBX_NODE_TAG_GROUP:
    case MTLBX_NODE_DYNAMIC_HEADER:
        return w->q->tag_like;
    case MTLBX_NODE_ARCHIVE:
        return n->built;
    default:
        return true;
    }
}

static void visit(struct walk *w, uint32_t file, mtlbx_node *n, bool is_root)
{
    if (w->stop)
        return;
    if (n == w->current) {
        w->passed = true;
    } else if (!is_root || w->ex->n_files > 1) {
        char label[512];
        tree_node_label(w->ex, file, n, label, sizeof label);
        /* A function also matches by its arguments' names and types,
         * once the background worker has decoded its interface. */
        const char *args = n->kind == MTLBX_NODE_FUNCTION ? ifacer_search_text(w->ex->ifacer, n->lib, n->index) : NULL;
        bool match = query_label_matches(w->q, label) || (args && *args && query_label_matches(w->q, args)) ||
                     (n->kind == MTLBX_NODE_TAG && w->q->tag_like && strcmp(n->tag.name, w->q->text) == 0);
        if (match) {
            if (w->forward) {
                if (w->passed) {
                    w->hit = n;
                    w->hit_file = file;
                    w->stop = true;
                    return;
                }
                if (!w->first) {
                    w->first = n;
                    w->first_file = file;
                }
            } else {
                if (!w->passed) {
                    w->before = n;
                    w->before_file = file;
                }
                w->last = n;
                w->last_file = file;
            }
        }
    }
    if (!descend(w, n))
        return;
    mtlbx_file *f = w->ex->files[file].f;
    size_t count = mtlbx_node_child_count(f, n);
    for (size_t i = 0; i < count && !w->stop; i++)
        visit(w, file, mtlbx_node_child(f, n, i), false);
}

static void search_labels(struct explorer *ex, const struct query *q, bool forward)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    w.ex = ex;
    w.q = q;
    w.forward = forward;
    w.current = ex_selected_node(ex);
    /* A miss walks every node; with 200,000 functions that takes a moment. */
    ex_message(ex, "searching for %s...", q->text);
    ex_draw(ex);
    ex->status[0] = '\0';
    for (uint32_t i = 0; i < ex->n_files && !w.stop; i++)
        visit(&w, i, ex->files[i].root, true);
    mtlbx_node *n;
    uint32_t file;
    bool wrapped = false;
    if (forward) {
        n = w.hit ? w.hit : w.first;
        file = w.hit ? w.hit_file : w.first_file;
        wrapped = !w.hit;
    } else {
        n = w.before ? w.before : w.last;
        file = w.before ? w.before_file : w.last_file;
        wrapped = !w.before;
    }
    if (!n) {
        ex_error(ex, "not found: %s%s", q->text,
                 q->tag_like ? "" : "  (hex bytes: / x 4d544c42)");
        return;
    }
    ex_push_history(ex);
    if (!ex_select_node(ex, file, n, false))
        ex_error(ex, "found %s but cannot show it in the tree", q->text);
    else if (wrapped)
        ex_message(ex, "search wrapped: %s", q->text);
}

static void search_bytes(struct explorer *ex, const struct query *q, bool forward)
{
    uint32_t file = ex_current_file_index(ex);
    mtlbx_file *f = ex->files[file].f;
    uint64_t from = ex->hex.file == file ? ex->hex.cursor : 0;
    int64_t at = query_find_bytes(mtlbx_file_data(f), mtlbx_file_size(f), q->bytes, q->n_bytes,
                                  from, forward);
    if (at < 0) {
        ex_error(ex, "bytes not found: %s", q->text);
        return;
    }
    ex_push_history(ex);
    hex_goto(ex, file, (uint64_t)at);
    hex_sync_tree(ex);
    ex_message(ex, "found %s at 0x%" PRIx64 "%s", q->text, (uint64_t)at,
               (forward ? (uint64_t)at <= from : (uint64_t)at >= from) ? " (wrapped)" : "");
}

static void run(struct explorer *ex, bool forward)
{
    if (ex->query.kind == QUERY_BYTES)
        search_bytes(ex, &ex->query, forward);
    else
        search_labels(ex, &ex->query, forward);
}

void search_start(struct explorer *ex)
{
    char in[QUERY_MAX], why[160];
    const char *label = ex->focus == PANEL_HEX ? "Search bytes (hex or text)"
                                               : "Search names/tags (x HEX for bytes)";
    if (!prompt_line(ex, label, "", in, sizeof in))
        return;
    struct query q;
    if (!query_parse(in, ex->focus == PANEL_HEX, &q, why, sizeof why)) {
        ex_error(ex, "%s", why);
        return;
    }
    ex->query = q;
    ex->have_query = true;
    run(ex, true);
}

void search_repeat(struct explorer *ex, bool forward)
{
    if (!ex->have_query) {
        ex_message(ex, "no search yet: press / first");
        return;
    }
    run(ex, forward);
}

void goto_offset_prompt(struct explorer *ex)
{
    char in[128];
    if (!prompt_line(ex, "Go to offset (hex 0x58, decimal 88, +16, -0x10, $)", "", in, sizeof in))
        return;
    uint32_t file = ex_current_file_index(ex);
    uint64_t size = mtlbx_file_size(ex->files[file].f), off;
    uint64_t cur = ex->hex.file == file ? ex->hex.cursor : 0;
    switch (parse_offset(in, cur, size, &off)) {
    case OFFSET_OK:
        ex_push_history(ex);
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
    uint32_t file = ex_current_file_index(ex);
    mtlbx_file *f = ex->files[file].f;
    const struct mtlbx_layout_summary *s = mtlbx_layout_check(f);
    uint64_t cur = ex->hex.file == file ? ex->hex.cursor : 0;
    struct mtlbx_range run;
    bool wrapped = false;
    if (!mtlbx_layout_unclaimed_at(f, cur, true, &run)) {
        wrapped = mtlbx_layout_unclaimed_at(f, 0, false, &run) || mtlbx_layout_unclaimed_at(f, 0, true, &run);
        if (!wrapped || (run.offset <= cur && cur - run.offset < run.size && s && s->unclaimed_runs == 1)) {
            if (wrapped)
                ex_message(ex, "this is the only run of unclaimed bytes");
            else
                ex_message(ex, "every byte of this file is claimed by a structure");
            return;
        }
    }
    char count[48];
    ex_push_history(ex);
    hex_goto(ex, file, run.offset);
    hex_sync_tree(ex);
    ex_message(ex, "%s unclaimed at 0x%" PRIx64 "%s (Backspace goes back)",
               mtlbx_count_noun(run.size, "byte", "bytes", count, sizeof count), run.offset,
               wrapped ? ", from the top" : "");
}
