/* The dynamic header (FORMAT §10: NAME and DYNL tags ending in ENDT) and
 * the four list sections that share one shape (FORMAT §11, §12): a u32
 * count and size-prefixed tag groups. A list is located at open and its
 * groups walked on first need (library.c calls decode_lists). VLST and
 * ILST are "like the function list"; RLST groups hold an RBUF, SLST groups
 * an SBUF. */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"
#include "container/tag_walk.h"
#include "container/lower_bound.h"

#include <stdlib.h>
#include <string.h>

static void parse_dynamic_header(mtlbx_library *lib)
{
    struct mtlbx_dynamic_header *d = &lib->dyn;
    if (!ext_section(lib, FOURCC('H', 'D', 'Y', 'N'), "dynamic header", &d->range, NULL))
        return;
    d->present = true;
    size_t cap = 0;
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, lib->file, d->range.offset, d->range.size);
    while (mbx_tag_walk_next(&w, &t)) {
        const uint8_t *nul = memchr(t.value, 0, (size_t)t.value_len);
        struct mtlbx_bytes s = { t.value, nul ? (size_t)(nul - t.value) : (size_t)t.value_len };
        switch (t.fourcc) {
        case FOURCC('N', 'A', 'M', 'E'):
            if (!nul)
                lib_warning(lib, t.offset, "NAME has no terminating NUL");
            if (!d->has_name) {
                d->name = s;
                d->has_name = true;
            }
            break;
        case FOURCC('D', 'Y', 'N', 'L'):
            if (!nul)
                lib_warning(lib, t.offset, "DYNL has no terminating NUL");
            if (grow_array((void **)&lib->dyn_linked, &cap, d->n_linked + 1, sizeof *lib->dyn_linked))
                lib->dyn_linked[d->n_linked++] = s;
            else
                lib_out_of_memory(lib, t.offset, "out of memory for the dynamic header's linked libraries");
            break;
        default:
            lib_warning(lib, t.offset, "unknown dynamic header tag '%s'", t.name);
            break;
        }
    }
    d->linked = lib->dyn_linked;
    if (!w.ended)
        lib_error(lib, w.pos, "dynamic header has no ENDT inside its 0x%llx bytes",
                  (unsigned long long)d->range.size);
}

static const struct {
    uint32_t fourcc;
    const char *tag, *what;
} list_kinds[MTLBX_LIST_COUNT] = {
    [MTLBX_LIST_VLST] = { FOURCC('V', 'L', 'S', 'T'), "VLST", "variable list" },
    [MTLBX_LIST_ILST] = { FOURCC('I', 'L', 'S', 'T'), "ILST", "imported symbol list" },
    [MTLBX_LIST_RLST] = { FOURCC('R', 'L', 'S', 'T'), "RLST", "reflection list" },
    [MTLBX_LIST_SLST] = { FOURCC('S', 'L', 'S', 'T'), "SLST", "script list" },
};

/* At open: where the list is (its range takes part in the overlap check). */
static void locate_list(mtlbx_library *lib, enum mtlbx_list_kind k)
{
    struct mtlbx_list *l = &lib->lists[k];
    memcpy(l->tag, list_kinds[k].tag, 5);
    if (!ext_section(lib, list_kinds[k].fourcc, list_kinds[k].what, &l->range, NULL))
        return;
    l->present = true;
    if (l->range.size < 4)
        lib_error(lib, l->range.offset, "%s has no room for its count", list_kinds[k].what);
    else
        l->declared_count = rd32(lib->file->data + l->range.offset);
}

/* On first need: its groups. A reflection list holds one per function. */
static void walk_list(mtlbx_library *lib, enum mtlbx_list_kind k)
{
    struct mtlbx_list *l = &lib->lists[k];
    if (!l->present || l->range.size < 4)
        return;
    uint64_t pos = l->range.offset + 4, end = l->range.offset + l->range.size;
    uint64_t room = (end - pos) / 8;
    uint32_t count = l->declared_count;
    if (count > room) {
        lib_error(lib, l->range.offset, "%s count %u is more than its section can hold (%llu)",
                  list_kinds[k].what, count, (unsigned long long)room);
        count = (uint32_t)room;
    }
    size_t cap = 0;
    uint64_t released = pos;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t body, gend;
        /* A reflection list of a million groups is read once: its pages
         * need not stay behind the walk. */
        if (i % 4096 == 4095) {
            file_release_pages(lib->file, released, pos - released);
            released = pos;
        }
        if (!group_bounds(lib, pos, end, list_kinds[k].what, true, &body, &gend))
            break;
        if (!grow_array((void **)&lib->list_groups[k], &cap, l->n_groups + 1, sizeof **lib->list_groups)) {
            lib_out_of_memory(lib, pos, "out of memory after %zu %s entries", l->n_groups, list_kinds[k].what);
            break;
        }
        lib->list_groups[k][l->n_groups++] = (struct mtlbx_range){ pos, gend - pos };
        pos = gend;
    }
    l->groups = lib->list_groups[k];
}

struct group_key {
    const struct mtlbx_range *groups;
    uint64_t target;
};

static bool group_before(const void *ctx, size_t i)
{
    const struct group_key *k = ctx;
    return k->groups[i].offset < k->target;
}

/* RFLT is relative to RLST and must land on one of its groups (FORMAT §12). */
static void check_rflt(mtlbx_library *lib, struct function_cursor *fns)
{
    const struct mtlbx_list *r = &lib->lists[MTLBX_LIST_RLST];
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_function *fn = function_cursor_at(lib, fns, i);
        if (!(fn->present & MTLBX_F_RFLT))
            continue;
        bool hit = false;
        if (r->present && fn->rflt < r->range.size) {
            /* Groups are in offset order: binary search. */
            struct group_key k = { r->groups, r->range.offset + fn->rflt };
            size_t lo = mtlbx_lower_bound(r->n_groups, group_before, &k);
            hit = lo < r->n_groups && r->groups[lo].offset == k.target;
        }
        if (!hit)
            lib_error(lib, fn->entry_offset, "function %zu: RFLT 0x%llx points at no reflection group", i,
                      (unsigned long long)fn->rflt);
    }
}

void parse_dynamic_and_lists(mtlbx_library *lib)
{
    parse_dynamic_header(lib);
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        locate_list(lib, (enum mtlbx_list_kind)k);
}

void decode_lists(mtlbx_library *lib, struct function_cursor *fns)
{
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        walk_list(lib, (enum mtlbx_list_kind)k);
    check_rflt(lib, fns);
}

const struct mtlbx_dynamic_header *mbx_library_dynamic_header(const mtlbx_library *lib) { return &lib->dyn; }

