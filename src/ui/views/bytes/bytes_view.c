/* The byte explorer as a view: the tree, detail and hex panels, for the
 * people who take the container apart. It is one key (b) away from a
 * function's page and as powerful as it was when it was the home. */
#include "config.h"

#include "ui/term/term.h"
#include "ui/core/ui.h"

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
    layout_compute(LINES, COLS, ex->zoom, &ex->lay);
    if (!ex->lay.too_small && ex->screen == SCREEN_MAIN) {
        tree_scroll_to_selection(ex);
        hex_goto(ex, ex->hex.file, ex->hex.cursor);
    }
}

static void set_focus(struct explorer *ex, enum panel_id p)
{
    ex->focus = p;
    if (ex->zoom != PANEL_NONE) {
        ex->zoom = p;
        bytes_relayout(ex);
    }
}

/* The tree's verbs that start work of their own: `*` (a background
 * job), ] and [ (through the model, past collapsed rows) and Enter on a
 * source member (the text view). They are the view's, so that the tree
 * panel only moves and opens rows. False: not one of them. */
static bool tree_verb(struct explorer *ex, enum action a)
{
    mtlbx_node *n = ex_selected_node(ex);
    switch (a) {
    case ACT_EXPAND_ALL:
        if (n)
            expand_all_start(ex, ex->tree_sel);
        return true;
    case ACT_NEXT_FUNCTION:
    case ACT_PREV_FUNCTION:
        tree_step_function(ex, a == ACT_NEXT_FUNCTION);
        return true;
    case ACT_ENTER:
        if (!n || n->kind != MTLBX_NODE_MEMBER)
            return false;
        members_show(ex, n->lib, n->sub, n->index);
        return true;
    default:
        return false;
    }
}

void ex_panel_action(struct explorer *ex, enum panel_id p, enum action a)
{
    if (p == PANEL_TREE) {
        if (!tree_verb(ex, a))
            tree_action(ex, a);
    }
    else if (p == PANEL_DETAIL)
        detail_action(ex, a);
    else
        hex_action(ex, a);
}

void bytes_draw(struct explorer *ex)
{
    tree_ensure(ex);
    detail_refresh(ex, false);
    tree_draw(ex, &ex->lay.panel[PANEL_TREE], ex->focus == PANEL_TREE);
    if (ex->lay.separator.h)
        term_vline(ex->lay.separator.y, ex->lay.separator.x, ex->lay.separator.h);
    detail_draw(ex, &ex->lay.panel[PANEL_DETAIL], ex->focus == PANEL_DETAIL);
    hex_draw(ex, &ex->lay.panel[PANEL_HEX], ex->focus == PANEL_HEX);
}

void bytes_status(struct explorer *ex, char *info, size_t size)
{
    mtlbx_node *n = ex_selected_node(ex);
    info[0] = '\0';
    if (!n)
        return;
    char label[300];
    uint32_t file = ex_current_file_index(ex);
    tree_node_label(ex, file, n, label, sizeof label);
    const char *b = base_name(ex->files[file].path);
    char *safe = mtlbx_escape_dup((const uint8_t *)b, strlen(b), MTLBX_ESC_TERMINAL);
    if (n->size)
        snprintf(info, size, "%s: %s @0x%" PRIx64 " +%" PRIu64, safe ? safe : "?", label, n->offset, n->size);
    else
        snprintf(info, size, "%s: %s", safe ? safe : "?", label);
    free(safe);
}

bool bytes_select_function(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    mtlbx_file *f = mtlbx_library_file(lib);
    for (uint32_t i = 0; i < ex->n_files; i++) {
        if (ex->files[i].f != f)
            continue;
        mtlbx_model *model = ex->files[i].m;
        mtlbx_node *root = ex->files[i].root;
        size_t n = mtlbx_node_child_count(model, root);
        for (size_t c = 0; c < n; c++) {
            mtlbx_node *l = mtlbx_node_child(model, root, c);
            if (!l || l->kind != MTLBX_NODE_LIBRARY || l->lib != lib)
                continue;
            mtlbx_node *list = mtlbx_node_child_of_kind(model, l, MTLBX_NODE_FUNCTION_LIST);
            bool in = list && fn < mtlbx_node_child_count(model, list);
            mtlbx_node *node = in ? mtlbx_node_child(model, list, fn) : NULL;
            return node && ex_select_node(ex, i, node, false);
        }
    }
    return false;
}

void bytes_action(struct explorer *ex, enum action a)
{
    switch (a) {
    case ACT_QUIT: ex->quit = true; break;
    case ACT_NEXT_PANEL: set_focus(ex, (enum panel_id)((ex->focus + 1) % PANEL_COUNT)); break;
    case ACT_PREV_PANEL: set_focus(ex, (enum panel_id)((ex->focus + PANEL_COUNT - 1) % PANEL_COUNT)); break;
    case ACT_FOCUS_TREE: set_focus(ex, PANEL_TREE); break;
    case ACT_FOCUS_DETAIL: set_focus(ex, PANEL_DETAIL); break;
    case ACT_FOCUS_HEX: set_focus(ex, PANEL_HEX); break;
    case ACT_ZOOM:
        ex->zoom = ex->zoom == PANEL_NONE ? ex->focus : PANEL_NONE;
        bytes_relayout(ex);
        break;
    case ACT_BACK:
        if (compare_back(ex)) {
            ex_go_back(ex);
            ex->screen = SCREEN_COMPARE;
        } else {
            ex_go_back(ex);
        }
        break;
    case ACT_FORWARD: ex_go_forward(ex); break;
    case ACT_COMPARE: compare_open(ex); break;
    case ACT_SEARCH: search_start(ex); break;
    case ACT_SEARCH_NEXT: search_repeat(ex, true); break;
    case ACT_SEARCH_PREV: search_repeat(ex, false); break;
    case ACT_GOTO: goto_offset_prompt(ex); break;
    case ACT_NEXT_UNCLAIMED: goto_next_unclaimed(ex); break;
    case ACT_EXTRACT: action_extract(ex, false); break;
    case ACT_EXTRACT_ALL: action_extract(ex, true); break;
    case ACT_DISASSEMBLE: action_disassemble(ex); break;
    case ACT_SOURCES: action_sources(ex); break;
    case ACT_DIAGNOSTICS: diag_view_open(ex); break;
    case ACT_WRITE: action_write_node(ex); break;
    case ACT_FOLDER: folder_back(ex); break;
    case ACT_TREE_WIDER:
    case ACT_TREE_NARROWER: {
        int delta = layout_adjust_tree_width(a == ACT_TREE_WIDER ? 4 : -4, COLS);
        bytes_relayout(ex);
        if (ex->zoom != PANEL_NONE)
            ex_message(ex, "the tree's width shows when the panels are restored (z)");
        else
            ex_message(ex, "tree %d columns (%+d)", ex->lay.panel[PANEL_TREE].w, delta);
        break;
    }
    case ACT_NEXT_PROBLEM: problems_step(ex, true); break;
    case ACT_PREV_PROBLEM: problems_step(ex, false); break;
    case ACT_FILTER: filter_prompt(ex); break;
    case ACT_SORT: filter_cycle_sort(ex); break;
    case ACT_CLEAR: filter_clear(ex); break;
    case ACT_SET_MARK: marks_set(ex); break;
    case ACT_GOTO_MARK: marks_jump(ex); break;
    case ACT_NEXT_FUNCTION:
    case ACT_PREV_FUNCTION:
        tree_verb(ex, a);
        break;
    default: ex_panel_action(ex, ex->focus, a); break;
    }
}
