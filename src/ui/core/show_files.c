/* Putting opened files in the panels in place of whatever was there, as
 * `mtlbx FILE...` starts (ex_show_files, ui.h): for the folder list's
 * Enter (folder_view.c) and a release pair's (release_view.c). Below both
 * views: it calls no view back. */
#include "config.h"

#include "ui/core/ui.h"

#include <stdlib.h>
#include <string.h>

/* Shows `n` files (1, or the 2 of a release pair: ex->files holds one per
 * root) in place of whatever was there, as `mtlbx FILE...` starts: same
 * tree, selection, hashing, the function table as home. */
void ex_show_files(struct explorer *ex, mtlbx_file *const *files, const char *const *paths, uint32_t n)
{
    /* The shown files' models go: nothing may walk or point into them
     * any more (a search job, its hits, the function view's orders). */
    job_cancel(ex);
    ifacer_forget(ex->ifacer);
    search_results_free(&ex->search);
    funcview_reset(&ex->fview);
    for (uint32_t i = 0; i < ex->n_files; i++)
        ex_file_release(&ex->files[i]);
    ex->n_files = 0;
    hasher_stop(ex->hasher);
    ex->hasher = NULL;
    ex->hash_done_seen = 0;
    detail_free(&ex->detail);
    memset(&ex->detail, 0, sizeof ex->detail);
    rows_free(&ex->rows);
    ex->tree_sel = ex->tree_top = 0;
    ex->n_history = 0;
    ex->hex.file = 0;
    ex->hex.cursor = ex->hex.top = 0;
    size_t n_libs = 0;
    uint32_t shown = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!ex_file_open(&ex->files[shown], files[i], paths[i]))
            continue; /* out of memory: the file is not shown */
        shown++;
        n_libs += mtlbx_file_library_count(files[i]);
    }
    ex->n_files = shown;
    mtlbx_library **libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (libs) {
        size_t k = 0;
        for (uint32_t i = 0; i < shown; i++)
            for (size_t l = 0; l < mtlbx_file_library_count(ex->files[i].f); l++)
                libs[k++] = mtlbx_library_at(ex->files[i].f, l);
        ex->hasher = hasher_start(libs, k);
        free(libs);
    }
    ex->screen = SCREEN_MAIN;
    ex->focus = PANEL_TREE;
    ex->tree_built = false;   /* built when the bytes are first shown */
    functions_home(ex);
}
