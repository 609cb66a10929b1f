/* GPU slices of a fat file (FORMAT §24): a binary archive holds compiled
 * GPU code (Apple GPU, AMD, Intel) beside the AIR64 metallib it was
 * compiled from. Each GPU slice is a 64-bit little-endian Mach-O, read by
 * the one Mach-O reader (macho.h, bounded against hostile load commands);
 * this layer adds what only GPU code has: the per-function `_begin`/`_end`
 * and `_agc.main` symbols, the embedded `__TEXT,__metallib` (opened as a
 * library of the file, as a fat slice's metallib is), and the pieces that
 * claim every byte of the slice for the layout.
 *
 * Every offset here is absolute in the file. Names (segments, sections,
 * symbols) are the stored bytes: they may hold any byte, escape them.
 * Included by the files that use it. */
#ifndef MTLBX_GPU_SLICE_H
#define MTLBX_GPU_SLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fat cputypes of a binary archive. */
#define MTLBX_CPU_APPLE_GPU 0x01000013u
#define MTLBX_CPU_AMD_GPU 0x01000014u
#define MTLBX_CPU_INTEL_GPU 0x01000015u
#define MTLBX_CPU_AIR64 0x01000017u

/* "air64", "applegpu", "amdgpu", "intelgpu" (the names `thin` takes), or
 * NULL for another cputype. */
const char *mbx_fat_arch_name(uint32_t cputype);
/* The cputype of such a name, or 0. */
uint32_t mbx_fat_arch_cputype(const char *name);

struct mtlbx_gpu_section {
    char segment[17], section[17];
    uint64_t offset, size;       /* its bytes in the file (size 0: an empty section) */
    uint64_t addr;
    uint64_t header_offset;      /* of its section header */
};

struct mtlbx_gpu_function {
    const char *name;            /* the symbol less the linker's leading "__" and "_begin" */
    size_t name_len;             /* (copies, NUL-terminated; names may hold a NUL- */
    const char *symbol;          /*  free byte only, as the string table has them) */
    uint64_t offset, size;       /* the code, `_begin` to `_end` */
    bool has_entry;
    uint64_t entry;              /* file offset of `_agc.main` */
    uint64_t symbol_offset;      /* of the `_begin` nlist entry */
    size_t section;              /* index in the slice's sections */
    long library, function;      /* the AIR function of that name (library index,
                                    function index), or -1, -1 */
};

/* What claims each byte of a GPU slice (the layout walks them). */
enum mtlbx_gpu_piece_kind {
    MTLBX_GPU_PIECE_HEADER,      /* the Mach-O header */
    MTLBX_GPU_PIECE_COMMANDS,    /* the load commands */
    MTLBX_GPU_PIECE_NOTE,        /* an LC_NOTE's data (index: note) */
    MTLBX_GPU_PIECE_SECTION,     /* index: section */
    MTLBX_GPU_PIECE_SYMBOLS,     /* the LC_SYMTAB symbol table */
    MTLBX_GPU_PIECE_STRINGS,     /* its string table */
    MTLBX_GPU_PIECE_PADDING,     /* the rest of a segment between them (zero) */
};

struct mtlbx_gpu_piece {
    enum mtlbx_gpu_piece_kind kind;
    uint64_t offset, size;
    size_t index;
    char name[17];               /* a note's owner, a padding's segment */
};

struct mtlbx_gpu_slice {
    size_t slice;                /* index among the fat slices */
    uint64_t offset, size;
    uint32_t cputype, cpusubtype;
    bool read;                   /* a Mach-O header was read */
    uint32_t filetype;
    size_t n_sections;
    struct mtlbx_gpu_section *sections;   /* in load-command order */
    size_t n_functions;
    struct mtlbx_gpu_function *functions; /* by code offset */
    long embedded_library;       /* index of the __TEXT,__metallib library, or -1 */
    size_t n_pieces;
    struct mtlbx_gpu_piece *pieces;       /* by offset */
};

typedef struct mtlbx_file mtlbx_file;

/* The GPU slices of a fat file, in slice order (none for a plain file). */
size_t mbx_gpu_slice_count(const mtlbx_file *f);
const struct mtlbx_gpu_slice *mbx_gpu_slice_at(const mtlbx_file *f, size_t i);
/* The GPU slice of fat slice `slice`, or NULL. */
const struct mtlbx_gpu_slice *mbx_gpu_slice_of(const mtlbx_file *f, size_t slice);
/* The GPU slice whose __TEXT,__metallib is library `library`, or NULL. */
const struct mtlbx_gpu_slice *mbx_gpu_slice_embedding(const mtlbx_file *f, size_t library);
/* Slice g's code for the function of that name, or NULL. */
const struct mtlbx_gpu_function *mbx_gpu_code_for(const struct mtlbx_gpu_slice *g, const uint8_t *name,
                                                    size_t len);
/* The library of fat slice `slice` (its metallib, or the one embedded in
 * its GPU code), or -1. */
long mbx_fat_slice_library(const mtlbx_file *f, size_t slice);

#ifdef __cplusplus
}
#endif
#endif
