/* The generic tag encoding (FORMAT §3): FourCC, u16 length (u32 for the
 * "wide" tags), value; ENDT has no length at all. Every walk is bounded by
 * an outer span and never trusts a group's size prefix to locate data. */
#include "config.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/report.h"
#include "container/tag_walk.h"
#include "container/nouns.h"

#include <stdio.h>
#include <string.h>

/* Tags whose length field is a u32 (FORMAT §3.1, P5). */
bool tag_is_wide(uint32_t fourcc)
{
    return fourcc == FOURCC('S', 'A', 'R', 'C') || fourcc == FOURCC('R', 'B', 'U', 'F') ||
           fourcc == FOURCC('S', 'B', 'U', 'F') || fourcc == FOURCC('R', 'B', 'U', 'Z');
}

void tag_fill_name(char name[5], uint32_t fourcc)
{
    /* Every byte printable ASCII (0x20..0x7E) is the common case; test the
     * four at once: no byte below 0x20 and none at or above 0x7F. */
    uint32_t below = (fourcc - 0x20202020u) & ~fourcc & 0x80808080u;
    uint32_t above = (fourcc + 0x01010101u) | fourcc;
    if (!below && !(above & 0x80808080u)) {
        memcpy(name, &fourcc, 4);
    } else {
        for (int i = 0; i < 4; i++) {
            unsigned c = (fourcc >> (8 * i)) & 0xFF;
            name[i] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
        }
    }
    name[4] = '\0';
}

void mbx_tag_walk_init(struct mtlbx_tag_walk *w, const mtlbx_file *f, uint64_t offset, uint64_t len)
{
    *w = (struct mtlbx_tag_walk){ .file = f, .pos = offset };
    /* Clip the bound to the file so a bogus length cannot walk past it. */
    if (offset > f->size)
        w->pos = w->end = f->size;
    else
        w->end = (len > f->size - offset) ? f->size : offset + len;
}

bool mbx_tag_walk_next(struct mtlbx_tag_walk *w, struct mtlbx_tag *out)
{
    if (!tag_walk_step(w, out))
        return false;
    out->known = tag_known(out->fourcc);
    tag_fill_name(out->name, out->fourcc);
    return true;
}

bool tag_walk_step(struct mtlbx_tag_walk *w, struct mtlbx_tag *out)
{
    if (w->done)
        return false;
    const uint8_t *data = w->file->data;
    uint64_t left = w->end - w->pos;
    if (left < 4) {
        w->done = w->truncated = true;
        return false;
    }
    uint32_t fourcc = rd32(data + w->pos);
    if (fourcc == TAG_ENDT) {
        w->done = w->ended = true;
        w->pos += 4;
        return false;
    }
    uint32_t hlen = tag_is_wide(fourcc) ? 8 : 6;
    if (left < hlen) {
        w->done = w->truncated = true;
        return false;
    }
    uint64_t vlen = hlen == 8 ? rd32(data + w->pos + 4) : rd16(data + w->pos + 4);
    if (vlen > left - hlen) {
        w->done = w->truncated = true;
        return false;
    }
    *out = (struct mtlbx_tag){
        .fourcc = fourcc,
        .offset = w->pos,
        .header_len = hlen,
        .value_offset = w->pos + hlen,
        .value_len = vlen,
        .value = data + w->pos + hlen,
    };
    w->pos += hlen + vlen;
    w->count++;
    return true;
}

/* A size-prefixed group: u32 size, tags, ENDT. The prefix counts itself
 * (air-lld) or not (the standalone metallib tool, P2); we find ENDT by
 * walking and then check which convention the prefix follows. */
bool group_bounds(mtlbx_library *lib, uint64_t off, uint64_t limit, const char *what,
                  bool accept_excluding, uint64_t *body, uint64_t *end)
{
    const mtlbx_file *f = lib->file;
    if (limit > f->size)
        limit = f->size;
    if (off > limit || limit - off < 4) {
        lib_error(lib, off, "%s: group at 0x%llx lies outside its section", what, (unsigned long long)off);
        return false;
    }
    uint32_t declared = rd32(f->data + off);
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, f, off + 4, limit - off - 4);
    /* A quiet second decoding reads only what the first pass read within
     * the budget (lazy_table.c): it takes nothing from it. */
    bool budgeted = !diag_quiet();
    while (mbx_tag_walk_next(&w, &t)) {
        if (budgeted && w.pos - off > lib->walk_budget) {
            if (!lib->walk_budget_reported)
                lib_error(lib, off, "%s: tag groups overlap so much that reading them would take more than "
                          "8 times the file's size; the rest are skipped", what);
            lib->walk_budget_reported = true;
            lib->walk_budget = 0;
            return false;
        }
    }
    if (budgeted)
        lib->walk_budget -= w.pos - off < lib->walk_budget ? w.pos - off : lib->walk_budget;
    if (!w.ended) {
        lib_error(lib, w.pos, "%s: tag group at 0x%llx has no ENDT before 0x%llx", what,
                  (unsigned long long)off, (unsigned long long)limit);
        *body = off + 4;
        *end = limit;
        return false;
    }
    uint64_t used = w.pos - off;
    if (declared != used && !(accept_excluding && declared + 4 == used))
        lib_error(lib, off, "%s: group size prefix %u matches neither convention (tags use %llu %s)",
                  what, declared, (unsigned long long)used, mbx_noun(used, "byte", "bytes"));
    *body = off + 4;
    *end = w.pos;
    return true;
}
