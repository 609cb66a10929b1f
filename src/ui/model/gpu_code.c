/* See gpu_code.h. */
#include "config.h"

#include "ui/model/gpu_code.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/gpu_slice.h"

size_t gpu_code_each(const mtlbx_library *lib, size_t index,
                     void (*each)(void *ctx, const char *arch, uint32_t cputype, uint64_t size), void *ctx)
{
    const struct mtlbx_function *fn = lib ? mbx_function_at(lib, index) : NULL;
    const mtlbx_file *f = fn ? mbx_library_file(lib) : NULL;
    size_t n = 0, slices = f ? mbx_gpu_slice_count(f) : 0;
    for (size_t k = 0; k < slices; k++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, k);
        const struct mtlbx_gpu_function *code = mbx_gpu_code_for(g, fn->name.ptr, fn->name.len);
        if (code) {
            each(ctx, mbx_fat_arch_name(g->cputype), g->cputype, code->size);
            n++;
        }
    }
    return n;
}
