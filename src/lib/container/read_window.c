/* A window of a mapped file read with pread (container/file_read.h): a
 * buffer, the file offset of its first byte and a descriptor opened
 * again on the file. The hash (hash.c) and the interface decoders of sig and dump
 * (mbx_interface_read) read modules this way instead of
 * through the mapping: on this project's paravirtualised machines a page
 * fault, with the page table updates behind it, costs more than the
 * kernel's copy. `sig` on L20k (20,000 modules, 262 MB), user+system over
 * five interleaved runs: 0.61 s through the mapping, 0.37 s through
 * windows (openssl dgst -sha256 on the file: 0.37 s), and peak RSS 22 ->
 * 11 MB. One pread from a module's start fills the whole window, so a run
 * of small modules that lie back to back costs one system call. */
#include "config.h"

#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/lazy_table.h"

#include <stdlib.h>
#include <unistd.h>

void read_window_init(struct read_window *w, size_t cap)
{
    *w = (struct read_window){ .cap = cap, .fd = -1 };
}

void read_window_free(struct read_window *w)
{
    free(w->buf);
    if (w->fd >= 0)
        close(w->fd);
    *w = (struct read_window){ .fd = -1 };
}

bool read_window_has(const struct read_window *w, struct mtlbx_range m)
{
    return w->buf && m.offset >= w->off && m.size <= w->len && m.offset - w->off <= w->len - m.size;
}

/* The buffer and descriptor are taken on the first read, so a caller
 * whose answer was cached costs neither. */
bool read_window_ready(struct read_window *w, const mtlbx_file *f)
{
    if (!f->mapped)
        return false;
    if (!w->buf && !(w->buf = malloc(w->cap)))
        return false;
    if (w->fd < 0 && !w->no_fd) {
        w->fd = file_reopen(f);
        w->no_fd = w->fd < 0;
    }
    return w->fd >= 0;
}

/* Reads `want` bytes from `off` (fewer at the end of the file). */
static bool fill_bytes(struct read_window *w, const mtlbx_file *f, uint64_t off, size_t want)
{
    if (off >= f->size)
        want = 0;
    else if (f->size - off < want)
        want = (size_t)(f->size - off);
    if (want > w->populated) {
        /* The pages the kernel's copy is about to write, in one call
         * rather than a fault each; only as far as reads have reached,
         * so a small file does not pay for the whole window. */
        populate_pages(w->buf + w->populated, want - w->populated);
        w->populated = want;
    }
    ssize_t got = file_pread(w->fd, w->buf, want, off);
    w->off = off;
    w->len = got > 0 ? (size_t)got : 0;
    return w->len == want;
}

bool read_window_fill(struct read_window *w, const mtlbx_file *f, uint64_t off)
{
    return fill_bytes(w, f, off, w->cap);
}

/* What a read for module m fetches: the whole window when the reads run
 * forward from the last one (sig's run of back-to-back modules: one
 * pread for many), only m's bytes (at least READ_MIN) after a jump, so
 * that 200 named functions scattered over a 300 MB file do not read 200
 * MB of neighbours (bench/run's "decode 200 modules" row). */
#define READ_MIN ((size_t)64 << 10)
static size_t fill_size(const struct read_window *w, struct mtlbx_range m)
{
    bool forward = w->len && m.offset >= w->off && m.offset - w->off <= (uint64_t)w->len + w->cap;
    if (forward || m.size >= w->cap)
        return w->cap;
    return m.size > READ_MIN ? (size_t)m.size : READ_MIN < w->cap ? READ_MIN : w->cap;
}

const uint8_t *read_window_span(struct read_window *w, const mtlbx_file *f, struct mtlbx_range m, bool *short_read)
{
    if (short_read)
        *short_read = false;
    if (read_window_has(w, m))
        return w->buf + (m.offset - w->off);
    if (m.size > w->cap || !read_window_ready(w, f))
        return NULL;
    fill_bytes(w, f, m.offset, fill_size(w, m));
    if (read_window_has(w, m))
        return w->buf;
    if (short_read)
        *short_read = true;
    return NULL;
}
