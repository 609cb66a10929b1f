/* What the explorer keeps per shown file beside the file itself: the model
 * the byte explorer walks and the byte layout (core.h, struct ex_file).
 * Both are the explorer's, made when a file is shown and let go when it no
 * longer is, before whoever owns the file closes it. */
#include "config.h"

#include "ui/core/core.h"
#include "container/file.h"

bool ex_file_open(struct ex_file *ef, mtlbx_file *f, const char *path, bool owned)
{
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_node *root = mbx_root(m);
    if (!root) {
        mbx_model_close(m);
        *ef = (struct ex_file){ 0 };
        return false;
    }
    *ef = (struct ex_file){ .f = f, .path = path, .root = root, .m = m, .owned = owned };
    return true;
}

void ex_file_release(struct ex_file *ef)
{
    mbx_layout_free(ef->layout);
    mbx_model_close(ef->m);
    ef->layout = NULL;
    ef->m = NULL;
    ef->root = NULL;
}

const struct mtlbx_layout *ex_file_layout(struct ex_file *ef)
{
    if (!ef->layout && ef->f)
        ef->layout = mbx_layout_check(ef->f);
    return ef->layout;
}

long ex_file_of(const struct explorer *ex, const mtlbx_library *lib)
{
    mtlbx_file *f = lib ? mbx_library_file(lib) : NULL;
    for (uint32_t i = 0; f && i < ex->n_files; i++)
        if (ex->files[i].f == f)
            return (long)i;
    return -1;
}

mtlbx_model *ex_model_of(const struct explorer *ex, const mtlbx_library *lib)
{
    long i = ex_file_of(ex, lib);
    return i >= 0 ? ex->files[i].m : NULL;
}
