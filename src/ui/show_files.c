/* Putting opened files in the panels in place of whatever was there, as
 * `mtlbx FILE...` starts (ex_show_files, ui.h): for the folder list's
 * Enter (folder_view.c) and a release pair's (release_view.c). Below both
 * views: it calls no view back. */
#include "config.h"

#include "ui.h"

#include <stdlib.h>
#include <string.h>

/* Shows `n` files (1, or the 2 of a release pair: ex->files holds one per
 * root) in place of whatever was there, as `mtlbx FILE...` starts: same
 * tree, selection, hashing, the function table as home. */
void ex_show_files(struct explorer *ex, mtlbx_file *const *files, const char *const *paths, uint32_t n)
{
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
    for (uint32_t i = 0; i < n; i++) {
        ex->files[i] = (struct ex_file){ files[i], paths[i], mtlbx_root(files[i]) };
        n_libs += mtlbx_library_count(files[i]);
    }
    ex->n_files = n;
    mtlbx_library **libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (libs) {
        size_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            for (size_t l = 0; l < mtlbx_library_count(files[i]); l++)
                libs[k++] = mtlbx_library_at(files[i], l);
        ex->hasher = hasher_start(libs, k);
        free(libs);
    }
    ex->screen = SCREEN_MAIN;
    ex->focus = PANEL_TREE;
    ex->tree_built = false;   /* built when the bytes are first shown */
    functions_home(ex);
}
