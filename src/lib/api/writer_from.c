/* mtlbx_writer_from: `mtlbx pack --from FILE -f NAME...` through <mtlbx.h>
 * (Python's Writer.from_library). The names are read as every command
 * reads -f NAME (mbx_resolve_function_name), and the copy is the
 * writer's own model of the file cut down to them (mbx_writer_describe,
 * mbx_writer_select), as program/pack_select makes it for the program: so the
 * bytes are the program's. */
#include "config.h"

#include "model/names.h"
#include "writer/writer.h"
#include "api/handle.h"

#include <errno.h>
#include <stdlib.h>

static void free_keep(bool **keep, size_t n)
{
    for (size_t l = 0; keep && l < n; l++)
        free(keep[l]);
    free(keep);
}

/* Marks what names[k] selects in keep; false with h's error set when it
 * selects nothing, or several by prefix, or memory ran out. */
static bool mark(mtlbx *h, const char *name, bool **keep)
{
    struct mtlbx_name_matches m;
    if (!mbx_resolve_function_name(h->file, name, &m)) {
        api_set_error(h, ENOMEM, -1, "out of memory");
        return false;
    }
    bool ok = m.how != MTLBX_NAME_MISSING && m.how != MTLBX_NAME_AMBIGUOUS;
    if (m.how == MTLBX_NAME_MISSING)
        api_set_error(h, 0, -1, "no function matches '%s'", name);
    else if (m.how == MTLBX_NAME_AMBIGUOUS)
        api_set_error(h, 0, -1, "'%s' is ambiguous: the prefix of %zu functions", name, m.n);
    for (size_t j = 0; ok && j < m.n; j++)
        keep[m.v[j].library][m.v[j].function] = true;
    mbx_name_matches_free(&m);
    return ok;
}

mtlbx_writer *mtlbx_writer_from(mtlbx *h, const char *const *names, size_t n)
{
    if (!h)
        return NULL;
    if (!h->file) {
        api_set_error(h, 0, -1, "no file is open");
        return NULL;
    }
    if (!names || !n) {
        api_set_error(h, EINVAL, -1, "mtlbx_writer_from: no function named");
        return NULL;
    }
    bool **keep = calloc(h->n_libraries + 1, sizeof *keep);
    bool ok = keep != NULL;
    for (size_t l = 0; ok && l < h->n_libraries; l++)
        ok = (keep[l] = calloc(h->libraries[l].n_functions + 1, sizeof **keep)) != NULL;
    if (!ok) {
        free_keep(keep, h->n_libraries);
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    for (size_t k = 0; ok && k < n; k++) {
        if (!names[k]) {
            api_set_error(h, EINVAL, -1, "mtlbx_writer_from: name %zu is NULL", k);
            ok = false;
        } else {
            ok = mark(h, names[k], keep);
        }
    }
    mtlbx_writer *w = ok ? mbx_writer_new() : NULL;
    if (ok && !w)
        api_set_error(h, ENOMEM, -1, "out of memory");
    /* Decoded entries are kept through the pass: the handle may hold
     * what they point to. */
    int rc = w ? mbx_writer_describe(w, h->file, MTLBX_WR_DESCRIBE_KEEP_DECODED) : MTLBX_WRITER_FAILED;
    if (w && rc == MTLBX_WRITER_OK)
        rc = mbx_writer_select(w, keep);
    if (w && rc != MTLBX_WRITER_OK) {
        int64_t at = mbx_writer_error_offset(w);
        api_set_error(h, rc == MTLBX_WRITER_FATAL ? ENOMEM : 0, at, "%s", mtlbx_writer_error_string(w));
        mtlbx_writer_free(w);
        w = NULL;
    }
    free_keep(keep, h->n_libraries);
    if (w)
        mbx_writer_mark_copy(w);
    return w;
}
