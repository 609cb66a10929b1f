/* Where the bytes a library is written from come from: module files and
 * source archives named on the command line or by a manifest. A
 * manifest's references are opened beneath its folder, never leaving it:
 * every component opened relative to the one before without following a
 * symbolic link (openat, O_NOFOLLOW), so a link planted in the folder
 * cannot lead out of it, and the last must be a regular file (a FIFO
 * does not block: O_NONBLOCK). */
#include "config.h"
#include "writer_internal.h"
#include "writer/writer_model.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 64

int mbx_wr_open_beneath(int dirfd, const char *path, uint64_t *size, char *err, size_t err_size)
{
    size_t len = strlen(path);
    if (len == 0 || path[0] == '/' || len >= 4096) {
        snprintf(err, err_size, "%s", len ? "not a relative path" : "an empty path");
        return -1;
    }
    char *copy = strdup(path);
    if (!copy) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    int fd = dirfd, depth = 0;
    bool own = false;
    char *p = copy;
    for (;;) {
        char *slash = strchr(p, '/');
        if (slash)
            *slash = 0;
        if (!*p || strcmp(p, ".") == 0 || strcmp(p, "..") == 0 || ++depth > MAX_DEPTH) {
            snprintf(err, err_size, "%s", depth > MAX_DEPTH ? "nested too deeply"
                                          : "a path part that is empty, \".\" or \"..\"");
            goto fail;
        }
        if (!slash)
            break;
        int sub = openat(fd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            snprintf(err, err_size, "%s", errno == ELOOP || errno == ENOTDIR
                                              ? "a symbolic link or a file is in the way; not followed"
                                              : strerror(errno));
            goto fail;
        }
        if (own)
            close(fd);
        fd = sub;
        own = true;
        p = slash + 1;
    }
    /* O_NONBLOCK: a FIFO planted there must not block the open. */
    int file = openat(fd, p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (file < 0) {
        snprintf(err, err_size, "%s", errno == ELOOP ? "a symbolic link; not followed" : strerror(errno));
        goto fail;
    }
    struct stat st;
    if (fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "not a regular file");
        close(file);
        goto fail;
    }
    int flags = fcntl(file, F_GETFL);
    if (flags >= 0)
        fcntl(file, F_SETFL, flags & ~O_NONBLOCK);
    if (own)
        close(fd);
    free(copy);
    *size = (uint64_t)st.st_size;
    return file;
fail:
    if (own)
        close(fd);
    free(copy);
    return -1;
}

int wr_open_file(int dirfd, const char *path, bool beneath, uint64_t *size, char *err, size_t err_size)
{
    if (beneath)
        return mbx_wr_open_beneath(dirfd, path, size, err, err_size);
    /* O_NONBLOCK: a FIFO named here must not block the open. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        snprintf(err, err_size, "%s", strerror(errno));
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "not a regular file");
        close(fd);
        fd = -1;
    } else {
        *size = (uint64_t)st.st_size;
    }
    return fd;
}

int mbx_wr_read_file(int dirfd, const char *path, bool beneath, uint64_t max, uint8_t **out, size_t *len, char *err,
                       size_t err_size)
{
    uint64_t size = 0;
    int fd = wr_open_file(dirfd, path, beneath, &size, err, err_size);
    if (fd < 0)
        return -1;
    if (size > max || size > SIZE_MAX - 1) {
        snprintf(err, err_size, "%" PRIu64 " bytes: larger than this can be (%" PRIu64 " bytes)", size, max);
        close(fd);
        return -1;
    }
    uint8_t *buf = malloc((size_t)size + 1);
    size_t got = 0;
    while (buf && got < size) {
        ssize_t r = pread(fd, buf + got, (size_t)size - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != size) {
        snprintf(err, err_size, "%s", buf ? "it could not be read whole" : "out of memory");
        free(buf);
        return -1;
    }
    buf[size] = 0;
    *out = buf;
    *len = (size_t)size;
    return 0;
}

