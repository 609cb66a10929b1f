/* The header extension (FORMAT §5): unprefixed tags between the end of the
 * function list and the public metadata, ending in ENDT. It may be absent
 * (1.2.1, 1.2.2), empty (just ENDT) or carry UUID and section pointers. */
#include "config.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"
#include "container/nouns.h"

#include <stdlib.h>
#include <string.h>

void parse_header_ext(mtlbx_library *lib)
{
    const struct mtlbx_header *h = &lib->header;
    struct mtlbx_header_ext *ext = &lib->ext;
    if (!h->complete)
        return;
    uint64_t start = h->function_list.offset + h->function_list.size;
    uint64_t end = h->public_md.offset;
    /* The extension's presence is inferred from a gap, exactly as YuAo's
     * reader does: list end != public metadata start. */
    if (start == end)
        return;
    if (end < start) {
        lib_error(lib, h->base + 0x28, "public metadata (0x%llx) starts inside the function list (ends 0x%llx)",
                  (unsigned long long)end, (unsigned long long)start);
        return;
    }
    ext->present = true;
    ext->range = (struct mtlbx_range){ start, end - start };
    size_t cap = 0;
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, lib->file, start, end - start);
    while (mbx_tag_walk_next(&w, &t)) {
        if (!grow_array((void **)&lib->ext_tags, &cap, ext->n_tags + 1, sizeof *lib->ext_tags)) {
            lib_out_of_memory(lib, t.offset, "out of memory for the header extension");
            break;
        }
        lib->ext_tags[ext->n_tags++] = t;
        switch (t.fourcc) {
        case FOURCC('U', 'U', 'I', 'D'):
            if (t.value_len != 16) {
                lib_error(lib, t.offset, "UUID value is %llu bytes, expected 16", (unsigned long long)t.value_len);
            } else if (!ext->has_uuid) {
                memcpy(ext->uuid, t.value, 16);
                ext->has_uuid = true;
            }
            break;
        case FOURCC('H', 'S', 'R', 'C'): case FOURCC('H', 'S', 'R', 'D'): case FOURCC('H', 'D', 'Y', 'N'):
        case FOURCC('V', 'L', 'S', 'T'): case FOURCC('I', 'L', 'S', 'T'): case FOURCC('R', 'L', 'S', 'T'):
        case FOURCC('S', 'L', 'S', 'T'): case FOURCC('H', 'S', 'R', 'P'):
            if (t.value_len != 16)
                lib_error(lib, t.offset, "%s value is %llu bytes, expected an offset and a size (16)", t.name,
                          (unsigned long long)t.value_len);
            break;
        default:
            lib_warning(lib, t.offset, "unknown header extension tag '%s'", t.name);
            break;
        }
    }
    ext->tags = lib->ext_tags;
    if (!w.ended)
        lib_error(lib, w.pos, "header extension has no ENDT before the public metadata at 0x%llx",
                  (unsigned long long)end);
    else if (w.pos != end)
        lib_warning(lib, w.pos, "%llu %s between the header extension's ENDT and the public metadata",
                    (unsigned long long)(end - w.pos), mbx_noun(end - w.pos, "byte", "bytes"));
}

const struct mtlbx_header_ext *mbx_library_header_ext(const mtlbx_library *lib) { return &lib->ext; }

/* Finds a (offset, size) section pointer in the extension and resolves it
 * against the library base. Returns false when absent or malformed. */
bool ext_section(mtlbx_library *lib, uint32_t fourcc, const char *what, struct mtlbx_range *out,
                 const struct mtlbx_tag **tag_out)
{
    for (size_t i = 0; i < lib->ext.n_tags; i++) {
        const struct mtlbx_tag *t = &lib->ext_tags[i];
        if (t->fourcc != fourcc || t->value_len != 16)
            continue;
        uint64_t off = rd64(t->value), size = rd64(t->value + 8);
        uint64_t avail = lib->header.available;
        if (tag_out)
            *tag_out = t;
        if (off > avail || size > avail - off) {
            lib_damaged(lib, t->offset, "%s (0x%llx + 0x%llx) lies outside the library (0x%llx bytes)", what,
                      (unsigned long long)off, (unsigned long long)size, (unsigned long long)avail);
            return false;
        }
        *out = (struct mtlbx_range){ lib->header.base + off, size };
        return true;
    }
    return false;
}
