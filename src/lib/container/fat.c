/* Fat containers (FORMAT §20 W3, §24): big-endian CB FE BA BE, a u32
 * slice count, then five big-endian u32 per slice. A slice is a whole
 * MTLB library (AIR64; offsets inside it are relative to the slice
 * start), or, in a binary archive, a GPU slice: a Mach-O of compiled GPU
 * code whose __TEXT,__metallib is a library too (gpu_slice.c). Each
 * slice gives at most one library; libraries come in slice order. */
#include "config.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "container/report.h"
#include "container/span.h"
#include "container/target_names.h"

#include <stdlib.h>
#include <string.h>

/* More slices than any real GPU architecture list; bounds the work a
 * hostile header can ask for (each slice is parsed as a library). */
#define MAX_SLICES 64

static bool is_gpu_cpu(uint32_t cputype)
{
    return cputype == MTLBX_CPU_APPLE_GPU || cputype == MTLBX_CPU_AMD_GPU || cputype == MTLBX_CPU_INTEL_GPU;
}

static bool is_macho64(const uint8_t *p)
{
    return rd32(p) == 0xFEEDFACFu;
}

/* Slice i (inside the file) holds a Mach-O: read it as GPU code. */
static void open_gpu_slice(mtlbx_file *f, uint32_t i, const struct mbx_fat_slice *s)
{
    struct mtlbx_gpu_slice *g = &f->gpu[f->n_gpu++];
    *g = (struct mtlbx_gpu_slice){ .slice = i, .offset = s->offset, .size = s->size, .cputype = s->cputype,
                                   .cpusubtype = s->cpusubtype, .embedded_library = -1 };
    if (!is_gpu_cpu(s->cputype)) {
        const char *cpu = mbx_cputype_name(s->cputype);
        diag_add(&f->diags, MTLBX_WARNING, s->entry_offset, "fat slice %u holds a Mach-O but names CPU %s (0x%08x), not a GPU",
                 i, cpu ? cpu : "unknown", s->cputype);
    }
    gpu_slice_read(f, g);
}

void parse_fat(mtlbx_file *f)
{
    if (f->size < 8) {
        diag_add(&f->diags, MTLBX_ERROR, 4, "fat header truncated: no slice count");
        return;
    }
    uint32_t count = rd32be(f->data + 4);
    uint64_t room = (f->size - 8) / 20;
    if (count > room) {
        diag_add(&f->diags, MTLBX_ERROR, 4, "fat slice count %u is more than the file can hold (%llu)", count,
                 (unsigned long long)room);
        count = (uint32_t)room;
    }
    if (count > MAX_SLICES) {
        diag_add(&f->diags, MTLBX_ERROR, 4, "fat slice count %u exceeds the limit of %d; the rest are ignored",
                 count, MAX_SLICES);
        count = MAX_SLICES;
    }
    f->slices = calloc(count ? count : 1, sizeof *f->slices);
    f->libraries = calloc(count ? count : 1, sizeof *f->libraries);
    f->gpu = calloc(count ? count : 1, sizeof *f->gpu);
    if (!f->slices || !f->libraries || !f->gpu) {
        file_out_of_memory(f, 8, "out of memory for %u fat slices", count);
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *p = f->data + 8 + 20 * (uint64_t)i;
        struct mbx_fat_slice *s = &f->slices[f->n_slices++];
        *s = (struct mbx_fat_slice){ rd32be(p), rd32be(p + 4), rd32be(p + 8), rd32be(p + 12), rd32be(p + 16),
                                       8 + 20 * (uint64_t)i };
        if (!span_within(s->offset, s->size, 0, f->size)) {
            file_damaged(f, s->entry_offset, "fat slice %u (0x%x + 0x%x) lies outside the file (0x%llx bytes)", i,
                         s->offset, s->size, (unsigned long long)f->size);
            continue;
        }
        if (s->offset < 8 + 20 * (uint64_t)count)
            diag_add(&f->diags, MTLBX_ERROR, s->entry_offset, "fat slice %u starts inside the fat header", i);
        for (uint32_t k = 0; k < i; k++) {
            const struct mbx_fat_slice *o = &f->slices[k];
            if (s->size && o->size && s->offset < (uint64_t)o->offset + o->size &&
                o->offset < (uint64_t)s->offset + s->size) {
                diag_add(&f->diags, MTLBX_ERROR, s->entry_offset, "fat slice %u overlaps fat slice %u", i, k);
                break;
            }
        }
        if (s->size >= 4 && is_macho64(f->data + s->offset)) {
            open_gpu_slice(f, i, s);
            continue;
        }
        if (s->size < 4 || memcmp(f->data + s->offset, "MTLB", 4) != 0) {
            if (is_gpu_cpu(s->cputype))
                diag_add(&f->diags, MTLBX_ERROR, s->offset,
                         "fat slice %u (%s) does not start with a 64-bit Mach-O header", i,
                         mbx_cputype_name(s->cputype));
            else
                diag_add(&f->diags, MTLBX_ERROR, s->offset, "fat slice %u does not start with MTLB", i);
            continue;
        }
        if (is_gpu_cpu(s->cputype))
            diag_add(&f->diags, MTLBX_WARNING, s->entry_offset,
                     "fat slice %u names a GPU (%s) but holds a metallib, not GPU code", i,
                     mbx_cputype_name(s->cputype));
        mtlbx_library *lib = library_open(f, f->n_libraries, s->offset, s->size);
        if (lib)
            f->libraries[f->n_libraries++] = lib;
        else
            file_out_of_memory(f, s->entry_offset, "out of memory opening the library of fat slice %u", i);
    }
}
