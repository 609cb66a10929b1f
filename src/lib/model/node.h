/* Private glue between the node tree (node.c) and the text it shows
 * (fields.c: labels and detail fields). Nothing outside src/lib includes
 * this; the public side is the node section of model/model.h. */
#ifndef MTLBX_NODE_H
#define MTLBX_NODE_H

#include "bitcode/interface.h"
#include "model/model.h"
#include "checks/structure.h"
#include "container/metadata.h"
#include "container/diagnostics.h"

/* What a TAG or TAG_GROUP node belongs to is in its sub: enum part_ctx
 * (checks/structure.h). */

/* ---- model.c: what a model owns (see there) ---- */

struct mtlbx_model {
    mtlbx_file *f;
    struct node_arena *arena;
    struct node_diags *diags;
    struct iface_cache *ifaces;
};

/* Each owner's state, made and freed by the model (NULL: out of memory). */
struct node_arena *node_arena_new(void);
void node_arena_free(struct node_arena *a);
struct node_diags *node_diags_new(const mtlbx_file *f);
void node_diags_free(struct node_diags *nd);
struct iface_cache *iface_cache_new(const mtlbx_file *f);
void iface_cache_free(struct iface_cache *c);

/* ---- node_diags.c ---- */

/* Diagnostics of `lib` (of the fat container when lib is NULL) whose offset
 * lies in [off, off + size), in offset order, as positions in a sorted
 * index: [*first, *first + *count). Returns how many of them are errors.
 * The index is rebuilt only when the number of diagnostics changes. */
size_t node_diag_range(mtlbx_model *m, const mtlbx_library *lib, uint64_t off,
                       uint64_t size, size_t *first, size_t *count);
/* The k-th diagnostic of that sorted index. */
const struct mtlbx_diag *node_diag_sorted(mtlbx_model *m, const mtlbx_library *lib, size_t k);

/* ---- node_arena.c ---- */

/* Zeroed, 16-byte aligned memory from the model's node arena, which lives
 * until the model closes or a node_forget_children() gives it back. */
void *node_arena_alloc(struct node_arena *a, size_t size);
/* Where the arena keeps the file's root node (node.c's mbx_root). */
mtlbx_node **node_arena_root(struct node_arena *a);

/* ---- fields.c / fields_tag.c ---- */

/* Where one node's fields go; field_emit formats a value into a scratch
 * buffer that lives only during the callback. */
struct field_out {
    mtlbx_model *m;
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
const struct mtlbx_air_argument *node_argument(mtlbx_model *m, const mtlbx_node *n,
                                               const struct mtlbx_interface **iface);
void iface_label(mtlbx_model *m, const mtlbx_node *n, char *buf, size_t size);
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
/* ---- fields_gpu.c: a binary archive's GPU slices ---- */
void gpu_node_label(mtlbx_file *f, const mtlbx_node *n, char *buf, size_t size);
void gpu_node_fields(struct field_out *o);
/* An AIR function's "GPU code" lines: each GPU slice holding its code. */
void gpu_function_code_fields(struct field_out *o, const mtlbx_library *lib, size_t i);

#endif
