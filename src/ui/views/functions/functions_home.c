/* Building the function table over every open library and making it the
 * view (at start and when the folder survey opens a library). Low in
 * src/ui: it fills the model and calls no other view. */
#include "config.h"

#include "ui/model/iface_table.h"
#include "ui/core/ui.h"

#include <stdlib.h>
#include <string.h>

static mtlbx_model *model_of(void *ctx, const mtlbx_library *lib)
{
    return ex_model_of(ctx, lib);
}

static long arg_count(void *ctx, const mtlbx_library *lib, size_t index)
{
    struct explorer *ex = ctx;
    return ifacer_arg_count(ex->ifacer, lib, index);
}

void functions_home(struct explorer *ex)
{
    size_t n_libs = 0;
    for (uint32_t i = 0; i < ex->n_files; i++)
        n_libs += mtlbx_file_library_count(ex->files[i].f);
    struct ft_lib *libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (!libs)
        return;
    size_t k = 0;
    for (uint32_t i = 0; i < ex->n_files; i++)
        for (size_t l = 0; l < mtlbx_file_library_count(ex->files[i].f); l++)
            if (mtlbx_library_at(ex->files[i].f, l))
                libs[k++] = (struct ft_lib){ mtlbx_library_at(ex->files[i].f, l), i, ex->files[i].path, 0, 0 };
    iface_table_free(ex->page.lines, ex->page.heading, ex->page.n_lines);
    memset(&ex->page, 0, sizeof ex->page);
    ftable_free(&ex->funcs);
    bool ok = ftable_init(&ex->funcs, libs, k);
    free(libs);
    ex->funcs.arg_count = arg_count;
    ex->funcs.model_of = model_of;
    ex->funcs.arg_ctx = ex;
    /* A file without functions (empty, damaged, a fat header only) opens
     * on its bytes, as before. */
    ex->screen = ok && ex->funcs.n_all ? SCREEN_FUNCTIONS : SCREEN_MAIN;
    ex->n_forward = 0;
}
