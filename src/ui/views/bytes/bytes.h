/* The byte explorer's own header, for the files of this folder only: its
 * private block (the tree's rows, the detail panel's fields, the hex
 * cursor, the search, the function filter) and the panels' functions.
 * Nothing outside views/bytes includes it; other views open the byte
 * explorer by its id, at a place (a node, an offset, a function). */
#ifndef MTLBX_UI_VIEWS_BYTES_BYTES_H
#define MTLBX_UI_VIEWS_BYTES_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/core/core.h"
#include "ui/model/funcview.h"
#include "ui/model/rows.h"
#include "ui/model/search.h"
#include "ui/text/layout.h"
#include "ui/text/query.h"
#include "ui/widgets/list.h"

struct field_row {
    char *name, *value;
    uint64_t offset, size, target;
    unsigned flags;
};

struct detail_state {
    const mtlbx_node *node;      /* the fields below belong to this node */
    struct field_row *v;
    size_t n, cap;
    struct list list;            /* the selected field, the first shown */
    size_t hash_done_seen;       /* re-read fields when hashing progresses */
};

struct hex_state {
    uint32_t file;
    uint64_t cursor, top;        /* top is a multiple of bytes_per_row */
    int bytes_per_row;
};

struct bytes {
    struct tree_rows rows;       /* the tree's rows (rows.h) */
    struct rows_source rows_src;
    bool tree_built;             /* rows exist (tree_ensure; not at start) */
    struct list tree;            /* the selected row, the first shown */
    struct detail_state detail;
    struct hex_state hex;
    enum panel_id focus, zoom;
    struct layout lay;           /* the panels, from the frame's size and the zoom */
    struct query query;          /* the last / */
    bool have_query;
    struct search_results search;/* matches of the last label search */
    search_match_fn search_match;/* NULL: search_match_label */
    struct funcview fview;       /* filter and sort of the function lists */
    int tree_hscroll;            /* label columns scrolled off (H, L) */
    size_t hash_done_seen;       /* hashes checked when last looked (tick) */
    size_t iface_kept_seen;      /* interfaces kept when last looked */
    bool layout_seen;            /* the byte layout's findings are in the rows */
    /* The tree's builder (tree_init), which tree_ensure calls from below
     * the tree panel. */
    void (*build_tree)(struct explorer *ex);
};

/* The private block. */
struct bytes *bytes_of(struct explorer *ex);

/* ---- bytes_view.c ---- */
/* The panels' rectangles for the frame's size and the zoom. */
void bytes_relayout(struct explorer *ex);
/* An action for one panel (the focused one, or the one under the mouse). */
void bytes_panel_action(struct explorer *ex, enum panel_id p, enum action a);
/* Function index of a node (a function, its tags, its module...), or -1. */
long bytes_function_of(const mtlbx_node *n);
/* The function's node selected in the tree (ancestors expanded); false
 * when the tree cannot show it (its list filtered, say). */
bool bytes_select_function(struct explorer *ex, mtlbx_library *lib, size_t fn);

/* ---- select_node.c: the selection, below every panel ---- */
uint32_t bytes_current_file(struct explorer *ex);
struct ex_file *bytes_file(struct explorer *ex);
mtlbx_node *bytes_selected_node(struct explorer *ex);
/* Label text of a node for the tree and search (terminal-safe). */
void tree_node_label(struct explorer *ex, uint32_t file, const mtlbx_node *n, char *buf, size_t size);
/* Select a node in the tree, expanding its ancestors; the hex view
 * follows unless `keep_hex`. Returns false if the node is not found. */
bool bytes_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex);
/* Builds the tree's rows, the first time the tree is drawn or something
 * selects in it: every library open, the first function list too, the
 * first function selected. Not at start: the function table is the home,
 * and the libraries' rows decode every function's metadata (a second on
 * 200,000 functions). */
void tree_ensure(struct explorer *ex);
/* Rows the tree panel shows. */
int tree_page_rows(struct explorer *ex);
void tree_set_selection(struct explorer *ex, size_t row);
void tree_scroll_to_selection(struct explorer *ex);
/* After a jump: a selected row outside the panel comes to its middle. */
void tree_center_selection(struct explorer *ex);
/* After a cursor move in the hex panel: select the owning node. */
void hex_sync_tree(struct explorer *ex);

/* ---- hex_cursor.c: the hex cursor and scroll (below every panel) ---- */
/* Put the cursor at `offset` and scroll so it shows. */
void hex_goto(struct explorer *ex, uint32_t file, uint64_t offset);
uint64_t hex_file_size(struct explorer *ex);
/* Rows and bytes a row for the current layout (also when hidden). */
void hex_geometry(struct explorer *ex, int *bpr, int *rows);
/* Scrolls so the cursor shows (a jump: a third of the way down). */
void hex_keep_visible(struct explorer *ex, bool center);

/* ---- tree_panel.c ---- */
void tree_init(struct explorer *ex);
void tree_draw(struct explorer *ex, const struct rect *r, bool focused);
/* Moves and opens rows; the verbs that start work of their own (*, ],
 * [, Enter on a source member) are the byte explorer's (bytes_view.c). */
void tree_action(struct explorer *ex, enum action a);
/* `*` on row `row`, as a background job (expand_all.c). */
void expand_all_start(struct explorer *ex, size_t row);
/* ] and [ (function_step.c): the next / previous function in the model,
 * into the next library or file. */
void tree_step_function(struct explorer *ex, bool forward);

/* ---- detail_panel.c ---- */
void detail_refresh(struct explorer *ex, bool force);
void detail_draw(struct explorer *ex, const struct rect *r, bool focused);
void detail_action(struct explorer *ex, enum action a);
void detail_free(struct detail_state *d);
/* The selected field, or NULL. */
const struct field_row *detail_selected_field(struct explorer *ex);

/* ---- hex_panel.c ---- */
void hex_draw(struct explorer *ex, const struct rect *r, bool focused);
void hex_action(struct explorer *ex, enum action a);
/* A press at (row, x) inside the hex panel's rectangle. */
void hex_click(struct explorer *ex, const struct rect *r, int row, int x);

/* ---- search.c: /, n, N, :, u ---- */
void search_start(struct explorer *ex);
void search_repeat(struct explorer *ex, bool forward);
void goto_offset_prompt(struct explorer *ex);
void goto_next_unclaimed(struct explorer *ex);
bool search_match_label(struct explorer *ex, const struct query *q, uint32_t file, const mtlbx_node *n,
                        const char *label);

/* ---- filter.c: f, |, S, Esc ---- */
void filter_prompt(struct explorer *ex);
void filter_cycle_sort(struct explorer *ex);
void filter_clear(struct explorer *ex);
/* Rebuild the tree's function lists after the view changed. */
void filter_apply(struct explorer *ex);

/* ---- problems.c: p, P ---- */
void problems_step(struct explorer *ex, bool forward);

/* ---- verbs.c: e, E, d, s, w, y on the selection ---- */
void bytes_extract(struct explorer *ex, bool all);
void bytes_disassemble(struct explorer *ex);
void bytes_sources(struct explorer *ex);
void bytes_write_node(struct explorer *ex);
void bytes_copy(struct explorer *ex);

#endif
