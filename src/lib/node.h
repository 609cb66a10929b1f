/* Private glue between the node tree (node.c) and the text it shows
 * (fields.c: labels and detail fields). Nothing outside src/lib includes
 * this; the public side is the node section of mtlbx.h. */
#ifndef MTLBX_NODE_H
#define MTLBX_NODE_H

#include "internal.h"

/* What a TAG or TAG_GROUP node belongs to, kept in node->sub. Tags need it
 * because one FourCC means different things in different places (a NAME
 * in the dynamic header is the library's name, HASH needs its function). */
enum node_ctx {
    CTX_FUNCTION = 0,          /* a function-list entry; index = function */
    CTX_PUBLIC_MD,             /* a public metadata group; index = function */
    CTX_PRIVATE_MD,            /* a private metadata group; index = function */
    CTX_HEADER_EXT,
    CTX_DYNAMIC,
    CTX_LIST,                  /* CTX_LIST + list kind; index = group */
};

/* node.c: (offset, index) pairs, and their order by offset then index. */
struct node_by_off {
    uint64_t off;
    uint32_t idx;
};
int node_by_off_cmp(const void *a, const void *b);

/* ---- node_diags.c ---- */

/* Diagnostics of `lib` (of the fat container when lib is NULL) whose offset
 * lies in [off, off + size), in offset order, as positions in a sorted
 * index: [*first, *first + *count). Returns how many of them are errors.
 * The index is rebuilt only when the number of diagnostics changes. */
size_t node_diag_range(mtlbx_file *f, const mtlbx_library *lib, uint64_t off,
                       uint64_t size, size_t *first, size_t *count);
/* The k-th diagnostic of that sorted index. */
const struct mtlbx_diag *node_diag_sorted(mtlbx_file *f, const mtlbx_library *lib, size_t k);
/* Frees those indexes (with the node arena). */
void node_diags_free(mtlbx_file *f);

/* A point in the node arena, and giving back what was built since: n's
 * children (built after the mark) are forgotten and rebuilt on next need.
 * For a single-threaded walk that holds no pointer into them (layout.c). */
struct node_mark {
    void *head, *next;
    size_t used;
};
struct node_mark node_mark(mtlbx_file *f);
void node_forget_children(mtlbx_file *f, mtlbx_node *n, struct node_mark m);

/* ---- fields.c / fields_tag.c ---- */

/* Where one node's fields go; field_emit formats a value into a scratch
 * buffer that lives only during the callback. */
struct field_out {
    mtlbx_file *f;
    const mtlbx_node *n;
    mtlbx_field_fn fn;
    void *ctx;
};
void field_emit(struct field_out *o, const char *name, uint64_t off, uint64_t size,
                unsigned flags, uint64_t target, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* File bytes as terminal-safe text, "..." when cut to fit. Returns out. */
const char *field_esc(char *out, size_t n, const uint8_t *p, size_t len);
/* 1234567 -> "1,234,567". Returns out. */
const char *field_num(char *out, size_t n, uint64_t v);
/* The file's bytes [off, off + len), or NULL when they are not all there. */
const uint8_t *field_bytes(const mtlbx_file *f, uint64_t off, uint64_t len);

/* MTLBX_NODE_UNKNOWN when a tag, or a value in it, is not one this library
 * can name; decided once, when the tag node is built. */
unsigned node_tag_flags(mtlbx_file *f, const mtlbx_node *n);
/* The part of a tag's label after its FourCC: `"foo"`, `kernel`,
 * `pub 0x0 priv 0x0 mod 0x1a0`. index/ctx as in a TAG node. */
void tag_summary(mtlbx_file *f, const mtlbx_library *lib, uint32_t index, uint32_t ctx,
                 const struct mtlbx_tag *t, char *out, size_t size);
/* The detail fields of a TAG node. */
void tag_fields(struct field_out *o);

/* ---- fields_iface.c: interface, argument and bitcode block nodes ---- */

/* The kept argument (or output) an ARGUMENT or STRUCT_MEMBER node stands
 * for, NULL when its interface is not decoded (yet). */
const struct mtlbx_air_argument *node_argument(const mtlbx_node *n, const struct mtlbx_interface **iface);
void iface_label(mtlbx_file *f, const mtlbx_node *n, char *buf, size_t size);
void iface_fields(struct field_out *o);
/* Module facts (AIR and language version, compiler, options) of a
 * function, when its interface is kept. */
void function_module_fields(struct field_out *o);
/* ---- fields_reflection.c: Core Image reflection (RETR, ARGR) ---- */
const struct mtlbx_reflection *node_reflection(const mtlbx_node *n);
/* For a RETR or ARGR tag node; false when it is neither (or unreadable). */
bool reflection_tag_summary(mtlbx_file *f, const mtlbx_node *n, char *out, size_t size);
bool reflection_tag_fields(struct field_out *o);
void ci_argument_label(const mtlbx_node *n, char *buf, size_t size);
void ci_argument_fields(struct field_out *o);
void ci_member_label(const mtlbx_node *n, char *buf, size_t size);
void ci_member_fields(struct field_out *o);

#endif
