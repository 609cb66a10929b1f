/* The explorer's core: what every view shares, and nothing that one view
 * alone needs (each view keeps that in its private block, view.h). The
 * files shown and their models, the screen's frame, the status message,
 * the background sweeps and job, the views and where the user has been. */
#ifndef MTLBX_UI_CORE_CORE_H
#define MTLBX_UI_CORE_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/byte_layout.h"
#include "model/model.h"
#include "ui/explorer.h"
#include "ui/core/view.h"
#include "ui/text/layout.h"

/* One file the views show (ex_file.c): the file, its model (the node tree
 * the byte explorer walks) and, once walked, its byte layout. The model
 * and the layout are the explorer's; the file is too when `owned` (named
 * on the command line), else it belongs to the folder scan or a release
 * pair, which close it after ex_file_release. */
struct ex_file {
    mtlbx_file *f;
    const char *path;
    mtlbx_node *root;
    mtlbx_model *m;
    struct mtlbx_layout *layout; /* NULL until ex_file_layout */
    bool owned;
};
/* Opens f's model into ef; false when out of memory (ef is then empty). */
bool ex_file_open(struct ex_file *ef, mtlbx_file *f, const char *path, bool owned);
/* Closes ef's model and frees its layout; the file stays open. */
void ex_file_release(struct ex_file *ef);
/* ef's byte layout, walked on first call (which adds its findings to the
 * file's diagnostics); NULL when out of memory. */
const struct mtlbx_layout *ex_file_layout(struct ex_file *ef);

#define HISTORY_MAX 256

struct explorer {
    const struct explorer_options *opts;
    struct ex_file *files;       /* the files shown (one root each) */
    uint32_t n_files;
    size_t files_cap;
    unsigned long files_gen;     /* one more each time other files are shown */
    struct folder_scan *scan;    /* mtlbx DIR: the folder list's scan (NULL: files named) */
    struct layout lay;           /* title, body, status and footer lines */
    char status[512];            /* the message on the status line */
    bool status_error;
    bool quit;
    struct hasher *hasher;       /* module hashes checked in the background */
    struct ifacer *ifacer;       /* interfaces decoded in the background */
    bool layout_done;            /* every file's byte layout walked (after the first frame) */
    bool raw_names;              /* r: function names as stored, not demangled */
    char *llvm_dis;              /* found on first use */
    struct ir_cache *ir;         /* llvm-dis outputs by module hash (verbs/disassemble.c) */
    struct job_slot *job;        /* the background job, if one runs (job.c) */
    /* The views (view.c): the table, their blocks, the chain of parents. */
    const struct view_ops *const *view_table;
    void *view_states[VIEW_COUNT];
    enum view_id view_parents[VIEW_COUNT];
    enum view_id view;           /* the current one (VIEW_NONE before the first) */
    struct jump history[HISTORY_MAX];
    size_t n_history;
    struct jump forward[HISTORY_MAX]; /* undone by Backspace; a new place clears it */
    size_t n_forward;
    struct jump marks[26];       /* m a..z */
    struct query *queries[VIEW_COUNT]; /* each view's last / (widgets/search.c) */
    bool mouse;                  /* the terminal reports mouse events */
    size_t count;                /* a count typed before a move (5j), 0: none */
    unsigned long frames;        /* frames drawn so far */
    /* The main loop's full repaint (loop/explorer.c installs it): views
     * call ex_draw before slow work without calling up into the loop. */
    void (*repaint)(struct explorer *ex);
};

/* ---- exstate.c ---- */
void ex_message(struct explorer *ex, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ex_error(struct explorer *ex, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ex_draw(struct explorer *ex);   /* full repaint, used before slow work */
/* The shown file that holds lib, and its model; -1 / NULL when none does. */
long ex_file_of(const struct explorer *ex, const mtlbx_library *lib);
mtlbx_model *ex_model_of(const struct explorer *ex, const mtlbx_library *lib);
/* The terminal's size again (after a resize): the frame's lines. */
void ex_relayout(struct explorer *ex);

/* ---- show_files.c ---- */
/* Shows `n` files in place of those shown (the folder list's Enter, a
 * release pair's): every view forgets the old ones, the history goes, and
 * the background sweeps start over on the new ones. The files stay their
 * owner's. Then open_home() shows them. */
void ex_show_files(struct explorer *ex, mtlbx_file *const *files, const char *const *paths, uint32_t n);
/* The background sweeps (hashes, interfaces) over every shown library. */
void ex_start_sweeps(struct explorer *ex);

#endif
