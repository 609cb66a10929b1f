/* Where a written library goes: a file written atomically
 * (mtlbx_writer_write_filename) or memory (mtlbx_writer_write_memory).
 *
 * The atomic write is the library's own (src/lib cannot call src/util's
 * safe_write): a temporary file created O_EXCL beside the target, renamed
 * over it when whole, removed on every failure. A signal is the host's to
 * handle (the library installs no handler): the command line writes
 * through safe_write's temporary instead, which its handlers remove. */
#include "config.h"
#include "writer_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* -------------------------------------------------------------- memory -- */

struct mem_ctx {
    uint8_t *buf;
    uint64_t size;
};

static int mem_put(void *ctx, mtlbx_writer *w, uint64_t off, const void *data, size_t len)
{
    struct mem_ctx *c = ctx;
    if (!c->buf || off > c->size || len > c->size - off) {
        mtlbx_wr_fail(w, -1, "internal error: a write outside the laid-out file");
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
        return mtlbx_wr_fail(w, -1, "the library (%" PRIu64 " bytes) does not fit in memory", size);
    struct mem_ctx c = { malloc((size_t)size + 1), size };
    if (!c.buf)
        return mtlbx_wr_out_of_memory(w);
    struct mtlbx_wr_sink sink = { mem_put, &c };
    rc = mtlbx_wr_write(w, &sink, NULL);
    if (rc != MTLBX_WRITER_OK) {
        free(c.buf);
        return rc;
    }
    *out = c.buf;
    *len = (size_t)size;
    return MTLBX_WRITER_OK;
}

/* ------------------------------------------------------------- a file -- */

int wr_write_file_atomic(mtlbx_writer *w, const char *path)
{
    size_t len = strlen(path);
    if (!len)
        return mtlbx_wr_fail(w, -1, "an empty path");
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = malloc(dir_len + 32);
    if (!tmp)
        return mtlbx_wr_out_of_memory(w);
    memcpy(tmp, path, dir_len);
    /* A name nobody else uses, created O_EXCL: mode 0666 less the umask,
     * as the file a plain open would create. */
    static _Atomic unsigned long counter;
    unsigned long seed = (unsigned long)getpid() * 2654435761u ^ (unsigned long)time(NULL) ^
                         (unsigned long)(uintptr_t)tmp ^ atomic_fetch_add(&counter, 1) * 40503u;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        snprintf(tmp + dir_len, 32, ".mtlbx-tmp-%08lx", (seed >> 16) & 0xFFFFFFFFUL);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return mtlbx_wr_fail(w, -1, "cannot create a temporary file beside %s: %s", path, strerror(e));
    }
    int rc = mtlbx_wr_write_fd(w, fd);
    if (close(fd) != 0 && rc == MTLBX_WRITER_OK)
        rc = mtlbx_wr_fail(w, -1, "write failed: %s", strerror(errno));
    if (rc == MTLBX_WRITER_OK && rename(tmp, path) != 0)
        rc = mtlbx_wr_fail(w, -1, "cannot rename the written file to %s: %s", path, strerror(errno));
    if (rc != MTLBX_WRITER_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}
