/* w in the function table: a library (.metallib) of some functions of one
 * open file, the marked ones or the one under the cursor, written by the
 * writer exactly as `mtlbx pack --from FILE -f NAME... -o OUT` writes it
 * (the same call, program/pack_select). The path and the question before
 * replacing a file come first, on the UI thread; the writing runs as a
 * background job ("writing library 12/80 MiB"), which Esc stops. Every
 * way it can end leaves either the whole library or nothing: a temporary
 * beside the target, renamed when whole, removed on an error, a stop or a
 * signal (fatal_cleanup, which the explorer's handlers run). */
#include "config.h"

#include "pack_select.h"
#include "safe_write.h"
#include "ui/core/job.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/prompt.h"
#include "writer/writer.h"
#include "ui/text/textfmt.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/nouns.h"
#include "container/digits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct library_job {
    struct library_pick pick;
    char path[2048];             /* as written to (~ expanded) */
    char shown[1100];            /* as typed, terminal-safe */
    bool force;
    struct pack_select p;
    enum pack_select_status status;
};

void library_pick_free(struct library_pick *pick)
{
    for (size_t l = 0; pick->keep && l < pick->n_libs; l++)
        free(pick->keep[l]);
    free(pick->keep);
    pick->keep = NULL;
}

static void free_job(struct library_job *x)
{
    library_pick_free(&x->pick);
    free(x);
}

static int tick(void *ctx, uint64_t done, uint64_t total)
{
    struct job *j = ctx;
    job_set_progress(j, (size_t)done, (size_t)total);
    return job_cancelled(j);
}

/* Reading the file's library first: no bytes to count yet (the line
 * shows the time), but Esc must be heard there too. */
static int read_tick(void *ctx, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    return job_cancelled(ctx);
}

static void library_work(struct job *j)
{
    struct library_job *x = j->ctx;
    x->p.tick = tick;
    x->p.read_tick = read_tick;
    x->p.tick_ctx = j;
    x->status = pack_select_write(&x->p);
}

static void library_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct library_job *x = j->ctx;
    char n[32], size[32];
    mbx_format_count(n, sizeof n, x->pick.n_functions);
    const char *noun = mbx_noun(x->pick.n_functions, "function", "functions");
    switch (x->status) {
    case PACK_SELECT_OK:
        /* Written before the Esc was seen: it is whole, so say so. */
        mbx_format_count(size, sizeof size, x->p.size);
        ex_message(ex, "wrote %s: a library of %s %s, %s bytes", x->shown, n, noun, size);
        break;
    case PACK_SELECT_STOPPED: ex_message(ex, "stopped: %s not written (nothing left behind)", x->shown); break;
    case PACK_SELECT_INPUT:
        if (x->p.err_offset >= 0)
            ex_error(ex, "cannot write a library of this file: at 0x%" PRIx64 ": %s", (uint64_t)x->p.err_offset,
                     x->p.err);
        else
            ex_error(ex, "cannot write a library of this file: %s", x->p.err);
        break;
    case PACK_SELECT_CHANGED: ex_error(ex, "%s not written: %s", x->shown, x->p.err); break;
    case PACK_SELECT_OUTPUT: ex_error(ex, "cannot write %s: %s", x->shown, x->p.err); break;
    }
    (void)cancelled;
    free_job(x);
}

/* The file the explorer shows is never the output (safe_write refuses it
 * too; asking first would offer to replace it). */
static bool is_input(const char *path, const char *input)
{
    struct stat a, b;
    return input && stat(path, &a) == 0 && stat(input, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void verb_write_library(struct explorer *ex, struct library_pick *pick)
{
    if (job_running(ex)) {
        ex_error(ex, "busy: wait, or Esc cancels what runs");
        library_pick_free(pick);
        return;
    }
    struct library_job *x = calloc(1, sizeof *x);
    if (!x) {
        ex_error(ex, "out of memory");
        library_pick_free(pick);
        return;
    }
    x->pick = *pick;
    pick->keep = NULL;
    const struct ex_file *ef = &ex->files[x->pick.file];
    char n[32], label[160], typed[1024];
    mbx_format_count(n, sizeof n, x->pick.n_functions);
    snprintf(label, sizeof label, "Write a library of %s %s%s to", n,
             x->pick.marked ? "marked " : "", mbx_noun(x->pick.n_functions, "function", "functions"));
    if (!prompt_path(ex, label, x->pick.default_name, typed, sizeof typed) || !typed[0]) {
        free_job(x);
        return;
    }
    verb_expand_home(typed, x->path, sizeof x->path);
    char *shown = textfmt_escape_str_dup(typed);
    snprintf(x->shown, sizeof x->shown, "%.1000s", shown ? shown : typed);
    free(shown);
    struct stat st;
    if (x->path[strlen(x->path) - 1] == '/' || (stat(x->path, &st) == 0 && S_ISDIR(st.st_mode))) {
        ex_error(ex, "%s is a directory; give a file name", x->shown);
        free_job(x);
        return;
    }
    if (is_input(x->path, ef->path)) {
        ex_error(ex, "%s is the file shown; give another name", x->shown);
        free_job(x);
        return;
    }
    if (lstat(x->path, &st) == 0) {
        char q[1200];
        snprintf(q, sizeof q, "%.1000s exists. Overwrite it?", x->shown);
        if (!prompt_yes_no(ex, q)) {
            ex_message(ex, "not written: %s exists", x->shown);
            free_job(x);
            return;
        }
        x->force = true;
    }
    x->p = (struct pack_select){ .file = ef->f, .file_path = ef->path, .keep = x->pick.keep, .out = x->path,
                                 .force = x->force, .describe_flags = MTLBX_WR_DESCRIBE_KEEP_DECODED };
    if (!job_start(ex, "writing library", library_work, library_finish, x, true))
        free_job(x);
}

void verb_write_function_library(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    long file = ex_file_of(ex, lib);
    const struct mtlbx_function *f = lib ? mbx_function_at(lib, fn) : NULL;
    if (file < 0 || !f) {
        ex_message(ex, "no function here");
        return;
    }
    struct library_pick pick = { .file = (uint32_t)file, .n_functions = 1 };
    mtlbx_file *mf = ex->files[file].f;
    pick.n_libs = mbx_file_library_count(mf);
    pick.keep = calloc(pick.n_libs + 1, sizeof *pick.keep);
    bool ok = pick.keep != NULL, found = false;
    for (size_t l = 0; ok && l < pick.n_libs; l++) {
        mtlbx_library *ml = mbx_library_at(mf, l);
        ok = (pick.keep[l] = calloc(mbx_library_function_count(ml) + 1, 1)) != NULL;
        if (ok && ml == lib)
            pick.keep[l][fn] = found = true;
    }
    char *safe = ok ? safe_component(f->name.ptr, f->name.len) : NULL;
    if (!ok || !found || !safe) {
        free(safe);
        library_pick_free(&pick);
        ex_error(ex, found || !ok ? "out of memory" : "the function's library is not one of the file's");
        return;
    }
    snprintf(pick.default_name, sizeof pick.default_name, "%s.metallib", safe);
    free(safe);
    verb_write_library(ex, &pick);
}
