/* The handle of <mtlbx.h>: version, opening, errors, freeing. The public
 * names are defined in this layer only; below it the library's internal
 * API (each layer's own headers) stays what the program uses. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "writer/writer.h"
#include "api/handle.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/functions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* <mtlbx.h> spells the version out; configure knows it from AC_INIT. */
#if MTLBX_VERSION_NUMBER != MTLBX_CONFIGURED_VERSION_NUMBER
#error "MTLBX_VERSION_NUMBER in src/lib/mtlbx.h differs from AC_INIT's version: update both"
#endif

/* The writer (src/lib/writer) implements <mtlbx.h>'s mtlbx_writer_* itself,
 * on statuses and keys of its own names: their values must be the public
 * ones. */
_Static_assert(MTLBX_WRITER_OK == MTLBX_OK && MTLBX_WRITER_FAILED == MTLBX_FAILED &&
                   MTLBX_WRITER_FATAL == MTLBX_FATAL,
               "the writer's statuses are <mtlbx.h>'s");
_Static_assert(MTLBX_WRITER_CONTAINER_VERSION == MTLBX_CONTAINER_VERSION && MTLBX_WRITER_PLATFORM == MTLBX_PLATFORM &&
                   MTLBX_WRITER_FILE_TYPE == MTLBX_FILE_TYPE && MTLBX_WRITER_TARGET_OS == MTLBX_TARGET_OS &&
                   MTLBX_WRITER_OS_VERSION == MTLBX_OS_VERSION && MTLBX_WRITER_UUID == MTLBX_UUID &&
                   MTLBX_WRITER_NAME == MTLBX_NAME,
               "the writer's keys are <mtlbx.h>'s");

const char api_none[] = "";

int mtlbx_version_number(void) { return MTLBX_VERSION_NUMBER; }

const char *mtlbx_version_string(void) { return "mtlbx " PACKAGE_VERSION; }

mtlbx *mtlbx_new(void)
{
    mtlbx *h = calloc(1, sizeof *h);
    if (h) {
        h->err_text = "";
        h->err_offset = -1;
    }
    return h;
}

/* Shared tail of both opens: keeps the file, or makes the handle unusable. */
static int finish_open(mtlbx *h, const char *path, int rc, mtlbx_file *f, const struct mtlbx_error *err)
{
    if (rc != MTLBX_E_NONE) {
        h->fatal = true;
        if (err->has_offset)
            return api_fail(h, MTLBX_FATAL, err->sys_errno, (int64_t)err->offset, "%s:%llu: %s", path,
                            (unsigned long long)err->offset, err->message);
        return api_fail(h, MTLBX_FATAL, err->sys_errno, -1, "%s: %s", path, err->message);
    }
    h->file = f;
    h->n_libraries = mbx_file_library_count(f);
    h->libraries = calloc(h->n_libraries ? h->n_libraries : 1, sizeof *h->libraries);
    h->lib_diags_seen = calloc(h->n_libraries ? h->n_libraries : 1, sizeof *h->lib_diags_seen);
    if (!h->libraries || !h->lib_diags_seen)
        goto out_of_memory;
    for (size_t l = 0; l < h->n_libraries; l++) {
        h->libraries[l].lib = mbx_library_at(f, l);
        h->libraries[l].n_functions = mbx_library_function_count(h->libraries[l].lib);
    }
    /* The findings of the parse so far: the header and the function list.
     * The metadata and the lists are decoded when first needed (or when
     * the findings are counted), so that a million functions open fast. */
    if (!api_diag_sync(h, false))
        goto out_of_memory;
    uint64_t at;
    if (mbx_file_out_of_memory(f, &at)) {
        h->fatal = true;
        return api_fail(h, MTLBX_FATAL, ENOMEM, (int64_t)at, "%s:%llu: out of memory while reading the file", path,
                        (unsigned long long)at);
    }
    return h->n_diags ? MTLBX_WARN : MTLBX_OK;
out_of_memory:
    h->fatal = true;
    return api_fail(h, MTLBX_FATAL, ENOMEM, -1, "%s: out of memory", path);
}

/* A second open, or one after a failed open, is refused. */
static int refuse_open(mtlbx *h)
{
    if (h->fatal)
        return api_fail(h, MTLBX_FATAL, 0, -1, "this handle's open failed: make a new one (mtlbx_new)");
    return api_fail(h, MTLBX_FAILED, EINVAL, -1, "this handle has a file open already: one file per handle");
}

int mtlbx_open_filename(mtlbx *h, const char *path)
{
    if (!h)
        return MTLBX_FATAL;
    if (h->file || h->fatal)
        return refuse_open(h);
    if (!path)
        return api_fail(h, MTLBX_FAILED, EINVAL, -1, "mtlbx_open_filename: no path");
    mtlbx_file *f = NULL;
    struct mtlbx_error err = { 0 };
    int rc = mbx_open_path(path, &f, &err);
    return finish_open(h, path, rc, f, &err);
}

int mtlbx_open_memory(mtlbx *h, const void *buf, size_t len)
{
    if (!h)
        return MTLBX_FATAL;
    if (h->file || h->fatal)
        return refuse_open(h);
    if (!buf && len)
        return api_fail(h, MTLBX_FAILED, EINVAL, -1, "mtlbx_open_memory: no buffer");
    mtlbx_file *f = NULL;
    struct mtlbx_error err = { 0 };
    int rc = mbx_open_buffer(buf ? buf : "", len, NULL, &f, &err);
    return finish_open(h, "<memory>", rc, f, &err);
}

void mtlbx_free(mtlbx *h)
{
    if (!h)
        return;
    for (size_t l = 0; h->libraries && l < h->n_libraries; l++) {
        struct api_library *al = &h->libraries[l];
        for (int c = 0; c < COL_COUNT; c++) {
            free(al->columns[c].text);
            free(al->columns[c].at);
            free(al->columns[c].one);
        }
        free(al->module_offset);
        free(al->module_size);
        mbx_interface_reader_free(al->reader);
        free(al->sources);
    }
    free(h->libraries);
    free(h->lib_diags_seen);
    free(h->diags);
    /* The readers above point into the mapping: the file goes after them. */
    mbx_close(h->file);
    pool_free(&h->pool);
    free(h);
}

int mtlbx_library_count(mtlbx *h)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return -1;
    }
    return (int)h->n_libraries;
}

struct api_library *api_library(mtlbx *h, int lib)
{
    if (!h)
        return NULL;
    if (!h->file) {
        api_set_error(h, 0, -1, "no file is open");
        return NULL;
    }
    if (lib < 0 || (size_t)lib >= h->n_libraries) {
        api_set_error(h, EINVAL, -1, "library %d: the file has %zu", lib, h->n_libraries);
        return NULL;
    }
    return &h->libraries[lib];
}

bool api_function_ok(mtlbx *h, struct api_library *al, int64_t fn)
{
    if (fn < 0 || (uint64_t)fn >= al->n_functions) {
        api_set_error(h, EINVAL, -1, "function %lld: the library has %zu", (long long)fn, al->n_functions);
        return false;
    }
    return true;
}

mtlbx_interface_reader *api_reader(struct api_library *al)
{
    if (!al->reader)
        al->reader = mbx_interface_reader_new(al->lib);
    return al->reader;
}
