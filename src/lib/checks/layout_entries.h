/* The function entries and metadata the layout walk reads (layout.c),
 * without filling the library's tables: `check` walks the layout on one
 * thread while the hash pass reads entries on the others, so nothing may
 * be dropped behind the walk, and at a million functions the filled
 * tables alone would be ~330 MB (issue 22). Within a section, entries
 * asked for in function order are decoded a block at a time into the
 * reader's own buffers; one asked for behind them (a section whose parts
 * are not in function order) comes from the table, as before, so a
 * hostile order never decodes a block more than once per section. */
#ifndef MTLBX_LAYOUT_ENTRIES_H
#define MTLBX_LAYOUT_ENTRIES_H

#include "container/cursor.h"

/* The sections with a piece per function. */
enum layout_pieces { PIECES_PUBLIC_MD, PIECES_PRIVATE_MD, PIECES_MODULES, PIECES_KINDS };

struct layout_entries {
    mtlbx_library *lib;         /* whose entries the cursors hold */
    bool order_known, in_order[PIECES_KINDS]; /* layout_in_order's, for lib */
    struct function_cursor fn;
    struct metadata_cursor md;
    size_t fn_floor, md_floor;  /* the lowest block the cursors may still decode */
};

/* A new section starts: its entries may begin again at function 0. */
void layout_entries_rewind(struct layout_entries *e);
/* Function i of lib, or its metadata (NULL when there is none); the
 * pointer lasts until the next call. */
const struct mtlbx_function *layout_function(struct layout_entries *e, mtlbx_library *lib, size_t i);
const struct mtlbx_metadata *layout_metadata(struct layout_entries *e, mtlbx_library *lib, size_t i);
/* Function i's public or private metadata group (size 0: none), for
 * which its tags need not be decoded. */
struct mtlbx_range layout_group(struct layout_entries *e, mtlbx_library *lib, size_t i, bool private_md);
/* May the section's pieces be taken in function order (each starts at or
 * after the one before)? False when in doubt: sorting gives the same
 * pieces in the same order. One pass over the entries answers for all
 * three sections. */
bool layout_in_order(struct layout_entries *e, mtlbx_library *lib, enum layout_pieces which);
void layout_entries_free(struct layout_entries *e);

#endif
