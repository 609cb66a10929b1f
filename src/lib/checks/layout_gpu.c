/* What the byte layout says of GPU slice pieces (layout_gpu.h). */
#include "config.h"
#include "checks/layout_gpu.h"
#include "container/escape.h"
#include "container/gpu_slice.h"

#include <stdio.h>
#include <string.h>

void layout_gpu_segment(const mtlbx_file *f, uint32_t slice, uint32_t piece, char *out, size_t size)
{
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, slice);
    const struct mtlbx_gpu_piece *p = &g->pieces[piece];
    static const char *const names[] = { "macho_header", "load_commands", "note", "section", "symbols", "strings",
                                         "padding" };
    char a[72], b[72];
    if (p->kind == MTLBX_GPU_PIECE_SECTION) { /* each name is 16 bytes at most, escaped: cut */
        const struct mtlbx_gpu_section *s = &g->sections[p->index];
        mbx_escape((const uint8_t *)s->segment, strlen(s->segment), MTLBX_ESC_TERMINAL, a, sizeof a);
        mbx_escape((const uint8_t *)s->section, strlen(s->section), MTLBX_ESC_TERMINAL, b, sizeof b);
        snprintf(out, size, "%.24s,%.24s", a, b);
    } else if (p->kind == MTLBX_GPU_PIECE_NOTE) {
        snprintf(out, size, "note[%zu]", p->index);
    } else {
        snprintf(out, size, "%s", names[p->kind]);
    }
}

bool layout_gpu_padding(const mtlbx_file *f, uint32_t slice, uint32_t piece)
{
    return mbx_gpu_slice_at(f, slice)->pieces[piece].kind == MTLBX_GPU_PIECE_PADDING;
}
