/* What info, ls and find print about the GPU slices of a binary archive
 * (FORMAT.md §24): the GPU family, its sections and the functions it has
 * compiled code for. Every name is escaped for the terminal. */
#ifndef MTLBX_GPU_TEXT_H
#define MTLBX_GPU_TEXT_H

#include "container/types.h"

#include <stddef.h>

/* info: under fat slice `slice`'s line, its GPU code (nothing for a
 * slice that is not a GPU slice). */
void gpu_info_slice(const mtlbx_file *f, size_t slice);
/* info: under "Library N at ...", where an embedded library lies. */
void gpu_info_library(const mtlbx_file *f, size_t library);
/* ls: after the libraries, one header line per GPU slice and one line
 * per function whose code it holds. */
void gpu_ls(const mtlbx_file *f);
/* find: "\tGPU applegpu+amdgpu,applegpu+amdgpu": for each library (in
 * order, comma-separated as find's other columns) the GPUs that hold code
 * for one of its functions; "" when the file has no GPU slice. */
void gpu_find_column(const mtlbx_file *f, char *out, size_t size);

#endif
