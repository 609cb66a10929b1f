/* The container layer (src/lib/container) on a library's header and what
 * it declares: the header's fields, the tag groups and their walk, the
 * header extension, the dynamic header and the four lists, and the
 * sections in the header's order. It knows bytes and FORMAT.md. */
#ifndef MTLBX_CONTAINER_HEADER_H
#define MTLBX_CONTAINER_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- header -- */

struct mtlbx_header {
    uint64_t base;             /* absolute offset of the MTLB magic */
    uint64_t available;        /* bytes of this library inside the file */
    bool complete;             /* all 88 header bytes were present */
    uint16_t version_word;     /* u16@4: bit 15 macOS flag, bits 0-14 major */
    uint16_t major, minor, patch;
    bool macos;
    uint8_t type_byte;         /* byte 10 */
    uint8_t file_type;         /* low 7 bits of byte 10 */
    bool stub;                 /* bit 7 of byte 10 */
    uint8_t platform_byte;     /* byte 11: 0x80 64-bit | platform id */
    uint16_t os_major;
    uint8_t os_minor, os_patch;
    uint16_t os_minor_u16;     /* YuAo's reading of bytes 14-15 */
    uint64_t declared_size;    /* u64@0x10 */
    /* Section pairs as declared (relative to base), then resolved to
     * absolute ranges clipped to the file. */
    uint64_t raw_offset[4], raw_size[4];
    struct mtlbx_range function_list;  /* including the u32 count word */
    struct mtlbx_range public_md;
    struct mtlbx_range private_md;
    struct mtlbx_range modules;
};

const struct mtlbx_header *mbx_library_header(const mtlbx_library *lib);

/* ------------------------------------------------------------------ tags -- */

struct mtlbx_tag {
    char name[5];              /* FourCC, NUL-terminated; non-printables as '?' */
    uint32_t fourcc;           /* raw little-endian value */
    uint64_t offset;           /* absolute offset of the FourCC */
    uint32_t header_len;       /* 4 (ENDT), 6 (u16 length) or 8 (u32, wide tags) */
    uint64_t value_offset;     /* absolute */
    uint64_t value_len;
    const uint8_t *value;
    bool known;                /* the tag is one this library decodes */
};

/* Walks a tag sequence to ENDT without leaving [offset, offset+len). */
struct mtlbx_tag_walk {
    const mtlbx_file *file;
    uint64_t pos, end;
    unsigned count;
    bool done, ended, truncated; /* ended: saw ENDT; truncated: ran out */
};

void mbx_tag_walk_init(struct mtlbx_tag_walk *w, const mtlbx_file *f,
                         uint64_t offset, uint64_t len);
/* Returns false at ENDT, at the bound, or on a malformed tag. */
bool mbx_tag_walk_next(struct mtlbx_tag_walk *w, struct mtlbx_tag *out);

/* ---------------------------------------------------- header extension -- */

struct mtlbx_header_ext {
    bool present;              /* false: absent (1.2.1, 1.2.2) */
    struct mtlbx_range range;
    size_t n_tags;             /* ENDT excluded */
    const struct mtlbx_tag *tags;
    bool has_uuid;
    uint8_t uuid[16];
};
const struct mtlbx_header_ext *mbx_library_header_ext(const mtlbx_library *lib);

/* ------------------------------------------- dynamic header and lists -- */

struct mtlbx_dynamic_header {
    bool present;
    struct mtlbx_range range;
    bool has_name;
    struct mtlbx_bytes name;
    size_t n_linked;
    const struct mtlbx_bytes *linked;
};
const struct mtlbx_dynamic_header *mbx_library_dynamic_header(const mtlbx_library *lib);

/* VLST, ILST, RLST and SLST: a u32 count and size-prefixed tag groups. */
enum mtlbx_list_kind { MTLBX_LIST_VLST, MTLBX_LIST_ILST, MTLBX_LIST_RLST,
                       MTLBX_LIST_SLST, MTLBX_LIST_COUNT };

struct mtlbx_list {
    bool present;
    char tag[5];
    struct mtlbx_range range;
    uint32_t declared_count;
    size_t n_groups;
    const struct mtlbx_range *groups; /* each includes its u32 prefix */
};
const struct mtlbx_list *mbx_library_list(const mtlbx_library *lib, enum mtlbx_list_kind k);

/* ------------------------------------------------------------ sections -- */

/* The sections a library's header names, in its order: the header itself
 * (its first 88 bytes, fewer when cut short), then, when the header is
 * complete, the function list, the header extension, public and private
 * metadata, the module list, and those present of the sources, the dynamic
 * header and the four lists. The node tree and the byte-layout walk both
 * start from this one list. */
enum mtlbx_section_kind {
    MTLBX_SECTION_HEADER, MTLBX_SECTION_FUNCTION_LIST, MTLBX_SECTION_HEADER_EXT,
    MTLBX_SECTION_PUBLIC_MD, MTLBX_SECTION_PRIVATE_MD, MTLBX_SECTION_MODULE_LIST,
    MTLBX_SECTION_SOURCES, MTLBX_SECTION_DYNAMIC_HEADER, MTLBX_SECTION_LIST,
};
struct mtlbx_section {
    enum mtlbx_section_kind kind;
    struct mtlbx_range range;
    enum mtlbx_list_kind list;     /* MTLBX_SECTION_LIST: which one */
};
#define MTLBX_SECTIONS_MAX (8 + MTLBX_LIST_COUNT)
size_t mbx_library_sections(const mtlbx_library *lib, struct mtlbx_section out[MTLBX_SECTIONS_MAX]);

#ifdef __cplusplus
}
#endif

#endif
