/* A function's AIR interface as read from its module (src/lib/bitcode):
 * the module's bitstream blocks, the metadata values, the arguments and
 * outputs of its entry. What the checks, the model, the comparison, the
 * JSON and the program know of the bitcode; reading one is
 * bitcode/interface_reader.h. */
#ifndef MTLBX_BITCODE_INTERFACE_H
#define MTLBX_BITCODE_INTERFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each function's module is LLVM bitcode (FORMAT §21). The library reads it
 * natively: the wrapper header, the bitstream's block structure, and of its
 * contents only what the interface needs (the module-level METADATA block,
 * module constants, function names from STRTAB or VALUE_SYMTAB). Function
 * bodies are skipped by their block length and never decoded.
 *
 * Limits, so that hostile input is bounded in time and memory (every limit
 * hit is an error with an offset, never a crash or a hang): */
#define MTLBX_BC_MAX_DEPTH 64            /* nested blocks */
#define MTLBX_BC_MAX_BLOCKS 100000       /* blocks listed per module */
#define MTLBX_BC_MAX_ABBREV_OPS 4096     /* operands of one DEFINE_ABBREV */
#define MTLBX_BC_MAX_RECORD_OPS 1000000  /* operands of one record */
#define MTLBX_BC_MAX_MD_NESTING 32       /* nested metadata nodes in one value;
                                            deeper, or a node inside itself, fails */
#define MTLBX_BC_MAX_INTERFACE_VALUES 200000 /* values one function's interface
                                            stands for written out in full (a node
                                            shared by many counts each time); the
                                            rest is cut (mtlbx_interface.cut) */

/* One block of a module's LLVM bitstream (IDENTIFICATION, MODULE, TYPE,
 * METADATA, FUNCTION, STRTAB, ...), for the explorer's module node. */
struct mtlbx_bc_block {
    uint32_t block_id;         /* LLVM block id (8 MODULE, 15 METADATA, ...) */
    const char *name;          /* "MODULE_BLOCK", ... (static) or NULL when unknown */
    uint64_t offset;           /* absolute file offset of the byte holding the first
                                  bit of its ENTER_SUBBLOCK abbrev id */
    uint64_t size;             /* bytes from offset through its END_BLOCK (word
                                  aligned), i.e. to the end of the block as declared */
    uint32_t n_records;        /* records directly inside it (not in sub-blocks);
                                  0 for blocks skipped by length (FUNCTION ...) */
    uint32_t depth;            /* 0 for top-level blocks */
    uint32_t parent;           /* index of the enclosing block, UINT32_MAX at top */
    bool skipped;              /* stepped over by its length word: the interface
                                  does not need it (records and sub-blocks unread) */
};

/* What was read of one module's bitstream. */
struct mtlbx_module_info {
    bool wrapper;              /* bitcode wrapper header present */
    uint64_t bitcode_offset;   /* absolute offset of "BC\xC0\xDE" */
    uint64_t bitcode_size;
    size_t n_blocks;
    const struct mtlbx_bc_block *blocks;   /* in stream order (pre-order) */
    /* The first problem, if reading stopped early: */
    bool failed;
    uint64_t error_offset;     /* absolute offset where reading stopped */
    char error[160];           /* NUL-terminated, printable ASCII */
};

/* A metadata value as interfaces use it. */
enum mtlbx_md_kind {
    MTLBX_MD_INT,              /* i1..i64 constant (sign-extended) */
    MTLBX_MD_STRING,           /* MDString */
    MTLBX_MD_NODE,             /* nested MDNode / tuple: items */
    MTLBX_MD_NULL,             /* null operand, or a value that is neither
                                  (a float, a constant expression ...) */
    MTLBX_MD_GLOBAL,           /* a global value (variable or function): its
                                  name in s (len 0 when it has none) */
};
struct mtlbx_md_value {
    enum mtlbx_md_kind kind;
    int64_t i;                 /* MTLBX_MD_INT */
    struct mtlbx_bytes s;      /* MTLBX_MD_STRING: raw bytes, into the mapping
                                  (bulk METADATA_STRINGS) or owned by the
                                  interface (older per-string records) */
    size_t n_items;            /* MTLBX_MD_NODE */
    const struct mtlbx_md_value *items;
    uint64_t n_expanded;       /* MTLBX_MD_NODE from the reader: how many values it
                                  stands for with every shared child written out
                                  in full, itself included (saturates); 0 unknown */
    uint64_t offset;           /* MTLBX_MD_NODE from the reader: absolute offset
                                  of the byte holding its record's start */
};

/* One "air.KEY" of an argument or an entry, with the values up to the next key. */
struct mtlbx_air_property {
    struct mtlbx_bytes key;    /* without the "air." prefix */
    size_t n_values;           /* 0: a flag (JSON true) */
    const struct mtlbx_md_value *values;
};

/* Where an argument's address space comes from (CONTRACT "address_space"). */
enum mtlbx_address_space_from {
    MTLBX_AS_NOT_POINTER = 0,  /* the parameter is not a pointer (JSON null); so
                                  is every output, which is no parameter */
    MTLBX_AS_METADATA,         /* the argument's air.address_space */
    MTLBX_AS_PARAMETER,        /* the function's own parameter type in the module
                                  (older AIR records no air.address_space) */
    MTLBX_AS_UNKNOWN,          /* neither can tell: no air.address_space, and the
                                  module has no parameter of the argument's number
                                  (or no readable function type): JSON null, and
                                  said so, never guessed */
};

/* One argument (or output) descriptor of an AIR entry (FORMAT §21). */
struct mtlbx_air_argument {
    bool has_index;            /* leading integer present */
    uint32_t index;
    struct mtlbx_bytes kind;   /* first key that is not function_constant ("buffer",
                                  "texture", "thread_position_in_grid", ...),
                                  without "air."; len 0 if none */
    bool has_name, has_type;
    struct mtlbx_bytes name;   /* air.arg_name */
    struct mtlbx_bytes type;   /* air.arg_type_name */
    bool has_location;
    int64_t location;          /* air.location_index's first int, else the operand right
                                  after the kind key when it is an int (CONTRACT) */
    const char *access;        /* "read" "write" "read_write" "sample" (static) or NULL */
    size_t n_properties;       /* every key, in order */
    const struct mtlbx_air_property *properties;
    /* A binding the compiler computes from function constants: that operand
     * names a global (_ZL32__metal_implicit_attr_int_expr_0.96.126) instead
     * of being an int; then has_location is false. */
    bool has_location_expression;
    struct mtlbx_bytes location_expression;   /* the global's name */
    /* air.function_constant's node {global, type, name}: the name. */
    bool has_function_constant;
    struct mtlbx_bytes function_constant;
    /* A pointer argument's LLVM address space (1 device, 2 constant,
     * 3 threadgroup, 0 thread, 6 object_data; textures and samplers are
     * pointers too in LLVM): valid when address_space_from is METADATA or
     * PARAMETER. An input's index is its LLVM parameter number. */
    uint8_t address_space_from;            /* enum mtlbx_address_space_from */
    int64_t address_space;
};

/* "air.address_space", "parameter" or "unknown" (static): where an
 * argument's address space came from, as dump --json names it
 * ("address_space_from"); NULL for MTLBX_AS_NOT_POINTER. */
const char *mbx_address_space_from_name(const struct mtlbx_air_argument *a);

struct mtlbx_interface {
    const char *stage;         /* "kernel", "vertex", ... (the X of air.X, escaped as
                                  terminal-safe UTF-8 by mbx_escape), NULL if no
                                  entry names the function (or module.failed) */
    struct mtlbx_bytes symbol; /* the entry's function symbol name */
    size_t n_inputs;
    const struct mtlbx_air_argument *inputs;
    size_t n_outputs;
    const struct mtlbx_air_argument *outputs;
    size_t n_attributes;       /* further operands of the entry, key without "air." */
    const struct mtlbx_air_property *attributes;
    /* Module facts */
    bool has_air_version;
    uint32_t air_version[3];   /* !air.version */
    bool has_language_version;
    struct mtlbx_bytes language_name;      /* "Metal" */
    uint32_t language_version[3];
    size_t n_compile_options;
    const struct mtlbx_bytes *compile_options;
    bool has_compiler;
    struct mtlbx_bytes compiler;           /* !llvm.ident */
    struct mtlbx_module_info module;       /* blocks of the module */
    /* Metadata nodes that share children (a node holding the same child
     * twice, 25 levels deep) stand for exponentially many values: past
     * MTLBX_BC_MAX_INTERFACE_VALUES, charged level by level from the
     * entry down, nodes are shortened and what is left out is gone (not a
     * failure: the stage, names and bindings above the cut stay). */
    bool cut;
    uint64_t cut_offset;                   /* absolute offset of the first node shortened */
};

/* Frees an interface that a read or a decode (bitcode/interface_reader.h)
 * returned; NULL is fine. */
void mbx_interface_free(struct mtlbx_interface *iface);

#ifdef __cplusplus
}
#endif
#endif
