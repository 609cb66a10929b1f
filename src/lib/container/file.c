/* Opening a file: mmap it read-only (or wrap a caller's buffer), decide
 * whether it is a metallib at all, and hand it to the fat or plain parser.
 * Only "not a metallib" and I/O failures refuse to open; everything else
 * becomes diagnostics. */
#include "config.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/library.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_error(struct mtlbx_error *err, enum mtlbx_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_error(struct mtlbx_error *err, enum mtlbx_status st, const char *fmt, ...)
{
    /* The errno of the call that failed, before anything else sets one. */
    int saved = errno;
    if (!err)
        return;
    err->status = st;
    err->offset = 0;
    err->has_offset = false;
    err->sys_errno = st == MTLBX_E_IO || st == MTLBX_E_NOMEM ? saved : 0;
    if (st == MTLBX_E_NOMEM && !err->sys_errno)
        err->sys_errno = ENOMEM;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static bool is_fat_magic(const uint8_t *p) { return p[0] == 0xCB && p[1] == 0xFE && p[2] == 0xBA && p[3] == 0xBE; }
static bool is_mtlb_magic(const uint8_t *p) { return p[0] == 'M' && p[1] == 'T' && p[2] == 'L' && p[3] == 'B'; }

/* Shared tail of both open paths: takes ownership of f. */
static int finish_open(mtlbx_file *f, mtlbx_file **out, struct mtlbx_error *err)
{
    if (f->size < 4 || !(is_mtlb_magic(f->data) || is_fat_magic(f->data))) {
        if (f->size < 4)
            set_error(err, MTLBX_E_NOT_METALLIB, "not a metallib: only %llu bytes",
                      (unsigned long long)f->size);
        else
            set_error(err, MTLBX_E_NOT_METALLIB,
                      "not a metallib: magic %02x %02x %02x %02x is neither MTLB nor CB FE BA BE",
                      f->data[0], f->data[1], f->data[2], f->data[3]);
        if (err)
            err->has_offset = true; /* offset 0: the magic */
        mbx_close(f);
        return MTLBX_E_NOT_METALLIB;
    }
    if (is_fat_magic(f->data)) {
        f->fat = true;
        parse_fat(f);
    } else {
        f->libraries = calloc(1, sizeof *f->libraries);
        if (!f->libraries || !(f->libraries[0] = library_open(f, 0, 0, f->size))) {
            set_error(err, MTLBX_E_NOMEM, "out of memory");
            mbx_close(f);
            return MTLBX_E_NOMEM;
        }
        f->n_libraries = 1;
    }
    *out = f;
    if (err)
        set_error(err, MTLBX_E_NONE, "ok");
    return MTLBX_E_NONE;
}

int mbx_open_buffer(const void *data, size_t len, const char *name, mtlbx_file **out,
                      struct mtlbx_error *err)
{
    *out = NULL;
    mtlbx_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(name ? name : "<memory>"))) {
        free(f);
        set_error(err, MTLBX_E_NOMEM, "out of memory");
        return MTLBX_E_NOMEM;
    }
    static const uint8_t empty[1];
    f->data = len ? data : empty;
    f->size = len;
    return finish_open(f, out, err);
}

int mbx_open_buffer_owned(void *data, size_t len, const char *name, mtlbx_file **out,
                            struct mtlbx_error *err)
{
    int rc = mbx_open_buffer(data, len, name, out, err);
    if (*out)
        (*out)->owns_data = true;
    else
        free(data);
    return rc;
}

const char *mbx_special_file_kind(unsigned mode)
{
    return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : S_ISSOCK(mode) ? "a socket" : "special file";
}

int mbx_open_path(const char *path, mtlbx_file **out, struct mtlbx_error *err)
{
    *out = NULL;
    /* O_NONBLOCK so that opening a FIFO never waits for a writer; we refuse
     * anything that is not a regular file right after fstat. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        set_error(err, MTLBX_E_IO, "%s", strerror(errno));
        return MTLBX_E_IO;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        set_error(err, MTLBX_E_IO, "%s", strerror(errno));
        close(fd);
        return MTLBX_E_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        set_error(err, MTLBX_E_NOT_REGULAR, "not a regular file (%s)", mbx_special_file_kind(st.st_mode));
        if (err && S_ISDIR(st.st_mode))
            err->sys_errno = EISDIR;
        close(fd);
        return MTLBX_E_NOT_REGULAR;
    }
    if (st.st_size == 0) {
        close(fd);
        set_error(err, MTLBX_E_NOT_METALLIB, "not a metallib: the file is empty");
        return MTLBX_E_NOT_METALLIB;
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        close(fd);
        errno = EFBIG;
        set_error(err, MTLBX_E_IO, "file too large to map");
        return MTLBX_E_IO;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int map_errno = errno;
    if (map == MAP_FAILED) {
        close(fd);
        /* ENOMEM: no address space left (ulimit -v), the environment's
         * failure rather than the file's. */
        enum mtlbx_status st_map = map_errno == ENOMEM ? MTLBX_E_NOMEM : MTLBX_E_IO;
        errno = map_errno;
        set_error(err, st_map, "cannot map: %s", strerror(map_errno));
        return st_map;
    }
    mtlbx_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        close(fd);
        munmap(map, (size_t)st.st_size);
        set_error(err, MTLBX_E_NOMEM, "out of memory");
        return MTLBX_E_NOMEM;
    }
    f->data = map;
    f->size = (uint64_t)st.st_size;
    f->mapped = true;
    /* The mapping stays valid without its descriptor: closing it now lets
     * the explorer hold more files than RLIMIT_NOFILE. Hashing opens the
     * file again (file_reopen) and checks it is still the same one. */
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    close(fd);
    return finish_open(f, out, err);
}

void mbx_close(mtlbx_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_libraries; i++)
        library_free(f->libraries[i]);
    free(f->libraries);
    for (size_t i = 0; i < f->n_gpu; i++)
        gpu_slice_free(&f->gpu[i]);
    free(f->gpu);
    free(f->slices);
    diag_free(&f->diags);
    if (f->mapped) {
        munmap((void *)f->data, (size_t)f->size);
    }
    if (f->owns_data)
        free((void *)f->data);
    free(f->path);
    free(f);
}

bool mbx_file_changed(const mtlbx_file *f)
{
    if (f->short_read)
        return true;
    uint64_t now;
    return f->mapped && file_current_size(f, &now) && now != f->size;
}

int file_reopen(const mtlbx_file *f)
{
    if (!f->mapped)
        return -1;
    int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_dev != f->dev || st.st_ino != f->ino)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

bool file_current_size(const mtlbx_file *f, uint64_t *size)
{
    struct stat st;
    if (!f->mapped || stat(f->path, &st) != 0 || st.st_dev != f->dev || st.st_ino != f->ino)
        return false;
    *size = (uint64_t)st.st_size;
    return true;
}

const char *mbx_file_path(const mtlbx_file *f) { return f->path; }
uint64_t mbx_file_size(const mtlbx_file *f) { return f->size; }
const uint8_t *mbx_file_data(const mtlbx_file *f) { return f->data; }
bool mbx_file_is_fat(const mtlbx_file *f) { return f->fat; }
size_t mbx_fat_slice_count(const mtlbx_file *f) { return f->n_slices; }
const struct mbx_fat_slice *mbx_fat_slice(const mtlbx_file *f, size_t i)
{
    return i < f->n_slices ? &f->slices[i] : NULL;
}
size_t mbx_file_library_count(const mtlbx_file *f) { return f->n_libraries; }
mtlbx_library *mbx_library_at(const mtlbx_file *f, size_t i)
{
    return i < f->n_libraries ? f->libraries[i] : NULL;
}
mtlbx_file *mbx_library_file(const mtlbx_library *lib) { return lib->file; }

ssize_t file_pread(int fd, uint8_t *buf, size_t want, uint64_t off)
{
    size_t got = 0;
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

bool file_read_at(const mtlbx_file *f, uint64_t off, void *buf, size_t n)
{
    if (off > f->size || n > f->size - off)
        return false;
    if (!f->mapped) {
        memcpy(buf, f->data + off, n);
        return true;
    }
    /* The descriptor was closed after mmap (a library may be one of more
     * files than `ulimit -n`): open it again for this read. When that is
     * not possible, read the mapping, as the hash pass does. */
    int fd = file_reopen(f);
    if (fd < 0) {
        memcpy(buf, f->data + off, n);
        return true;
    }
    bool whole = file_pread(fd, buf, n, off) == (ssize_t)n;
    close(fd);
    if (!whole)
        ((mtlbx_file *)f)->short_read = true;
    return whole;
}
