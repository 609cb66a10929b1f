/* E (and e on a list or library): every module of a library into a
 * directory. The names and the questions come first, on the UI thread;
 * the writing runs as a background job with "writing 1,200/20,000" on
 * the status line, and Esc stops it between two files (each file is
 * written through a temporary and a rename, so none is left half
 * written). Names are those of `mtlbx extract`: NAME.air, NAME~2.air. */
#include "config.h"

#include "name_set.h"
#include "safe_write.h"
#include "ui/core/job.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/prompt.h"
#include "container/functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct extract_job {
    char dir[2048], shown_dir[1024];
    size_t n;
    char **names;
    struct mtlbx_bytes *modules;   /* spans in the mapping */
    bool force;
    size_t written, skipped, failed;
    char first_err[256];
};

static void free_job(struct extract_job *x)
{
    for (size_t i = 0; x->names && i < x->n; i++)
        free(x->names[i]);
    free(x->names);
    free(x->modules);
    free(x);
}

static void extract_work(struct job *j)
{
    struct extract_job *x = j->ctx;
    char err[256];
    for (size_t i = 0; i < x->n && !job_cancelled(j); i++) {
        job_set_progress(j, i, x->n);
        if (!x->names[i] || x->modules[i].len == 0) {
            x->skipped++;
            continue;
        }
        if (safe_write_file(x->dir, x->names[i], x->modules[i].ptr, x->modules[i].len, x->force, err,
                            sizeof err, NULL, 0) == 0)
            x->written++;
        else if (!x->force && strstr(err, "exists"))
            x->skipped++;
        else if (!x->failed++)
            snprintf(x->first_err, sizeof x->first_err, "%.120s: %.120s", x->names[i], err);
    }
}

static void extract_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct extract_job *x = j->ctx;
    if (cancelled)
        ex_message(ex, "stopped: wrote %zu of %zu modules to %s", x->written, x->n, x->shown_dir);
    else if (x->failed)
        ex_error(ex, "wrote %zu modules to %s; %zu failed (%s)", x->written, x->shown_dir, x->failed,
                 x->first_err);
    else
        ex_message(ex, "wrote %zu modules to %s%s", x->written, x->shown_dir,
                   x->skipped ? " (some skipped: existing or empty)" : "");
    free_job(x);
}

void verb_extract_all(struct explorer *ex, mtlbx_library *lib)
{
    size_t n = mbx_library_function_count(lib);
    if (n == 0) {
        ex_error(ex, "this library has no functions");
        return;
    }
    if (job_running(ex)) {
        ex_error(ex, "busy: wait, or Esc cancels what runs");
        return;
    }
    char dir_in[1024], err[256];
    if (!prompt_path(ex, "Extract all modules into directory", "./modules", dir_in, sizeof dir_in))
        return;
    struct extract_job *x = calloc(1, sizeof *x);
    if (!x) {
        ex_error(ex, "out of memory");
        return;
    }
    snprintf(x->shown_dir, sizeof x->shown_dir, "%s", dir_in);
    verb_expand_home(dir_in, x->dir, sizeof x->dir);
    if (!verb_make_dirs(x->dir, err, sizeof err)) {
        ex_error(ex, "%s", err);
        free_job(x);
        return;
    }
    x->n = n;
    x->names = calloc(n, sizeof *x->names);
    x->modules = calloc(n, sizeof *x->modules);
    struct name_set used = { .nocase = true };
    if (!x->names || !x->modules) {
        free_job(x);
        ex_error(ex, "out of memory");
        return;
    }
    size_t existing = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_function *fn = mbx_function_at(lib, i);
        x->names[i] = name_set_unique_file(&used, fn->name.ptr, fn->name.len, ".air");
        x->modules[i] = mbx_function_module_bytes(lib, i);
        char full[4200];
        struct stat st;
        snprintf(full, sizeof full, "%s/%s", x->dir, x->names[i] ? x->names[i] : "");
        if (x->names[i] && lstat(full, &st) == 0)
            existing++;
    }
    name_set_free(&used);
    x->force = verb_confirm_overwrite(ex, existing, n, dir_in);
    if (!job_start(ex, "writing modules", extract_work, extract_finish, x, false))
        free_job(x);
}
