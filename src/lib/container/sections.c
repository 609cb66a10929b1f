/* The sections a library's header names, in the order the header lists
 * them: what the explorer's node tree shows as a library's children
 * (model/node.c) and what the byte-layout walk claims bytes for
 * (checks/layout.c). One list here, so the two cannot disagree on which
 * sections a library has or where they are. */
#include "config.h"

#include "container/header.h"
#include "container/sources.h"

size_t mbx_library_sections(const mtlbx_library *lib, struct mtlbx_section out[MTLBX_SECTIONS_MAX])
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    size_t n = 0;
#define SECTION(k, r) (out[n++] = (struct mtlbx_section){ .kind = (k), .range = (r) })
    SECTION(MTLBX_SECTION_HEADER, ((struct mtlbx_range){ h->base, h->available < 88 ? h->available : 88 }));
    if (!h->complete)
        return n; /* the rest of the header is not there to name them */
    SECTION(MTLBX_SECTION_FUNCTION_LIST, h->function_list);
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    if (ext && ext->present)
        SECTION(MTLBX_SECTION_HEADER_EXT, ext->range);
    SECTION(MTLBX_SECTION_PUBLIC_MD, h->public_md);
    SECTION(MTLBX_SECTION_PRIVATE_MD, h->private_md);
    SECTION(MTLBX_SECTION_MODULE_LIST, h->modules);
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (src && src->present)
        SECTION(MTLBX_SECTION_SOURCES, src->range);
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(lib);
    if (dyn && dyn->present)
        SECTION(MTLBX_SECTION_DYNAMIC_HEADER, dyn->range);
    for (int i = 0; i < MTLBX_LIST_COUNT; i++) {
        const struct mtlbx_list *l = mbx_library_list(lib, (enum mtlbx_list_kind)i);
        if (l && l->present) {
            SECTION(MTLBX_SECTION_LIST, l->range);
            out[n - 1].list = (enum mtlbx_list_kind)i;
        }
    }
#undef SECTION
    return n;
}
