/* `]` and `[`: the next and previous function through the model, not the
 * open rows, so that they go past collapsed lists into the next library
 * of a fat file (and the next file). The target's ancestors are expanded
 * as they are reached. With a filter or sort (f, S) they step through
 * the functions as the tree shows them. */
#include "config.h"

#include "ui/views/bytes/bytes.h"

/* Functions as the tree shows them: through the filter and sort (f, S). */
static size_t function_count(struct explorer *ex, mtlbx_model *model, mtlbx_node *lib)
{
    struct bytes *b = bytes_of(ex);
    mtlbx_node *list = mbx_node_child_of_kind(model, lib, MTLBX_NODE_FUNCTION_LIST);
    return list ? funcview_child_count(&b->fview, model, list) : 0;
}

static mtlbx_node *function_node(struct explorer *ex, mtlbx_model *model, mtlbx_node *lib, size_t i)
{
    struct bytes *b = bytes_of(ex);
    mtlbx_node *list = mbx_node_child_of_kind(model, lib, MTLBX_NODE_FUNCTION_LIST);
    mtlbx_node *fn = list ? funcview_child(&b->fview, model, list, i) : NULL;
    return fn && fn->kind == MTLBX_NODE_FUNCTION ? fn : NULL;
}

/* Where the function with file index `index` stands in the shown (filtered,
 * sorted) list; -1 when it is not shown or `index` is not a function. */
static long view_position(struct explorer *ex, mtlbx_model *model, mtlbx_node *lib, long index)
{
    struct bytes *b = bytes_of(ex);
    if (index < 0 || !funcview_active(&b->fview))
        return index;
    mtlbx_node *list = mbx_node_child_of_kind(model, lib, MTLBX_NODE_FUNCTION_LIST);
    mtlbx_node *fn = list ? mbx_node_child(model, list, (size_t)index) : NULL;
    size_t count = list ? funcview_child_count(&b->fview, model, list) : 0;
    for (size_t i = 0; fn && i < count; i++)
        if (funcview_child(&b->fview, model, list, i) == fn)
            return (long)i;
    return -1;
}

/* Libraries of every file in order: (file, index among its root's children). */
static mtlbx_node *library_at(struct explorer *ex, uint32_t file, size_t child)
{
    mtlbx_model *model = ex->files[file].m;
    mtlbx_node *root = ex->files[file].root;
    mtlbx_node *n = child < mbx_node_child_count(model, root) ? mbx_node_child(model, root, child) : NULL;
    return n && n->kind == MTLBX_NODE_LIBRARY ? n : NULL;
}

static size_t root_children(struct explorer *ex, uint32_t file)
{
    return mbx_node_child_count(ex->files[file].m, ex->files[file].root);
}

/* The next (previous) position among the roots' children of all files;
 * false past the last (before the first). */
static bool advance(struct explorer *ex, bool forward, uint32_t *file, long *child)
{
    if (forward) {
        (*child)++;
        while (*child >= (long)root_children(ex, *file)) {
            if (*file + 1 >= ex->n_files)
                return false;
            (*file)++;
            *child = 0;
        }
    } else {
        while (*child <= 0) {
            if (*file == 0)
                return false;
            (*file)--;
            *child = (long)root_children(ex, *file);
        }
        (*child)--;
    }
    return true;
}

void tree_step_function(struct explorer *ex, bool forward)
{
    mtlbx_node *n = bytes_selected_node(ex);
    uint32_t file = bytes_current_file(ex);
    if (!n || file >= ex->n_files)
        return;
    mtlbx_model *model = ex->files[file].m;
    mtlbx_node *root = ex->files[file].root;
    mtlbx_node *lib = n;
    while (lib && lib->kind != MTLBX_NODE_LIBRARY)
        lib = lib->parent;
    /* The root child we are under (-1: the file's root itself). */
    mtlbx_node *top = n;
    while (top && top->parent != root)
        top = top->parent;
    long child = -1;
    for (long c = 0; top && c < (long)root_children(ex, file); c++)
        if (mbx_node_child(model, root, (size_t)c) == top)
            child = c;

    /* Within the current library: the function's neighbour. A node before
     * the function list counts as before function 0, one after it (module
     * list, sources, lists) as after the last, unless it belongs to a
     * function (its module, its metadata). */
    if (lib) {
        long count = (long)function_count(ex, model, lib), pos = view_position(ex, model, lib, bytes_function_of(n));
        const struct mtlbx_header *h = mbx_library_header(lib->lib);
        if (pos < 0)
            pos = n == lib || n->kind == MTLBX_NODE_HEADER || n->offset < h->function_list.offset ? -1 : count;
        long want = forward ? pos + 1 : pos - 1;
        if (want >= 0 && want < count) {
            if (!bytes_select_node(ex, file, function_node(ex, model, lib, (size_t)want), false))
                ex_error(ex, "cannot reach function %ld", want);
            return;
        }
    }
    /* Else the first (last) function of the next (previous) library. */
    while (advance(ex, forward, &file, &child)) {
        mtlbx_node *l = library_at(ex, file, (size_t)child);
        size_t count = l ? function_count(ex, ex->files[file].m, l) : 0;
        if (!count)
            continue;
        if (!bytes_select_node(ex, file, function_node(ex, ex->files[file].m, l, forward ? 0 : count - 1), false))
            ex_error(ex, "cannot reach that function");
        return;
    }
    ex_message(ex, forward ? "no further function" : "no earlier function");
}
