/* What the byte layout (layout.c) says of a binary archive's GPU slice
 * (gpu_slice.h) beyond its parts (structure.c): the names its paths give
 * them ("slice[0]/__TEXT,__compute/gpu_function[0]"), and which pieces
 * are padding. */
#ifndef MTLBX_LAYOUT_GPU_H
#define MTLBX_LAYOUT_GPU_H

#include <stdbool.h>

#include "container/types.h"

/* A piece's path segment: "macho_header", "__TEXT,__compute", "note[0]" ... */
void layout_gpu_segment(const mtlbx_file *f, uint32_t slice, uint32_t piece, char *out, size_t size);
/* Whether the piece is padding (zeros a segment holds between pieces). */
bool layout_gpu_padding(const mtlbx_file *f, uint32_t slice, uint32_t piece);

#endif
