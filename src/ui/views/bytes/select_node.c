/* The byte explorer's selection, set from anywhere (a key in the tree, a
 * jump, a search, the hex cursor, a function page's b): the selected row
 * scrolls into sight, its ancestors are expanded and the hex cursor
 * follows. The panels and the verbs all select through here, below them,
 * so that none of them calls another panel. */
#include "config.h"

#include "ui/views/bytes/bytes.h"
#include "ui/work/hasher.h"
#include "ui/work/ifacer.h"

#include <stdio.h>

uint32_t bytes_current_file(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    if (b->rows.n && b->tree.sel < b->rows.n)
        return b->rows.v[b->tree.sel].file;
    return 0;
}

struct ex_file *bytes_file(struct explorer *ex)
{
    return &ex->files[bytes_current_file(ex)];
}

mtlbx_node *bytes_selected_node(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    if (b->rows.n && b->tree.sel < b->rows.n)
        return b->rows.v[b->tree.sel].node;
    return NULL;
}

/* The label of a node, as the tree and the searches show it: a file
 * without a name of its own is named by its path. */
void tree_node_label(struct explorer *ex, uint32_t file, const mtlbx_node *n, char *buf, size_t size)
{
    mbx_node_label(ex->files[file].m, n, buf, size);
    if (n->kind == MTLBX_NODE_FILE && !buf[0])
        snprintf(buf, size, "%s", ex->files[file].path);
}

void tree_ensure(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    if (!b->tree_built && b->build_tree)
        b->build_tree(ex);
}

int tree_page_rows(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    int rows = layout_rows(&b->lay.panel[PANEL_TREE]);
    return rows > 0 ? rows : 1;
}

/* The tree is a list (widgets/list.h) over the rows. */
static struct list *tree_list(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    b->tree.n = b->rows.n;
    b->tree.rows = tree_page_rows(ex);
    b->tree.keep_full = true;
    return &b->tree;
}

void tree_scroll_to_selection(struct explorer *ex)
{
    list_scroll(tree_list(ex));
}

void tree_center_selection(struct explorer *ex)
{
    list_center(tree_list(ex));
}

void tree_set_selection(struct explorer *ex, size_t row)
{
    struct bytes *b = bytes_of(ex);
    if (b->rows.n == 0)
        return;
    if (row >= b->rows.n)
        row = b->rows.n - 1;
    b->tree.sel = row;
    tree_scroll_to_selection(ex);
    const struct tree_row *r = &b->rows.v[row];
    mtlbx_node *n = r->node;
    if (n->size > 0)
        hex_goto(ex, r->file, n->offset);
    else
        b->hex.file = r->file;
    long fn = bytes_function_of(n);
    if (fn >= 0 && n->lib) {
        hasher_prioritise(ex->hasher, n->lib, (size_t)fn);
        ifacer_prioritise(ex->ifacer, ex_model_of(ex, n->lib), n->lib, (size_t)fn);
    }
}


bool bytes_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex)
{
    struct bytes *b = bytes_of(ex);
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
    for (size_t i = 0; i < b->rows.n; i++)
        if (b->rows.v[i].depth == 0 && b->rows.v[i].file == file && b->rows.v[i].node == chain[depth - 1]) {
            row = (long)i;
            break;
        }
    for (int d = depth - 2; d >= 0 && row >= 0; d--) {
        if (!b->rows.v[row].expanded && rows_expand(&b->rows, (size_t)row, &b->rows_src) < 0)
            return false;
        row = rows_find_child(&b->rows, (size_t)row, chain[d]);
    }
    if (row < 0)
        return false;
    uint64_t keep_cursor = b->hex.cursor;
    uint32_t keep_file = b->hex.file;
    /* A jump: where the row was out of sight, it lands mid-panel. */
    size_t keep_top = b->tree.top;
    b->tree.sel = (size_t)row;
    b->tree.top = keep_top;
    tree_center_selection(ex);
    tree_set_selection(ex, (size_t)row);
    if (keep_hex && keep_file == file)
        hex_goto(ex, file, keep_cursor);
    return true;
}

void hex_sync_tree(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    struct ex_file *ef = &ex->files[b->hex.file];
    mtlbx_node *n = mbx_node_at_offset(ef->m, b->hex.cursor);
    if (n && n != bytes_selected_node(ex))
        bytes_select_node(ex, b->hex.file, n, true);
}
