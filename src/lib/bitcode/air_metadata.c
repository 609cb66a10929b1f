/* The module-level METADATA block (bitcode.h): an index built while the
 * block streams past (one slot per metadata id: a string, a value, or the
 * bit position of a node record), and conversion of the few nodes the
 * interface needs into mtlbx_md_value trees, re-reading their records on
 * demand. Debug-info modules carry tens of thousands of nodes the
 * interface never looks at; this way they cost one pass and a slot each.
 *
 * Strings of the bulk METADATA_STRINGS record point into the mapping; the
 * older per-string records are copied (their characters are operands). */
#include "config.h"
#include "bitcode.h"
#include "container/grow.h"

#include <stdlib.h>
#include <string.h>

#define MD_EXPANDED_MAX ((uint64_t)1 << 62)

/* Record codes (llvm/Bitcode/LLVMBitCodes.h, MetadataCodes) */
enum {
    MD_STRING_OLD = 1, MD_VALUE = 2, MD_NODE = 3, MD_NAME = 4, MD_DISTINCT_NODE = 5, MD_KIND = 6,
    MD_LOCATION = 7, MD_OLD_NODE = 8, MD_OLD_FN_NODE = 9, MD_NAMED_NODE = 10, MD_ATTACHMENT = 11,
    MD_GENERIC_DEBUG = 12, MD_MACRO_FILE = 34, MD_STRINGS = 35, MD_GLOBAL_DECL_ATTACHMENT = 36,
    MD_GLOBAL_VAR_EXPR = 37, MD_INDEX_OFFSET = 38, MD_INDEX = 39, MD_LABEL = 40, MD_STRING_TYPE = 41,
    MD_COMMON_BLOCK = 44, MD_GENERIC_SUBRANGE = 45, MD_ARG_LIST = 46, MD_ASSIGN_ID = 47,
};

/* Does a record of this code define the next metadata id? As LLVM's
 * MetadataLoader: every node kind does; names, kinds, attachments and
 * the index do not, nor do codes it does not know. */
static bool defines_id(uint32_t code)
{
    switch (code) {
    case MD_STRING_OLD: case MD_VALUE: case MD_NODE: case MD_DISTINCT_NODE: case MD_LOCATION:
    case MD_OLD_NODE: case MD_OLD_FN_NODE: case MD_GLOBAL_VAR_EXPR: case MD_LABEL: case MD_STRING_TYPE:
    case MD_COMMON_BLOCK: case MD_GENERIC_SUBRANGE: case MD_ARG_LIST: case MD_ASSIGN_ID:
        return true;
    default:
        return code >= MD_GENERIC_DEBUG && code <= MD_MACRO_FILE;
    }
}

static struct md_slot *new_slot(struct bc_module *m, uint64_t bit)
{
    if (!grow_array((void **)&m->slots, &m->slots_cap, m->n_slots + 1, sizeof *m->slots)) {
        bc_fail(&m->rd, bit, "out of memory");
        return NULL;
    }
    struct md_slot *s = &m->slots[m->n_slots++];
    memset(s, 0, sizeof *s);
    s->block = (uint8_t)m->n_md_blocks;
    return s;
}

static bool add_string(struct bc_module *m, struct mtlbx_bytes str, uint64_t bit)
{
    if (!grow_array((void **)&m->strings, &m->strings_cap, m->n_strings + 1, sizeof *m->strings)) {
        bc_fail(&m->rd, bit, "out of memory");
        return false;
    }
    struct md_slot *s = new_slot(m, bit);
    if (!s)
        return false;
    s->kind = MDS_STRING;
    s->a = m->n_strings;
    m->strings[m->n_strings++] = str;
    return true;
}

/* Characters from operands: an owned copy (these records are not zero copy). */
static uint8_t *ops_to_chars(struct bc_module *m, const struct bc_record *rec, bool nul)
{
    uint8_t *s = arena_alloc(m->arena, rec->n_ops + (nul ? 1 : 0));
    if (!s) {
        bc_fail(&m->rd, rec->bit, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < rec->n_ops; i++)
        s[i] = (uint8_t)rec->ops[i];
    return s;
}

/* METADATA_STRINGS [count, offset-size, blob]: the blob holds `count`
 * VBR6 lengths in a bitstream of offset-size bytes, then the characters. */
static void bulk_strings(struct bc_module *m, const struct bc_record *rec)
{
    if (rec->n_ops < 2 || !rec->has_blob || rec->ops[1] > rec->blob_len) {
        bc_fail(&m->rd, rec->bit, "METADATA_STRINGS: bad shape");
        return;
    }
    uint64_t count = rec->ops[0], lengths_size = rec->ops[1];
    if (count > lengths_size * 8 / 6) {
        bc_fail(&m->rd, rec->bit, "METADATA_STRINGS: %llu strings cannot fit %llu bytes of lengths",
                (unsigned long long)count, (unsigned long long)lengths_size);
        return;
    }
    /* The lengths are a little bitstream of their own. */
    const uint8_t *chars = rec->blob + lengths_size;
    size_t chars_len = rec->blob_len - (size_t)lengths_size, pos = 0;
    uint64_t bit = 0;
    const uint64_t end = lengths_size * 8;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t len = 0;
        unsigned shift = 0;
        for (;;) {
            if (end - bit < 6) {
                bc_fail(&m->rd, rec->bit, "METADATA_STRINGS: lengths truncated");
                return;
            }
            size_t byte = (size_t)(bit / 8);
            unsigned off = (unsigned)(bit % 8);
            unsigned v = rec->blob[byte] >> off;
            if (off > 2)
                v |= (unsigned)rec->blob[byte + 1] << (8 - off);
            v &= 63;
            bit += 6;
            if (shift >= 35) {
                bc_fail(&m->rd, rec->bit, "METADATA_STRINGS: string length VBR too long");
                return;
            }
            len |= (uint64_t)(v & 31) << shift;
            shift += 5;
            if (!(v & 32))
                break;
        }
        if (len > chars_len - pos) {
            bc_fail(&m->rd, rec->bit, "METADATA_STRINGS: string %llu runs past the end of the blob (offset %zu + %llu > %zu)",
                    (unsigned long long)i, pos, (unsigned long long)len, chars_len);
            return;
        }
        if (!add_string(m, (struct mtlbx_bytes){ chars + pos, (size_t)len }, rec->bit))
            return;
        pos += (size_t)len;
    }
}

bool md_wants_ops(uint32_t code)
{
    switch (code) {
    case MD_STRINGS: case MD_STRING_OLD: case MD_VALUE: case MD_NAME: case MD_NAMED_NODE:
        return true;
    default:
        return false;
    }
}

void md_record(struct bc_module *m, const struct bc_record *rec)
{
    if (m->n_md_blocks >= MD_MAX_BLOCKS) {
        bc_fail(&m->rd, rec->bit, "more than %d module-level METADATA blocks", MD_MAX_BLOCKS);
        return;
    }
    struct md_slot *s;
    switch (rec->code) {
    case MD_STRINGS:
        bulk_strings(m, rec);
        return;
    case MD_STRING_OLD: {
        uint8_t *chars = ops_to_chars(m, rec, false);
        if (chars)
            add_string(m, (struct mtlbx_bytes){ chars, rec->n_ops }, rec->bit);
        return;
    }
    case MD_VALUE:
        if (rec->n_ops != 2) {
            bc_fail(&m->rd, rec->bit, "METADATA_VALUE with %zu operands", rec->n_ops);
            return;
        }
        if ((s = new_slot(m, rec->bit))) {
            s->kind = MDS_VALUE;
            s->a = rec->ops[0];
            s->b = rec->ops[1];
        }
        return;
    case MD_NODE:
    case MD_DISTINCT_NODE:
    case MD_OLD_NODE:
    case MD_OLD_FN_NODE:
        if ((s = new_slot(m, rec->bit))) {
            s->kind = rec->code <= MD_DISTINCT_NODE ? MDS_NODE : MDS_OLD_NODE;
            s->a = rec->bit;
        }
        return;
    case MD_NAME:
        free(m->pending_name);
        if ((m->pending_name = malloc(rec->n_ops + 1))) {
            for (size_t i = 0; i < rec->n_ops; i++)
                m->pending_name[i] = (char)rec->ops[i];
            m->pending_name[rec->n_ops] = '\0';
        } else {
            bc_fail(&m->rd, rec->bit, "out of memory");
        }
        return;
    case MD_NAMED_NODE: {
        char *name = m->pending_name;
        m->pending_name = NULL;
        if (!name) {
            bc_fail(&m->rd, rec->bit, "METADATA_NAMED_NODE without a name");
            return;
        }
        /* Only the names the interface reads are kept. */
        bool wanted = strncmp(name, "air.", 4) == 0 || strcmp(name, "llvm.ident") == 0;
        if (wanted &&
            grow_array((void **)&m->named, &m->named_cap, m->n_named + 1, sizeof *m->named)) {
            struct md_named *n = &m->named[m->n_named];
            n->name = arena_dup(m->arena, name, strlen(name) + 1);
            n->ops = arena_dup(m->arena, rec->ops, rec->n_ops * sizeof *rec->ops);
            n->n_ops = rec->n_ops;
            n->bit = rec->bit;
            if (!n->name || (!n->ops && rec->n_ops))
                bc_fail(&m->rd, rec->bit, "out of memory");
            else
                m->n_named++;
        } else if (wanted) {
            bc_fail(&m->rd, rec->bit, "out of memory");
        }
        free(name);
        return;
    }
    default:
        if (defines_id(rec->code))
            if ((s = new_slot(m, rec->bit)))
                s->kind = MDS_OTHER;
        return;
    }
}

void md_block_end(struct bc_module *m)
{
    if (m->n_md_blocks >= MD_MAX_BLOCKS)
        return;
    struct md_block *b = &m->md_blocks[m->n_md_blocks];
    /* bc_next just closed the block and left its abbreviations here */
    b->abbrevs = m->rd.closed;
    m->rd.closed = (struct bc_abbrev_set){ 0 };
    b->width = m->rd.closed_width;
    b->end_bit = m->rd.closed_end;
    m->n_md_blocks++;
}

const struct md_named *md_find_named(const struct bc_module *m, const char *name)
{
    for (size_t i = 0; i < m->n_named; i++)
        if (strcmp(m->named[i].name, name) == 0)
            return &m->named[i];
    return NULL;
}

long md_global(const struct bc_module *m, uint64_t id)
{
    if (id >= m->n_slots || m->slots[id].kind != MDS_VALUE || m->slots[id].b >= m->n_globals)
        return -1;
    return (long)m->slots[id].b;
}

/* A (type, value id) pair as an md value: an integer constant, a global
 * (a function constant's predicate, a binding computed from function
 * constants, an entry's function), or null. */
static void value_of(const struct bc_module *m, uint64_t type, uint64_t value, struct mtlbx_md_value *out)
{
    *out = (struct mtlbx_md_value){ .kind = MTLBX_MD_NULL };
    (void)type;
    if (value < m->n_globals) {
        out->kind = MTLBX_MD_GLOBAL;
        out->s = m->globals[value].name;
    } else if (value - m->n_globals < m->n_consts) {
        const struct bc_constant *c = &m->consts[value - m->n_globals];
        if (c->kind == CONST_INT) {
            out->kind = MTLBX_MD_INT;
            out->i = c->value;
        }
    }
}

/* Reads node `s`'s record again and converts its operands. */
static bool convert_node(struct bc_module *m, struct md_slot *s, unsigned depth)
{
    if (s->block >= m->n_md_blocks) {
        bc_fail(&m->rd, s->a, "metadata node in an unterminated block");
        return false;
    }
    const struct md_block *b = &m->md_blocks[s->block];
    struct bc_record rec;
    if (!bc_reread(&m->rd, s->a, b->end_bit, b->width, &b->abbrevs, &rec))
        return false;
    bool old = s->kind == MDS_OLD_NODE;
    if (old && rec.n_ops % 2) {
        bc_fail(&m->rd, rec.bit, "old-style metadata node with an odd operand count");
        return false;
    }
    size_t n = old ? rec.n_ops / 2 : rec.n_ops;
    /* The record's operands live in the reader's buffer, which converting
     * a child overwrites: keep a copy. */
    uint64_t *ops = malloc((rec.n_ops ? rec.n_ops : 1) * sizeof *ops);
    struct mtlbx_md_value *items = arena_array(m->arena, n ? n : 1, sizeof *items);
    if (!ops || !items) {
        free(ops);
        bc_fail(&m->rd, rec.bit, "out of memory");
        return false;
    }
    if (rec.n_ops) /* no operands: the reader may have no buffer yet */
        memcpy(ops, rec.ops, rec.n_ops * sizeof *ops);
    s->state = 1;
    s->first_global = -1;
    if (n && !old && ops[0] != 0)
        s->first_global = md_global(m, ops[0] - 1);
    else if (n && old && !(ops[0] < m->n_types && m->types[ops[0]].kind == TY_METADATA) && ops[1] < m->n_globals)
        s->first_global = (int64_t)ops[1];
    uint64_t outer = m->md_context_bit;
    bool ok = true;
    /* What it stands for written out in full: shared children counted
     * each time (a DAG of shared nodes is small here, exponential there);
     * saturates well below overflow. */
    uint64_t expanded = 1;
    for (size_t i = 0; i < n && ok; i++) {
        m->md_context_bit = rec.bit;
        if (!old) {
            if (ops[i] == 0)
                items[i].kind = MTLBX_MD_NULL;
            else
                ok = md_value(m, ops[i] - 1, depth + 1, &items[i]);
        } else {
            uint64_t type = ops[2 * i], value = ops[2 * i + 1];
            if (type < m->n_types && m->types[type].kind == TY_METADATA)
                ok = md_value(m, value, depth + 1, &items[i]);
            else if (type < m->n_types && m->types[type].kind == TY_VOID)
                items[i].kind = MTLBX_MD_NULL;
            else
                value_of(m, type, value, &items[i]);
        }
        uint64_t child = items[i].kind == MTLBX_MD_NODE ? items[i].n_expanded : 1;
        expanded = child > MD_EXPANDED_MAX - expanded ? MD_EXPANDED_MAX : expanded + child;
    }
    free(ops);
    m->md_context_bit = outer;
    s->items = items;
    s->n_items = (uint32_t)n;
    s->n_expanded = expanded;
    s->state = 2;
    return ok;
}

bool md_value(struct bc_module *m, uint64_t id, unsigned depth, struct mtlbx_md_value *out)
{
    *out = (struct mtlbx_md_value){ .kind = MTLBX_MD_NULL };
    if (id >= m->n_slots) {
        bc_fail(&m->rd, m->md_context_bit,
                "metadata reference !%llu past the end (%zu metadata)", (unsigned long long)id, m->n_slots);
        return false;
    }
    struct md_slot *s = &m->slots[id];
    switch (s->kind) {
    case MDS_STRING:
        out->kind = MTLBX_MD_STRING;
        out->s = m->strings[s->a];
        return true;
    case MDS_VALUE:
        value_of(m, s->a, s->b, out);
        return true;
    case MDS_NODE:
    case MDS_OLD_NODE:
        /* Real modules have cycles (distinct self-references of alias
         * scopes), but never among the nodes an interface reads. */
        if (s->state == 1) {
            bc_fail(&m->rd, m->md_context_bit, "metadata node !%llu contains itself", (unsigned long long)id);
            return false;
        }
        if (s->state == 0 && depth >= MTLBX_BC_MAX_MD_NESTING) {
            bc_fail(&m->rd, m->md_context_bit, "metadata nested more than %d deep", MTLBX_BC_MAX_MD_NESTING);
            return false;
        }
        if (s->state == 0 && !convert_node(m, s, depth))
            return false;
        out->kind = MTLBX_MD_NODE;
        out->items = s->items;
        out->n_items = s->n_items;
        out->n_expanded = s->n_expanded;
        out->offset = m->base + s->a / 8;
        return true;
    default:
        return true;
    }
}

long md_node_global(const struct bc_module *m, uint64_t id)
{
    if (id >= m->n_slots || m->slots[id].state != 2)
        return -1;
    return (long)m->slots[id].first_global;
}
