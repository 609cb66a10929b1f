/* A mapped file's bytes read without touching the mapping: pread, read
 * windows, and pages let go (src/lib only; container/file.c,
 * read_window.c, file_release.c). */
#ifndef MTLBX_CONTAINER_FILE_READ_H
#define MTLBX_CONTAINER_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "container/types.h"

/* file.c: a new read-only descriptor on the mapped file, for hashing
 * through pread; -1 when the path no longer names the same file (or no
 * descriptor is left). The caller closes it. */
int file_reopen(const mtlbx_file *f);
/* file.c: the current size of the mapped file; false when the path no
 * longer names it (replaced or removed: the mapping keeps the old one). */
bool file_current_size(const mtlbx_file *f, uint64_t *size);

/* file.c: drops the mapped pages inside [off, off + size) from memory
 * (they are read again on the next touch); nothing for an unmapped file. */
void file_release_pages(const mtlbx_file *f, uint64_t off, uint64_t size);

/* file.c: reading module bytes without touching the mapping. A page
 * faulted in through the mapping brings its neighbours (fault-around), so
 * peeking at 20,000 modules that way would map the whole file. */
ssize_t file_pread(int fd, uint8_t *buf, size_t want, uint64_t off);
/* read_window.c: a mapped file's bytes read with pread into a buffer of
 * `cap` bytes (see there for why). Not for files that are not mapped:
 * their bytes are already in memory. */
struct read_window {
    uint8_t *buf;
    size_t cap;
    uint64_t off;              /* file offset of buf[0] */
    size_t len;                /* valid bytes in buf */
    size_t populated;          /* buf[0, populated) has its pages mapped (populate_pages) */
    int fd;                    /* the file opened again, on the first read; -1 before */
    bool no_fd;                /* reopening failed: read the mapping instead */
};
void read_window_init(struct read_window *w, size_t cap);
void read_window_free(struct read_window *w);
/* Whether all of m is in the window now. */
bool read_window_has(const struct read_window *w, struct mtlbx_range m);
/* Buffer and descriptor at hand (taken on first use); false for a file
 * that is not mapped, out of memory, or a path that no longer names it. */
bool read_window_ready(struct read_window *w, const mtlbx_file *f);
/* Reads the window from `off` (after read_window_ready); false when fewer
 * bytes came than the file's size promised (it shrank). */
bool read_window_fill(struct read_window *w, const mtlbx_file *f, uint64_t off);
/* m's bytes in the window, read from m.offset when they are not there;
 * valid until the next read. NULL when they cannot be had this way (not
 * mapped, bigger than the window, no descriptor: read the mapping), or
 * the file shrank (*short_read, may be NULL, says so). */
const uint8_t *read_window_span(struct read_window *w, const mtlbx_file *f, struct mtlbx_range m,
                                bool *short_read);
/* n bytes at off, by pread for a mapped file (a short read marks the file
 * changed) or from the caller's buffer. False if they are not all there. */
bool file_read_at(const mtlbx_file *f, uint64_t off, void *buf, size_t n);

#endif
