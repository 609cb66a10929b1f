/* The module list (FORMAT §8): each function's module is at
 * modules + OFFT[2], MDSZ bytes long. When MDSZ is missing (P7, W2) the
 * module runs to the next larger module offset of any function, or to the
 * section end; that needs one sort, not a scan per function. */
#include "config.h"
#include "internal.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Smallest value in sorted[0..n) strictly greater than v, or `fallback`. */
static uint64_t next_greater(const uint64_t *sorted, size_t n, uint64_t v, uint64_t fallback)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n ? sorted[lo] : fallback;
}

void parse_modules(mtlbx_library *lib)
{
    const struct mtlbx_range sec = lib->header.modules;
    size_t n = lib->n_functions;
    uint64_t *sorted = NULL;
    size_t n_sorted = 0;
    bool need_inference = false;
    for (size_t i = 0; i < n; i++)
        if ((lib->functions[i].present & MTLBX_F_OFFT) && !(lib->functions[i].present & MTLBX_F_MDSZ))
            need_inference = true;
    if (need_inference && !(sorted = malloc(n * sizeof *sorted)))
        lib_out_of_memory(lib, sec.offset, "out of memory inferring the sizes of modules without MDSZ");
    if (sorted) {
        for (size_t i = 0; i < n; i++)
            if (lib->functions[i].present & MTLBX_F_OFFT)
                sorted[n_sorted++] = lib->functions[i].offt[2];
        qsort(sorted, n_sorted, sizeof *sorted, cmp_u64);
    }

    for (size_t i = 0; i < n; i++) {
        struct mtlbx_function *fn = &lib->functions[i];
        if (!(fn->present & MTLBX_F_OFFT))
            continue;
        /* Where the metadata groups are; their contents are decoded lazily
         * (metadata.c), which also reports an offset outside its section. */
        if (fn->offt[0] < lib->header.public_md.size)
            fn->public_md_offset = lib->header.public_md.offset + fn->offt[0];
        if (fn->offt[1] < lib->header.private_md.size)
            fn->private_md_offset = lib->header.private_md.offset + fn->offt[1];
        uint64_t rel = fn->offt[2], size;
        if (fn->present & MTLBX_F_MDSZ) {
            size = fn->mdsz;
        } else if (sorted) {
            size = next_greater(sorted, n_sorted, rel, sec.size) - rel;
            fn->module_size_inferred = true;
        } else {
            continue; /* out of memory for the sort */
        }
        if (rel > sec.size || size > sec.size - rel) {
            lib_error(lib, fn->entry_offset,
                      "function %zu: module (0x%llx + 0x%llx) lies outside the module list (0x%llx bytes)", i,
                      (unsigned long long)rel, (unsigned long long)size, (unsigned long long)sec.size);
        } else {
            fn->module = (struct mtlbx_range){ sec.offset + rel, size };
            fn->module_valid = true;
        }
    }
    free(sorted);
}

struct mtlbx_bytes mtlbx_function_module_bytes(const mtlbx_library *lib, size_t i)
{
    if (i >= lib->n_functions || !lib->functions[i].module_valid)
        return (struct mtlbx_bytes){ NULL, 0 };
    const struct mtlbx_function *fn = &lib->functions[i];
    return (struct mtlbx_bytes){ lib->file->data + fn->module.offset, (size_t)fn->module.size };
}

bool mtlbx_function_wrapper(const mtlbx_library *lib, size_t i, struct mtlbx_wrapper *out)
{
    *out = (struct mtlbx_wrapper){ 0 };
    struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, i);
    if (m.len < 20 || rd32(m.ptr) != 0x0B17C0DE)
        return false;
    out->present = true;
    out->magic = rd32(m.ptr);
    out->version = rd32(m.ptr + 4);
    out->bitcode_offset = rd32(m.ptr + 8);
    out->bitcode_size = rd32(m.ptr + 12);
    out->cputype = rd32(m.ptr + 16);
    out->bitcode_magic_ok = out->bitcode_offset <= m.len && m.len - out->bitcode_offset >= 4 &&
                            memcmp(m.ptr + out->bitcode_offset, "BC\xC0\xDE", 4) == 0;
    return true;
}
