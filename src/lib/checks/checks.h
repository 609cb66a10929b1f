/* The checks layer's face (src/lib/checks): what is found by reading the
 * container and the bitcode together, beyond parsing either. For now the
 * byte layout: which parsed structure claims every byte of the file. It
 * knows the container and the bitcode reader, and nothing above them:
 * never the node model or the comparison (model/ and compare/ call it,
 * never the other way). Its per-file results hang off the file through
 * container/file_attach.c. It never prints. Included by mtlbx.h, whose
 * types it uses. */
#ifndef MTLBX_CHECKS_H
#define MTLBX_CHECKS_H

#include "mtlbx.h"

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
bool mtlbx_layout_walk(mtlbx_file *f, mtlbx_region_fn fn, void *ctx);

struct mtlbx_layout_summary {
    uint64_t claimed, padding, unclaimed;      /* bytes */
    size_t unclaimed_runs, dirty_padding_runs; /* dirty: holds a non-zero byte */
    bool complete;                             /* the walk covered the file */
};
/* One walk, cached: the totals, the unclaimed runs (for the views) and, the
 * first time, a warning diagnostic for every unclaimed run and every dirty
 * padding run, at the run's offset (in the library that holds it, else in
 * the file's list). */
const struct mtlbx_layout_summary *mtlbx_layout_check(mtlbx_file *f);
/* After mtlbx_layout_check: the unclaimed run containing `offset`, or the
 * first one after it (`after`); false if there is none. */
bool mtlbx_layout_unclaimed_at(mtlbx_file *f, uint64_t offset, bool after, struct mtlbx_range *run);

#endif
