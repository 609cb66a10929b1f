/* Module level of an LLVM bitcode module (bitcode.h): the walk over its
 * blocks, the records the interface needs (types, global values, module
 * constants, symbol names, and the function types and pointer types an
 * argument's address space comes from), and the metadata block handed to
 * air_metadata.c. Every other block (FUNCTION bodies first of all) is
 * skipped by its length word. */
#include "config.h"
#include "bitcode.h"
#include "container/grow.h"

#include <stdlib.h>
#include <string.h>

/* Where a block sits decides how its records are read. */
enum walk_ctx { CTX_TOP, CTX_MODULE, CTX_TYPES, CTX_CONSTANTS, CTX_METADATA, CTX_SYMTAB, CTX_STRTAB, CTX_OTHER };

static const char *const BLOCK_NAMES[] = {
    [BLK_BLOCKINFO] = "BLOCKINFO_BLOCK", [BLK_MODULE] = "MODULE_BLOCK",
    [BLK_PARAMATTR] = "PARAMATTR_BLOCK", [BLK_PARAMATTR_GROUP] = "PARAMATTR_GROUP_BLOCK_ID",
    [BLK_CONSTANTS] = "CONSTANTS_BLOCK", [BLK_FUNCTION] = "FUNCTION_BLOCK",
    [BLK_IDENTIFICATION] = "IDENTIFICATION_BLOCK_ID", [BLK_VALUE_SYMTAB] = "VALUE_SYMTAB",
    [BLK_METADATA] = "METADATA_BLOCK", [BLK_METADATA_ATTACHMENT] = "METADATA_ATTACHMENT",
    [BLK_TYPE_NEW] = "TYPE_BLOCK_ID", [BLK_USELIST] = "USELIST_BLOCK",
    [BLK_MODULE_STRTAB] = "MODULE_STRTAB_BLOCK", [BLK_GLOBALVAL_SUMMARY] = "GLOBALVAL_SUMMARY_BLOCK",
    [BLK_OPERAND_BUNDLE_TAGS] = "OPERAND_BUNDLE_TAGS_BLOCK", [BLK_METADATA_KIND] = "METADATA_KIND_BLOCK",
    [BLK_STRTAB] = "STRTAB_BLOCK", [BLK_FULL_LTO_SUMMARY] = "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK",
    [BLK_SYMTAB] = "SYMTAB_BLOCK", [BLK_SYNC_SCOPE_NAMES] = "SYNC_SCOPE_NAMES_BLOCK",
};

const char *bc_block_name(uint32_t block_id)
{
    return block_id < sizeof BLOCK_NAMES / sizeof *BLOCK_NAMES ? BLOCK_NAMES[block_id] : NULL;
}

static enum walk_ctx child_ctx(enum walk_ctx parent, uint32_t id)
{
    if (parent == CTX_TOP)
        return id == BLK_MODULE ? CTX_MODULE : id == BLK_STRTAB ? CTX_STRTAB : CTX_OTHER;
    if (parent != CTX_MODULE)
        return CTX_OTHER;
    switch (id) {
    case BLK_TYPE_NEW: return CTX_TYPES;
    case BLK_CONSTANTS: return CTX_CONSTANTS;
    case BLK_METADATA: return CTX_METADATA;
    case BLK_VALUE_SYMTAB: return CTX_SYMTAB;
    default: return CTX_OTHER;
    }
}

static bool push(struct bc_module *m, void **array, size_t *n, size_t *cap, size_t size, uint64_t bit)
{
    if (!grow_array(array, cap, *n + 1, size)) {
        bc_fail(&m->rd, bit, "out of memory");
        return false;
    }
    memset((char *)*array + *n * size, 0, size);
    (*n)++;
    return true;
}

/* --------------------------------------------------------- records -- */

static void module_record(struct bc_module *m, const struct bc_record *rec)
{
    switch (rec->code) {
    case 1: /* VERSION */
        if (rec->n_ops)
            m->version = rec->ops[0];
        break;
    case 7:  /* GLOBALVAR */
    case 8:  /* FUNCTION */
    case 9:  /* ALIAS_OLD */
    case 14: /* ALIAS */
    case 15: /* IFUNC */
        if (m->consts_seen)
            return; /* a global after the constants would renumber them: not LLVM */
        if (!push(m, (void **)&m->globals, &m->n_globals, &m->globals_cap, sizeof *m->globals, rec->bit))
            return;
        struct bc_global *g = &m->globals[m->n_globals - 1];
        g->kind = rec->code == 7 ? GV_VARIABLE : rec->code == 8 ? GV_FUNCTION : GV_ALIAS;
        g->type = BC_NO_TYPE;
        if (m->version >= 2 && rec->n_ops >= 2) {
            g->strtab_offset = rec->ops[0];
            g->strtab_size = rec->ops[1];
        }
        /* FUNCTION: [strtab offset, strtab size,] type, ...: the type its
         * parameters' address spaces come from. */
        size_t type_at = m->version >= 2 ? 2 : 0;
        if (rec->code == 8 && rec->n_ops > type_at && rec->ops[type_at] < BC_NO_TYPE)
            g->type = (uint32_t)rec->ops[type_at];
        break;
    default:
        break;
    }
}

/* LLVM's address spaces are 24 bits (llvm::PointerType); more is not LLVM. */
#define MAX_ADDRESS_SPACE 0xFFFFFFu

/* A FUNCTION type's parameters, ops[first..n), appended to m->params. */
static void function_type(struct bc_module *m, struct bc_type *t, const struct bc_record *rec, size_t first)
{
    size_t n = rec->n_ops - first;
    if (m->n_params + n >= BC_NO_TYPE) { /* more than 32-bit indices reach: hostile */
        t->kind = TY_UNREADABLE;
        return;
    }
    if (!grow_array((void **)&m->params, &m->params_cap, m->n_params + n, sizeof *m->params)) {
        bc_fail(&m->rd, rec->bit, "out of memory");
        return;
    }
    t->kind = TY_FUNCTION;
    t->a = (uint32_t)m->n_params;
    t->b = (uint32_t)n;
    for (size_t i = 0; i < n; i++)
        m->params[m->n_params++] = rec->ops[first + i] < BC_NO_TYPE ? (uint32_t)rec->ops[first + i] : BC_NO_TYPE;
}

static void type_record(struct bc_module *m, const struct bc_record *rec)
{
    if (rec->code == 1 || rec->code == 19) /* NUMENTRY, STRUCT_NAME: no type */
        return;
    if (!push(m, (void **)&m->types, &m->n_types, &m->types_cap, sizeof *m->types, rec->bit))
        return;
    struct bc_type *t = &m->types[m->n_types - 1];
    t->kind = rec->code == 7 ? TY_INT : rec->code == 16 ? TY_METADATA : rec->code == 2 ? TY_VOID : TY_OTHER;
    switch (rec->code) {
    case 8: /* POINTER: [pointee type, address space (0 if absent)] */
    case 25: { /* OPAQUE_POINTER: [address space] */
        size_t as_at = rec->code == 8 ? 1 : 0;
        uint64_t as = rec->n_ops > as_at ? rec->ops[as_at] : 0;
        if (rec->n_ops < 1 || as > MAX_ADDRESS_SPACE) {
            t->kind = TY_UNREADABLE;
            break;
        }
        t->kind = TY_POINTER;
        t->a = (uint32_t)as;
        t->b = rec->code == 8 && rec->ops[0] < BC_NO_TYPE ? (uint32_t)rec->ops[0] : BC_NO_TYPE;
        break;
    }
    case 21: /* FUNCTION: [vararg, return type, parameter types...] */
    case 9:  /* FUNCTION_OLD: [vararg, attribute id, return type, parameter types...] */
        if (rec->n_ops < (rec->code == 21 ? 2u : 3u))
            t->kind = TY_UNREADABLE;
        else
            function_type(m, t, rec, rec->code == 21 ? 2 : 3);
        break;
    default:
        break;
    }
}

enum mtlbx_address_space_from bc_parameter_address_space(const struct bc_module *m, size_t g, uint64_t param,
                                                         uint32_t *as)
{
    if (g >= m->n_globals || m->globals[g].kind != GV_FUNCTION)
        return MTLBX_AS_UNKNOWN;
    uint32_t t = m->globals[g].type;
    /* Writers before LLVM 3.8 gave the function's pointer type; the
     * function type is its pointee (as LLVM's reader takes it). */
    if (t < m->n_types && m->types[t].kind == TY_POINTER)
        t = m->types[t].b;
    if (t >= m->n_types || m->types[t].kind != TY_FUNCTION || param >= m->types[t].b)
        return MTLBX_AS_UNKNOWN;
    uint32_t p = m->params[m->types[t].a + param];
    if (p >= m->n_types || m->types[p].kind == TY_UNREADABLE)
        return MTLBX_AS_UNKNOWN;
    if (m->types[p].kind != TY_POINTER)
        return MTLBX_AS_NOT_POINTER;
    *as = m->types[p].a;
    return MTLBX_AS_PARAMETER;
}

static void constant_record(struct bc_module *m, const struct bc_record *rec)
{
    m->consts_seen = true;
    if (rec->code == 1) { /* SETTYPE */
        m->const_type = rec->n_ops ? rec->ops[0] : UINT64_MAX;
        return;
    }
    if (!push(m, (void **)&m->consts, &m->n_consts, &m->consts_cap, sizeof *m->consts, rec->bit))
        return;
    struct bc_constant *c = &m->consts[m->n_consts - 1];
    bool int_type = m->const_type < m->n_types && m->types[m->const_type].kind == TY_INT;
    if (rec->code == 4 && rec->n_ops && int_type) { /* INTEGER: signed VBR */
        uint64_t v = rec->ops[0];
        c->kind = CONST_INT;
        c->value = (v & 1) ? (v == 1 ? INT64_MIN : -(int64_t)(v >> 1)) : (int64_t)(v >> 1);
    } else if (rec->code == 2 && int_type) { /* NULL of an integer type: 0 */
        c->kind = CONST_INT;
    }
}

static void symtab_record(struct bc_module *m, const struct bc_record *rec)
{
    /* VST_ENTRY [valueid, namechar...], VST_FNENTRY [valueid, offset, namechar...] */
    size_t skip = rec->code == 1 ? 1 : rec->code == 3 ? 2 : 0;
    if (!skip || rec->n_ops <= skip || rec->ops[0] >= m->n_globals)
        return;
    struct bc_global *g = &m->globals[rec->ops[0]];
    size_t len = rec->n_ops - skip;
    uint8_t *name = arena_alloc(m->arena, len);
    if (!name) {
        bc_fail(&m->rd, rec->bit, "out of memory");
        return;
    }
    for (size_t i = 0; i < len; i++)
        name[i] = (uint8_t)rec->ops[skip + i];
    g->name = (struct mtlbx_bytes){ name, len };
    g->named = true;
}

static void record(struct bc_module *m, enum walk_ctx ctx, const struct bc_record *rec)
{
    switch (ctx) {
    case CTX_MODULE: module_record(m, rec); break;
    case CTX_TYPES: type_record(m, rec); break;
    case CTX_CONSTANTS: constant_record(m, rec); break;
    case CTX_METADATA: md_record(m, rec); break;
    case CTX_SYMTAB: symtab_record(m, rec); break;
    case CTX_STRTAB:
        if (rec->code == 1 && rec->has_blob) /* STRTAB_BLOB */
            m->strtab = (struct mtlbx_bytes){ rec->blob, rec->blob_len };
        break;
    default:
        break;
    }
}

/* The records whose operands the walk reads (bitstream.h's wants_ops):
 * a large constant array or a metadata index is stepped over, not stored. */
static bool wants_ops(void *ctx, uint32_t block_id, uint32_t code)
{
    (void)ctx;
    switch (block_id) {
    case BLK_MODULE:
        /* VERSION and the global values (module_record); the long
         * DATALAYOUT and TRIPLE strings, a few hundred operands in every
         * module, are not needed. */
        return code == 1 || code == 7 || code == 8 || code == 9 || code == 14 || code == 15;
    case BLK_VALUE_SYMTAB:
        return true;
    case BLK_CONSTANTS:
        return code == 1 || code == 4; /* SETTYPE, INTEGER */
    case BLK_METADATA:
        return md_wants_ops(code);
    case BLK_TYPE_NEW:
        /* POINTER, OPAQUE_POINTER, FUNCTION_OLD, FUNCTION: an argument's
         * address space; other types are told apart by their code. */
        return code == 8 || code == 25 || code == 9 || code == 21;
    default:
        return false; /* STRTAB is a blob */
    }
}

/* ------------------------------------------------------------- walk -- */

/* The entries of the current block until its END_BLOCK (or, at the top,
 * the end of the stream). Recursion is bounded by MTLBX_BC_MAX_DEPTH. */
static bool walk(struct bc_module *m, enum walk_ctx ctx)
{
    struct bc_reader *r = &m->rd;
    struct bc_record rec;
    uint32_t id;
    for (;;) {
        switch (bc_next(r, &rec, &id)) {
        case BC_ENTRY_EOF:
            return ctx == CTX_TOP;
        case BC_ENTRY_ERROR:
            return false;
        case BC_ENTRY_END_BLOCK:
            if (ctx == CTX_METADATA)
                md_block_end(m);
            return true;
        case BC_ENTRY_RECORD:
            record(m, ctx, &rec);
            if (r->failed)
                return false;
            break;
        case BC_ENTRY_SUBBLOCK:
            if (id == BLK_BLOCKINFO) {
                if (!bc_read_blockinfo(r))
                    return false;
            } else if (child_ctx(ctx, id) == CTX_OTHER) {
                /* FUNCTION bodies, PARAMATTR(_GROUP), METADATA_KIND,
                 * METADATA_ATTACHMENT, OPERAND_BUNDLE_TAGS, SYMTAB,
                 * IDENTIFICATION, sync scopes, nested or unknown blocks:
                 * nothing of the interface is in them, so they are
                 * stepped over by their length word, unread (a fifth of
                 * a module's bytes besides function bodies). */
                if (!bc_skip_block(r, id))
                    return false;
            } else {
                if (!bc_enter(r, id) || !walk(m, child_ctx(ctx, id)))
                    return false;
            }
            break;
        }
    }
}

bool bc_module_read(struct bc_module *m, const uint8_t *data, size_t len, uint64_t base, struct arena *arena)
{
    memset(m, 0, sizeof *m);
    m->arena = arena;
    m->base = base;
    if (!bc_reader_init(&m->rd, data, len))
        return false;
    m->rd.wants_ops = wants_ops;
    if (!walk(m, CTX_TOP))
        return false;
    bool has_module = false;
    for (size_t i = 0; i < m->rd.n_blocks && !has_module; i++)
        has_module = m->rd.blocks[i].block_id == BLK_MODULE && m->rd.blocks[i].depth == 0;
    if (!has_module) {
        bc_fail(&m->rd, m->rd.bit, "no MODULE block");
        return false;
    }
    /* Names from the string table (version 2 modules) */
    for (size_t i = 0; i < m->n_globals; i++) {
        struct bc_global *g = &m->globals[i];
        if (g->named || m->version < 2 || !m->strtab.ptr)
            continue;
        if (g->strtab_offset <= m->strtab.len && g->strtab_size <= m->strtab.len - g->strtab_offset) {
            g->name = (struct mtlbx_bytes){ m->strtab.ptr + g->strtab_offset, (size_t)g->strtab_size };
            g->named = true;
        }
    }
    return true;
}

void bc_module_free(struct bc_module *m)
{
    bc_reader_free(&m->rd);
    free(m->types);
    free(m->params);
    free(m->globals);
    free(m->consts);
    free(m->slots);
    free(m->strings);
    free(m->named);
    free(m->pending_name);
    for (size_t i = 0; i < m->n_md_blocks; i++)
        bc_abbrev_set_free(&m->md_blocks[i].abbrevs);
}
