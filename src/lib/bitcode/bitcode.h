/* The bitcode layer's face (src/lib/bitcode): the LLVM bitstream reader,
 * the module blocks and the AIR metadata and interfaces read from them.
 * It knows the container (a module's bytes and where they lie) and
 * nothing above it: the checks, the model and the comparison call it,
 * never the container. It never prints; problems become diagnostics at a
 * byte offset. Private to src/lib: what the other programs see of it is
 * declared in bitcode/interface.h and bitcode/demangle.h.
 *
 * What it keeps between calls belongs to objects of its own that the
 * caller makes and frees, never to the file handle: the interface reader
 * (mtlbx_interface_reader, interface_reader.c) holds, for one library,
 * the table of which functions share a module and the shared modules
 * read once for all of them; callers that decode many functions (sig,
 * dump --interfaces, check, the model, the explorer, diff) make one.
 *
 * What the interface decoder reads of one LLVM bitcode module: the blocks,
 * the types (integer or not; pointers with their address space, function
 * types with their parameters), the global values with their names and
 * (for functions) their types, the
 * module-level constants, and an index of the module-level METADATA block
 * whose nodes are decoded on demand (air_metadata.c). */
#ifndef MTLBX_BITCODE_H
#define MTLBX_BITCODE_H

#include <stdbool.h>

#include "arena.h"
#include "bitstream.h"
#include "container/file.h"
#include "bitcode/interface_reader.h"

/* LLVM block ids (llvm/Bitcode/LLVMBitCodes.h) */
enum {
    BLK_BLOCKINFO = 0, BLK_MODULE = 8, BLK_PARAMATTR = 9, BLK_PARAMATTR_GROUP = 10,
    BLK_CONSTANTS = 11, BLK_FUNCTION = 12, BLK_IDENTIFICATION = 13, BLK_VALUE_SYMTAB = 14,
    BLK_METADATA = 15, BLK_METADATA_ATTACHMENT = 16, BLK_TYPE_NEW = 17, BLK_USELIST = 18,
    BLK_MODULE_STRTAB = 19, BLK_GLOBALVAL_SUMMARY = 20, BLK_OPERAND_BUNDLE_TAGS = 21,
    BLK_METADATA_KIND = 22, BLK_STRTAB = 23, BLK_FULL_LTO_SUMMARY = 24, BLK_SYMTAB = 25,
    BLK_SYNC_SCOPE_NAMES = 26,
};

/* TY_UNREADABLE: a pointer or function type whose record lacks the
 * operands LLVM requires (hostile input): what it would say is unknown. */
enum bc_type_kind { TY_OTHER = 0, TY_INT, TY_METADATA, TY_VOID, TY_POINTER, TY_FUNCTION, TY_UNREADABLE };

/* One entry of the TYPE table, as far as the interface needs it: what
 * kind it is, and for the two kinds that carry an argument's address
 * space, their operands (bitcode.c type_record). */
struct bc_type {
    uint8_t kind;              /* enum bc_type_kind */
    uint32_t a;                /* POINTER: its address space;
                                  FUNCTION: its first parameter in bc_module.params */
    uint32_t b;                /* POINTER: its pointee's type id (typed pointers),
                                  BC_NO_TYPE for an opaque pointer;
                                  FUNCTION: how many parameters it has */
};
#define BC_NO_TYPE UINT32_MAX
enum bc_const_kind { CONST_OTHER = 0, CONST_INT };
enum bc_global_kind { GV_VARIABLE, GV_FUNCTION, GV_ALIAS };

struct bc_global {
    uint8_t kind;
    bool named;
    uint32_t type;                         /* FUNCTION: its type id, BC_NO_TYPE if none */
    uint64_t strtab_offset, strtab_size;   /* version 2 modules */
    struct mtlbx_bytes name;               /* resolved at the end */
};

struct bc_constant {
    uint8_t kind;
    int64_t value;
};

/* One metadata id. */
enum md_slot_kind { MDS_OTHER = 0, MDS_STRING, MDS_VALUE, MDS_NODE, MDS_OLD_NODE };
struct md_slot {
    uint8_t kind;
    uint8_t block;             /* which saved METADATA block (for re-reading) */
    uint8_t state;             /* node conversion: 0 not yet, 1 in progress, 2 done */
    uint32_t n_items;          /* node, once converted */
    uint64_t n_expanded;       /* node, once converted: mtlbx_md_value.n_expanded */
    int64_t first_global;      /* node, once converted: the global value its
                                  first operand names (an entry's function), or -1 */
    uint64_t a, b;             /* STRING: index into strings; VALUE: type, value;
                                  NODE: bit position of the record */
    const struct mtlbx_md_value *items;
};

struct md_named {
    char *name;                /* NUL-terminated, owned by the arena */
    size_t n_ops;
    const uint64_t *ops;       /* metadata ids */
    uint64_t bit;              /* the NAMED_NODE record */
};

#define MD_MAX_BLOCKS 16
struct md_block {
    struct bc_abbrev_set abbrevs;
    unsigned width;
    uint64_t end_bit;
};

struct bc_module {
    struct bc_reader rd;
    struct arena *arena;       /* the result's: names, strings, values */
    uint64_t base;             /* absolute offset of the bitstream's first byte */
    uint64_t version;          /* MODULE_CODE_VERSION */
    size_t n_types, types_cap;
    struct bc_type *types;
    size_t n_params, params_cap;
    uint32_t *params;          /* the parameter type ids of every FUNCTION type */
    size_t n_globals, globals_cap;
    struct bc_global *globals;
    size_t n_consts, consts_cap;
    struct bc_constant *consts;
    uint64_t const_type;       /* CST_CODE_SETTYPE */
    bool consts_seen;          /* constants come after the globals */
    struct mtlbx_bytes strtab;
    /* Metadata */
    size_t n_slots, slots_cap;
    struct md_slot *slots;
    size_t n_strings, strings_cap;
    struct mtlbx_bytes *strings;
    size_t n_named, named_cap;
    struct md_named *named;
    char *pending_name;        /* METADATA_NAME waiting for its NAMED_NODE */
    uint64_t md_context_bit;   /* the record a broken reference is reported at */
    size_t n_md_blocks;
    struct md_block md_blocks[MD_MAX_BLOCKS];
};

/* bitcode.c: walks the bitstream at data[0..len) (from "BC\xC0\xDE").
 * False when it stopped on an error (m->rd.failed, with what was read). */
bool bc_module_read(struct bc_module *m, const uint8_t *data, size_t len, uint64_t base,
                    struct arena *arena);
void bc_module_free(struct bc_module *m);
const char *bc_block_name(uint32_t block_id);
/* bitcode_triple.c: the module's target triple (the MODULE block's TRIPLE
 * record) as printable ASCII into out; `data` is the module, with or
 * without its wrapper. False when there is none or the bytes do not read;
 * reports nothing (the interface decoder names bitstream problems). */
bool bc_module_triple(const uint8_t *data, size_t len, char *out, size_t size);

/* bitcode.c: the address space of parameter `param` of function global
 * `g` (CONTRACT "address_space"): *as set and MTLBX_AS_PARAMETER when the
 * parameter is a pointer, MTLBX_AS_NOT_POINTER when it is something
 * else, MTLBX_AS_UNKNOWN when the module cannot tell (the global has no
 * function type, or no parameter of that number). */
enum mtlbx_address_space_from bc_parameter_address_space(const struct bc_module *m, size_t g, uint64_t param,
                                                         uint32_t *as);

/* air_interface.c: the first integer among a property's values (an
 * argument's binding, a function constant's index, a thread count), or
 * false when it has none or p is NULL. */
bool air_property_first_int(const struct mtlbx_air_property *p, int64_t *out);

/* air_metadata.c */
/* Whether the walk needs the operands of a METADATA record with this code
 * (nodes are re-read on demand, so theirs are not). */
bool md_wants_ops(uint32_t code);
void md_record(struct bc_module *m, const struct bc_record *rec);
void md_block_end(struct bc_module *m);
/* The named metadata `name`, or NULL. */
const struct md_named *md_find_named(const struct bc_module *m, const char *name);
/* Converts metadata id `id` into *out (nodes recursively, memoised, so a
 * node shared by many costs one conversion). False on a reference past
 * the end, a node that contains itself, nesting deeper than
 * MTLBX_BC_MAX_MD_NESTING (then m->rd.failed says where). */
bool md_value(struct bc_module *m, uint64_t id, unsigned depth, struct mtlbx_md_value *out);
/* If metadata id `id` is a VALUE naming a global value, its index; else -1. */
long md_global(const struct bc_module *m, uint64_t id);
/* For a node already converted by md_value: the global value its first
 * operand names (an entry tuple's function), else -1. */
long md_node_global(const struct bc_module *m, uint64_t id);

/* air_interface.c: a module's bitstream read once (blocks, facts, the
 * metadata index), referenced by every interface made from it; decoding an
 * entry from it is thread-safe. new: NULL (with *err) when the bytes are
 * not bitcode or out of memory; the caller holds one reference. */
struct module_read;
struct module_read *module_read_new(const uint8_t *data, size_t len, uint64_t base, struct mtlbx_error *err);
struct mtlbx_interface *module_read_interface(struct module_read *r, const uint8_t *symbol, size_t symbol_len,
                                              struct mtlbx_error *err);
void module_read_retain(struct module_read *r);
void module_read_release(struct module_read *r);
/* interface_reader.c: function i's interface, decoded from `copy` (the
 * module's bytes as read by the hash) unless it is NULL or the module is
 * shared; a module that other functions share is read once through `rd`
 * (may be NULL: then alone). *mapped (may be NULL) says whether the
 * mapping was read. The interface points into `copy` (names, strings):
 * free it before `copy` is reused. */
struct mtlbx_interface *interface_read_from(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i,
                                            const uint8_t *copy, struct mtlbx_error *err, bool *mapped);

#endif
