/* The view interface (tig's view_ops, htop's Panel): every full-screen
 * view of the explorer is one `struct view_ops` in its own folder
 * (views/<name>/), listed once in view_list.h. Its state is a private
 * block the core allocates (state_size bytes, zeroed) and hands back with
 * view_state(); nothing outside its folder sees it.
 *
 * Only this module changes the current view: open_view() makes a view
 * current with the one it was opened from as its parent, close_view()
 * returns to the parent (q everywhere; at the home view, the root of the
 * chain, it quits). Views are singletons, so the parents form a chain: a
 * view opened while it is already in the chain is returned to, and the
 * views above it close. Every change of view is remembered in the history
 * (Backspace, Ctrl-]) through the views' here/restore, as are the jumps a
 * view makes inside itself (history_push).
 *
 * A key becomes an action (keys.h) that the main loop (loop/dispatch.c)
 * offers to the current view; what the view ignores falls back on generic
 * moves over the list it scrolls (widgets/list.h) and on the actions every
 * view shares (q, Q, ?, Backspace, Ctrl-], marks). */
#ifndef MTLBX_UI_CORE_VIEW_H
#define MTLBX_UI_CORE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "ui/term/keys.h"

struct explorer;
struct list;
struct query;

enum view_id {
#define VIEW(id, ops) VIEW_##id,
#include "ui/core/view_list.h"
#undef VIEW
    VIEW_COUNT,
    VIEW_NONE = -1
};

/* What a text view opens on (a place that is a text): the text is copied. */
struct text_doc {
    const char *title;
    const char *data;
    size_t len;
    const char *save_name;       /* w's default; its suffix picks the colours (.ll, .metal) */
    size_t line;                 /* 0-based line shown at the top, the cursor on it */
    bool diff_colours;           /* a unified diff: + - @@ lines coloured */
    bool is_help;                /* the key help (? in it does nothing) */
    /* Enter on the line starting at text[at] (the problem list follows
     * its offset); NULL: none. `arg` is given back. Returns false when
     * the line says nothing. */
    bool (*enter)(struct explorer *ex, const char *text, size_t len, size_t at, long arg);
    long enter_arg;
};

/* Where a view opens: any of a file (index into explorer.files), a
 * library, a function, a source archive, a node, an offset, or a text.
 * Build one with the place_* helpers; what a view does not use it ignores. */
struct place {
    uint32_t file;
    mtlbx_library *lib;          /* NULL: none */
    long function;               /* in lib; -1: none */
    long archive;                /* source archive of lib; -1: none */
    mtlbx_node *node;            /* NULL: none */
    uint64_t offset;
    bool at_offset;
    const struct text_doc *text; /* NULL: none; never kept in a jump */
};

struct place place_none(void);
struct place place_file(uint32_t file);
struct place place_function(mtlbx_library *lib, size_t fn);
struct place place_node(uint32_t file, mtlbx_node *node);
struct place place_offset(uint32_t file, uint64_t offset);
struct place place_archive(uint32_t file, mtlbx_library *lib, size_t archive);
struct place place_text(const struct text_doc *doc);

/* A place in a view, as history and marks keep it: the view, where it
 * opens, and a few words of the view's own (its selection, a scroll
 * position), which only it reads (its here and restore). */
#define JUMP_WORDS 6
struct jump {
    enum view_id view;           /* VIEW_NONE: unset */
    struct place at;
    uint64_t w[JUMP_WORDS];
};

enum view_result {
    VIEW_IGNORED = 0,            /* not this view's: the generic keys get it */
    VIEW_HANDLED,
    VIEW_CLOSE,                  /* close the view (back to its parent) */
};

struct view_ops {
    const char *name;            /* "function table": for messages */
    unsigned keys;               /* its key context (KC_*): the footer and ? */
    size_t state_size;           /* its private block */
    /* Shows the view at `at`; false when it cannot (a message says why),
     * and then nothing changed. Called on a view that may be open already
     * (a singleton): it moves to `at`. */
    bool (*open)(struct explorer *ex, const struct place *at);
    /* It leaves the screen (closed back to its parent); may be NULL. */
    void (*close)(struct explorer *ex);
    /* The shown files change (the folder list opened another library):
     * drop everything that points into their models; may be NULL. */
    void (*forget)(struct explorer *ex);
    /* The explorer ends: free what the private block holds; may be NULL. */
    void (*done)(struct explorer *ex);
    /* The body, between the title and the status line. */
    void (*draw)(struct explorer *ex);
    enum view_result (*action)(struct explorer *ex, enum action a);
    /* The status line's text about the selection; may be NULL. */
    void (*status)(struct explorer *ex, char *buf, size_t size);
    bool wrap_status;            /* a status longer than the line shows whole above it */
    /* The title line; NULL: the files and the background counts. */
    void (*title)(struct explorer *ex, char *buf, size_t size);
    /* The key context now, when it changes (the byte explorer's panels);
     * NULL: `keys`. */
    unsigned (*key_context)(struct explorer *ex);
    /* Each turn of the main loop while it is current, after the frame:
     * catches up with background work; true to draw again. *busy: keep
     * waking up (something it shows is still changing). May be NULL. */
    bool (*tick)(struct explorer *ex, bool *busy);
    /* The list its generic moves scroll (j, k, PgDn, g, G, a count's G,
     * a click, the wheel), or NULL; `select` is told when it moved. */
    struct list *(*list)(struct explorer *ex);
    void (*select)(struct explorer *ex);
    /* Search (/ n N), one hook written once (widgets/search.c): it prompts
     * with `search.prompt`, keeps the query, and n and N search again with
     * it. `search.grep` moves the selection to the next (previous) row that
     * matches `q`, `fresh` for a new query, and says what it found or that
     * nothing matches (false then). NULL grep: / n N are the view's own. */
    struct view_search {
        const char *prompt;
        bool (*grep)(struct explorer *ex, const struct query *q, bool fresh, bool forward);
    } search;
    /* The mouse at (y, x): a press, or the wheel (+1 down, -1 up). NULL:
     * a press selects the list row under it, the wheel moves 3 rows. */
    void (*mouse)(struct explorer *ex, int y, int x, int wheel);
    /* Where it is, for history and marks (`jump.here`); and back there
     * (`jump.restore`; false: that place is gone, a message says why).
     * NULL here: the view is not kept in history. */
    struct view_jump {
        void (*here)(struct explorer *ex, struct jump *j);
        bool (*restore)(struct explorer *ex, const struct jump *j);
    } jump;
};

/* The views' table (loop/views.c installs it before the first open). */
void views_install(struct explorer *ex, const struct view_ops *const *table);
const struct view_ops *view_ops_of(const struct explorer *ex, enum view_id id);
/* A view's private block (allocated on first use; NULL only when out of
 * memory, and then the view cannot open). */
void *view_state(struct explorer *ex, enum view_id id);

enum view_id view_current(const struct explorer *ex);
/* The view `id` was opened from (VIEW_NONE: the home, or not open). */
enum view_id view_parent(const struct explorer *ex, enum view_id id);
/* Whether `id` is current or one of its parents. */
bool view_is_open(const struct explorer *ex, enum view_id id);

/* Makes `id` current at `at` (NULL: where it was): the current view
 * becomes its parent, and the place left goes on the history. Returns
 * false (nothing changed) when the view cannot open there. */
bool open_view(struct explorer *ex, enum view_id id, const struct place *at);
/* Back to the current view's parent; at the home view, ends the explorer. */
void close_view(struct explorer *ex);
/* The shown files' home: their function table, or the byte explorer
 * when they hold no function. */
bool open_home(struct explorer *ex, const struct place *at);
/* Every view forgets the shown files (before they change). */
void views_forget(struct explorer *ex);
/* Closes every view and frees their blocks (the explorer ends). */
void views_done(struct explorer *ex);

/* The current view's key context. */
unsigned view_key_context(struct explorer *ex);

/* ---- history and marks (history.c) ---- */
/* Where the current view is. */
struct jump view_here(struct explorer *ex);
/* Puts a place on the history (open_view does, for the place it left). */
void history_record(struct explorer *ex, const struct jump *j);
/* Whether two places are the same (a view, where, and its words). */
bool jump_same(const struct jump *a, const struct jump *b);
/* Pushes onto a bounded stack of places (the oldest goes). */
void jump_push(struct jump *stack, size_t *n, const struct jump *j);
/* Remember where we are before a jump inside a view (Enter on an offset,
 * a search, :); a change of view remembers itself. Forgets forward. */
void history_push(struct explorer *ex);
/* Backspace and Ctrl-]: the previous place (a view and where in it), and
 * forward again; places equal to where one is are passed over. */
void history_back(struct explorer *ex);
void history_forward(struct explorer *ex);
/* Goes to a remembered place (its view opened there, or returned to);
 * false when it is gone (a message says why). */
bool goto_jump(struct explorer *ex, const struct jump *j);
/* Forget history, forward and marks (the shown files change). */
void history_clear(struct explorer *ex);
/* m and ' (marks.c): a letter names the current place, and goes back. */
void marks_set(struct explorer *ex);
void marks_jump(struct explorer *ex);

#endif
