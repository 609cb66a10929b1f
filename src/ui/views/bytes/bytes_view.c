/* The byte explorer as a view: the tree, detail and hex panels, for the
 * people who take the container apart. It is one key (b) away from a
 * function's page and as powerful as it was when it was the home. Its
 * state is this folder's private block (bytes.h); other views open it at
 * a place: a node, an offset, a function. */
#include "config.h"

#include "ui/views/bytes/bytes_view.h"
#include "ui/core/job.h"
#include "ui/term/term.h"
#include "ui/verbs/verbs.h"
#include "ui/views/bytes/bytes.h"
#include "ui/work/hasher.h"
#include "ui/work/ifacer.h"
#include "ui/text/textfmt.h"
#include "container/file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

void bytes_relayout(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    bool resized = b->lay.lines != ex->lay.lines || b->lay.cols != ex->lay.cols;
    layout_compute(ex->lay.lines, ex->lay.cols, b->zoom, &b->lay);
    /* A new size: the selection and the hex cursor in sight again. */
    if (resized && !b->lay.too_small && b->tree_built) {
        tree_scroll_to_selection(ex);
        hex_goto(ex, b->hex.file, b->hex.cursor);
    }
}

static void set_focus(struct explorer *ex, enum panel_id p)
{
    struct bytes *b = bytes_of(ex);
    b->focus = p;
    if (b->zoom != PANEL_NONE) {
        b->zoom = p;
        bytes_relayout(ex);
    }
}

/* The tree's verbs that start work of their own: `*` (a background
 * job), ] and [ (through the model, past collapsed rows) and Enter on a
 * source member (the text view). They are the view's, so that the tree
 * panel only moves and opens rows. False: not one of them. */
static bool tree_verb(struct explorer *ex, enum action a)
{
    struct bytes *b = bytes_of(ex);
    mtlbx_node *n = bytes_selected_node(ex);
    switch (a) {
    case ACT_EXPAND_ALL:
        if (n)
            expand_all_start(ex, b->tree.sel);
        return true;
    case ACT_NEXT_FUNCTION:
    case ACT_PREV_FUNCTION:
        tree_step_function(ex, a == ACT_NEXT_FUNCTION);
        return true;
    case ACT_ENTER:
        if (!n || n->kind != MTLBX_NODE_MEMBER)
            return false;
        verb_show_member(ex, n->lib, n->sub, n->index);
        return true;
    default:
        return false;
    }
}

void bytes_panel_action(struct explorer *ex, enum panel_id p, enum action a)
{
    if (p == PANEL_TREE) {
        if (!tree_verb(ex, a))
            tree_action(ex, a);
    } else if (p == PANEL_DETAIL) {
        detail_action(ex, a);
    } else {
        hex_action(ex, a);
    }
}

static void bytes_draw(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    bytes_relayout(ex);
    tree_ensure(ex);
    detail_refresh(ex, false);
    tree_draw(ex, &b->lay.panel[PANEL_TREE], b->focus == PANEL_TREE);
    if (b->lay.separator.h)
        term_vline(b->lay.separator.y, b->lay.separator.x, b->lay.separator.h);
    detail_draw(ex, &b->lay.panel[PANEL_DETAIL], b->focus == PANEL_DETAIL);
    hex_draw(ex, &b->lay.panel[PANEL_HEX], b->focus == PANEL_HEX);
}

static void bytes_status(struct explorer *ex, char *info, size_t size)
{
    mtlbx_node *n = bytes_selected_node(ex);
    info[0] = '\0';
    if (!n)
        return;
    char label[300];
    uint32_t file = bytes_current_file(ex);
    tree_node_label(ex, file, n, label, sizeof label);
    const char *bn = base_name(ex->files[file].path);
    char *safe = textfmt_escape_str_dup(bn);
    if (n->size)
        snprintf(info, size, "%s: %s @0x%" PRIx64 " +%" PRIu64, safe ? safe : "?", label, n->offset, n->size);
    else
        snprintf(info, size, "%s: %s", safe ? safe : "?", label);
    free(safe);
}

bool bytes_select_function(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    mtlbx_file *f = mbx_library_file(lib);
    for (uint32_t i = 0; i < ex->n_files; i++) {
        if (ex->files[i].f != f)
            continue;
        mtlbx_model *model = ex->files[i].m;
        mtlbx_node *root = ex->files[i].root;
        size_t n = mbx_node_child_count(model, root);
        for (size_t c = 0; c < n; c++) {
            mtlbx_node *l = mbx_node_child(model, root, c);
            if (!l || l->kind != MTLBX_NODE_LIBRARY || l->lib != lib)
                continue;
            mtlbx_node *list = mbx_node_child_of_kind(model, l, MTLBX_NODE_FUNCTION_LIST);
            bool in = list && fn < mbx_node_child_count(model, list);
            mtlbx_node *node = in ? mbx_node_child(model, list, fn) : NULL;
            return node && bytes_select_node(ex, i, node, false);
        }
    }
    return false;
}

static enum view_result bytes_action(struct explorer *ex, enum action a)
{
    struct bytes *b = bytes_of(ex);
    switch (a) {
    case ACT_NEXT_PANEL: set_focus(ex, (enum panel_id)((b->focus + 1) % PANEL_COUNT)); break;
    case ACT_PREV_PANEL: set_focus(ex, (enum panel_id)((b->focus + PANEL_COUNT - 1) % PANEL_COUNT)); break;
    case ACT_FOCUS_TREE:
    case ACT_FOCUS_DETAIL:
    case ACT_FOCUS_HEX: {
        enum panel_id p = a == ACT_FOCUS_TREE ? PANEL_TREE : a == ACT_FOCUS_DETAIL ? PANEL_DETAIL : PANEL_HEX;
        if (p == b->focus)
            return VIEW_IGNORED; /* the panel it would focus: a digit of a count */
        set_focus(ex, p);
        break;
    }
    case ACT_ZOOM:
        b->zoom = b->zoom == PANEL_NONE ? b->focus : PANEL_NONE;
        bytes_relayout(ex);
        break;
    case ACT_COMPARE: {
        struct place at = place_file(bytes_current_file(ex));
        open_view(ex, VIEW_COMPARE, &at);
        break;
    }
    case ACT_SEARCH: search_start(ex); break;
    case ACT_SEARCH_NEXT: search_repeat(ex, true); break;
    case ACT_SEARCH_PREV: search_repeat(ex, false); break;
    case ACT_GOTO: goto_offset_prompt(ex); break;
    case ACT_NEXT_UNCLAIMED: goto_next_unclaimed(ex); break;
    case ACT_EXTRACT: bytes_extract(ex, false); break;
    case ACT_EXTRACT_ALL: bytes_extract(ex, true); break;
    case ACT_DISASSEMBLE: bytes_disassemble(ex); break;
    case ACT_SOURCES: bytes_sources(ex); break;
    case ACT_DIAGNOSTICS: verb_show_problems(ex, bytes_current_file(ex)); break;
    case ACT_WRITE: bytes_write_node(ex); break;
    case ACT_COPY: bytes_copy(ex); break;
    case ACT_FOLDER:
        if (!view_is_open(ex, VIEW_FOLDER))
            ex_message(ex, "F goes back to the folder list when a folder or archive was opened");
        else
            open_view(ex, VIEW_FOLDER, NULL);
        break;
    case ACT_TREE_WIDER:
    case ACT_TREE_NARROWER: {
        int delta = layout_adjust_tree_width(a == ACT_TREE_WIDER ? 4 : -4, ex->lay.cols);
        bytes_relayout(ex);
        if (b->zoom != PANEL_NONE)
            ex_message(ex, "the tree's width shows when the panels are restored (z)");
        else
            ex_message(ex, "tree %d columns (%+d)", b->lay.panel[PANEL_TREE].w, delta);
        break;
    }
    case ACT_NEXT_PROBLEM: problems_step(ex, true); break;
    case ACT_PREV_PROBLEM: problems_step(ex, false); break;
    case ACT_FILTER: filter_prompt(ex); break;
    case ACT_SORT: filter_cycle_sort(ex); break;
    case ACT_CLEAR: filter_clear(ex); break;
    case ACT_NEXT_FUNCTION:
    case ACT_PREV_FUNCTION:
        tree_verb(ex, a);
        break;
    case ACT_DOWN: case ACT_UP: case ACT_PAGE_DOWN: case ACT_PAGE_UP: case ACT_HALF_DOWN: case ACT_HALF_UP:
    case ACT_TOP: case ACT_BOTTOM:
        /* The tree and the detail panel are lists (the generic moves
         * scroll them); the hex panel moves its cursor. */
        if (b->focus != PANEL_HEX)
            return VIEW_IGNORED;
        hex_action(ex, a);
        break;
    case ACT_ENTER: case ACT_LEFT: case ACT_RIGHT: case ACT_EXPAND: case ACT_COLLAPSE: case ACT_EXPAND_ALL:
    case ACT_COLLAPSE_ALL: case ACT_NEXT_SIBLING: case ACT_PREV_SIBLING: case ACT_SCROLL_LEFT:
    case ACT_SCROLL_RIGHT:
        bytes_panel_action(ex, b->focus, a);
        break;
    default: return VIEW_IGNORED;
    }
    return VIEW_HANDLED;
}

static unsigned bytes_keys(struct explorer *ex)
{
    enum panel_id f = bytes_of(ex)->focus;
    return f == PANEL_DETAIL ? KC_DETAIL : f == PANEL_HEX ? KC_HEX : KC_TREE;
}

/* The tree and the detail panel are lists; the hex panel is not. */
static struct list *bytes_list(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    if (b->focus == PANEL_TREE) {
        tree_ensure(ex);
        b->tree.n = b->rows.n;
        b->tree.rows = tree_page_rows(ex);
        return &b->tree;
    }
    if (b->focus == PANEL_DETAIL) {
        b->detail.list.n = b->detail.n;
        b->detail.list.rows = layout_rows(&b->lay.panel[PANEL_DETAIL]);
        return &b->detail.list;
    }
    return NULL;
}

/* The list moved: the tree's selection brings the hex cursor with it, a
 * field shows its own bytes. */
static void bytes_select(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    if (b->focus == PANEL_TREE) {
        tree_set_selection(ex, b->tree.sel);
    } else if (b->focus == PANEL_DETAIL) {
        const struct field_row *f = detail_selected_field(ex);
        if (f && f->size > 0 && !(f->flags & MTLBX_FIELD_HEADING))
            hex_goto(ex, bytes_current_file(ex), f->offset);
    }
}

/* ------------------------------------------------------------- mouse -- */

static enum panel_id panel_at(struct bytes *b, int y, int x)
{
    for (int p = 0; p < PANEL_COUNT; p++) {
        const struct rect *r = &b->lay.panel[p];
        if (r->h > 0 && r->w > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w)
            return (enum panel_id)p;
    }
    return PANEL_NONE;
}

/* A press selects the row (or byte) under it and focuses its panel; the
 * wheel moves three rows in the panel under the pointer. */
static void bytes_mouse(struct explorer *ex, int y, int x, int wheel)
{
    struct bytes *b = bytes_of(ex);
    enum panel_id p = panel_at(b, y, x);
    if (wheel) {
        enum panel_id keep = b->focus;
        b->focus = p == PANEL_NONE ? keep : p;
        for (int i = 0; i < 3; i++) {
            struct list *l = bytes_list(ex);
            if (l) {
                list_move(l, wheel > 0 ? ACT_DOWN : ACT_UP);
                bytes_select(ex);
            } else {
                hex_action(ex, wheel > 0 ? ACT_DOWN : ACT_UP);
            }
        }
        b->focus = keep;
        return;
    }
    if (p == PANEL_NONE)
        return;
    b->focus = p;
    const struct rect *r = &b->lay.panel[p];
    int row = y - r->y - 1;         /* the first line is the panel's title */
    if (row < 0)
        return;
    if (p == PANEL_TREE) {
        size_t i = b->tree.top + (size_t)row;
        if (i < b->rows.n)
            tree_set_selection(ex, i);
    } else if (p == PANEL_DETAIL) {
        size_t i = b->detail.list.top + (size_t)row;
        if (i < b->detail.n)
            b->detail.list.sel = i;
    } else {
        hex_click(ex, r, row, x);
    }
}

/* ------------------------------------------------ background and places -- */

/* Libraries gain a Diagnostics node when hashing finds a mismatch or the
 * byte layout its findings: rows open before then show it now. */
static void refresh_libraries(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    for (size_t i = b->rows.n; i-- > 0;) {
        mtlbx_node *n = b->rows.v[i].node;
        if (b->rows.v[i].depth <= 1 && n->kind == MTLBX_NODE_LIBRARY) {
            long added = rows_refresh_children(&b->rows, i, &b->rows_src);
            if (added > 0 && b->tree.sel > i && b->tree.sel >= rows_subtree_end(&b->rows, i) - (size_t)added)
                b->tree.sel += (size_t)added;
        }
    }
}

/* An interface decoded in the background gives its MODULE, INTERFACE and
 * ARGUMENT rows children: add them to expanded rows, and let the others
 * ask again. */
static void refresh_interface_rows(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    for (size_t i = b->rows.n; i-- > 0;) {
        struct tree_row *r = &b->rows.v[i];
        enum mtlbx_node_kind k = ((mtlbx_node *)r->node)->kind;
        if (k != MTLBX_NODE_MODULE && k != MTLBX_NODE_INTERFACE && k != MTLBX_NODE_ARGUMENT && k != MTLBX_NODE_BC_BLOCK)
            continue;
        if (!r->expanded) {
            if (r->n_children == 0)
                r->n_children = -1;
            continue;
        }
        long added = rows_refresh_children(&b->rows, i, &b->rows_src);
        if (added > 0 && b->tree.sel > i && b->tree.sel >= rows_subtree_end(&b->rows, i) - (size_t)added)
            b->tree.sel += (size_t)added;
    }
    detail_refresh(ex, true);
}

static bool bytes_tick(struct explorer *ex, bool *busy)
{
    struct bytes *b = bytes_of(ex);
    bool changed = false;
    size_t done, total;
    hasher_progress(ex->hasher, &done, &total);
    if (done != b->hash_done_seen) {
        b->hash_done_seen = done;
        /* Mismatches found in the background add a Diagnostics node to
         * their library: show it once the checks are done. */
        if (done == total && b->tree_built)
            refresh_libraries(ex);
        changed = true;
    }
    if (ex->layout_done && !b->layout_seen) {
        b->layout_seen = true;
        if (b->tree_built)
            refresh_libraries(ex);
        changed = true;
    }
    size_t kept = ifacer_kept_count(ex->ifacer);
    if (kept != b->iface_kept_seen) {
        b->iface_kept_seen = kept;
        if (b->tree_built)
            refresh_interface_rows(ex);
        changed = true;
    }
    /* The selected function's interface is still being decoded. */
    mtlbx_node *n = ex->ifacer ? bytes_selected_node(ex) : NULL;
    long fn = n && n->lib ? bytes_function_of(n) : -1;
    if (fn >= 0 && mbx_function_interface_cached(ex_model_of(ex, n->lib), n->lib, (size_t)fn, NULL, NULL) ==
                       MTLBX_IFACE_NOT_DECODED)
        *busy = true;
    return changed;
}

/* Opens at a node, an offset (the node that owns it selected), a function
 * of a library, or where it was. */
static bool bytes_open(struct explorer *ex, const struct place *at)
{
    struct bytes *b = bytes_of(ex);
    if (!b->build_tree) {
        b->build_tree = tree_init;
        b->focus = PANEL_TREE;
        b->zoom = PANEL_NONE;
        bytes_relayout(ex);
        if (!ex->frames)
            ex_message(ex, "? shows every key; Enter opens, e extracts, d disassembles, q quits");
    }
    if (at->node) {
        if (!bytes_select_node(ex, at->file, at->node, false)) {
            ex_error(ex, "could not select that node");
            return false;
        }
    } else if (at->at_offset) {
        tree_ensure(ex);
        hex_goto(ex, at->file, at->offset);
        hex_sync_tree(ex);
    } else if (at->lib && at->function >= 0) {
        if (!bytes_select_function(ex, at->lib, (size_t)at->function)) {
            ex_error(ex, "the tree does not show this function (Esc in the bytes clears its filter)");
            return false;
        }
        b->focus = PANEL_TREE;
    }
    return true;
}

static void bytes_forget(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    job_cancel(ex);
    search_results_free(&b->search);
    funcview_reset(&b->fview);
    detail_free(&b->detail);
    rows_free(&b->rows);
    memset(b, 0, sizeof *b);
}

static void bytes_here(struct explorer *ex, struct jump *j)
{
    struct bytes *b = bytes_of(ex);
    j->at = place_node(bytes_current_file(ex), bytes_selected_node(ex));
    j->w[0] = b->hex.cursor;
    j->w[1] = b->hex.top;
    j->w[2] = b->detail.list.sel;
    j->w[3] = b->detail.list.top;
    j->w[4] = b->hex.file;
}

/* Back to a node, with its detail row and hex cursor. */
static bool bytes_restore(struct explorer *ex, const struct jump *j)
{
    struct bytes *b = bytes_of(ex);
    if (!j->at.node) {
        tree_ensure(ex);
        return true;
    }
    if (!bytes_select_node(ex, j->at.file, j->at.node, false)) {
        ex_error(ex, "that place is hidden by the filter (Esc clears it)");
        return false;
    }
    detail_refresh(ex, true);
    if (b->detail.n) {
        b->detail.list.sel = j->w[2] < b->detail.n ? j->w[2] : b->detail.n - 1;
        b->detail.list.top = j->w[3] <= b->detail.list.sel ? j->w[3] : b->detail.list.sel;
    }
    uint32_t file = (uint32_t)j->w[4];
    hex_goto(ex, file, j->w[0]);
    b->hex.top = j->w[1] <= j->w[0] ? j->w[1] : b->hex.top;
    hex_goto(ex, file, j->w[0]);
    return true;
}

const struct view_ops bytes_view = {
    .name = "byte explorer",
    .keys = KC_TREE,
    .state_size = sizeof(struct bytes),
    .open = bytes_open,
    .forget = bytes_forget,
    .done = bytes_forget,
    .draw = bytes_draw,
    .action = bytes_action,
    .status = bytes_status,
    .wrap_status = true,
    .key_context = bytes_keys,
    .tick = bytes_tick,
    .list = bytes_list,
    .select = bytes_select,
    .mouse = bytes_mouse,
    .jump = { bytes_here, bytes_restore },
};
