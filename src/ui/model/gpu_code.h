/* The GPU code a binary archive (FORMAT §24) holds for an AIR function,
 * as the function table shows it (its gpu column) and its filter reads
 * it ("gpu applegpu"): one place, so that both say the same. Pure: no
 * terminal. */
#ifndef MTLBX_UI_MODEL_GPU_CODE_H
#define MTLBX_UI_MODEL_GPU_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

/* Calls `each` once per GPU slice of lib's file that has code for
 * function `index` of lib (matched by name), in slice order, with that
 * slice's arch name ("applegpu"; NULL for a cputype mbx_fat_arch_name
 * does not name), its cputype and the code's size. Returns how many. */
size_t gpu_code_each(const mtlbx_library *lib, size_t index,
                     void (*each)(void *ctx, const char *arch, uint32_t cputype, uint64_t size), void *ctx);

#endif
