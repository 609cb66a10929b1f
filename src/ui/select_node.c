/* Selecting a node in the byte explorer's tree from anywhere (a jump, a
 * search, the hex cursor, a function page's b): its ancestors are
 * expanded and the hex view follows. */
#include "config.h"

#include "ui.h"

bool ex_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex)
{
    if (!node || file >= ex->n_files)
        return false;
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
