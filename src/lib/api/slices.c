/* The fat slices of <mtlbx.h> and the GPU functions of a binary
 * archive's slices (FORMAT.md §24), by index and key as everywhere in
 * the API. The values are the ones dump --json gives (its "fat" object
 * and GPU_BINARY); strings point into what the file handle keeps. */
#include "config.h"

#include "api/handle.h"
#include "container/file.h"
#include "container/gpu_slice.h"
#include "container/target_names.h"

#include <errno.h>

static const struct mbx_fat_slice *slice_at(mtlbx *h, int slice)
{
    if (!h)
        return NULL;
    if (!h->file) {
        api_set_error(h, 0, -1, "no file is open");
        return NULL;
    }
    const struct mbx_fat_slice *s = slice >= 0 ? mbx_fat_slice(h->file, (size_t)slice) : NULL;
    if (!s)
        api_set_error(h, EINVAL, -1, "slice %d: the file has %zu", slice, mbx_fat_slice_count(h->file));
    return s;
}

int mtlbx_slice_count(mtlbx *h)
{
    if (!h || !h->file)
        return -1;
    return (int)mbx_fat_slice_count(h->file);
}

const char *mtlbx_slice_string(mtlbx *h, int slice, int key)
{
    const struct mbx_fat_slice *s = slice_at(h, slice);
    if (!s)
        return NULL;
    const char *v;
    switch (key) {
    case MTLBX_CPU: v = mbx_cputype_name(s->cputype); break;
    case MTLBX_ARCH: v = mbx_fat_arch_name(s->cputype); break;
    default:
        api_set_error(h, EINVAL, -1, "mtlbx_slice_string: key %d is not a slice string key", key);
        return NULL;
    }
    if (!v)
        api_set_error(h, 0, -1, "slice %d: CPU type 0x%08x has no name", slice, s->cputype);
    return v;
}

int64_t mtlbx_slice_int(mtlbx *h, int slice, int key)
{
    const struct mbx_fat_slice *s = slice_at(h, slice);
    if (!s)
        return -1;
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_of(h->file, (size_t)slice);
    int64_t v;
    switch (key) {
    case MTLBX_OFFSET: return s->offset;
    case MTLBX_SIZE: return s->size;
    case MTLBX_CPUTYPE: return s->cputype;
    case MTLBX_CPUSUBTYPE: return s->cpusubtype;
    case MTLBX_LIBRARY: v = g ? -1 : mbx_fat_slice_library(h->file, (size_t)slice); break;
    case MTLBX_EMBEDDED_LIBRARY: v = g ? g->embedded_library : -1; break;
    case MTLBX_FILETYPE: v = g && g->read ? (int64_t)g->filetype : -1; break;
    default:
        api_set_error(h, EINVAL, -1, "mtlbx_slice_int: key %d is not a slice int key", key);
        return -1;
    }
    if (v < 0)
        api_set_error(h, 0, -1, "slice %d has no such value", slice);
    return v;
}

static const struct mtlbx_gpu_function *gpu_function(mtlbx *h, int slice, int64_t fn)
{
    if (!slice_at(h, slice))
        return NULL;
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_of(h->file, (size_t)slice);
    size_t n = g ? g->n_functions : 0;
    if (fn < 0 || (uint64_t)fn >= n) {
        api_set_error(h, EINVAL, -1, "GPU function %lld: slice %d has %zu", (long long)fn, slice, n);
        return NULL;
    }
    return &g->functions[fn];
}

int64_t mtlbx_gpu_function_count(mtlbx *h, int slice)
{
    if (!slice_at(h, slice))
        return -1;
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_of(h->file, (size_t)slice);
    return g ? (int64_t)g->n_functions : 0;
}

const char *mtlbx_gpu_function_string(mtlbx *h, int slice, int64_t fn, int key)
{
    const struct mtlbx_gpu_function *f = gpu_function(h, slice, fn);
    if (!f)
        return NULL;
    switch (key) {
    case MTLBX_NAME: return f->name;
    case MTLBX_SYMBOL: return f->symbol;
    default:
        api_set_error(h, EINVAL, -1, "mtlbx_gpu_function_string: key %d is not a GPU function string key", key);
        return NULL;
    }
}

int64_t mtlbx_gpu_function_int(mtlbx *h, int slice, int64_t fn, int key)
{
    const struct mtlbx_gpu_function *f = gpu_function(h, slice, fn);
    if (!f)
        return -1;
    int64_t v;
    switch (key) {
    case MTLBX_OFFSET: return (int64_t)f->offset;
    case MTLBX_SIZE: return (int64_t)f->size;
    case MTLBX_ENTRY: v = f->has_entry ? (int64_t)f->entry : -1; break;
    case MTLBX_LIBRARY: v = f->library; break;
    case MTLBX_FUNCTION: v = f->function; break;
    default:
        api_set_error(h, EINVAL, -1, "mtlbx_gpu_function_int: key %d is not a GPU function int key", key);
        return -1;
    }
    if (v < 0)
        api_set_error(h, 0, -1, "GPU function %lld of slice %d has no %s", (long long)fn, slice,
                      key == MTLBX_ENTRY ? "_agc.main entry" : "AIR function of its name");
    return v;
}

const void *mtlbx_gpu_function_code(mtlbx *h, int slice, int64_t fn, size_t *len)
{
    if (len)
        *len = 0;
    const struct mtlbx_gpu_function *f = gpu_function(h, slice, fn);
    if (!f)
        return NULL;
    if (len)
        *len = (size_t)f->size;
    return mbx_file_data(h->file) + f->offset;
}
