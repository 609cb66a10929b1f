/* Letting a streaming pass's pages of the mapping go as it moves on: the
 * span of the modules read since the last release is given back 8 MB at
 * a time (a page shared by two modules goes with the span, not with
 * either module; and on kernels whose page cache has large folios a
 * fault maps far more than the module read). Used by dump --interfaces,
 * extract and the explorer's sweeps; the pages stay readable, mapped
 * again from the page cache when touched, so this changes memory use,
 * never what is read. */
#ifndef MTLBX_UTIL_SPAN_RELEASE_H
#define MTLBX_UTIL_SPAN_RELEASE_H

#include "container/types.h"

struct span_release {
    const mtlbx_file *file;
    uint64_t lo, hi;           /* lo > hi: nothing pending */
};

#define SPAN_RELEASE_STEP ((uint64_t)8 << 20)

void span_release_init(struct span_release *s, const mtlbx_file *file);
/* Adds r (bytes of s->file just read) and lets the span go once it
 * reaches SPAN_RELEASE_STEP. */
void span_release_add(struct span_release *s, struct mtlbx_range r);
/* Lets whatever is pending go. */
void span_release_flush(struct span_release *s);

#endif
