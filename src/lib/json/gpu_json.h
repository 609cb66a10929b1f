/* The GPU side of a fat slice in dump --json (CONTRACT.md GPU_BINARY):
 * a GPU slice's Mach-O file type, sections, functions and embedded
 * library, and which library each slice has. */
#ifndef MTLBX_GPU_JSON_H
#define MTLBX_GPU_JSON_H

#include "container/types.h"

#include <jansson.h>

/* Adds "library" (int or null) and "gpu_binary" (GPU_BINARY or null) to
 * the object of fat slice `slice`. */
void fat_slice_gpu_json(const mtlbx_file *f, size_t slice, json_t *obj);

#endif
