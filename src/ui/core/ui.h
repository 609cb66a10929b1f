/* The explorer's shared state, private to src/ui. Panels read it to draw
 * and the main loop (explorer.c) changes it in response to actions. */
#ifndef MTLBX_UI_UI_H
#define MTLBX_UI_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mtlbx_private.h"
#include "ui/explorer.h"
#include "ui/model/ftable.h"
#include "ui/model/funcview.h"
#include "ui/work/hasher.h"
#include "ui/work/ifacer.h"
#include "ui/core/job.h"
#include "ui/term/keys.h"
#include "ui/text/layout.h"
#include "ui/text/query.h"
#include "ui/model/rows.h"
#include "ui/model/search.h"

/* One file the panels show (ex_file.c): the file, its model (the node tree
 * the panels walk) and, once walked, its byte layout. The model and the
 * layout are the explorer's; the file may belong to the folder scan or a
 * release pair, which close it after ex_file_release. */
struct ex_file {
    mtlbx_file *f;
    const char *path;
    mtlbx_node *root;
    mtlbx_model *m;
    struct mtlbx_layout *layout; /* NULL until ex_file_layout */
};
/* Opens f's model into ef; false when out of memory (ef is then empty). */
bool ex_file_open(struct ex_file *ef, mtlbx_file *f, const char *path);
/* Closes ef's model and frees its layout; the file stays open. */
void ex_file_release(struct ex_file *ef);
/* ef's byte layout, walked on first call (which adds its findings to the
 * file's diagnostics); NULL when out of memory. */
const struct mtlbx_layout *ex_file_layout(struct ex_file *ef);
struct explorer;
/* The model of the shown file that holds lib; NULL when none does. */
mtlbx_model *ex_model_of(const struct explorer *ex, const mtlbx_library *lib);

struct field_row {
    char *name, *value;
    uint64_t offset, size, target;
    unsigned flags;
};

struct detail_state {
    const mtlbx_node *node;      /* the fields below belong to this node */
    struct field_row *v;
    size_t n, cap;
    size_t sel, top;
    size_t hash_done_seen;       /* re-read fields when hashing progresses */
};

struct hex_state {
    uint32_t file;
    uint64_t cursor, top;        /* top is a multiple of bytes_per_row */
    int bytes_per_row;
};

struct jump {
    /* The view it was in: the byte explorer (SCREEN_MAIN), the function
     * table or a function page. */
    int screen;
    size_t table_sel;            /* SCREEN_FUNCTIONS: the selected row */
    uint32_t page_lib, page_fn;  /* SCREEN_PAGE: ftable lib index, function */
    uint32_t file;
    mtlbx_node *node;
    uint64_t hex_cursor, hex_top;
    size_t detail_sel, detail_top;
};

#define HISTORY_MAX 256

/* The views; each is one entry of the view table (view.h). */
enum ex_screen {
    SCREEN_MAIN,                 /* the byte explorer: tree, detail, hex */
    SCREEN_TEXT, SCREEN_MEMBERS, SCREEN_COMPARE, SCREEN_FOLDER,
    SCREEN_RELEASE,              /* two folders or archives compared (D) */
    SCREEN_FUNCTIONS,            /* the function table: a library's home */
    SCREEN_PAGE,                 /* one function's page */
    SCREEN_COUNT
};

/* A function's page (fpage.c): the interface pane is drawn here; source
 * and IR open the text view, bytes the byte explorer. */
struct fpage {
    uint32_t lib, fn;            /* ftable lib index, function index */
    size_t top;                  /* first wrapped row shown */
    char **lines;                /* the interface pane's logical lines */
    unsigned char *heading;      /* per line: drawn as a heading */
    size_t n_lines;
    int built_state;             /* interface state the lines were built from */
    uint32_t built_lib, built_fn;/* the function they were built for */
};

struct textview {
    char *title;
    char *data;                  /* owned copy of the text, raw bytes */
    size_t len;
    size_t *line_start;          /* n_lines + 1 entries */
    size_t n_lines;
    size_t top, cur;             /* first line shown; the highlighted line */
    int hscroll;
    char save_name[256];         /* default file name for `w` */
    struct query query;
    bool have_query;
    /* What Enter does on the text, installed by who opened it (the
     * diagnostics view follows a line's offset); NULL: nothing. */
    void (*enter)(struct explorer *ex);
    uint32_t follow_file;        /* the file the diagnostics are of */
    bool diff_colours;           /* colour + - @@ lines (a unified diff) */
    enum text_syntax { TEXT_PLAIN, TEXT_LLVM, TEXT_MSL } syntax; /* from save_name's suffix */
    bool *comment_in;            /* MSL: line i starts inside a block comment */
    size_t *matches, n_matches;  /* lines holding the query (textsearch.c) */
    bool only_matches;           /* &: only those lines are shown */
    bool hide_numbers;           /* #: no line-number gutter */
};

struct member_row {
    size_t archive;
    long member;                 /* -1: the archive's heading row */
};

struct members_view {
    uint32_t file;
    mtlbx_library *lib;
    size_t archive;              /* the archive `s` was asked about */
    struct member_row *rows;     /* every archive of lib, with its members */
    size_t n_rows;
    size_t sel, top;
    struct query query;
    bool have_query;
};

/* The folder and archive list (folder_view.c); scan is NULL when only
 * files were named. */
struct folder_view {
    struct folder_scan *scan;
    size_t sel, top;
    struct query query;
    bool have_query;
    bool was_scanning;           /* one more frame when the scan ends */
    int sort;                    /* S: the column rows are sorted by (folder_view.c) */
    size_t search_entry;         /* the entry the last / or n stopped on */
    bool surveying;              /* redraw while the survey fills the table */
};

struct explorer {
    const struct explorer_options *opts;
    struct ex_file *files;
    uint32_t n_files;
    struct tree_rows rows;
    struct rows_source rows_src;
    bool tree_built;             /* rows exist (tree_ensure; not at start) */
    size_t tree_sel, tree_top;
    struct detail_state detail;
    struct hex_state hex;
    enum panel_id focus, zoom;
    struct layout lay;
    enum ex_screen screen;
    enum ex_screen text_return;  /* q in the text view returns to this view */
    struct compare_view *compare; /* compare_view.c, NULL until D */
    struct release_view *release; /* release_view.c, NULL until D on two folders */
    struct textview text;
    struct members_view members;
    struct jump history[HISTORY_MAX];
    size_t n_history;
    struct jump forward[HISTORY_MAX]; /* undone by Backspace; a new jump clears it */
    size_t n_forward;
    struct ftable funcs;         /* the function table's rows */
    struct fpage page;
    struct ir_cache *ir;         /* llvm-dis outputs by module hash */
    struct query query;
    bool have_query;
    char status[512];
    bool status_error;
    bool quit;
    struct hasher *hasher;
    size_t hash_done_seen;
    struct ifacer *ifacer;       /* interfaces decoded in the background */
    size_t iface_kept_seen;
    size_t iface_done_seen;      /* redraw the title as the interface sweep goes */
    bool layout_done;            /* every file's byte layout walked (after the first frame) */
    char *llvm_dis;              /* resolved lazily */
    struct folder_view folder;
    struct job_slot *job;        /* the background job, if one runs (job.c) */
    struct search_results search;/* matches of the last label search */
    search_match_fn search_match;/* NULL: search_match_label */
    struct funcview fview;       /* filter and sort of the function lists */
    int tree_hscroll;            /* label columns scrolled off (H, L) */
    struct jump marks[26];       /* m a..z; node NULL: unset */
    bool mouse;                  /* the terminal reports mouse events */
    size_t count;                /* a count typed before a move (5j), 0: none */
    /* The main loop's full repaint (explorer.c installs it): views call
     * ex_draw before slow work without calling up into the loop. */
    void (*repaint)(struct explorer *ex);
    /* The tree's builder (tree_init, installed by explorer.c), which
     * tree_ensure calls from below the tree panel. */
    void (*build_tree)(struct explorer *ex);
};

/* ---- exstate.c and history.c: selection and navigation shared by views ---- */
struct ex_file *ex_current_file(struct explorer *ex);
uint32_t ex_current_file_index(const struct explorer *ex);
mtlbx_node *ex_selected_node(struct explorer *ex);
void ex_message(struct explorer *ex, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ex_error(struct explorer *ex, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Select a node in the tree, expanding its ancestors; the hex view
 * follows unless `keep_hex`. Returns false if the node is not found. */
bool ex_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex);
/* Where we are: the selected node (NULL: none), detail row, hex cursor. */
struct jump ex_here(struct explorer *ex);
/* Remember where we are before a jump (Enter on an offset, search, :,
 * Enter on a function, b): the view too. A new jump forgets forward. */
void ex_push_history(struct explorer *ex);
/* Back to a remembered place, the detail row and hex cursor included;
 * false when its node is not in the tree (hidden by the filter). */
bool ex_restore_jump(struct explorer *ex, const struct jump *j);
void ex_draw(struct explorer *ex);   /* full repaint, used before slow work */
/* An action for one panel of the main screen (the focused one, or the
 * one under the mouse): bytes_view.c. */
void ex_panel_action(struct explorer *ex, enum panel_id p, enum action a);
/* Geometry after a resize or zoom (bytes_view.c). */
void bytes_relayout(struct explorer *ex);

/* history.c: the current place (the view's, or the byte explorer's), and
 * a push onto a bounded stack of places. */
struct jump ex_place_here(struct explorer *ex);
void ex_push_jump(struct jump *stack, size_t *n, const struct jump *j);
/* jumps.c: back and forward through the places visited (views included). */
void ex_go_back(struct explorer *ex);
void ex_go_forward(struct explorer *ex);

/* ---- bytes_view.c: the byte explorer as a view (tree, detail, hex) ---- */
void bytes_draw(struct explorer *ex);
void bytes_action(struct explorer *ex, enum action a);
void bytes_status(struct explorer *ex, char *buf, size_t size);
/* The function's node selected in the tree (ancestors expanded); false
 * when the tree cannot show it (its list filtered, say). */
bool bytes_select_function(struct explorer *ex, mtlbx_library *lib, size_t fn);

/* ---- functions_view.c: the function table, home of a library ---- */
/* Builds the table over every open library and makes it the view when
 * there is any function (else the byte explorer stays). */
void functions_home(struct explorer *ex);
void functions_draw(struct explorer *ex);
void functions_action(struct explorer *ex, enum action a);
void functions_status(struct explorer *ex, char *buf, size_t size);

/* ---- fpage.c: one function's page ---- */
void page_open(struct explorer *ex, uint32_t lib, uint32_t fn);
void page_draw(struct explorer *ex);
void page_action(struct explorer *ex, enum action a);
void page_status(struct explorer *ex, char *buf, size_t size);
void page_free(struct fpage *p);
/* s, d and b of a function (from the table or its page). */
void page_show_source(struct explorer *ex, mtlbx_library *lib, size_t fn);
void page_show_bytes(struct explorer *ex, mtlbx_library *lib, size_t fn);
/* Whether the page waits for its function's interface (keep polling). */
bool page_waiting(struct explorer *ex);

/* Label text of a node for the tree and search (terminal-safe): exstate.c. */
void tree_node_label(struct explorer *ex, uint32_t file, const mtlbx_node *n, char *buf, size_t size);
/* The detail panel's selected field, or NULL: exstate.c. */
const struct field_row *detail_selected_field(const struct explorer *ex);

/* ---- select_node.c: the byte explorer's selection (below every panel) ---- */
/* Builds the tree's rows, the first time the tree is drawn or something
 * selects in it: every library open, the first function list too, the
 * first function selected. Not at start: the function table is the home,
 * and the libraries' rows decode every function's metadata (a second on
 * 200,000 functions). */
void tree_ensure(struct explorer *ex);
/* Rows the tree panel shows. */
int tree_page_rows(const struct explorer *ex);
void tree_set_selection(struct explorer *ex, size_t row);
void tree_scroll_to_selection(struct explorer *ex);
/* After a jump: a selected row outside the panel comes to its middle. */
void tree_center_selection(struct explorer *ex);
/* After a cursor move in the hex panel: select the owning node. */
void hex_sync_tree(struct explorer *ex);

/* ---- hex_cursor.c: the hex cursor and scroll (below every panel) ---- */
/* Put the cursor at `offset` and scroll so it shows. */
void hex_goto(struct explorer *ex, uint32_t file, uint64_t offset);
uint64_t hex_file_size(const struct explorer *ex);
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

/* ---- hex_panel.c ---- */
void hex_draw(struct explorer *ex, const struct rect *r, bool focused);
void hex_action(struct explorer *ex, enum action a);

/* ---- textview.c ---- */
void textview_open(struct explorer *ex, const char *title, const char *data, size_t len,
                   const char *save_name);
void textview_close(struct explorer *ex);
void textview_draw(struct explorer *ex);
void textview_action(struct explorer *ex, enum action a);
/* Puts line `line` (0-based) of the open text at the cursor. */
void textview_goto_line(struct explorer *ex, size_t line);
/* The status line's text for the view: "match 3/17", the filter. */
void textview_status(struct explorer *ex, char *buf, size_t size);

/* ---- members_view.c ---- */
void members_open(struct explorer *ex, uint32_t file, mtlbx_library *lib, size_t archive);
void members_free(struct members_view *m);
void members_draw(struct explorer *ex);
void members_action(struct explorer *ex, enum action a);
/* The selected member, or NULL on an archive heading row. */
const struct mtlbx_member *members_selected(const struct explorer *ex);
/* Shows one member's text in the text view. */
void members_show(struct explorer *ex, mtlbx_library *lib, size_t archive, size_t member);

/* ---- diag_view.c: ! ---- */
/* Opens the findings in the text view, whose Enter follows an offset. */
void diag_view_open(struct explorer *ex);
/* ---- compare_view.c: D, the comparison of two open files ---- */
void compare_open(struct explorer *ex);
void compare_draw(struct explorer *ex);
void compare_action(struct explorer *ex, enum action a);
void compare_free(struct explorer *ex);
/* ---- release_view.c: D on two folders or archives, paired by path ---- */
void release_open(struct explorer *ex);
void release_draw(struct explorer *ex);
void release_action(struct explorer *ex, enum action a);
void release_free(struct explorer *ex);
/* show_files.c: files shown in the panels, as `mtlbx FILE...` starts. */
void ex_show_files(struct explorer *ex, mtlbx_file *const *files, const char *const *paths, uint32_t n);
/* Backspace in the panels right after a jump from the compare view: true
 * when it should go back there. */
bool compare_back(struct explorer *ex);

/* ---- search.c ---- */
void search_start(struct explorer *ex);
void search_repeat(struct explorer *ex, bool forward);
void goto_offset_prompt(struct explorer *ex);
/* search.c: the hex cursor to the next run of unclaimed bytes (wrapping). */
void goto_next_unclaimed(struct explorer *ex);

/* ---- actions.c: e, E, d, s, w ---- */
void action_extract(struct explorer *ex, bool all);
void action_disassemble(struct explorer *ex);
/* llvm-dis of one function into the text view, cached per module hash. */
void action_disassemble_function(struct explorer *ex, mtlbx_library *lib, size_t fn);
void action_ir_cache_free(struct explorer *ex);
void action_sources(struct explorer *ex);
void action_write_node(struct explorer *ex);
/* Writes bytes to a path the user chose, asking before overwriting. */
bool action_write_bytes(struct explorer *ex, const char *path, const void *data, size_t len);
/* "~/x" as $HOME/x. */
void action_expand_home(const char *in, char *out, size_t size);
/* mkdir -p; false with a reason in err. */
bool action_make_dirs(const char *path, char *err, size_t err_size);
/* Several files would be replaced: ask once. True means overwrite them
 * all; false (or none existing) means keep existing files. */
bool action_confirm_overwrite(struct explorer *ex, size_t existing, size_t total, const char *dir);
/* extract_all.c: every module of a library into a directory, in the
 * background. */
void action_extract_all(struct explorer *ex, mtlbx_library *lib);
/* Function index of a node (a function, its tags, its module...), or -1. */
long action_function_of(const mtlbx_node *n);

/* ---- folder_view.c: `mtlbx DIR`, `mtlbx App.ipa` ---- */
/* Starts the scan and the folder list if any path is a folder or an
 * archive; false (nothing done) when all are plain files. */
bool folder_open(struct explorer *ex, char *const *paths, int n_paths);
void folder_draw(struct explorer *ex);
void folder_action(struct explorer *ex, enum action a);
/* F in the panels: back to the folder list. */
void folder_back(struct explorer *ex);
bool folder_scanning(const struct explorer *ex);
/* The title bar's text while the folder list shows: what is open. */
void folder_title(const struct explorer *ex, char *buf, size_t size);
/* After a frame is out: starts the scan the first time. */
void folder_after_frame(struct explorer *ex);
void folder_free(struct explorer *ex);

/* ---- filter.c: f, |, S, Esc ---- */
void filter_prompt(struct explorer *ex);
void filter_cycle_sort(struct explorer *ex);
void filter_clear(struct explorer *ex);
/* Rebuild the tree's function lists after the view changed. */
void filter_apply(struct explorer *ex);

/* ---- problems.c: p, P ---- */
void problems_step(struct explorer *ex, bool forward);

/* ---- marks.c: m, ' ---- */
void marks_set(struct explorer *ex);
void marks_jump(struct explorer *ex);

/* ---- clipboard.c: y ---- */
void clipboard_copy(struct explorer *ex);

/* ---- mouse.c ---- */
void mouse_init(struct explorer *ex);
void mouse_event(struct explorer *ex);

/* ---- prompt.c ---- */
/* Reads a line on the status line; false if cancelled (Esc, Ctrl-G). */
bool prompt_line(struct explorer *ex, const char *label, const char *initial, char *out, size_t size);
/* The same for a file or directory path: Tab completes it, and all path
 * prompts share one history. */
bool prompt_path(struct explorer *ex, const char *label, const char *initial, char *out, size_t size);
/* Asks a yes/no question; true only for y or Y. */
bool prompt_yes_no(struct explorer *ex, const char *question);

#endif
