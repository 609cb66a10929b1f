/* Putting opened files in the views in place of whatever was there, as
 * `mtlbx FILE...` starts: for the folder list's Enter and a release pair's
 * (ex_show_files, core.h), and the background sweeps over what is shown. */
#include "config.h"

#include "ui/core/core.h"
#include "ui/core/job.h"
#include "ui/work/hasher.h"
#include "ui/work/ifacer.h"
#include "container/file.h"

#include <stdlib.h>

void ex_start_sweeps(struct explorer *ex)
{
    size_t n_libs = 0;
    for (uint32_t i = 0; i < ex->n_files; i++)
        n_libs += mbx_file_library_count(ex->files[i].f);
    mtlbx_library **libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (!libs)
        return;
    size_t k = 0;
    for (uint32_t i = 0; i < ex->n_files; i++)
        for (size_t l = 0; l < mbx_file_library_count(ex->files[i].f); l++)
            if (mbx_library_at(ex->files[i].f, l))
                libs[k++] = mbx_library_at(ex->files[i].f, l);
    ex->hasher = hasher_start(libs, k);
    ex->ifacer = ifacer_start(libs, k);
    free(libs);
}

void ex_show_files(struct explorer *ex, mtlbx_file *const *files, const char *const *paths, uint32_t n)
{
    /* The shown files' models go: nothing may walk or point into them any
     * more (a job, a view's rows, a place in the history). */
    job_cancel(ex);
    views_forget(ex);
    history_clear(ex);
    hasher_stop(ex->hasher);
    ifacer_stop(ex->ifacer);
    ex->hasher = NULL;
    ex->ifacer = NULL;
    for (uint32_t i = 0; i < ex->n_files; i++)
        ex_file_release(&ex->files[i]);
    ex->n_files = 0;
    if (n > ex->files_cap) {
        struct ex_file *g = realloc(ex->files, n * sizeof *g);
        if (!g) {
            ex_error(ex, "out of memory");
            return;
        }
        ex->files = g;
        ex->files_cap = n;
    }
    for (uint32_t i = 0; i < n; i++)
        if (ex_file_open(&ex->files[ex->n_files], files[i], paths[i], false))
            ex->n_files++; /* else out of memory: the file is not shown */
    ex->layout_done = false;
    ex->files_gen++;
    ex_start_sweeps(ex);
}
