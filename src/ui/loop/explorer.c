/* The explorer's main loop: open the files, draw, read one key (with a
 * timeout while background work runs, so its results show) and hand it
 * to the current view (dispatch.c). Which view shows, and what it does,
 * is the view table's (views.c): the loop knows no view by name. */
#include "config.h"

#include "ui/explorer.h"
#include "ui/loop/loop.h"
#include "ui/core/job.h"
#include "ui/verbs/verbs.h"
#include "ui/term/term.h"
#include "ui/text/keylog.h"
#include "ui/work/folder_scan.h"
#include "ui/work/hasher.h"
#include "ui/work/ifacer.h"
#include "gate/archive_members.h"
#include "container/file.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>

/* While background work runs, wake up this often to show it. */
#define HASH_POLL_MS 120
/* The byte layout is walked once the keyboard has been quiet this long. */
#define LAYOUT_IDLE_MS 100
/* While a background job runs, redraw its progress this often. */
#define JOB_POLL_MS 100

#define CTRL(c) ((c) & 0x1f)

static void run(struct explorer *ex)
{
    bool dirty = true, keyboard_quiet = false;
    size_t hash_seen = (size_t)-1, iface_seen = (size_t)-1;
    while (!ex->quit) {
        uint64_t t0 = keylog_now_us(), w0 = term_waited_us();
        if (job_poll(ex)) {
            ex_draw(ex);
            dirty = false;
            keylog_record("job-done", t0, term_waited_us() - w0);
        }
        size_t done, total, i_done, i_total;
        hasher_progress(ex->hasher, &done, &total);
        ifacer_progress(ex->ifacer, &i_done, &i_total);
        if (done != hash_seen || i_done != iface_seen)
            dirty = true;   /* the title counts them */
        hash_seen = done;
        iface_seen = i_done;
        if (dirty || job_running(ex)) {
            ex_draw(ex);
            dirty = false;
        }
        /* The view catches up with background work, after the frame (the
         * folder list starts its scan once the first one is out). */
        bool busy = (total && done < total) || i_done < i_total;
        const struct view_ops *v = view_ops_of(ex, view_current(ex));
        if (v && v->tick && v->tick(ex, &busy))
            dirty = true;
        if (!ex->layout_done && keyboard_quiet) {
            /* Which bytes no structure claims (hex style, `u`) and its
             * findings: after the first frame, so a big library opens at
             * once, and once no key is waiting, so the first keys are not
             * held up (50 ms on 20,000 functions, 0.4 s on 200,000; `u`
             * walks it at once if asked first). */
            for (uint32_t i = 0; i < ex->n_files; i++)
                ex_file_layout(&ex->files[i]);
            ex->layout_done = true;
            dirty = true;
        }
        int wait = dirty ? 0 : job_running(ex) ? JOB_POLL_MS : busy ? HASH_POLL_MS : -1;
        if (!ex->layout_done && (wait < 0 || wait > LAYOUT_IDLE_MS))
            wait = LAYOUT_IDLE_MS;
        /* A worker may walk the model only while we wait for a key. */
        wint_t wide;
        job_model_ui_leave();
        int key = term_read_key(wait, &wide);
        job_model_ui_enter();
        keyboard_quiet = key == ERR;
        if (key == ERR)
            continue;
        if (key == TERM_KEY_GONE) {
            ex->quit = true; /* like Q: nobody is left to type one */
            break;
        }
        t0 = keylog_now_us();
        w0 = term_waited_us();
        if (key == KEY_RESIZE)
            ex_relayout(ex);
        else if (job_running(ex) && (key == 27 || key == CTRL('C')))
            job_cancel(ex);
        else
            loop_key(ex, key);
        ex_draw(ex);
        dirty = false;
        char name[32];
        keylog_record(key_display_name(key, name, sizeof name), t0, term_waited_us() - w0);
    }
}

/* ------------------------------------------------------------- setup -- */

static void free_all(struct explorer *ex)
{
    job_cancel(ex);
    if (job_stuck(ex)) {
        /* A worker inside a call that cannot be interrupted (a source
         * search, a release's archives): Q answers now, without waiting
         * for it and without freeing what it still reads. */
        term_teardown();
        keylog_close();
        fflush(NULL);
        _exit(0);
    }
    /* One that ended after job_cancel looked: its finish frees its work. */
    while (job_running(ex))
        job_poll(ex);
    hasher_stop(ex->hasher);
    ex->hasher = NULL;
    ifacer_stop(ex->ifacer);
    ex->ifacer = NULL;
    /* The models before the files they read: the views' done closes a
     * release pair's, the folder scan its own. */
    for (uint32_t i = 0; i < ex->n_files; i++)
        ex_file_release(&ex->files[i]);
    views_done(ex);
    for (uint32_t i = 0; i < ex->n_files; i++)
        if (ex->files[i].owned)
            mbx_close(ex->files[i].f);
    folder_scan_free(ex->scan);
    free(ex->files);
    free(ex->llvm_dis);
    verbs_done(ex);
}

int explorer_main(int n_paths, char *const *paths, const struct explorer_options *opts)
{
    static const struct explorer_options defaults = { false, false, NULL, false };
    struct explorer ex;
    memset(&ex, 0, sizeof ex);
    ex.opts = opts ? opts : &defaults;
    ex.repaint = loop_draw_frame;
    views_install(&ex, views_table());
    history_clear(&ex);
    setlocale(LC_ALL, "");

    ex.files = calloc(n_paths > 0 ? (size_t)n_paths : 1, sizeof *ex.files);
    if (!ex.files)
        return 2;
    ex.files_cap = n_paths > 0 ? (size_t)n_paths : 1;
    char first_error[400] = "";
    bool folders = false;
    for (int i = 0; i < n_paths && !folders; i++)
        folders = folder_scan_wants(paths[i]);
    if (folders && !(ex.scan = folder_scan_new(paths, (uint32_t)n_paths))) {
        free(ex.files);
        return 2;
    }
    for (int i = 0; i < n_paths && !folders; i++) {
        struct mtlbx_error err;
        mtlbx_file *f = NULL;
        if (mbx_open_any(paths[i], &f, &err) != MTLBX_E_NONE || !f) {
            fprintf(stderr, "mtlbx: %s: %s\n", paths[i], err.message);
            if (!first_error[0])
                snprintf(first_error, sizeof first_error, "%s: %s", paths[i], err.message);
            continue;
        }
        if (!ex_file_open(&ex.files[ex.n_files], f, paths[i], true)) {
            fprintf(stderr, "mtlbx: %s: out of memory\n", paths[i]);
            mbx_close(f);
            continue;
        }
        ex.n_files++;
    }
    if (ex.n_files == 0 && !folders) {
        free(ex.files);
        return 2;
    }
    char names[512] = "";
    for (uint32_t i = 0; i < ex.n_files; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " or " : "", ex.files[i].path);
    for (int i = 0; folders && i < n_paths; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%sa file under %s", i ? " or " : "", paths[i]);
    term_set_file_names(names);

    char why[256];
    if (!term_init(ex.opts->no_color, ex.opts->ascii, why, sizeof why)) {
        fprintf(stderr, "mtlbx: %s\n", why);
        free_all(&ex);
        return 2;
    }
    ex_relayout(&ex);
    ex.mouse = !ex.opts->no_mouse && term_mouse_start();
    ex_start_sweeps(&ex);
    keylog_open();
    job_model_ui_enter();
    bool opened = folders ? open_view(&ex, VIEW_FOLDER, NULL) : open_home(&ex, NULL);
    if (!opened) {
        term_teardown();
        job_model_ui_leave();
        free_all(&ex);
        keylog_close();
        return 2;
    }
    /* The first view said what to start with; a file that did not open
     * says so instead. */
    if (first_error[0])
        ex_error(&ex, "could not open %s", first_error);
    run(&ex);
    term_teardown();
    free_all(&ex);
    job_model_ui_leave();
    keylog_close();
    return 0;
}
