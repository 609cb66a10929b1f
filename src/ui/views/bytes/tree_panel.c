/* The tree panel: libraries, their sections, functions and tags as
 * expandable rows. Only the rows on screen are labelled and drawn; moving
 * the cursor touches nothing but indices (see rows.h). */
#include "config.h"

#include "ui/text/rowfmt.h"
#include "ui/term/term.h"
#include "ui/views/bytes/bytes.h"

#include <stdio.h>
#include <string.h>

/* H and L scroll the labels by this much, up to the longest label. */
#define TREE_HSCROLL_STEP 8
#define TREE_HSCROLL_MAX 480

static size_t src_child_count(void *ctx, uint32_t file, void *node)
{
    struct explorer *ex = ctx;
    return funcview_child_count(&bytes_of(ex)->fview, ex->files[file].m, node);
}

static void *src_child(void *ctx, uint32_t file, void *node, size_t i)
{
    struct explorer *ex = ctx;
    return funcview_child(&bytes_of(ex)->fview, ex->files[file].m, node, i);
}

/* With one file the libraries are the roots (the file name is in the
 * title bar); with several, each file is a root of its own. */
void tree_init(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    b->tree_built = true;
    b->rows_src.child_count = src_child_count;
    b->rows_src.child = src_child;
    b->rows_src.ctx = ex;
    for (uint32_t i = 0; i < ex->n_files; i++) {
        mtlbx_node *root = ex->files[i].root;
        if (ex->n_files == 1) {
            size_t n = mbx_node_child_count(ex->files[i].m, root);
            for (size_t c = 0; c < n; c++)
                rows_append(&b->rows, mbx_node_child(ex->files[i].m, root, c), i, 0);
        } else {
            rows_append(&b->rows, root, i, 0);
            rows_expand(&b->rows, b->rows.n - 1, &b->rows_src);
        }
    }
    /* Open every library, and the first function list, so a newcomer
     * lands on a function. */
    bool opened_functions = false;
    for (size_t i = 0; i < b->rows.n; i++) {
        mtlbx_node *n = b->rows.v[i].node;
        if (n->kind == MTLBX_NODE_LIBRARY && !b->rows.v[i].expanded)
            rows_expand(&b->rows, i, &b->rows_src);
        else if (n->kind == MTLBX_NODE_FUNCTION_LIST && !opened_functions) {
            rows_expand(&b->rows, i, &b->rows_src);
            opened_functions = true;
        }
    }
    size_t sel = 0;
    for (size_t i = 0; i < b->rows.n; i++)
        if (((mtlbx_node *)b->rows.v[i].node)->kind == MTLBX_NODE_FUNCTION) {
            sel = i;
            break;
        }
    tree_set_selection(ex, sel);
}

static bool row_expandable(struct explorer *ex, size_t i)
{
    struct bytes *b = bytes_of(ex);
    const struct tree_row *r = &b->rows.v[i];
    return mbx_node_expandable(ex->files[r->file].m, r->node);
}

static void expand_row(struct explorer *ex, size_t i)
{
    struct bytes *b = bytes_of(ex);
    mtlbx_node *n = b->rows.v[i].node;
    if (n->kind == MTLBX_NODE_ARCHIVE)
        ex_message(ex, "decompressing the source archive...");
    if (rows_expand(&b->rows, i, &b->rows_src) < 0)
        ex_error(ex, "out of memory expanding this node");
    else if (b->rows.v[i].n_children == 0 && n->kind == MTLBX_NODE_ARCHIVE)
        ex_error(ex, "this source archive does not decode (see the diagnostics)");
    else if (n->kind == MTLBX_NODE_ARCHIVE)
        ex->status[0] = '\0';
}

static void collapse_to_libraries(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    uint16_t depth = ex->n_files == 1 ? 0 : 1;
    mtlbx_node *keep = bytes_selected_node(ex);
    for (size_t i = b->rows.n; i-- > 0;)
        if (b->rows.v[i].depth == depth && b->rows.v[i].expanded)
            rows_collapse(&b->rows, i);
    /* Keep the cursor on the library that held the selection. */
    while (keep && keep->parent && keep->kind != MTLBX_NODE_LIBRARY)
        keep = keep->parent;
    for (size_t i = 0; i < b->rows.n; i++)
        if (b->rows.v[i].node == keep) {
            tree_set_selection(ex, i);
            return;
        }
    tree_set_selection(ex, b->tree.sel);
}

void tree_action(struct explorer *ex, enum action a)
{
    struct bytes *b = bytes_of(ex);
    if (b->rows.n == 0)
        return;
    size_t sel = b->tree.sel;
    struct tree_row *r = &b->rows.v[sel];
    switch (a) {
    case ACT_RIGHT:
        if (!r->expanded && row_expandable(ex, sel))
            expand_row(ex, sel);
        else if (r->expanded && sel + 1 < b->rows.n && b->rows.v[sel + 1].depth > r->depth)
            tree_set_selection(ex, sel + 1);
        break;
    case ACT_LEFT:
        if (r->expanded) {
            rows_collapse(&b->rows, sel);
            tree_scroll_to_selection(ex);
        } else {
            long p = rows_parent(&b->rows, sel);
            if (p >= 0)
                tree_set_selection(ex, (size_t)p);
        }
        break;
    case ACT_ENTER:
        if (r->expanded) {
            rows_collapse(&b->rows, sel);
            tree_scroll_to_selection(ex);
        } else if (row_expandable(ex, sel)) {
            expand_row(ex, sel);
        }
        break;
    case ACT_EXPAND:
        if (!r->expanded && row_expandable(ex, sel))
            expand_row(ex, sel);
        break;
    case ACT_COLLAPSE:
        if (r->expanded)
            rows_collapse(&b->rows, sel);
        tree_scroll_to_selection(ex);
        break;
    case ACT_COLLAPSE_ALL: collapse_to_libraries(ex); break;
    case ACT_NEXT_SIBLING: {
        long j = rows_next_sibling(&b->rows, sel);
        if (j >= 0)
            tree_set_selection(ex, (size_t)j);
        break;
    }
    case ACT_PREV_SIBLING: {
        long j = rows_prev_sibling(&b->rows, sel);
        if (j >= 0)
            tree_set_selection(ex, (size_t)j);
        break;
    }
    case ACT_SCROLL_RIGHT:
        if (b->tree_hscroll < TREE_HSCROLL_MAX)
            b->tree_hscroll += TREE_HSCROLL_STEP;
        break;
    case ACT_SCROLL_LEFT:
        b->tree_hscroll = b->tree_hscroll > TREE_HSCROLL_STEP ? b->tree_hscroll - TREE_HSCROLL_STEP : 0;
        break;
    default: break;
    }
}

static enum ui_attr badge_attr(enum row_badge b)
{
    switch (b) {
    case ROW_BADGE_OK: return AT_OK;
    case ROW_BADGE_BAD: return AT_BAD;
    default: return AT_DIM;
    }
}

static void draw_row(struct explorer *ex, size_t i, int y, int x, int w, bool focused)
{
    struct bytes *b = bytes_of(ex);
    const struct tree_row *r = &b->rows.v[i];
    mtlbx_model *model = ex->files[r->file].m;
    mtlbx_node *n = r->node;
    bool selected = i == b->tree.sel;
    attr_t base = selected ? term_attr(focused ? AT_SELECT : AT_SELECT_UNFOCUSED) : A_NORMAL;
    char label[512];
    tree_node_label(ex, r->file, n, label, sizeof label);
    struct row_input in = {
        .width = w, .depth = r->depth, .expanded = r->expanded,
        .expandable = !r->expanded && mbx_node_expandable(model, n),
        .flags = mbx_node_flags(model, n),
        .is_function = n->kind == MTLBX_NODE_FUNCTION && n->lib != NULL,
        .hash = n->lib && n->kind == MTLBX_NODE_FUNCTION ? mbx_function_hash_state(n->lib, n->index)
                                                         : MTLBX_HASH_UNCHECKED,
        .label = label, .ascii = term_ascii(), .hscroll = b->tree_hscroll,
        .is_name = n->kind == MTLBX_NODE_MEMBER,
    };
    struct row_layout out;
    rowfmt_tree(&in, &out);

    term_fill(y, x, w, base);
    if (out.mark != ROW_MARK_NONE) {
        enum ui_attr ma = out.mark == ROW_MARK_ERROR ? AT_BAD : out.mark == ROW_MARK_UNKNOWN ? AT_UNKNOWN : AT_WARN;
        term_put_raw(y, x, 1, out.mark_text, term_attr_on(base, ma));
    }
    if (out.glyph_col >= 0)
        term_put_raw(y, x + out.glyph_col, 1, out.glyph, base);
    if (out.badge_col >= 0)
        term_put_raw(y, x + out.badge_col, 3, out.badge_text, term_attr_on(base, badge_attr(out.badge)));
    if (out.label_col >= 0) {
        attr_t la = base;
        if (!selected && out.mark == ROW_MARK_UNKNOWN)
            la |= term_attr(AT_UNKNOWN);
        if (!selected && out.mark == ROW_MARK_ERROR)
            la |= term_attr(AT_BAD);
        if (search_is_hit(&b->search, n))
            la = (la & ~A_COLOR) | term_attr(AT_MATCH);
        term_put_raw(y, x + out.label_col, w - out.label_col, out.label, la);
    }
}

void tree_draw(struct explorer *ex, const struct rect *r, bool focused)
{
    struct bytes *b = bytes_of(ex);
    if (r->h <= 0 || r->w <= 0)
        return;
    char title[300];
    int tl = snprintf(title, sizeof title, " 1 Tree  %zu/%zu", b->rows.n ? b->tree.sel + 1 : 0, b->rows.n);
    if (b->search.n && b->search.cur < b->search.n && tl > 0 && (size_t)tl < sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, "  match %zu/%zu%s", b->search.cur + 1,
                       b->search.n, b->search.capped ? "+" : "");
    if (funcview_active(&b->fview) && tl > 0 && (size_t)tl < sizeof title) {
        size_t shown, total;
        funcview_counts(&b->fview, &shown, &total);
        if (b->fview.filter[0])
            tl += snprintf(title + tl, sizeof title - (size_t)tl, "  filter %s: %zu/%zu", b->fview.filter,
                           shown, total);
        if (b->fview.sort != SORT_FILE && tl > 0 && (size_t)tl < sizeof title)
            snprintf(title + tl, sizeof title - (size_t)tl, "  in %s", funcview_sort_name(b->fview.sort));
    }
    term_put(r->y, r->x, r->w, title, term_attr(focused ? AT_PANEL_TITLE_FOCUS : AT_PANEL_TITLE), 0);
    int rows = layout_rows(r);
    tree_scroll_to_selection(ex);
    for (int k = 0; k < rows; k++) {
        size_t i = b->tree.top + (size_t)k;
        if (i >= b->rows.n)
            break;
        draw_row(ex, i, r->y + 1 + k, r->x, r->w, focused);
    }
}
