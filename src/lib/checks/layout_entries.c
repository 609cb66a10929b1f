/* Entries for the layout walk without filling the library's tables: see
 * layout_entries.h. */
#include "config.h"
#include "container/library.h"
#include "checks/layout_entries.h"

static void switch_library(struct layout_entries *e, mtlbx_library *lib)
{
    if (e->lib == lib)
        return;
    function_cursor_free(&e->fn);
    metadata_cursor_free(&e->md);
    e->lib = lib;
    e->fn_floor = e->md_floor = 0;
    e->order_known = false;
}

void layout_entries_rewind(struct layout_entries *e)
{
    e->fn_floor = e->md_floor = 0;
}

const struct mtlbx_function *layout_function(struct layout_entries *e, mtlbx_library *lib, size_t i)
{
    switch_library(e, lib);
    size_t k = i / LAZY_BLOCK;
    if (i >= mbx_library_function_count(lib) || k < e->fn_floor)
        return mbx_function_at(lib, i);
    e->fn_floor = k;
    return function_cursor_at(lib, &e->fn, i);
}

const struct mtlbx_metadata *layout_metadata(struct layout_entries *e, mtlbx_library *lib, size_t i)
{
    switch_library(e, lib);
    size_t k = i / LAZY_BLOCK;
    if (i >= mbx_library_function_count(lib) || k < e->md_floor)
        return mbx_function_metadata(lib, i);
    library_decode_rest(lib);
    e->md_floor = k;
    return metadata_cursor_at(lib, &e->md, &e->fn, i);
}

struct mtlbx_range layout_group(struct layout_entries *e, mtlbx_library *lib, size_t i, bool private_md)
{
    switch_library(e, lib);
    size_t k = i / LAZY_BLOCK;
    if (i >= mbx_library_function_count(lib) || k < e->md_floor) {
        const struct mtlbx_metadata *md = mbx_function_metadata(lib, i);
        return private_md ? md->private_group : md->public_group;
    }
    library_decode_rest(lib);
    e->md_floor = k;
    return metadata_group_at(lib, &e->md, &e->fn, i, private_md);
}

/* Where function fn's piece in a section would start, or false when it
 * has none for sure. The pieces named here are a superset of the walk's
 * (a metadata group that does not end inside its section is not one),
 * at the same offsets: when these are in order, so are those. Read from
 * the entry alone, without finding where each group ends. */
static bool piece_start(mtlbx_library *lib, const struct mtlbx_function *fn, enum layout_pieces which,
                        uint64_t *off)
{
    if (which == PIECES_MODULES) {
        *off = fn->module.offset;
        return true;
    }
    bool private_md = which == PIECES_PRIVATE_MD;
    const struct mtlbx_header *h = mbx_library_header(lib);
    struct mtlbx_range sec = private_md ? h->private_md : h->public_md;
    if (!(fn->present & MTLBX_F_OFFT) || fn->offt[private_md] >= sec.size)
        return false;
    *off = sec.offset + fn->offt[private_md];
    return true;
}

bool layout_in_order(struct layout_entries *e, mtlbx_library *lib, enum layout_pieces which)
{
    switch_library(e, lib);
    if (!e->order_known) {
        uint64_t last[PIECES_KINDS] = { 0 };
        size_t n = mbx_library_function_count(lib);
        for (int w = 0; w < PIECES_KINDS; w++)
            e->in_order[w] = true;
        layout_entries_rewind(e);
        for (size_t i = 0; i < n && i < UINT32_MAX; i++) {
            const struct mtlbx_function *fn = layout_function(e, lib, i);
            for (int w = 0; w < PIECES_KINDS; w++) {
                uint64_t off;
                if (piece_start(lib, fn, (enum layout_pieces)w, &off)) {
                    e->in_order[w] &= off >= last[w];
                    last[w] = off;
                }
            }
        }
        e->order_known = true;
    }
    return e->in_order[which];
}

void layout_entries_free(struct layout_entries *e)
{
    function_cursor_free(&e->fn);
    metadata_cursor_free(&e->md);
    *e = (struct layout_entries){ 0 };
}
