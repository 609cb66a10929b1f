/* The byte explorer's selection, set from anywhere (a key in the tree, a
 * jump, a search, the hex cursor, a function page's b): the selected row
 * scrolls into sight, its ancestors are expanded and the hex cursor
 * follows. The panels and the verbs all select through here, below them,
 * so that none of them calls another panel. */
#include "config.h"

#include "ui/core/ui.h"

void tree_ensure(struct explorer *ex)
{
    if (!ex->tree_built && ex->build_tree)
        ex->build_tree(ex);
}

int tree_page_rows(const struct explorer *ex)
{
    int rows = layout_rows(&ex->lay.panel[PANEL_TREE]);
    return rows > 0 ? rows : 1;
}

void tree_scroll_to_selection(struct explorer *ex)
{
    size_t page = (size_t)tree_page_rows(ex);
    if (ex->tree_sel < ex->tree_top)
        ex->tree_top = ex->tree_sel;
    else if (ex->tree_sel >= ex->tree_top + page)
        ex->tree_top = ex->tree_sel - page + 1;
    if (ex->tree_top + page > ex->rows.n)
        ex->tree_top = ex->rows.n > page ? ex->rows.n - page : 0;
}

void tree_center_selection(struct explorer *ex)
{
    size_t page = (size_t)tree_page_rows(ex);
    if (ex->tree_sel >= ex->tree_top && ex->tree_sel < ex->tree_top + page)
        return;
    ex->tree_top = ex->tree_sel > page / 2 ? ex->tree_sel - page / 2 : 0;
    tree_scroll_to_selection(ex);
}

void tree_set_selection(struct explorer *ex, size_t row)
{
    if (ex->rows.n == 0)
        return;
    if (row >= ex->rows.n)
        row = ex->rows.n - 1;
    ex->tree_sel = row;
    tree_scroll_to_selection(ex);
    const struct tree_row *r = &ex->rows.v[row];
    mtlbx_node *n = r->node;
    if (n->size > 0)
        hex_goto(ex, r->file, n->offset);
    else
        ex->hex.file = r->file;
    long fn = action_function_of(n);
    if (fn >= 0 && n->lib) {
        hasher_prioritise(ex->hasher, n->lib, (size_t)fn);
        ifacer_prioritise(ex->ifacer, ex_model_of(ex, n->lib), n->lib, (size_t)fn);
    }
}


bool ex_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex)
{
    if (!node || file >= ex->n_files)
        return false;
    tree_ensure(ex);
    /* The chain from the top row down to the node. */
    mtlbx_node *chain[64];
    int depth = 0;
    for (mtlbx_node *n = node; n && depth < 64; n = n->parent)
        chain[depth++] = n;
    /* With a single file its root is not a row: the libraries are. */
    if (ex->n_files == 1) {
        if (depth <= 1)
            return false;
        depth--;
    }
    long row = -1;
    for (size_t i = 0; i < ex->rows.n; i++)
        if (ex->rows.v[i].depth == 0 && ex->rows.v[i].file == file && ex->rows.v[i].node == chain[depth - 1]) {
            row = (long)i;
            break;
        }
    for (int d = depth - 2; d >= 0 && row >= 0; d--) {
        if (!ex->rows.v[row].expanded && rows_expand(&ex->rows, (size_t)row, &ex->rows_src) < 0)
            return false;
        row = rows_find_child(&ex->rows, (size_t)row, chain[d]);
    }
    if (row < 0)
        return false;
    uint64_t keep_cursor = ex->hex.cursor;
    uint32_t keep_file = ex->hex.file;
    /* A jump: where the row was out of sight, it lands mid-panel. */
    size_t keep_top = ex->tree_top;
    ex->tree_sel = (size_t)row;
    ex->tree_top = keep_top;
    tree_center_selection(ex);
    tree_set_selection(ex, (size_t)row);
    if (keep_hex && keep_file == file)
        hex_goto(ex, file, keep_cursor);
    return true;
}

void hex_sync_tree(struct explorer *ex)
{
    struct ex_file *ef = &ex->files[ex->hex.file];
    mtlbx_node *n = mtlbx_node_at_offset(ef->m, ex->hex.cursor);
    if (n && n != ex_selected_node(ex))
        ex_select_node(ex, ex->hex.file, n, true);
}
