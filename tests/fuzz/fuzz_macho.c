/* libFuzzer harness over the Mach-O reader (src/lib/container/macho.c).
 * Each input is read twice: through a reader that serves any offset (a
 * mapped file) and through one that refuses to go back (an archive member
 * being decompressed), which is what the reader promises to be enough.
 * Either way the harness checks what macho.h promises: every section
 * handed out lies inside the input and after the one before it in its
 * slice, its names are NUL-terminated, its slice exists, every
 * diagnostic has a message, and the walk ends. Any broken promise aborts.
 * Seeds: tests/fuzz/seeds/macho, written by tests/mkmacho.py --seeds. */
#include "config.h"

#include "container/diagnostics.h"
#include "container/macho.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: broken promise: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

struct source {
    const uint8_t *data;
    size_t size;
    bool forward_only;
    uint64_t pos;              /* forward_only: what was passed */
};

static bool read_at(void *ctx, uint64_t offset, void *buf, size_t n)
{
    struct source *s = ctx;
    if (offset > s->size || n > s->size - offset)
        return false;
    if (s->forward_only) {
        CHECK(offset >= s->pos); /* the reader asks in increasing offset order */
        s->pos = offset + n;
    }
    memcpy(buf, s->data + offset, n);
    return true;
}

static void walk(const uint8_t *data, size_t size, bool forward_only)
{
    struct source src = { data, size, forward_only, 0 };
    mtlbx_macho *m = mbx_macho_open(size, read_at, &src);
    if (!m)
        return; /* out of memory */
    struct mtlbx_macho_section sec;
    size_t n = 0, last_slice = SIZE_MAX;
    uint64_t last_end = 0;
    while (mbx_macho_next_section(m, &sec)) {
        CHECK(++n <= MTLBX_MACHO_MAX_SECTIONS);
        CHECK(sec.offset <= size && sec.size <= size - sec.offset && sec.size > 0);
        CHECK(memchr(sec.segment, '\0', sizeof sec.segment) && memchr(sec.section, '\0', sizeof sec.section));
        const struct mtlbx_macho_slice *sl = mbx_macho_slice_at(m, sec.slice);
        CHECK(sl && sl->parsed);
        CHECK(sec.offset >= sl->offset && sec.offset + sec.size <= sl->offset + sl->size);
        CHECK(sl->n_min_os <= MTLBX_MACHO_MAX_MIN_OS);
        if (sec.slice == last_slice)
            CHECK(sec.offset >= last_end); /* no overlap within a slice */
        last_slice = sec.slice;
        last_end = sec.offset + sec.size;
        /* What a caller does next: look at the section's first bytes. */
        if (sec.size >= 4 && !(forward_only && sec.offset < src.pos))
            src.pos = sec.offset + 4;
    }
    for (size_t i = 0; i < mbx_macho_slice_count(m); i++)
        CHECK(mbx_macho_slice_at(m, i)->offset <= size || size == 0);
    for (size_t i = 0; i < mbx_macho_diag_count(m); i++) {
        const struct mtlbx_diag *d = mbx_macho_diag(m, i);
        CHECK(d && d->message && d->message[0]);
    }
    CHECK(!mbx_macho_diag(m, mbx_macho_diag_count(m)));
    mbx_macho_close(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)mbx_macho_magic(data, size);
    walk(data, size, false);
    walk(data, size, true);
    return 0;
}
