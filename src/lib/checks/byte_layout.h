/* The byte layout (src/lib/checks/layout.c): which parsed structure
 * claims every byte of the file, as an object of its own the caller frees
 * (mbx_layout_free), never state of the file handle. */
#ifndef MTLBX_CHECKS_BYTE_LAYOUT_H
#define MTLBX_CHECKS_BYTE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

/* --------------------------------------------------------------- layout -- */

/* Which structure claims every byte of the file (layout.c): leaf regions
 * in file order that tile [0, size) exactly. Bytes no structure explains
 * are UNCLAIMED; runs that exist only to align something and should be
 * zero are PADDING. */
enum mtlbx_region_kind { MTLBX_REGION_CLAIMED, MTLBX_REGION_PADDING, MTLBX_REGION_UNCLAIMED };

struct mtlbx_region {
    uint64_t offset, size;
    enum mtlbx_region_kind kind;
    /* Path of the claiming structure as the explorer's tree names it,
     * "library[0]/function_list/function[3]/NAME", or "unclaimed". Valid
     * during the callback only. */
    const char *what;
    bool nonzero;              /* PADDING that holds a non-zero byte */
};
/* Return false to stop the walk. */
typedef bool (*mtlbx_region_fn)(void *ctx, const struct mtlbx_region *r);

/* Calls fn for every region, in file order, never holding more than one
 * function's structures at a time. Returns false when fn stopped it or
 * memory ran out (then the regions seen so far do not cover the file). */
bool mbx_layout_walk(mtlbx_file *f, mtlbx_region_fn fn, void *ctx);

struct mtlbx_layout_summary {
    uint64_t claimed, padding, unclaimed;      /* bytes */
    size_t unclaimed_runs, dirty_padding_runs; /* dirty: holds a non-zero byte */
    bool complete;                             /* the walk covered the file */
};
/* What one layout walk found: the totals, and the unclaimed runs for the
 * views. Owned by whoever asked for it (mbx_layout_free). */
struct mtlbx_layout {
    struct mtlbx_layout_summary summary;
    /* private: the first unclaimed runs, in file order */
    size_t n_runs;
    struct mtlbx_range *runs;
};
/* One walk: its layout, and a warning diagnostic for every unclaimed run
 * and every dirty padding run, at the run's offset (in the library that
 * holds it, else in the file's list). Each call adds those findings, so
 * walk a file once and keep the result. NULL when out of memory. */
struct mtlbx_layout *mbx_layout_check(mtlbx_file *f);
void mbx_layout_free(struct mtlbx_layout *layout);
/* The unclaimed run containing `offset`, or the first one after it
 * (`after`); false if there is none (or layout is NULL). */
bool mbx_layout_unclaimed_at(const struct mtlbx_layout *layout, uint64_t offset, bool after,
                               struct mtlbx_range *run);

#endif
