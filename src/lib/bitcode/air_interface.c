/* A function's AIR interface (FORMAT §21, CONTRACT "Function interfaces"),
 * from its module's named metadata: the entry tuple of the air.X list that
 * names the function (stage X, outputs, arguments, attributes; an
 * argument's address space from its metadata, else from the function's
 * parameter type) and the
 * module facts (air.version, air.language_version, air.compile_options,
 * llvm.ident). The bitstream work is in bitcode.c and air_metadata.c. */
#include "config.h"
#include "bitcode.h"
#include "container/le_read.h"
#include "container/escape.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAPPER_MAGIC 0x0B17C0DEu

/* One module's bitstream, read once: its blocks, its module facts, and the
 * metadata index that entries are decoded from. Several functions may
 * share one module (same offset and size); each of their interfaces holds
 * a reference, so the module is read once for all of them (iface_cache.c
 * keeps it while its functions are decoded). */
struct module_read {
    pthread_mutex_t lock;      /* entry decoding memoises into m */
    atomic_uint refs;
    struct arena arena;        /* m's: names, strings, metadata values */
    struct bc_module m;
    bool ok;                   /* read and facts decoded; else facts.module says why */
    struct mtlbx_interface facts; /* module info and facts, no entry */
};

/* The result: the entry's own allocations, and the module it points into. */
struct interface_owned {
    struct mtlbx_interface pub; /* first: the public pointer is this one */
    struct arena arena;
    struct module_read *module;
};

static void set_err(struct mtlbx_error *err, enum mtlbx_status status, uint64_t offset, const char *msg)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->status = status;
    err->offset = offset;
    err->has_offset = true;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

static bool bytes_eq(struct mtlbx_bytes b, const char *s)
{
    size_t n = strlen(s);
    return b.len == n && memcmp(b.ptr, s, n) == 0;
}

static bool is_key(const struct mtlbx_md_value *v)
{
    return v->kind == MTLBX_MD_STRING && v->s.len >= 4 && memcmp(v->s.ptr, "air.", 4) == 0;
}

/* ------------------------------------------------------- properties -- */

/* Flat "air.KEY value... air.KEY value..." from items[start..n). Values
 * before the first key are not part of any property and are left out. */
static bool parse_properties(struct arena *a, const struct mtlbx_md_value *items, size_t n, size_t start,
                             struct mtlbx_air_property **out, size_t *n_out)
{
    size_t count = 0;
    for (size_t i = start; i < n; i++)
        count += is_key(&items[i]);
    *out = NULL;
    *n_out = 0;
    if (!count)
        return true;
    struct mtlbx_air_property *p = arena_array(a, count, sizeof *p);
    if (!p)
        return false;
    size_t k = 0;
    for (size_t i = start; i < n; i++) {
        if (!is_key(&items[i])) {
            if (k)
                p[k - 1].n_values++;
            continue;
        }
        p[k].key = (struct mtlbx_bytes){ items[i].s.ptr + 4, items[i].s.len - 4 };
        p[k].values = &items[i + 1];
        k++;
    }
    *out = p;
    *n_out = count;
    return true;
}

static const struct mtlbx_air_property *find_property(const struct mtlbx_air_property *p, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (bytes_eq(p[i].key, key))
            return &p[i];
    return NULL;
}

bool air_property_first_int(const struct mtlbx_air_property *p, int64_t *out)
{
    for (size_t i = 0; p && i < p->n_values; i++)
        if (p->values[i].kind == MTLBX_MD_INT) {
            *out = p->values[i].i;
            return true;
        }
    return false;
}

static bool first_string(const struct mtlbx_air_property *p, struct mtlbx_bytes *out)
{
    if (p && p->n_values && p->values[0].kind == MTLBX_MD_STRING) {
        *out = p->values[0].s;
        return true;
    }
    return false;
}

/* The binding (CONTRACT "location"): air.location_index's first operand,
 * else the one right after the kind key. An int is the location; a global
 * is an index the compiler computes from function constants, named, never
 * read as a number (the int after it is not the binding). */
static void binding(const struct mtlbx_air_property *location_index, const struct mtlbx_air_property *kind,
                    struct mtlbx_air_argument *arg)
{
    const struct mtlbx_air_property *from[2] = { location_index, kind };
    for (size_t k = 0; k < 2; k++) {
        const struct mtlbx_air_property *p = from[k];
        if (!p || !p->n_values)
            continue;
        if (p->values[0].kind == MTLBX_MD_GLOBAL) {
            arg->has_location_expression = true;
            arg->location_expression = p->values[0].s;
            return;
        }
        if (p == location_index ? air_property_first_int(p, &arg->location) : p->values[0].kind == MTLBX_MD_INT) {
            if (p == kind)
                arg->location = p->values[0].i;
            arg->has_location = true;
            return;
        }
    }
}

/* One argument or output descriptor node. */
static bool parse_argument(struct arena *a, const struct mtlbx_md_value *node, struct mtlbx_air_argument *arg)
{
    static const char *const ACCESS[] = { "read", "write", "read_write", "sample" };
    memset(arg, 0, sizeof *arg);
    if (node->kind != MTLBX_MD_NODE)
        return true;
    size_t start = 0;
    if (node->n_items && node->items[0].kind == MTLBX_MD_INT) {
        arg->has_index = true;
        arg->index = (uint32_t)node->items[0].i;
        start = 1;
    }
    struct mtlbx_air_property *props;
    if (!parse_properties(a, node->items, node->n_items, start, &props, &arg->n_properties))
        return false;
    arg->properties = props;
    const struct mtlbx_air_property *kind = NULL;
    for (size_t i = 0; i < arg->n_properties && !kind; i++)
        if (!bytes_eq(props[i].key, "function_constant"))
            kind = &props[i];
    if (kind)
        arg->kind = kind->key;
    arg->has_name = first_string(find_property(props, arg->n_properties, "arg_name"), &arg->name);
    arg->has_type = first_string(find_property(props, arg->n_properties, "arg_type_name"), &arg->type);
    binding(find_property(props, arg->n_properties, "location_index"), kind, arg);
    const struct mtlbx_air_property *fc = find_property(props, arg->n_properties, "function_constant");
    if (fc && fc->n_values && fc->values[0].kind == MTLBX_MD_NODE) {
        /* {predicate global, "bool", "kName"}: the name is the last string
         * (that is not a key: older modules point at the air.function_constants
         * entry {@global, "air.function_constant", i32 K}, which has none) */
        const struct mtlbx_md_value *guard = &fc->values[0];
        for (size_t i = guard->n_items; i-- > 0 && !arg->has_function_constant;)
            if (guard->items[i].kind == MTLBX_MD_STRING && !is_key(&guard->items[i])) {
                arg->has_function_constant = true;
                arg->function_constant = guard->items[i].s;
            }
    }
    for (size_t i = 0; i < arg->n_properties && !arg->access; i++)
        for (size_t k = 0; k < sizeof ACCESS / sizeof *ACCESS; k++)
            if (bytes_eq(props[i].key, ACCESS[k]))
                arg->access = ACCESS[k];
    if (air_property_first_int(find_property(props, arg->n_properties, "address_space"), &arg->address_space))
        arg->address_space_from = MTLBX_AS_METADATA;
    return true;
}

/* An input's address space where its metadata has none (CONTRACT
 * "address_space"): its LLVM parameter's type, the parameter numbered by
 * its index, of function `g`'s type. */
static void parameter_address_space(const struct bc_module *m, long g, struct mtlbx_air_argument *arg)
{
    uint32_t as = 0;
    if (arg->address_space_from == MTLBX_AS_METADATA)
        return;
    arg->address_space_from = arg->has_index && g >= 0 ? bc_parameter_address_space(m, (size_t)g, arg->index, &as)
                                                       : MTLBX_AS_UNKNOWN;
    arg->address_space = arg->address_space_from == MTLBX_AS_PARAMETER ? as : 0;
}

const char *mbx_address_space_from_name(const struct mtlbx_air_argument *a)
{
    switch (a->address_space_from) {
    case MTLBX_AS_METADATA: return "air.address_space";
    case MTLBX_AS_PARAMETER: return "parameter";
    case MTLBX_AS_UNKNOWN: return "unknown";
    default: return NULL;
    }
}

/* `g`: the entry's function, whose parameters the arguments are; -1 for
 * the outputs, which are none (return values). */
static bool parse_arguments(struct arena *a, const struct bc_module *m, long g, const struct mtlbx_md_value *list,
                            const struct mtlbx_air_argument **out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    if (list->kind != MTLBX_MD_NODE || !list->n_items)
        return true;
    struct mtlbx_air_argument *args = arena_array(a, list->n_items, sizeof *args);
    if (!args)
        return false;
    for (size_t i = 0; i < list->n_items; i++) {
        if (!parse_argument(a, &list->items[i], &args[i]))
            return false;
        if (g >= 0)
            parameter_address_space(m, g, &args[i]);
    }
    *out = args;
    *n_out = list->n_items;
    return true;
}

/* Operands 3 and later of an entry: nodes of key/value lists. */
static bool parse_attributes(struct arena *a, const struct mtlbx_md_value *entry, struct mtlbx_interface *iface)
{
    size_t total = 0;
    for (size_t i = 3; i < entry->n_items; i++)
        if (entry->items[i].kind == MTLBX_MD_NODE)
            for (size_t k = 0; k < entry->items[i].n_items; k++)
                total += is_key(&entry->items[i].items[k]);
    if (!total)
        return true;
    struct mtlbx_air_property *all = arena_array(a, total, sizeof *all);
    if (!all)
        return false;
    size_t n = 0;
    for (size_t i = 3; i < entry->n_items; i++) {
        const struct mtlbx_md_value *node = &entry->items[i];
        struct mtlbx_air_property *p;
        size_t np;
        if (node->kind != MTLBX_MD_NODE)
            continue;
        if (!parse_properties(a, node->items, node->n_items, 0, &p, &np))
            return false;
        if (np) /* an empty node gives no array at all */
            memcpy(all + n, p, np * sizeof *p);
        n += np;
    }
    iface->attributes = all;
    iface->n_attributes = n;
    return true;
}

/* ---------------------------------------------------------- module facts -- */

/* The first operand node of named metadata `name`. */
static bool named_first(struct bc_module *m, const char *name, struct mtlbx_md_value *out)
{
    const struct md_named *n = md_find_named(m, name);
    out->kind = MTLBX_MD_NULL;
    if (!n || !n->n_ops)
        return true;
    m->md_context_bit = n->bit;
    return md_value(m, n->ops[0], 0, out);
}

static bool ints3(const struct mtlbx_md_value *v, size_t start, uint32_t out[3])
{
    if (v->kind != MTLBX_MD_NODE || v->n_items < start + 3)
        return false;
    for (size_t i = 0; i < 3; i++) {
        if (v->items[start + i].kind != MTLBX_MD_INT)
            return false;
        out[i] = (uint32_t)v->items[start + i].i;
    }
    return true;
}

static bool module_facts(struct bc_module *m, struct mtlbx_interface *iface)
{
    struct mtlbx_md_value v;
    if (!named_first(m, "air.version", &v))
        return false;
    iface->has_air_version = ints3(&v, 0, iface->air_version);
    if (!named_first(m, "air.language_version", &v))
        return false;
    if (v.kind == MTLBX_MD_NODE && v.n_items >= 1 && v.items[0].kind == MTLBX_MD_STRING &&
        ints3(&v, 1, iface->language_version)) {
        iface->has_language_version = true;
        iface->language_name = v.items[0].s;
    }
    if (!named_first(m, "llvm.ident", &v))
        return false;
    if (v.kind == MTLBX_MD_NODE && v.n_items >= 1 && v.items[0].kind == MTLBX_MD_STRING) {
        iface->has_compiler = true;
        iface->compiler = v.items[0].s;
    }
    const struct md_named *opts = md_find_named(m, "air.compile_options");
    if (opts && opts->n_ops) {
        struct mtlbx_bytes *list = arena_array(m->arena, opts->n_ops, sizeof *list);
        if (!list)
            return false;
        size_t n = 0;
        m->md_context_bit = opts->bit;
        for (size_t i = 0; i < opts->n_ops; i++) {
            if (!md_value(m, opts->ops[i], 0, &v))
                return false;
            if (v.kind == MTLBX_MD_NODE && v.n_items >= 1 && v.items[0].kind == MTLBX_MD_STRING)
                list[n++] = v.items[0].s;
        }
        iface->compile_options = list;
        iface->n_compile_options = n;
    }
    return true;
}

/* --------------------------------------------------------------- budget -- */

/* The entry as every printer will walk it: at most
 * MTLBX_BC_MAX_INTERFACE_VALUES values written out. The reader keeps
 * shared nodes shared, but JSON, comparison and the explorer expand them,
 * so a DAG of a few hundred bytes would stand for 2^25 values. Charged
 * breadth first, so that the lists, the arguments and their keys are kept
 * before anything nested below them: a node that fits whole stays shared
 * (no copy: the common case costs nothing), one that does not is copied
 * with its items, shortened when even they do not fit, and its node items
 * queued. False only when out of memory. */
static bool fit_to_budget(struct arena *a, struct mtlbx_md_value *entry, struct mtlbx_interface *iface)
{
    uint64_t left = MTLBX_BC_MAX_INTERFACE_VALUES;
    if (entry->kind != MTLBX_MD_NODE || (entry->n_expanded && entry->n_expanded <= left))
        return true;
    size_t head = 0, tail = 0, cap = 0;
    struct mtlbx_md_value **queue = NULL;
    bool ok = true;
    left--; /* the entry itself */
    for (struct mtlbx_md_value *d = entry; d && ok; d = head < tail ? queue[head++] : NULL) {
        uint64_t rest = d->n_expanded ? d->n_expanded - 1 : UINT64_MAX;
        if (rest <= left) {
            left -= rest;
            continue;
        }
        size_t n = d->n_items;
        if (n > left) {
            n = (size_t)left;
            if (!iface->cut) {
                iface->cut = true;
                iface->cut_offset = d->offset;
            }
        }
        left -= n;
        struct mtlbx_md_value *copy = n ? arena_array(a, n, sizeof *copy) : NULL;
        if (n && !copy) {
            ok = false;
            break;
        }
        if (n)
            memcpy(copy, d->items, n * sizeof *copy);
        d->items = copy;
        d->n_items = n;
        d->n_expanded = 0;
        for (size_t i = 0; i < n && ok; i++) {
            if (copy[i].kind != MTLBX_MD_NODE)
                continue;
            if (tail == cap) {
                cap = cap ? cap * 2 : 64;
                struct mtlbx_md_value **grown = realloc(queue, cap * sizeof *queue);
                if (!grown)
                    ok = false;
                else
                    queue = grown;
            }
            if (ok)
                queue[tail++] = &copy[i];
        }
    }
    free(queue);
    return ok;
}

/* ---------------------------------------------------------------- entry -- */

/* Finds the entry tuple naming `symbol` in every air.X list whose tuples
 * start with a function (stage lists; air.function_constants name
 * variables), or the only entry when `symbol` names none. */
static bool find_entry(struct bc_module *m, const uint8_t *symbol, size_t symbol_len, const char **stage,
                       struct mtlbx_md_value *entry, long *global)
{
    size_t n_entries = 0;
    const char *only_stage = NULL;
    struct mtlbx_md_value only = { .kind = MTLBX_MD_NULL };
    long only_global = -1;
    *stage = NULL;
    for (size_t i = 0; i < m->n_named; i++) {
        const struct md_named *list = &m->named[i];
        if (strncmp(list->name, "air.", 4) != 0)
            continue;
        m->md_context_bit = list->bit;
        for (size_t k = 0; k < list->n_ops; k++) {
            struct mtlbx_md_value v;
            if (!md_value(m, list->ops[k], 0, &v))
                return false;
            long g = v.kind == MTLBX_MD_NODE ? md_node_global(m, list->ops[k]) : -1;
            if (g < 0 || m->globals[g].kind != GV_FUNCTION)
                continue;
            n_entries++;
            only_stage = list->name + 4;
            only = v;
            only_global = g;
            const struct mtlbx_bytes name = m->globals[g].name;
            if (symbol && name.len == symbol_len && memcmp(name.ptr, symbol, symbol_len) == 0) {
                *stage = list->name + 4;
                *entry = v;
                *global = g;
                return true;
            }
        }
    }
    if (n_entries == 1) {
        *stage = only_stage;
        *entry = only;
        *global = only_global;
    }
    return true;
}

/* Node conversions go to m->arena (memoised, shared by every entry of the
 * module); what belongs to this entry alone goes to `a`. */
static bool decode_entry(struct bc_module *m, struct arena *a, const uint8_t *symbol, size_t symbol_len,
                         struct mtlbx_interface *iface)
{
    struct mtlbx_md_value entry;
    const char *stage;
    long g = -1;
    if (!find_entry(m, symbol, symbol_len, &stage, &entry, &g))
        return false;
    if (!stage)
        return true;
    /* The X of a named metadata air.X comes from the file: kept as
     * terminal-safe UTF-8 (escaped), as every label and JSON string needs. */
    char safe[256];
    mbx_escape((const uint8_t *)stage, strlen(stage), MTLBX_ESC_TERMINAL, safe, sizeof safe);
    iface->stage = arena_dup(a, safe, strlen(safe) + 1);
    if (!iface->stage)
        return false;
    iface->symbol = m->globals[g].name;
    static const struct mtlbx_md_value none = { .kind = MTLBX_MD_NULL };
    if (!fit_to_budget(m->arena, &entry, iface))
        return false;
    const struct mtlbx_md_value *outputs = entry.n_items > 1 ? &entry.items[1] : &none;
    const struct mtlbx_md_value *inputs = entry.n_items > 2 ? &entry.items[2] : &none;
    return parse_arguments(a, m, -1, outputs, &iface->outputs, &iface->n_outputs) &&
           parse_arguments(a, m, g, inputs, &iface->inputs, &iface->n_inputs) && parse_attributes(a, &entry, iface);
}

/* ------------------------------------------------------------------ API -- */

static void fail_module(struct mtlbx_interface *iface, uint64_t offset, const char *msg)
{
    struct mtlbx_module_info keep = iface->module;
    memset(iface, 0, sizeof *iface);
    iface->module = keep;
    iface->module.failed = true;
    iface->module.error_offset = offset;
    snprintf(iface->module.error, sizeof iface->module.error, "%s", msg);
}

void module_read_retain(struct module_read *r) { atomic_fetch_add(&r->refs, 1); }

void module_read_release(struct module_read *r)
{
    if (!r || atomic_fetch_sub(&r->refs, 1) != 1)
        return;
    bc_module_free(&r->m);
    arena_free(&r->arena);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

struct module_read *module_read_new(const uint8_t *data, size_t len, uint64_t base, struct mtlbx_error *err)
{
    size_t bc_off = 0, bc_len = len;
    bool wrapper = false;
    if (!data || len < 4) {
        set_err(err, MTLBX_E_NOT_METALLIB, base, "module too short to be LLVM bitcode");
        return NULL;
    }
    if (rd32(data) == WRAPPER_MAGIC) {
        if (len < 20) {
            set_err(err, MTLBX_E_NOT_METALLIB, base, "bitcode wrapper header truncated");
            return NULL;
        }
        uint32_t off = rd32(data + 8), size = rd32(data + 12);
        if (off > len || size > len - off) {
            set_err(err, MTLBX_E_NOT_METALLIB, base + 8, "bitcode wrapper points outside the module");
            return NULL;
        }
        bc_off = off;
        bc_len = size;
        wrapper = true;
    }
    if (bc_len < 4 || memcmp(data + bc_off, "BC\xC0\xDE", 4) != 0) {
        set_err(err, MTLBX_E_NOT_METALLIB, base + bc_off, "module is not LLVM bitcode (no BC C0 DE magic)");
        return NULL;
    }
    struct module_read *r = calloc(1, sizeof *r);
    if (!r) {
        set_err(err, MTLBX_E_NOMEM, base, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    atomic_init(&r->refs, 1);
    struct mtlbx_interface *iface = &r->facts;
    struct arena *a = &r->arena;
    const uint64_t bc_base = base + bc_off;
    iface->module.wrapper = wrapper;
    iface->module.bitcode_offset = bc_base;
    iface->module.bitcode_size = bc_len;

    struct bc_module *m = &r->m;
    bool ok = bc_module_read(m, data + bc_off, bc_len, bc_base, a);
    /* The blocks read, even when reading stopped early */
    if (m->rd.n_blocks) {
        struct mtlbx_bc_block *blocks = arena_array(a, m->rd.n_blocks, sizeof *blocks);
        if (blocks) {
            for (size_t i = 0; i < m->rd.n_blocks; i++) {
                const struct bc_block_info *b = &m->rd.blocks[i];
                blocks[i] = (struct mtlbx_bc_block){
                    .block_id = b->block_id, .name = bc_block_name(b->block_id),
                    .offset = bc_base + b->offset, .size = b->size, .n_records = b->n_records,
                    .depth = b->depth, .parent = b->parent, .skipped = b->skipped,
                };
            }
            iface->module.blocks = blocks;
            iface->module.n_blocks = m->rd.n_blocks;
        } else if (ok) {
            bc_fail(&m->rd, 0, "out of memory");
            ok = false;
        }
    }
    if (ok && !module_facts(m, iface) && !m->rd.failed)
        bc_fail(&m->rd, m->md_context_bit, "out of memory");
    if (m->rd.failed)
        fail_module(iface, bc_base + m->rd.error_byte, m->rd.error);
    r->ok = !m->rd.failed;
    return r;
}

/* After an entry failed to decode: the nodes it left half converted are
 * unconverted again and the reader's error is cleared, so the next entry
 * of this module is decoded as it would be from a fresh read (the same
 * result, the same error where it meets the same node). */
static void module_read_recover(struct bc_module *m)
{
    for (size_t k = 0; k < m->n_slots; k++)
        if (m->slots[k].state == 1)
            m->slots[k].state = 0;
    m->rd.failed = false;
    m->rd.error[0] = 0;
}

struct mtlbx_interface *module_read_interface(struct module_read *r, const uint8_t *symbol, size_t symbol_len,
                                              struct mtlbx_error *err)
{
    struct interface_owned *own = calloc(1, sizeof *own);
    if (!own) {
        set_err(err, MTLBX_E_NOMEM, r->facts.module.bitcode_offset, "out of memory");
        return NULL;
    }
    module_read_retain(r);
    own->module = r;
    struct mtlbx_interface *iface = &own->pub;
    *iface = r->facts;
    if (!r->ok)
        return iface;
    pthread_mutex_lock(&r->lock);
    struct bc_module *m = &r->m;
    if (!decode_entry(m, &own->arena, symbol, symbol_len, iface) && !m->rd.failed)
        bc_fail(&m->rd, m->md_context_bit, "out of memory");
    if (m->rd.failed) {
        fail_module(iface, m->base + m->rd.error_byte, m->rd.error);
        module_read_recover(m);
    }
    pthread_mutex_unlock(&r->lock);
    return iface;
}

struct mtlbx_interface *mbx_interface_decode(const uint8_t *data, size_t len, uint64_t base,
                                               const uint8_t *symbol, size_t symbol_len,
                                               struct mtlbx_error *err)
{
    struct module_read *r = module_read_new(data, len, base, err);
    if (!r)
        return NULL;
    struct mtlbx_interface *iface = module_read_interface(r, symbol, symbol_len, err);
    module_read_release(r);
    return iface;
}

void mbx_interface_free(struct mtlbx_interface *iface)
{
    if (!iface)
        return;
    struct interface_owned *own = (struct interface_owned *)iface;
    arena_free(&own->arena);
    module_read_release(own->module);
    free(own);
}
