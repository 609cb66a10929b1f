/* What the byte layout (layout.c) walks inside a binary archive's GPU
 * slice (gpu_slice.h): its pieces, and inside a code section its
 * functions and, in __metallib, the embedded library; and the names its
 * paths give them ("slice[0]/__TEXT,__compute/gpu_function[0]"). */
#ifndef MTLBX_LAYOUT_GPU_H
#define MTLBX_LAYOUT_GPU_H

#include "container/container.h"

enum layout_gpu_kind { LAYOUT_GPU_PIECE, LAYOUT_GPU_FUNCTION, LAYOUT_GPU_LIBRARY };

struct layout_gpu_part {
    enum layout_gpu_kind kind;
    uint64_t offset, size;
    uint32_t index;            /* piece, function, or library */
    mtlbx_library *lib;        /* LAYOUT_GPU_LIBRARY */
};

/* The parts of GPU slice `slice` (piece < 0: its pieces) or of one of its
 * pieces, in *out (malloc'd; free it). Returns their count; -1 when
 * memory ran out. */
long layout_gpu_parts(const mtlbx_file *f, uint32_t slice, long piece, struct layout_gpu_part **out);
/* A piece's path segment: "macho_header", "__TEXT,__compute", "note[0]" ... */
void layout_gpu_segment(const mtlbx_file *f, uint32_t slice, uint32_t piece, char *out, size_t size);
/* Whether the piece is padding (zeros a segment holds between pieces). */
bool layout_gpu_padding(const mtlbx_file *f, uint32_t slice, uint32_t piece);

#endif
