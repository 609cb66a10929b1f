/* The container layer (src/lib/container): the metallib file as Apple
 * lays it out. It knows bytes and FORMAT.md, nothing else: it never reads
 * a module's bitcode, never builds a node, and calls no other layer of
 * src/lib (the bitcode reader, the checks, the model and the comparison
 * are above it and call it, never the other way). The state a higher
 * layer keeps per file belongs to an object of that layer
 * (mtlbx_interface_reader, mtlbx_model, mtlbx_layout), never to the file
 * handle. Its face is one header per concept: file.h (opening, fat
 * slices), diagnostics.h, header.h (header, tags, header extension,
 * dynamic header, lists, sections), functions.h, metadata.h, sources.h,
 * value_names.h, target_names.h, escape.h, nouns.h, digits.h, textf.h,
 * gpu_slice.h, macho.h.
 *
 * This header: the layer's basic types, the file and library handles
 * (opaque outside src/lib; their insides are container/library.h), a span
 * of mapped bytes and a range of the file. A header that only passes
 * handles around includes just this. */
#ifndef MTLBX_CONTAINER_TYPES_H
#define MTLBX_CONTAINER_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtlbx_file mtlbx_file;
typedef struct mtlbx_library mtlbx_library;

/* A span of bytes inside the mapping. Not NUL-terminated. */
struct mtlbx_bytes {
    const uint8_t *ptr;
    size_t len;
};

/* A range of the file: absolute offset and size. */
struct mtlbx_range {
    uint64_t offset;           /* absolute */
    uint64_t size;
};

#ifdef __cplusplus
}
#endif

#endif
