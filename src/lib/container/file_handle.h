/* The file's handle from inside (src/lib only): struct mtlbx_file, and
 * the steps that open its fat slices, GPU slices and libraries
 * (container/fat.c, gpu_slice.c, library.c). */
#ifndef MTLBX_CONTAINER_FILE_HANDLE_H
#define MTLBX_CONTAINER_FILE_HANDLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "container/file.h"
#include "container/gpu_slice.h"
#include "container/diag_list.h"

struct mtlbx_file {
    char *path;
    const uint8_t *data;
    uint64_t size;
    bool mapped;               /* data came from mmap and must be unmapped */
    dev_t dev;                 /* identity of the mapped file (mapped only): its */
    ino_t ino;                 /* descriptor is closed after mmap, see file_reopen */
    bool owns_data;            /* data is a malloc'ed buffer to free on close */
    _Atomic bool short_read;   /* a pread while hashing came up short */
    struct diag_list diags;
    bool fat;
    size_t n_slices;
    struct mbx_fat_slice *slices;
    size_t n_libraries;
    mtlbx_library **libraries;
    size_t n_gpu;              /* gpu_slice.c: the GPU slices, in slice order */
    struct mtlbx_gpu_slice *gpu;
    /* Nothing of a layer above the container hangs here: their state
     * belongs to their own objects (mtlbx_interface_reader, mtlbx_model,
     * mtlbx_layout), which the caller frees before the file. */
};

/* fat.c */
/* fat.c */
void parse_fat(mtlbx_file *f);
/* gpu_slice.c: reads GPU slice g (slice, offset, size and cputype set;
 * inside the file), opening its embedded library as f's next; frees it. */
void gpu_slice_read(mtlbx_file *f, struct mtlbx_gpu_slice *g);
void gpu_slice_free(struct mtlbx_gpu_slice *g);

/* library.c */
mtlbx_library *library_open(mtlbx_file *f, size_t index, uint64_t base, uint64_t available);
void library_free(mtlbx_library *lib);

#endif
