/* The file's structure: what its parts are and which parts each part
 * has, in one order, for the two walks over it: the byte layout
 * (checks/layout.c: which part claims every byte) and the explorer's node
 * tree (model/node.c: a node per part). A new kind of part is added here,
 * once; both see it.
 *
 * A part's parts are given one at a time to a callback, in the order the
 * tree shows them (file order in every real file; the layout sorts those
 * that are not). The sections with a part per function (the function
 * list, the metadata and module sections, the lists: 200,000 parts in a
 * large library) are read by a cursor instead, one part at a time and in
 * file order, so that a walk never holds them all.
 *
 * What only the tree shows is built by the model on top of this: an
 * archive's members (decompressing it is what expanding it means) and
 * what a decoded interface has (bitstream blocks, arguments). */
#ifndef MTLBX_STRUCTURE_H
#define MTLBX_STRUCTURE_H

#include <stdbool.h>

#include "container/header.h"

/* What a part of the file is; the explorer shows each as a node. */
enum mtlbx_node_kind {
    MTLBX_NODE_FILE,
    MTLBX_NODE_FAT_HEADER,
    MTLBX_NODE_FAT_SLICE,
    MTLBX_NODE_LIBRARY,
    MTLBX_NODE_HEADER,
    MTLBX_NODE_FUNCTION_LIST,
    MTLBX_NODE_FUNCTION,
    MTLBX_NODE_TAG,            /* one tag inside any group */
    MTLBX_NODE_TAG_GROUP,      /* a size-prefixed group (metadata, list entry) */
    MTLBX_NODE_HEADER_EXT,
    MTLBX_NODE_PUBLIC_MD,
    MTLBX_NODE_PRIVATE_MD,
    MTLBX_NODE_MODULE_LIST,
    MTLBX_NODE_MODULE,
    MTLBX_NODE_SOURCES,
    MTLBX_NODE_ARCHIVE,
    MTLBX_NODE_MEMBER,         /* span: the archive payload (members are compressed) */
    MTLBX_NODE_DYNAMIC_HEADER,
    MTLBX_NODE_LIST,           /* VLST ILST RLST SLST */
    MTLBX_NODE_DIAGNOSTICS,    /* no bytes: a file's or a library's problems */
    /* A module's LLVM bitstream block (nested blocks are its children);
     * index: function, sub: block index in module.blocks. Built once the
     * interface is kept (mbx_function_interface_keep). */
    MTLBX_NODE_BC_BLOCK,
    /* A function's interface: children are its arguments then outputs;
     * no bytes of its own (index: function). */
    MTLBX_NODE_INTERFACE,
    /* One argument or output (sub: MTLBX_NODE_ARG_OUTPUT | k << 16) and
     * one struct member of it (sub: that | member), no bytes of their own. */
    MTLBX_NODE_ARGUMENT,
    MTLBX_NODE_STRUCT_MEMBER,
    MTLBX_NODE_CI_ARGUMENT,    /* one ARGR argument (Core Image reflection) */
    MTLBX_NODE_CI_MEMBER,      /* a struct member of an ARGR pointer argument */
    /* A binary archive's GPU slice (index: GPU slice, gpu_slice.h), one
     * of its pieces (index: piece; sub: GPU slice), and a function whose
     * code a section holds (index: function; sub: GPU slice). */
    MTLBX_NODE_GPU_SLICE,
    MTLBX_NODE_GPU_PIECE,
    MTLBX_NODE_GPU_FUNCTION,
    MTLBX_NODE_KIND_COUNT,
};

/* What a TAG or TAG_GROUP belongs to, kept in its sub: one FourCC means
 * different things in different places (a NAME in the dynamic header is
 * the library's name, HASH needs its function, an ARGR of a public
 * metadata group has arguments). */
enum part_ctx {
    CTX_FUNCTION = 0,          /* a function-list entry; index = function */
    CTX_PUBLIC_MD,             /* a public metadata group; index = function */
    CTX_PRIVATE_MD,            /* a private metadata group; index = function */
    CTX_HEADER_EXT,
    CTX_DYNAMIC,
    CTX_LIST,                  /* CTX_LIST + list kind; index = group */
};

/* One part: what a node of the tree holds of the file. */
struct structure_part {
    enum mtlbx_node_kind kind;
    uint64_t offset, size;     /* absolute span, clipped to the file (size 0: no bytes) */
    mtlbx_library *lib;        /* NULL above the library level */
    uint32_t index;            /* function / slice / library / group / archive / argument */
    uint32_t sub;              /* ctx of a tag or group; list kind; GPU slice; a CI part's function */
    struct mtlbx_tag tag;      /* TAG */
};

struct layout_entries;

/* Where the parts are read from, and how. */
struct structure {
    mtlbx_file *f;
    /* Function entries and metadata from these cursors (layout_entries.h:
     * the library's tables are not filled), or from the tables (NULL). */
    struct layout_entries *entries;
    /* A library embedded in a GPU slice's __metallib is a part of that
     * section (the byte layout), or of the file, beside its slice (the
     * tree: the views find libraries among the root's children). */
    bool libraries_in_slices;
};

/* Receives a part; false stops the parts (memory ran out). */
typedef bool (*structure_part_fn)(void *ctx, const struct structure_part *part);

/* Whether parts of this kind are a section, read with a cursor. */
bool structure_is_section(enum mtlbx_node_kind kind);

/* The parts of `p` (no section) that the file's structure says, one by
 * one to fn. False when fn stopped them. */
bool structure_parts(const struct structure *s, const struct structure_part *p, structure_part_fn fn, void *ctx);

/* A section's parts, one at a time in file order: entries and list
 * groups in their order; metadata groups and modules in function order
 * when that is offset order already (every real file), else from a sorted
 * copy of (offset, function) pairs. A metadata group that functions share
 * is one part, named after the first of them. */
struct structure_by_off {
    uint64_t off;
    uint32_t idx;
};
/* Their order: by offset, then index (for qsort). */
static inline int structure_by_off_cmp(const void *a, const void *b)
{
    const struct structure_by_off *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}
struct structure_section {
    const struct structure *s;
    struct structure_part part; /* the section */
    size_t cursor, n;          /* n: functions, or list groups */
    struct mtlbx_range piece;  /* in function order: the last piece's */
    struct structure_by_off *sorted; /* NULL: function order */
    size_t n_sorted;
    bool made_one;             /* a metadata group was made: last_offset is its */
    uint64_t last_offset;
};
/* False when memory ran out (nothing to close then). */
bool structure_section_open(const struct structure *s, const struct structure_part *p,
                            struct structure_section *sec);
/* The next part into *out; false at the section's end. */
bool structure_section_next(struct structure_section *sec, struct structure_part *out);
void structure_section_close(struct structure_section *sec);

#endif
