/* Where a written library goes: a file written atomically
 * (mtlbx_writer_write_filename) or memory (mtlbx_writer_write_memory).
 *
 * The file goes through atomic_file.c, the atomic write the command
 * line's safe_write builds on too. A signal is the host's to handle (the
 * library installs no handler), so a temporary left by a signal that ends
 * the host is the host's to remove; the command line registers its own. */
#include "config.h"
#include "writer_internal.h"
#include "atomic_file.h"
#include "writer/writer.h"
#include "writer/writer_model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- memory -- */

struct mem_ctx {
    uint8_t *buf;
    uint64_t size;
};

static int mem_put(void *ctx, mtlbx_writer *w, uint64_t off, const void *data, size_t len)
{
    struct mem_ctx *c = ctx;
    if (!c->buf || off > c->size || len > c->size - off) {
        mbx_wr_fail(w, -1, "internal error: a write outside the laid-out file");
        return -1;
    }
    memcpy(c->buf + off, data, len);
    return 0;
}

/* Into one buffer of the file's size, learnt from the plan first. */
int wr_write_memory(mtlbx_writer *w, uint8_t **out, size_t *len)
{
    uint64_t size = 0;
    int rc = wr_layout_size(w, &size);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (size > SIZE_MAX - 1)
        return mbx_wr_fail(w, -1, "the library (%" PRIu64 " bytes) does not fit in memory", size);
    struct mem_ctx c = { malloc((size_t)size + 1), size };
    if (!c.buf)
        return mbx_wr_out_of_memory(w);
    struct mtlbx_wr_sink sink = { mem_put, &c };
    rc = mbx_wr_write(w, &sink, NULL);
    if (rc != MTLBX_WRITER_OK) {
        free(c.buf);
        return rc;
    }
    *out = c.buf;
    *len = (size_t)size;
    return MTLBX_WRITER_OK;
}

/* ------------------------------------------------------------- a file -- */

/* Through the tree's one atomic write (atomic_file.c), replacing a
 * regular file at `path` as the API promises, never a device, FIFO,
 * socket or directory, and refused before a byte is written when the
 * file would pass the file-size limit. */
int wr_write_file_atomic(mtlbx_writer *w, const char *path)
{
    if (!*path)
        return mbx_wr_fail(w, -1, "an empty path");
    uint64_t size = 0;
    int rc = wr_layout_size(w, &size);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    struct atomic_file_rules rules = { .replace = true, .size = size };
    struct atomic_file a;
    char err[256];
    if (atomic_file_begin_path(&a, path, &rules, err, sizeof err) != ATOMIC_FILE_OK)
        return mbx_wr_fail(w, -1, "cannot write %s: %s", path, err);
    rc = mbx_writer_write_fd(w, a.fd);
    if (rc != MTLBX_WRITER_OK) {
        atomic_file_abort(&a);
        return rc;
    }
    if (atomic_file_commit(&a, err, sizeof err) != ATOMIC_FILE_OK)
        return mbx_wr_fail(w, -1, "cannot write %s: %s", path, err);
    return MTLBX_WRITER_OK;
}
