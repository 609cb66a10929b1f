/* Fat containers (FORMAT §20 W3): big-endian CB FE BA BE, a u32 slice
 * count, then five big-endian u32 per slice. Each slice is a whole MTLB
 * library; offsets inside it are relative to the slice start. */
#include "config.h"
#include "internal.h"

#include <stdlib.h>

/* More slices than any real GPU architecture list; bounds the work a
 * hostile header can ask for (each slice is parsed as a library). */
#define MAX_SLICES 64

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
    if (!f->slices || !f->libraries) {
        file_out_of_memory(f, 8, "out of memory for %u fat slices", count);
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *p = f->data + 8 + 20 * (uint64_t)i;
        struct mtlbx_fat_slice *s = &f->slices[f->n_slices++];
        *s = (struct mtlbx_fat_slice){ rd32be(p), rd32be(p + 4), rd32be(p + 8), rd32be(p + 12), rd32be(p + 16),
                                       8 + 20 * (uint64_t)i };
        if (!span_within(s->offset, s->size, 0, f->size)) {
            file_damaged(f, s->entry_offset, "fat slice %u (0x%x + 0x%x) lies outside the file (0x%llx bytes)", i,
                         s->offset, s->size, (unsigned long long)f->size);
            continue;
        }
        if (s->offset < 8 + 20 * (uint64_t)count)
            diag_add(&f->diags, MTLBX_ERROR, s->entry_offset, "fat slice %u starts inside the fat header", i);
        if (s->size < 4 || memcmp(f->data + s->offset, "MTLB", 4) != 0) {
            diag_add(&f->diags, MTLBX_ERROR, s->offset, "fat slice %u does not start with MTLB", i);
            continue;
        }
        mtlbx_library *lib = library_open(f, f->n_libraries, s->offset, s->size);
        if (lib)
            f->libraries[f->n_libraries++] = lib;
        else
            file_out_of_memory(f, s->entry_offset, "out of memory opening the library of fat slice %u", i);
    }
}
