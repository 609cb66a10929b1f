/* Cutting a described library down to some of its functions
 * (mbx_writer_select, `mtlbx pack --from LIB -f NAME`): the functions kept,
 * the modules and reflection groups they use, and every other value of
 * the library as it was: header, header extension, metadata, embedded
 * sources, dynamic header, variable and imported-symbol lists.
 *
 * One value changes: the UUID. It names a library (Metal's caches key on
 * it), and the cut is another library; the new one is derived from the
 * old, the names kept and their modules' sizes, so the same cut of the
 * same library gets the same UUID (RFC 9562 version 8). */
#include "config.h"
#include "writer_internal.h"
#include "container/le_read.h"
#include "checks/sha256.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/header.h"

#include <stdlib.h>

static int new_uuid(mtlbx_writer *w, struct mtlbx_wr_library *lib)
{
    for (size_t i = 0; lib->has_ext && i < lib->ext.n; i++) {
        struct mtlbx_wr_tag *t = &lib->tags[lib->ext.first + i];
        if (t->fourcc != FOURCC('U', 'U', 'I', 'D') || t->kind != MTLBX_WR_VALUE || t->value.len != 16)
            continue;
        struct sha256_stream *h = sha256_stream_open();
        if (!h)
            return mbx_wr_out_of_memory(w);
        sha256_stream_write(h, t->value.ptr, 16);
        for (size_t f = 0; f < lib->n_functions; f++) {
            const struct mtlbx_wr_function *fn = &lib->functions[f];
            const struct mtlbx_wr_tag *name = wr_find_tag(lib, fn->tags, FOURCC('N', 'A', 'M', 'E'));
            uint8_t size[8];
            wr64(size, lib->modules[fn->module].bytes.len);
            if (name && name->value.len)
                sha256_stream_write(h, name->value.ptr, name->value.len);
            sha256_stream_write(h, size, 8);
        }
        uint8_t digest[32], uuid[16];
        sha256_stream_close(h, digest);
        wr_uuid_from_digest(digest, uuid);
        uint8_t *v = mbx_wr_copy(w, uuid, 16);
        if (!v)
            return mbx_wr_out_of_memory(w);
        t->value.ptr = v;
    }
    return MTLBX_WRITER_OK;
}

static int select_library(mtlbx_writer *w, struct mtlbx_wr_library *lib, const bool *keep)
{
    size_t nm = lib->n_modules;
    struct mtlbx_wr_list *rl = &lib->lists[MTLBX_LIST_RLST];
    size_t ng = rl->n_groups;
    size_t *new_module = malloc((nm + 1) * sizeof *new_module), *new_group = malloc((ng + 1) * sizeof *new_group);
    if (!new_module || !new_group) {
        free(new_module);
        free(new_group);
        return mbx_wr_out_of_memory(w);
    }
    for (size_t m = 0; m < nm; m++)
        new_module[m] = SIZE_MAX;
    for (size_t g = 0; g < ng; g++)
        new_group[g] = SIZE_MAX;
    /* Functions kept, in order; each module and group numbered on first use. */
    size_t nf = 0, kept_modules = 0;
    for (size_t i = 0; i < lib->n_functions; i++) {
        if (!keep[i])
            continue;
        struct mtlbx_wr_function fn = lib->functions[i];
        if (new_module[fn.module] == SIZE_MAX)
            new_module[fn.module] = kept_modules++;
        lib->functions[nf++] = fn;
    }
    lib->n_functions = nf;
    /* Groups keep their file order. */
    size_t kept_groups = 0;
    bool *used = calloc(ng + 1, 1);
    if (!used) {
        free(new_module);
        free(new_group);
        return mbx_wr_out_of_memory(w);
    }
    for (size_t i = 0; i < nf; i++)
        if (lib->functions[i].reflection >= 0)
            used[lib->functions[i].reflection] = true;
    for (size_t g = 0; g < ng; g++)
        if (used[g]) {
            new_group[g] = kept_groups;
            rl->groups[kept_groups++] = rl->groups[g];
        }
    rl->n_groups = kept_groups;
    free(used);
    for (size_t i = 0; i < nf; i++) {
        struct mtlbx_wr_function *fn = &lib->functions[i];
        fn->module = new_module[fn->module];
        if (fn->reflection >= 0)
            fn->reflection = (long)new_group[fn->reflection];
    }
    /* Modules: kept ones, renumbered; the order quirk keeps its order. */
    struct mtlbx_wr_module *mods = malloc((kept_modules + 1) * sizeof *mods);
    size_t *order = lib->module_order ? malloc((kept_modules + 1) * sizeof *order) : NULL;
    if (!mods || (lib->module_order && !order)) {
        free(mods);
        free(order);
        free(new_module);
        free(new_group);
        return mbx_wr_out_of_memory(w);
    }
    for (size_t m = 0; m < nm; m++)
        if (new_module[m] != SIZE_MAX)
            mods[new_module[m]] = lib->modules[m];
    if (order) {
        size_t k = 0;
        for (size_t j = 0; j < nm; j++)
            if (new_module[lib->module_order[j]] != SIZE_MAX)
                order[k++] = new_module[lib->module_order[j]];
    }
    free(lib->modules);
    lib->modules = mods;
    lib->n_modules = lib->modules_cap = kept_modules;
    free(lib->module_order);
    lib->module_order = order;
    free(new_module);
    free(new_group);
    return new_uuid(w, lib);
}

int mbx_writer_select(mtlbx_writer *w, bool *const *keep)
{
    if (w->fatal)
        return MTLBX_WRITER_FATAL;
    size_t any = 0;
    for (size_t l = 0; l < w->n_libraries; l++) {
        int rc = select_library(w, &w->libraries[l], keep[l]);
        if (rc != MTLBX_WRITER_OK)
            return rc;
        any += w->libraries[l].n_functions;
    }
    if (!any)
        return MTLBX_WRITER_OK;
    /* Slices left with no function go. */
    size_t n = 0;
    for (size_t l = 0; l < w->n_libraries; l++) {
        if (w->libraries[l].n_functions)
            w->libraries[n++] = w->libraries[l];
        else
            wr_library_free(&w->libraries[l]);
    }
    w->n_libraries = n;
    return MTLBX_WRITER_OK;
}
