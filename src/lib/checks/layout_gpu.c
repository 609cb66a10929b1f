/* The GPU slice parts of the byte layout (layout_gpu.h). */
#include "config.h"
#include "container/grow.h"
#include "checks/layout_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool push(struct layout_gpu_part **v, size_t *n, size_t *cap, struct layout_gpu_part p)
{
    if (!grow_array((void **)v, cap, *n + 1, sizeof **v))
        return false;
    (*v)[(*n)++] = p;
    return true;
}

long layout_gpu_parts(const mtlbx_file *f, uint32_t slice, long piece, struct layout_gpu_part **out)
{
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, slice);
    struct layout_gpu_part *v = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    *out = NULL;
    if (piece < 0) {
        for (size_t i = 0; ok && i < g->n_pieces; i++)
            ok = push(&v, &n, &cap, (struct layout_gpu_part){ LAYOUT_GPU_PIECE, g->pieces[i].offset,
                                                              g->pieces[i].size, (uint32_t)i, NULL });
    } else if (g->pieces[piece].kind == MTLBX_GPU_PIECE_SECTION) {
        const struct mtlbx_gpu_piece *p = &g->pieces[piece];
        for (size_t i = 0; ok && i < g->n_functions; i++)
            if (g->functions[i].section == p->index)
                ok = push(&v, &n, &cap, (struct layout_gpu_part){ LAYOUT_GPU_FUNCTION, g->functions[i].offset,
                                                                  g->functions[i].size, (uint32_t)i, NULL });
        mtlbx_library *lib = g->embedded_library >= 0 ? mbx_library_at(f, (size_t)g->embedded_library) : NULL;
        const struct mtlbx_header *h = lib ? mbx_library_header(lib) : NULL;
        if (ok && h && h->base >= p->offset && h->base < p->offset + p->size)
            ok = push(&v, &n, &cap, (struct layout_gpu_part){ LAYOUT_GPU_LIBRARY, h->base, h->available,
                                                              (uint32_t)g->embedded_library, lib });
    }
    if (!ok) {
        free(v);
        return -1;
    }
    *out = v;
    return (long)n;
}

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
