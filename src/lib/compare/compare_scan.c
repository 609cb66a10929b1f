/* The byte scan of a diff (compare_scan.h). diff L20k L20k-changed read
 * both files module by module on the main thread, between decoding each
 * pair's entries and metadata: about 40% of its time, with the other core
 * idle. Here one thread reads both files from the start, as cmp does, in
 * windows of 1 MB through pread (memory stays flat), and marks each
 * GRANULE of the shorter file's length where the two differ. A module at
 * the same offset in both files is equal when none of its granules is
 * marked; in a marked one, only the module's own bytes are compared
 * again (a few KB), since the difference may lie just outside it. */
#include "config.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "compare/compare_scan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCAN_WINDOW ((size_t)1 << 20)
#define GRANULE ((uint64_t)4096)
/* Below this (the shorter file), a thread costs more than it saves. */
#define SCAN_MIN ((uint64_t)16 << 20)

struct byte_scan {
    int fa, fb;
    uint64_t n;                /* bytes scanned in all: the shorter file's size */
    uint8_t *diff;             /* a bit per GRANULE: some byte in it differs */
    uint8_t *buf;              /* 2 * SCAN_WINDOW */
    pthread_t thread;
    bool started;              /* thread runs: join it */
    pthread_mutex_t lock;
    pthread_cond_t moved;
    uint64_t done;             /* scanned up to here (under lock) */
    bool failed, stop;         /* a short read; asked to stop (under lock) */
};

static void mark(struct byte_scan *s, uint64_t g)
{
    s->diff[g / 8] |= (uint8_t)(1u << (g % 8));
}

static bool marked(const struct byte_scan *s, uint64_t g)
{
    return s->diff[g / 8] & (1u << (g % 8));
}

static void *scan_thread(void *arg)
{
    struct byte_scan *s = arg;
    uint8_t *x = s->buf, *y = s->buf + SCAN_WINDOW;
    for (uint64_t off = 0; off < s->n;) {
        size_t want = s->n - off < SCAN_WINDOW ? (size_t)(s->n - off) : SCAN_WINDOW;
        bool ok = file_pread(s->fa, x, want, off) == (ssize_t)want && file_pread(s->fb, y, want, off) == (ssize_t)want;
        /* The window starts on a granule (SCAN_WINDOW is a multiple):
         * the granules marked are those of the file. Bits are written
         * before `done` passes them, and read only behind it. */
        if (ok && memcmp(x, y, want) != 0)
            for (size_t at = 0; at < want; at += GRANULE) {
                size_t len = want - at < GRANULE ? want - at : GRANULE;
                if (memcmp(x + at, y + at, len) != 0)
                    mark(s, (off + at) / GRANULE);
            }
        pthread_mutex_lock(&s->lock);
        if (ok)
            s->done = off + want;
        else
            s->failed = true;
        bool stop = s->stop || !ok;
        pthread_cond_broadcast(&s->moved);
        pthread_mutex_unlock(&s->lock);
        if (stop)
            break;
        off += want;
    }
    return NULL;
}

struct byte_scan *byte_scan_start(const mtlbx_file *a, const mtlbx_file *b)
{
    uint64_t n = a->size < b->size ? a->size : b->size;
    if (n < SCAN_MIN || !a->mapped || !b->mapped)
        return NULL;
    struct byte_scan *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n;
    s->fa = file_reopen(a);
    s->fb = file_reopen(b);
    s->diff = calloc(n / GRANULE / 8 + 1, 1);
    s->buf = malloc(2 * SCAN_WINDOW);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->moved, NULL);
    s->started = s->fa >= 0 && s->fb >= 0 && s->diff && s->buf &&
                 pthread_create(&s->thread, NULL, scan_thread, s) == 0;
    if (!s->started) {
        byte_scan_stop(s);
        return NULL;
    }
    return s;
}

/* The len (<= GRANULE) bytes at off, read again from both files: 1 equal,
 * 0 not, -1 a short read. */
static int reread_equal(const struct byte_scan *s, uint64_t off, size_t len)
{
    uint8_t x[GRANULE], y[GRANULE];
    if (file_pread(s->fa, x, len, off) != (ssize_t)len || file_pread(s->fb, y, len, off) != (ssize_t)len)
        return -1;
    return memcmp(x, y, len) == 0;
}

int byte_scan_equal(struct byte_scan *s, uint64_t off, uint64_t len)
{
    if (!s || off > s->n || len > s->n - off)
        return -1;
    uint64_t end = off + len;
    pthread_mutex_lock(&s->lock);
    while (s->done < end && !s->failed)
        pthread_cond_wait(&s->moved, &s->lock);
    bool passed = s->done >= end;
    pthread_mutex_unlock(&s->lock);
    if (!passed)
        return -1;
    for (uint64_t g = off / GRANULE; len && g <= (end - 1) / GRANULE; g++) {
        if (!marked(s, g))
            continue;
        uint64_t lo = g * GRANULE > off ? g * GRANULE : off;
        uint64_t hi = (g + 1) * GRANULE < end ? (g + 1) * GRANULE : end;
        int eq = reread_equal(s, lo, (size_t)(hi - lo));
        if (eq != 1)
            return eq;
    }
    return 1;
}

void byte_scan_stop(struct byte_scan *s)
{
    if (!s)
        return;
    if (s->started) {
        pthread_mutex_lock(&s->lock);
        s->stop = true;
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->thread, NULL);
    }
    if (s->fa >= 0)
        close(s->fa);
    if (s->fb >= 0)
        close(s->fb);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->moved);
    free(s->diff);
    free(s->buf);
    free(s);
}
