/* The model layer's face (src/lib/model): what the views share. The node
 * tree (every structure of the file as a node with its label, fields and
 * bytes) and the MSL declarations of interfaces. It
 * knows the container, the bitcode reader and the checks; nothing below
 * it calls into it. Its per-file caches (the node arena, the diagnostic
 * index, the kept interfaces) belong to an mtlbx_model, the object a view
 * opens on a file to walk it (model.c), not to the file. It never prints and knows nothing of curses:
 * the explorer and the JSON writers draw what it says. The MSL
 * declarations are model/msl.h, a typed NAME resolved model/names.h, a
 * definition found in the sources model/source_locate.h. */
#ifndef MTLBX_MODEL_H
#define MTLBX_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/header.h"
#include "bitcode/interface.h"
#include "checks/structure.h"

typedef struct mtlbx_node mtlbx_node;
typedef struct mtlbx_model mtlbx_model;

/* ---------------------------------------------------------------- model -- */

/* The model of an open file: what a view holds to walk its nodes. NULL
 * when f is NULL or memory ran out. Close it before the file (every node
 * lives in it). One model per view of a file; its calls are as
 * thread-safe as the notes below say. */
mtlbx_model *mbx_model_open(mtlbx_file *f);
void mbx_model_close(mtlbx_model *m);
mtlbx_file *mbx_model_file(const mtlbx_model *m);

/* Interfaces kept by the model, for the node tree and the explorer: a
 * background thread decodes (keep), the UI only looks (cached, never
 * decodes). Kept until mbx_model_close(). Thread-safe. lib must be a
 * library of the model's file (else: not decoded). */
enum mtlbx_iface_state {
    MTLBX_IFACE_NOT_DECODED = 0,
    MTLBX_IFACE_OK,            /* *iface is the decoded interface */
    MTLBX_IFACE_FAILED,        /* not bitcode or damaged: *error says why (with the
                                  offset); *iface, if any, has the blocks read */
};
enum mtlbx_iface_state mbx_function_interface_cached(mtlbx_model *m, const mtlbx_library *lib, size_t i,
                                                       const struct mtlbx_interface **iface,
                                                       const char **error);
/* Decodes function i (blocking) unless it is kept already; returns its state. */
enum mtlbx_iface_state mbx_function_interface_keep(mtlbx_model *m, const mtlbx_library *lib, size_t i);

/* ---------------------------------------------------------------- nodes -- */

/* The one model every view walks: the explorer's tree, detail and hex
 * panels. Children are built on first request, so opening a library with
 * 200,000 functions builds nothing per function until it is expanded.
 * A node is a part of the file's structure (checks/structure.h, where its
 * kinds are listed: the byte layout walks the same parts). */

#define MTLBX_NODE_ARG_OUTPUT 0x80000000u
#define MTLBX_NODE_ARG_MAX 0x7FFF      /* arguments shown per list */
#define MTLBX_NODE_MEMBER_MAX 0xFFFF   /* struct members shown per argument */

enum {
    MTLBX_NODE_UNKNOWN = 1u << 0,   /* unknown tag or value */
    MTLBX_NODE_PROBLEM = 1u << 1,   /* a diagnostic falls inside its span */
    MTLBX_NODE_WARNING = 1u << 2,   /* only warnings fall inside */
};

struct mtlbx_node {
    enum mtlbx_node_kind kind;
    uint64_t offset, size;     /* absolute byte span (size 0: no bytes) */
    mtlbx_node *parent;
    mtlbx_library *lib;        /* NULL above the library level */
    uint32_t index;            /* function / archive / member / slice / group index */
    uint32_t sub;              /* archive index for members, list kind for lists */
    struct mtlbx_tag tag;      /* for MTLBX_NODE_TAG */
    unsigned flags;
    /* private: children, built lazily */
    bool built;
    bool sorted;               /* children ordered by offset (bisectable) */
    uint32_t n_children;
    mtlbx_node **children;
};

/* The root: one FILE node whose children are the libraries (and the fat
 * header for a fat file). */
mtlbx_node *mbx_root(mtlbx_model *m);
size_t mbx_node_child_count(mtlbx_model *m, mtlbx_node *n);
mtlbx_node *mbx_node_child(mtlbx_model *m, mtlbx_node *n, size_t i);
/* n's first child of that kind (building n's children), or NULL. */
mtlbx_node *mbx_node_child_of_kind(mtlbx_model *m, mtlbx_node *n, enum mtlbx_node_kind kind);
/* Whether n has (or, not built yet, may have) children, without building
 * them: for drawing expand markers. Asking an ARCHIVE for its children
 * decompresses it; asking this does not. */
bool mbx_node_expandable(mtlbx_model *m, const mtlbx_node *n);
/* A short, terminal-safe label ("kernel  foo", "TAG NAME", ...). */
void mbx_node_label(mtlbx_model *m, const mtlbx_node *n, char *buf, size_t size);
/* Innermost node whose span contains `offset` (building children as
 * needed). Returns the root if nothing smaller contains it. */
mtlbx_node *mbx_node_at_offset(mtlbx_model *m, uint64_t offset);
/* Flags of n: unknown, problem (computed from the diagnostics). */
unsigned mbx_node_flags(mtlbx_model *m, const mtlbx_node *n);

/* One decoded field of a node, for the detail panel. Text is terminal-safe. */
enum {
    MTLBX_FIELD_FOLLOW = 1u << 0,   /* `target` is a file offset worth following */
    MTLBX_FIELD_ERROR = 1u << 1,
    MTLBX_FIELD_WARNING = 1u << 2,
    MTLBX_FIELD_HEADING = 1u << 3,  /* a sub-heading line, no bytes */
};
struct mtlbx_field {
    const char *name;
    const char *value;
    uint64_t offset, size;     /* the bytes this field was decoded from */
    unsigned flags;
    uint64_t target;
};
typedef void (*mtlbx_field_fn)(void *ctx, const struct mtlbx_field *field);
/* Calls fn once per field, in display order. Never blocks on hashing:
 * a hash not yet checked reads "pending" or "not checked". */
void mbx_node_fields(mtlbx_model *m, const mtlbx_node *n, mtlbx_field_fn fn, void *ctx);

#endif
