/* A manifest's function list held to its modules before pack DIR writes
 * it (issue 41): Metal loads by the module, so a NAME the module does not
 * define, a TYPE that is not its stage or an AIR or MSL version that is
 * not its own would make every tool that reads the list answer wrong with
 * confidence. The comparison is plain `check`'s (checks/claims_check.c,
 * mbx_claims_compare); the first disagreement refuses the manifest, one
 * line naming the function, the field and both values. Each function's
 * module is read and decoded as check decodes it (its entry picked by
 * the function's NAME). */
#include "config.h"
#include "writer_internal.h"
#include "bitcode/bitcode.h"
#include "bitcode/interface_reader.h"
#include "checks/validate.h"
#include "writer/writer.h"
#include "writer/writer_model.h"

#include <fcntl.h>
#include <string.h>

#include <stdio.h>
#include <stdlib.h>

/* A module is a few MB at most; more than this is not one. */
#define MODULE_MAX ((uint64_t)1 << 32)

struct first_claim {
    char *err;
    size_t err_size;
    const char *where;
    bool found;
};

static void keep_first(void *ctx, const char *msg)
{
    struct first_claim *c = ctx;
    if (c->found)
        return;
    c->found = true;
    snprintf(c->err, c->err_size, "%s: %s; --keep-manifest-values packs the manifest's values as they are", c->where,
             msg);
}

/* Function i's list entry as the container reader would give it: only
 * the fields the comparison reads. */
static void entry_of(const struct mtlbx_wr_library *lib, const struct mtlbx_wr_function *fn,
                     struct mtlbx_function *out)
{
    memset(out, 0, sizeof *out);
    for (size_t k = 0; k < fn->tags.n; k++) {
        const struct mtlbx_wr_tag *t = wr_tag(lib, fn->tags.first + k);
        if (t->kind != MTLBX_WR_VALUE)
            continue;
        const uint8_t *v = t->value.ptr;
        if (t->fourcc == 0x454D414E /* NAME */ && !(out->present & MTLBX_F_NAME) && t->value.len) {
            out->name = (struct mtlbx_bytes){ v, strnlen((const char *)v, t->value.len) };
            out->present |= MTLBX_F_NAME;
        } else if (t->fourcc == 0x45505954 /* TYPE */ && !(out->present & MTLBX_F_TYPE) && t->value.len == 1) {
            out->type = v[0];
            out->present |= MTLBX_F_TYPE;
        } else if (t->fourcc == 0x53524556 /* VERS */ && !(out->present & MTLBX_F_VERS) && t->value.len == 8) {
            out->air_major = (uint16_t)(v[0] | v[1] << 8);
            out->air_minor = (uint16_t)(v[2] | v[3] << 8);
            out->msl_major = (uint16_t)(v[4] | v[5] << 8);
            out->msl_minor = (uint16_t)(v[6] | v[7] << 8);
            out->present |= MTLBX_F_VERS;
        }
    }
}

/* The interface of a module as check reads it, its entry picked by the
 * function's NAME (NULL when the module cannot be read or decoded: then
 * there is nothing to compare, and writing reports what is wrong).
 * *owned holds the bytes read (the interface points into them). */
static struct mtlbx_interface *decode_module(mtlbx_writer *w, const struct mtlbx_wr_module *mod,
                                             const struct mtlbx_function *fn, uint8_t **owned, bool *oom)
{
    const struct mtlbx_wr_blob *b = &mod->bytes;
    const uint8_t *data = b->data;
    size_t len = (size_t)b->len;
    *owned = NULL;
    if (!data && b->path) {
        char err[256];
        int dirfd = b->beneath ? w->base_dirfd : AT_FDCWD;
        if (mbx_wr_read_file(dirfd, b->path, b->beneath, MODULE_MAX, owned, &len, err, sizeof err) != 0)
            return NULL;
        data = *owned;
    }
    struct mtlbx_error e;
    struct mtlbx_interface *iface = data ? mbx_interface_decode(data, len, 0, fn->name.ptr, fn->name.len, &e) : NULL;
    if (!iface && data && e.status == MTLBX_E_NOMEM)
        *oom = true;
    return iface;
}

int mbx_wr_check_claims(mtlbx_writer *w, char *err, size_t err_size)
{
    /* A model that cannot be laid out (a NAME too long for its tag) is
     * refused by the write for that reason, which is the one to hear. */
    uint64_t size;
    if (wr_layout_size(w, &size) != MTLBX_WRITER_OK) {
        w->error[0] = 0;
        w->error_offset = -1;
        return MTLBX_WRITER_OK;
    }
    for (size_t l = 0; l < w->n_libraries; l++) {
        const struct mtlbx_wr_library *lib = &w->libraries[l];
        for (size_t i = 0; i < lib->n_functions; i++) {
            struct mtlbx_function fn;
            entry_of(lib, &lib->functions[i], &fn);
            bool oom = false;
            uint8_t *owned;
            struct mtlbx_interface *iface = decode_module(w, &lib->modules[lib->functions[i].module], &fn, &owned, &oom);
            char where[64];
            snprintf(where, sizeof where, "libraries[%zu].functions[%zu]", l, i);
            struct first_claim c = { err, err_size, where, false };
            if (iface)
                mbx_claims_compare(&fn, iface, keep_first, &c);
            mbx_interface_free(iface);
            free(owned);
            if (oom) {
                snprintf(err, err_size, "out of memory");
                return MTLBX_WRITER_FATAL;
            }
            if (c.found)
                return MTLBX_WRITER_FAILED;
        }
    }
    return MTLBX_WRITER_OK;
}
