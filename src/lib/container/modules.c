/* The module list (FORMAT §8): each function's module is at
 * modules + OFFT[2], MDSZ bytes long. When MDSZ is missing (P7, W2) the
 * module runs to the next larger module offset of any function, or to the
 * section end; that needs one sort, not a scan per function, made here
 * (derive_function in functions.c reads it as each entry is decoded). */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A module that lies outside the module list; one that runs past the
 * end of the file too means the file is cut short (mbx_file_damaged). */
static void report_outside(mtlbx_library *lib, uint64_t at, size_t i, uint64_t rel, uint64_t size)
{
    const struct mtlbx_range sec = lib->header.modules;
    uint64_t room = lib->header.base + lib->header.available - sec.offset; /* from the list to the end */
    void (*report)(mtlbx_library *, uint64_t, const char *, ...) =
        rel > room || size > room - rel ? lib_damaged : lib_error;
    report(lib, at, "function %zu: module (0x%llx + 0x%llx) lies outside the module list (0x%llx bytes)", i,
           (unsigned long long)rel, (unsigned long long)size, (unsigned long long)sec.size);
}

void parse_modules(mtlbx_library *lib)
{
    const struct mtlbx_range sec = lib->header.modules;
    size_t n = lib->n_functions;
    if (lib->module_size_needed && !(lib->module_sorted = malloc(n * sizeof *lib->module_sorted)))
        lib_out_of_memory(lib, sec.offset, "out of memory inferring the sizes of modules without MDSZ");
    if (lib->module_sorted) {
        size_t n_sorted = 0;
        /* Decoded without their derived fields: dropped right after. */
        for (size_t i = 0; i < n; i++) {
            const struct mtlbx_function *fn = library_function(lib, i);
            if (fn->present & MTLBX_F_OFFT)
                lib->module_sorted[n_sorted++] = fn->offt[2];
            if (i % LAZY_BLOCK == LAZY_BLOCK - 1)
                library_forget_functions(lib, i + 1);
        }
        library_forget_functions(lib, n);
        qsort(lib->module_sorted, n_sorted, sizeof *lib->module_sorted, cmp_u64);
        lib->n_module_sorted = n_sorted;
    }
    /* Every entry decoded from here on gets its derived fields. */
    lib->modules_parsed = true;

    if (!lib->module_size_needed) {
        /* Every module has its MDSZ: the list's pass found them all. */
        for (size_t k = 0; k < lib->n_outside; k++) {
            const struct module_outside *o = &lib->outside[k];
            report_outside(lib, o->at, o->i, o->rel, o->size);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        struct mtlbx_function *fn = library_function(lib, i);
        uint64_t rel, size;
        if (!derive_function(lib, fn, &rel, &size))
            report_outside(lib, fn->entry_offset, i, rel, size);
        if (i % LAZY_BLOCK == LAZY_BLOCK - 1)
            library_forget_functions(lib, i + 1);
    }
    library_forget_functions(lib, n);
}

struct mtlbx_bytes mbx_function_module_bytes(const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = library_function(lib, i);
    if (!fn || !fn->module_valid)
        return (struct mtlbx_bytes){ NULL, 0 };
    return (struct mtlbx_bytes){ lib->file->data + fn->module.offset, (size_t)fn->module.size };
}

bool mbx_function_wrapper(const mtlbx_library *lib, size_t i, struct mtlbx_wrapper *out)
{
    *out = (struct mtlbx_wrapper){ 0 };
    struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
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
