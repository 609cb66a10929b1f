/* The container layer (src/lib/container) on the metadata each function
 * has: function constants, vertex attributes, DEBI/DEPF, and the Core
 * Image reflection (RETR, ARGR). */
#ifndef MTLBX_CONTAINER_METADATA_H
#define MTLBX_CONTAINER_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------------- metadata -- */

/* Core Image reflection: RETR and ARGR (FORMAT.md §22): the interface of a Core Image kernel. Every
 * span is absolute. Bytes whose meaning is unknown are kept as read. */
struct mtlbx_ci_member {
    struct mtlbx_bytes name;
    uint8_t type;
    uint32_t unknown_word;     /* u32 after the type (0 so far) */
    uint8_t unknown_byte;      /* last byte (3 so far) */
    uint64_t offset, size;
};

struct mtlbx_ci_argument {
    struct mtlbx_bytes name;
    uint8_t type;              /* 0x3A texture, 0x3C pointer: extra bytes follow */
    uint64_t offset, size;     /* name to the last extra byte */
    bool has_element;
    uint8_t element_type;      /* texture: pixel type; pointer: pointee */
    uint32_t texture_word;     /* texture: u32 after the pixel type (1 so far) */
    uint8_t texture_type;      /* texture: last extra byte */
    uint8_t pointer_byte;      /* pointer: first extra byte (0 so far) */
    uint8_t alignment;         /* pointer */
    uint64_t pointee_size;     /* pointer */
    uint64_t extra_offset;     /* absolute offset of the extra bytes */
    size_t first_member, n_members; /* struct pointee: into reflection.members */
};

struct mtlbx_reflection {
    bool has_return;           /* RETR seen */
    uint8_t return_type;
    uint64_t return_offset;    /* of the RETR value */
    bool has_arguments;        /* ARGR seen */
    bool complete;             /* ARGR decoded exactly to its last byte */
    uint64_t arguments_offset; /* of the ARGR value (its count byte) */
    size_t n_arguments;
    struct mtlbx_ci_argument *arguments;
    size_t n_members;
    struct mtlbx_ci_member *members;
};

/* Where and why an ARGR value stopped decoding. */
struct mtlbx_decode_error {
    uint64_t offset;
    char message[160];
};

/* Decodes one ARGR value (`value_offset` is its absolute offset) into `out`
 * (arguments read so far stay there even on failure). Returns true when the
 * value decodes exactly to its last byte; otherwise fills *err. Free with
 * mbx_reflection_free. Used by the library and directly by the tests. */
bool mbx_argr_decode(const uint8_t *value, size_t len, uint64_t value_offset,
                       struct mtlbx_reflection *out, struct mtlbx_decode_error *err);
void mbx_reflection_free(struct mtlbx_reflection *r);

struct mtlbx_constant {
    struct mtlbx_bytes name;
    uint8_t type;
    uint16_t index;
    bool active;
    uint64_t offset;           /* absolute offset of the name */
};

struct mtlbx_vertex_attr {
    struct mtlbx_bytes name;
    uint16_t index;            /* bits 0-12 */
    uint8_t use;               /* bits 13-14 */
    bool active;               /* bit 15 */
    bool has_type;
    uint8_t type;              /* from VATY */
    uint64_t offset;
};

struct mtlbx_metadata {
    struct mtlbx_range public_group, private_group; /* size 0 when absent */
    size_t n_constants;
    const struct mtlbx_constant *constants;
    size_t n_attributes;
    const struct mtlbx_vertex_attr *attributes;
    bool has_debi;
    uint32_t debi_line;
    struct mtlbx_bytes debi_path;
    bool has_depf;
    struct mtlbx_bytes depf_path;
    struct mtlbx_reflection reflection; /* RETR and ARGR (Core Image) */
};

/* Decoded once at open; never NULL for a valid index. */
const struct mtlbx_metadata *mbx_function_metadata(const mtlbx_library *lib, size_t i);

#ifdef __cplusplus
}
#endif

#endif
