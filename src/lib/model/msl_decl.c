/* A function interface as an MSL-style declaration, for `mtlbx sig` and the
 * explorer's detail panel. Pure string building over a decoded interface:
 * no printing, and every byte that came from the file is escaped for a
 * terminal (mbx_escape), so the text is safe to show as it is.
 *
 * What AIR records and how it reads back as MSL (FORMAT.md §21):
 *   address space 1/2/3/0/6   device / constant / threadgroup / thread /
 *                             object_data pointer: air.address_space, else
 *                             (older AIR) the function's own parameter type,
 *                             which the decoder reads (mtlbx_air_argument's
 *                             address_space_from); textures, samplers and
 *                             mesh objects are LLVM pointers too, but no MSL
 *                             pointers, so only buffers and payloads take it
 *                             from the parameter. A buffer whose address
 *                             space nothing tells gets a comment saying so.
 *                             air.buffer_size present: a reference (&),
 *                             since only references have a known size; a
 *                             payload is always one (object_data T&)
 *   air.read                  const (not repeated for constant)
 *   air.buffer / texture / sampler / render_target / vertex_input N
 *                             [[buffer(N)]] [[texture(N)]] [[sampler(N)]]
 *                             [[color(N)]] [[attribute(N)]];
 *   air.indirect_buffer / visible_function_table N
 *                             [[buffer(N)]] (they take a buffer slot); a buffer in
 *                             threadgroup memory (address space 3) is
 *                             [[threadgroup(N)]], never [[buffer(N)]]
 *   CNST (the container's)    constant uint M [[function_constant(0)]];
 *                             before the function (MTLBX_MSL_CONSTANTS)
 *   air.fragment_input "user(locn1)" + air.center + air.perspective
 *                             [[user(locn1), center_perspective]]
 *   air.vertex_output / fragment_input "generated(16relativePositionDv2_Dh)"
 *                             no attribute (MSL has no word for a varying
 *                             the compiler named); AIR's name as a comment
 *   air.function_constant !{..., i32 K}
 *                             [[function_constant(NAME)]], NAME from the
 *                             container's CNST list when it has index K
 *   air.arg_unused            [[maybe_unused]] in front
 *   builtins (thread_position_in_grid ...)  [[thread_position_in_grid]]
 */
#include "config.h"

#include "bitcode/bitcode.h"
#include "bitcode/demangle.h"
#include "bitcode/interface.h"
#include "model/msl.h"
#include "container/escape.h"
#include "container/value_names.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string; `oom` latches the first allocation failure. */
struct sb {
    char *p;
    size_t len, cap;
    bool oom;
};

static void sb_put(struct sb *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_str(struct sb *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_fmt(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_fmt(struct sb *b, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A decimal integer: what sig writes for every binding and function
 * constant, where vsnprintf was a tenth of the declaration's time. */
static void sb_int(struct sb *b, int64_t v)
{
    char tmp[24];
    size_t n = sizeof tmp;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        tmp[--n] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        tmp[--n] = '-';
    sb_put(b, tmp + n, sizeof tmp - n);
}

/* File bytes, escaped for a terminal. */
static void sb_esc(struct sb *b, struct mtlbx_bytes s)
{
    char small[256];
    size_t need = mbx_escape(s.ptr, s.len, MTLBX_ESC_TERMINAL, small, sizeof small);
    if (need < sizeof small) {
        sb_put(b, small, need);
        return;
    }
    char *big = mbx_escape_dup(s.ptr, s.len, MTLBX_ESC_TERMINAL);
    if (!big) {
        b->oom = true;
        return;
    }
    sb_put(b, big, need);
    free(big);
}

static char *sb_done(struct sb *b)
{
    if (b->oom) {
        free(b->p);
        return NULL;
    }
    if (!b->p)
        sb_put(b, "", 0);
    if (b->oom) {
        free(b->p);
        return NULL;
    }
    return b->p;
}

static bool bytes_is(struct mtlbx_bytes s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.ptr, lit, n) == 0;
}

static const struct mtlbx_air_property *prop(const struct mtlbx_air_argument *a, const char *key)
{
    for (size_t i = 0; i < a->n_properties; i++)
        if (bytes_is(a->properties[i].key, key))
            return &a->properties[i];
    return NULL;
}

/* The function constant index behind air.function_constant's value: an
 * integer, or a node (the air.function_constants entry) holding one. */
static bool constant_index(const struct mtlbx_air_property *p, int64_t *out)
{
    if (air_property_first_int(p, out))
        return true;
    for (size_t i = 0; p && i < p->n_values; i++)
        if (p->values[i].kind == MTLBX_MD_NODE)
            for (size_t k = 0; k < p->values[i].n_items; k++)
                if (p->values[i].items[k].kind == MTLBX_MD_INT) {
                    *out = p->values[i].items[k].i;
                    return true;
                }
    return false;
}

bool mbx_argument_member(const struct mtlbx_air_argument *a, size_t i, struct mtlbx_struct_member *out)
{
    const struct mtlbx_air_property *p = prop(a, "struct_type_info");
    if (!p || p->n_values < 1 || p->values[0].kind != MTLBX_MD_NODE)
        return false;
    const struct mtlbx_md_value *node = &p->values[0];
    const struct mtlbx_md_value *t;
    /* Either one flat list of 5-tuples or a list of 5-item nodes. */
    if (node->n_items > 0 && node->items[0].kind == MTLBX_MD_NODE) {
        if (i >= node->n_items || node->items[i].kind != MTLBX_MD_NODE || node->items[i].n_items < 5)
            return false;
        t = node->items[i].items;
    } else {
        if (i >= node->n_items / 5)
            return false;
        t = node->items + 5 * i;
    }
    if (t[0].kind != MTLBX_MD_INT || t[1].kind != MTLBX_MD_INT || t[2].kind != MTLBX_MD_INT ||
        t[3].kind != MTLBX_MD_STRING || t[4].kind != MTLBX_MD_STRING)
        return false;
    *out = (struct mtlbx_struct_member){ .offset = t[0].i, .size = t[1].i, .count = t[2].i,
                                         .type = t[3].s, .name = t[4].s };
    return true;
}

/* Keys whose first integer is the binding and the MSL attribute naming it.
 * An argument buffer (air.indirect_buffer) and a visible function table
 * take a buffer slot: [[buffer(N)]] (gsm-gaussian's encodeBitonicICB and
 * ccv-mfa's sgemm, whose embedded or published source says so). */
static const struct {
    const char *key, *attr;
} bindings[] = {
    { "buffer", "buffer" },     { "texture", "texture" },         { "sampler", "sampler" },
    { "render_target", "color" }, { "vertex_input", "attribute" }, { "threadgroup", "threadgroup" },
    { "raster_order_group", "raster_order_group" }, { "indirect_buffer", "buffer" },
    { "visible_function_table", "buffer" },
};

/* Interpolation, spelled as MSL's single attribute. */
static void put_interpolation(struct sb *b, const struct mtlbx_air_argument *a, const char **sep)
{
    const char *where = prop(a, "centroid") ? "centroid" : prop(a, "sample") && !prop(a, "texture") ? "sample"
                        : prop(a, "center")                                                 ? "center"
                                                                                            : NULL;
    const char *how = prop(a, "no_perspective") ? "no_perspective" : prop(a, "perspective") ? "perspective" : NULL;
    if (prop(a, "flat")) {
        sb_str(b, *sep);
        sb_str(b, "flat");
        *sep = ", ";
    } else if (where || how) {
        sb_str(b, *sep);
        sb_str(b, where ? where : "center");
        sb_str(b, "_");
        sb_str(b, how ? how : "perspective");
        *sep = ", ";
    }
}

static void put_value(struct sb *b, const struct mtlbx_md_value *v)
{
    if (v->kind == MTLBX_MD_INT)
        sb_fmt(b, "%" PRId64, v->i);
    else if (v->kind == MTLBX_MD_STRING)
        sb_esc(b, v->s);
    else
        sb_str(b, v->kind == MTLBX_MD_NODE ? "{...}" : "null");
}

/* Text inside a comment: escaped, and never one that ends it early. */
static void sb_comment(struct sb *b, struct mtlbx_bytes s)
{
    size_t from = b->len;
    sb_esc(b, s);
    for (size_t i = from; !b->oom && i + 1 < b->len; i++)
        if (b->p[i] == '*' && b->p[i + 1] == '/')
            b->p[i + 1] = '|';
}

/* A binding the compiler computes from function constants: no number is
 * known until the pipeline is built, so none is shown; the global that
 * holds it is named. */
static void put_expression(struct sb *b, struct mtlbx_bytes global)
{
    sb_str(b, "(expr /* ");
    if (global.len)
        sb_comment(b, global);
    else
        sb_str(b, "an unnamed global");
    sb_str(b, " */)");
}

/* Kinds whose MSL argument is a pointer or a reference, whatever the
 * metadata says of its address space. */
static bool pointer_kind(struct mtlbx_bytes kind)
{
    return bytes_is(kind, "buffer") || bytes_is(kind, "indirect_buffer") || bytes_is(kind, "payload");
}

/* The address space the MSL text shows: air.address_space on any
 * argument (as it always was), the parameter's only on a pointer kind. */
static bool shown_address_space(const struct mtlbx_air_argument *a, int64_t *as)
{
    if (a->address_space_from == MTLBX_AS_METADATA ||
        (a->address_space_from == MTLBX_AS_PARAMETER && pointer_kind(a->kind))) {
        *as = a->address_space;
        return true;
    }
    return false;
}

bool mbx_argument_is_threadgroup_memory(const struct mtlbx_air_argument *a)
{
    int64_t as;
    return bytes_is(a->kind, "buffer") && shown_address_space(a, &as) && as == 3;
}

/* The [[...]] part: binding or builtin, interpolation, function constant. */
static void put_attributes(struct sb *b, const struct mtlbx_air_argument *a, const struct mtlbx_metadata *md)
{
    size_t start = b->len;
    const char *sep = " [[";
    struct mtlbx_bytes generated = { NULL, 0 };
    const struct mtlbx_air_property *kp = NULL;
    for (size_t i = 0; a->kind.len && i < a->n_properties; i++)
        if (a->properties[i].key.len == a->kind.len && memcmp(a->properties[i].key.ptr, a->kind.ptr, a->kind.len) == 0)
            kp = &a->properties[i];
    /* A varying the compiler named ("generated(16relativePositionDv2_Dh)":
     * the source gave it no attribute) has no MSL spelling: the member
     * stands bare, AIR's name follows as a comment. */
    if (kp && kp->n_values == 1 && kp->values[0].kind == MTLBX_MD_STRING && kp->values[0].s.len > 10 &&
        memcmp(kp->values[0].s.ptr, "generated(", 10) == 0)
        generated = kp->values[0].s;
    if (a->kind.len && !generated.len) {
        const char *attr = NULL;
        for (size_t k = 0; k < sizeof bindings / sizeof *bindings; k++)
            if (bytes_is(a->kind, bindings[k].key))
                attr = bindings[k].attr;
        /* AIR marks threadgroup memory air.buffer; its index counts
         * threadgroup allocations, not buffers. */
        if (mbx_argument_is_threadgroup_memory(a))
            attr = "threadgroup";
        sb_str(b, sep);
        sep = ", ";
        if (attr) {
            sb_str(b, attr);
            if (a->has_location) {
                sb_str(b, "(");
                sb_int(b, a->location);
                sb_str(b, ")");
            }
            else if (a->has_location_expression)
                put_expression(b, a->location_expression);
            int64_t second;
            /* Dual-source blending: render_target's second integer. */
            if (bytes_is(a->kind, "render_target") && kp && kp->n_values >= 2 && kp->values[1].kind == MTLBX_MD_INT &&
                (second = kp->values[1].i) != 0)
                sb_fmt(b, ", index(%" PRId64 ")", second);
        } else if (kp && kp->n_values == 1 && kp->values[0].kind == MTLBX_MD_STRING &&
                   memchr(kp->values[0].s.ptr, '(', kp->values[0].s.len)) {
            /* fragment_input / vertex_output carry "user(locn1)" itself. */
            sb_esc(b, kp->values[0].s);
        } else {
            sb_esc(b, a->kind);
            if (kp && kp->n_values) {
                sb_str(b, "(");
                for (size_t v = 0; v < kp->n_values; v++) {
                    if (v)
                        sb_str(b, ", ");
                    put_value(b, &kp->values[v]);
                }
                sb_str(b, ")");
            }
        }
    }
    put_interpolation(b, a, &sep);
    const struct mtlbx_air_property *fc = prop(a, "function_constant");
    if (fc) {
        sb_str(b, sep);
        sep = ", ";
        sb_str(b, "function_constant(");
        int64_t k;
        bool named = false;
        if (a->has_function_constant) {
            sb_esc(b, a->function_constant);
        } else if (constant_index(fc, &k)) {
            for (size_t c = 0; md && c < md->n_constants && !named; c++)
                if (md->constants[c].index == k) {
                    sb_esc(b, md->constants[c].name);
                    named = true;
                }
            if (!named)
                sb_fmt(b, "#%" PRId64, k);
        } else {
            sb_str(b, "?");
        }
        sb_str(b, ")");
    }
    if (b->len != start)
        sb_str(b, "]]");
    if (generated.len) {
        sb_str(b, " /* AIR: ");
        sb_esc(b, generated);
        sb_str(b, " */");
    }
}

/* AIR's numbering: 6 is what Apple's compiler gives an object_data
 * payload (gsm-hardware-mesh-object-hsrd's monoObjectShader, whose
 * embedded source says object_data); 7, its mesh<> object, and 4 and 5
 * have no MSL word. */
static const char *address_space_name(int64_t as)
{
    switch (as) {
    case 0: return "thread";
    case 1: return "device";
    case 2: return "constant";
    case 3: return "threadgroup";
    case 6: return "object_data";
    default: return NULL;
    }
}

/* AIR writes a texture's access as "texture2d<uint, sample>"; MSL spells
 * it access::sample. */
static void put_type(struct sb *b, struct mtlbx_bytes t)
{
    static const char *const ACCESS[] = { "sample", "read", "write", "read_write" };
    if (t.len > 2 && t.ptr[t.len - 1] == '>')
        for (size_t k = 0; k < sizeof ACCESS / sizeof *ACCESS; k++) {
            size_t n = strlen(ACCESS[k]);
            if (t.len > n + 3 && memcmp(t.ptr + t.len - 1 - n, ACCESS[k], n) == 0 &&
                memcmp(t.ptr + t.len - 3 - n, ", ", 2) == 0) {
                sb_esc(b, (struct mtlbx_bytes){ t.ptr, t.len - 1 - n });
                sb_str(b, "access::");
                sb_str(b, ACCESS[k]);
                sb_str(b, ">");
                return;
            }
        }
    sb_esc(b, t);
}

/* "device const float4*": address space, const, type, * or &. */
static void put_type_text(struct sb *b, const struct mtlbx_air_argument *a)
{
    int64_t as = 0;
    bool known = shown_address_space(a, &as);
    /* A buffer whose address space neither the metadata nor the module
     * tells: still a pointer, and said to be unknown, never guessed. */
    bool unknown = !known && a->address_space_from == MTLBX_AS_UNKNOWN && pointer_kind(a->kind);
    bool pointer = known || unknown;
    if (known) {
        const char *space = address_space_name(as);
        if (space)
            sb_str(b, space);
        else
            sb_fmt(b, "/* address space %" PRId64 " */", as);
        sb_str(b, " ");
    } else if (unknown) {
        sb_str(b, "/* address space unknown */ ");
    }
    if (pointer && a->access && strcmp(a->access, "read") == 0 && !(known && as == 2))
        sb_str(b, "const ");
    if (a->has_type)
        put_type(b, a->type);
    else
        sb_str(b, pointer ? "void" : "?");
    if (pointer)
        sb_str(b, prop(a, "buffer_size") || bytes_is(a->kind, "payload") ? "&" : "*");
}

char *mbx_msl_argument_type(const struct mtlbx_air_argument *a)
{
    struct sb b = { 0 };
    put_type_text(&b, a);
    return sb_done(&b);
}

/* `member`: the output's place, for a name when it has none ("out1"), a
 * member needs one; SIZE_MAX for an argument. */
static void put_argument(struct sb *b, const struct mtlbx_air_argument *a, const struct mtlbx_metadata *md,
                         size_t member)
{
    if (prop(a, "arg_unused"))
        sb_str(b, "[[maybe_unused]] ");
    put_type_text(b, a);
    if (a->has_name) {
        sb_str(b, " ");
        sb_esc(b, a->name);
    } else if (a->has_index) {
        sb_fmt(b, " arg%" PRIu32, a->index);
    } else if (member != SIZE_MAX) {
        sb_fmt(b, " out%zu", member);
    }
    put_attributes(b, a, md);
}

char *mbx_msl_argument(const struct mtlbx_air_argument *a, const struct mtlbx_metadata *md)
{
    struct sb b = { 0 };
    put_argument(&b, a, md, SIZE_MAX);
    return sb_done(&b);
}

void mbx_msl_member(const struct mtlbx_struct_member *m, char *out, size_t size)
{
    struct sb b = { 0 };
    sb_esc(&b, m->type);
    sb_str(&b, " ");
    sb_esc(&b, m->name);
    if (m->count > 0)
        sb_fmt(&b, "[%" PRId64 "]", m->count);
    sb_fmt(&b, "  // offset %" PRId64 ", size %" PRId64, m->offset, m->size);
    snprintf(out, size, "%s", b.oom || !b.p ? "?" : b.p);
    free(b.p);
}

/* The name to show: demangled when it is a C++ symbol. */
static void put_name(struct sb *b, struct mtlbx_bytes name)
{
    char *d = mbx_demangle(name);
    if (d) {
        sb_esc(b, (struct mtlbx_bytes){ (const uint8_t *)d, strlen(d) });
        free(d);
    } else {
        sb_esc(b, name);
    }
}

static void put_members(struct sb *b, const struct mtlbx_air_argument *a, const char *indent)
{
    struct mtlbx_struct_member m;
    char line[512];
    for (size_t i = 0; mbx_argument_member(a, i, &m); i++) {
        mbx_msl_member(&m, line, sizeof line);
        sb_str(b, "\n");
        sb_str(b, indent);
        sb_str(b, line);
    }
}

static bool is_identifier(struct mtlbx_bytes s)
{
    if (!s.len || !(isalpha(s.ptr[0]) || s.ptr[0] == '_'))
        return false;
    for (size_t i = 1; i < s.len; i++)
        if (!(isalnum(s.ptr[i]) || s.ptr[i] == '_'))
            return false;
    return true;
}

/* A member's type may be any MSL type but must not end the declaration. */
static bool is_member_type(struct mtlbx_bytes s)
{
    for (size_t i = 0; i < s.len; i++)
        if (s.ptr[i] < 0x20 || s.ptr[i] >= 0x7F || strchr(";{}/\\\"'#", s.ptr[i]))
            return false;
    return s.len > 0;
}

/* "struct Params {" ... "};" for each struct argument, once per type name;
 * one whose names MSL could not read is the same text as comments. */
static void put_structs(struct sb *b, const struct mtlbx_interface *iface)
{
    for (size_t i = 0; i < iface->n_inputs; i++) {
        const struct mtlbx_air_argument *a = &iface->inputs[i];
        struct mtlbx_struct_member m;
        if (!a->has_type || !mbx_argument_member(a, 0, &m))
            continue;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = iface->inputs[k].has_type && iface->inputs[k].type.len == a->type.len &&
                   memcmp(iface->inputs[k].type.ptr, a->type.ptr, a->type.len) == 0 &&
                   mbx_argument_member(&iface->inputs[k], 0, &m);
        if (seen)
            continue;
        bool valid = is_identifier(a->type);
        for (size_t k = 0; valid && mbx_argument_member(a, k, &m); k++)
            valid = is_identifier(m.name) && is_member_type(m.type);
        const char *lead = valid ? "" : "// ";
        sb_str(b, lead);
        sb_str(b, "struct ");
        sb_esc(b, a->type);
        sb_str(b, valid ? " {\n" : " {  (names MSL cannot read)\n");
        for (size_t k = 0; mbx_argument_member(a, k, &m); k++) {
            sb_str(b, lead);
            sb_str(b, "    ");
            sb_esc(b, m.type);
            sb_str(b, " ");
            sb_esc(b, m.name);
            if (m.count > 0)
                sb_fmt(b, "[%" PRId64 "]", m.count);
            sb_fmt(b, ";  // offset %" PRId64 ", size %" PRId64 "\n", m.offset, m.size);
        }
        sb_str(b, lead);
        sb_str(b, "};\n\n");
    }
}

/* CNST types MSL allows a function constant to have: its scalars and
 * vectors (bool, char, short, int, long and their unsigned forms, half,
 * bfloat, float; FORMAT §13.1 numbering), not matrices or objects. */
static bool constant_type(uint8_t t)
{
    return (t >= 0x03 && t <= 0x06) || (t >= 0x10 && t <= 0x13) || (t >= 0x1D && t <= 0x38) ||
           (t >= 0x51 && t <= 0x58) || (t >= 0x79 && t <= 0x7C);
}

/* "constant uint M [[function_constant(0)]];" for each CNST entry, in its
 * order; one whose name or type MSL could not read is the same text as a
 * comment. CNST's active bit clear: the function works without it (the
 * bit MTLFunctionConstant.required reports; such constants are the ones
 * the source tests with is_function_constant_defined). */
static bool put_constants(struct sb *b, const struct mtlbx_metadata *md)
{
    for (size_t i = 0; md && i < md->n_constants; i++) {
        const struct mtlbx_constant *c = &md->constants[i];
        /* A C++ name (cx::kWinSize) is declared inside its namespaces. */
        struct mtlbx_bytes part[8];
        size_t n_parts = 0, from = 0;
        bool valid = constant_type(c->type);
        for (size_t k = 0; valid && k <= c->name.len; k++) {
            if (k < c->name.len && !(k + 1 < c->name.len && c->name.ptr[k] == ':' && c->name.ptr[k + 1] == ':'))
                continue;
            if (n_parts == sizeof part / sizeof *part) {
                valid = false;
                break;
            }
            part[n_parts] = (struct mtlbx_bytes){ c->name.ptr + from, k - from };
            valid = is_identifier(part[n_parts++]);
            from = k + 2;
            k++;
        }
        char tbuf[24];
        if (!valid)
            sb_str(b, "// ");
        for (size_t k = 0; valid && k + 1 < n_parts; k++) {
            sb_str(b, "namespace ");
            sb_esc(b, part[k]);
            sb_str(b, " { ");
        }
        sb_str(b, "constant ");
        sb_str(b, mbx_data_type_name(c->type, tbuf, sizeof tbuf));
        sb_str(b, " ");
        sb_esc(b, valid ? part[n_parts - 1] : c->name);
        sb_str(b, " [[function_constant(");
        sb_int(b, c->index);
        sb_str(b, ")]];");
        for (size_t k = 0; valid && k + 1 < n_parts; k++)
            sb_str(b, " }");
        if (!c->active)
            sb_str(b, "  // optional (CNST active bit clear)");
        sb_str(b, "\n");
    }
    return md && md->n_constants;
}

/* Whether the CNST list declares this name (whole, or as its last part
 * after a C++ namespace). */
static bool constant_declared(const struct mtlbx_metadata *md, struct mtlbx_bytes name)
{
    for (size_t i = 0; md && i < md->n_constants; i++) {
        struct mtlbx_bytes c = md->constants[i].name;
        if (c.len >= name.len && memcmp(c.ptr + c.len - name.len, name.ptr, name.len) == 0 &&
            (c.len == name.len || (c.len > name.len + 1 && c.ptr[c.len - name.len - 1] == ':')))
            return true;
    }
    return false;
}

/* A function constant an argument is guarded by that the CNST list does
 * not hold: one the source computes from others (ANGLE's
 * `constant bool kColorOutputAvailable0 = kNumColorOutputs > 0;`). The
 * module keeps its name, not how it is computed, so it is declared as a
 * comment that says so, once. */
static bool put_implicit_constants(struct sb *b, const struct mtlbx_interface *iface, const struct mtlbx_metadata *md)
{
    bool any = false;
    for (size_t k = 0; k < iface->n_inputs + iface->n_outputs; k++) {
        const struct mtlbx_air_argument *a =
            k < iface->n_inputs ? &iface->inputs[k] : &iface->outputs[k - iface->n_inputs];
        if (!a->has_function_constant || !a->function_constant.len || constant_declared(md, a->function_constant))
            continue;
        bool seen = false;
        for (size_t j = 0; j < k && !seen; j++) {
            const struct mtlbx_air_argument *e =
                j < iface->n_inputs ? &iface->inputs[j] : &iface->outputs[j - iface->n_inputs];
            seen = e->has_function_constant && e->function_constant.len == a->function_constant.len &&
                   memcmp(e->function_constant.ptr, a->function_constant.ptr, a->function_constant.len) == 0;
        }
        if (seen)
            continue;
        sb_str(b, "// constant bool ");
        sb_esc(b, a->function_constant);
        sb_str(b, " = ...;  // implicit: computed from other function constants (the module does not say how)\n");
        any = true;
    }
    return any;
}

/* The name as an identifier, for the return struct: other bytes become _. */
static void put_identifier(struct sb *b, struct mtlbx_bytes name)
{
    if (!name.len || isdigit(name.ptr[0]))
        sb_str(b, "_");
    for (size_t i = 0; i < name.len && !b->oom; i++) {
        char c = isalnum(name.ptr[i]) ? (char)name.ptr[i] : '_';
        sb_put(b, &c, 1);
    }
}

/* Several outputs: the struct the function returns (its name is not in AIR). */
static void put_return_struct(struct sb *b, const struct mtlbx_interface *iface, struct mtlbx_bytes name,
                              const struct mtlbx_metadata *md)
{
    sb_str(b, "struct ");
    put_identifier(b, name);
    sb_str(b, "_out {  // the return type (AIR does not record its name)\n");
    for (size_t i = 0; i < iface->n_outputs; i++) {
        const struct mtlbx_air_argument *o = &iface->outputs[i];
        sb_str(b, "    ");
        put_argument(b, o, md, i);
        sb_str(b, ";\n");
    }
    sb_str(b, "};\n\n");
}

/* Attributes other than max_work_group_size, as one comment line. */
static void put_other_attributes(struct sb *b, const struct mtlbx_interface *iface)
{
    const char *sep = "\n// attributes: ";
    for (size_t i = 0; i < iface->n_attributes; i++) {
        const struct mtlbx_air_property *p = &iface->attributes[i];
        if (bytes_is(p->key, "max_work_group_size"))
            continue;
        sb_str(b, sep);
        sep = ", ";
        sb_esc(b, p->key);
        for (size_t v = 0; v < p->n_values; v++) {
            sb_str(b, v ? " " : "=");
            put_value(b, &p->values[v]);
        }
    }
}

static void put_return_type(struct sb *b, const struct mtlbx_interface *iface)
{
    if (iface->n_outputs == 1 && iface->outputs[0].has_type)
        sb_esc(b, iface->outputs[0].type);
    else if (iface->n_outputs == 0)
        sb_str(b, "void");
    else
        sb_str(b, "struct");
}

/* The whole declaration: one line when it fits in MTLBX_MSL_WRAP columns,
 * else one argument per line; outputs and struct members below. */
char *mbx_msl_declaration(const struct mtlbx_interface *iface, struct mtlbx_bytes name, const char *fallback_stage,
                            const struct mtlbx_metadata *md, unsigned flags)
{
    struct sb b = { 0 };
    const bool source = flags & MTLBX_MSL_SOURCE;
    if (!iface || !iface->stage) {
        /* No AIR entry: only the container's word for it and the name. */
        if (source)
            sb_str(&b, "// ");
        sb_str(&b, fallback_stage && *fallback_stage ? fallback_stage : "function");
        sb_str(&b, " ");
        put_name(&b, name);
        sb_str(&b, "  // no AIR stage entry");
        return sb_done(&b);
    }
    int64_t threads = 0;
    bool has_threads = false;
    for (size_t i = 0; i < iface->n_attributes; i++)
        if (bytes_is(iface->attributes[i].key, "max_work_group_size"))
            has_threads = air_property_first_int(&iface->attributes[i], &threads);

    bool any_members = false;
    struct mtlbx_struct_member m;
    for (size_t i = 0; i < iface->n_inputs; i++)
        any_members |= mbx_argument_member(&iface->inputs[i], 0, &m);

    if (flags & MTLBX_MSL_CONSTANTS) {
        bool cnst = put_constants(&b, md);
        if (put_implicit_constants(&b, iface, md) || cnst)
            sb_str(&b, "\n");
    }
    if (source) {
        put_structs(&b, iface);
        if (iface->n_outputs > 1)
            put_return_struct(&b, iface, name, md);
        flags &= ~(unsigned)MTLBX_MSL_MEMBERS;
        any_members = false;
    }
    /* Head and arguments on one line first; wrap if it is too long. */
    struct sb head = { 0 };
    bool keyword = !source || !strcmp(iface->stage, "kernel") || !strcmp(iface->stage, "vertex") ||
                   !strcmp(iface->stage, "fragment");
    sb_str(&head, keyword ? "" : "[[");
    sb_str(&head, iface->stage);
    sb_str(&head, keyword ? " " : "]] ");
    if (source && iface->n_outputs > 1) {
        put_identifier(&head, name);
        sb_str(&head, "_out");
    } else {
        put_return_type(&head, iface);
    }
    sb_str(&head, " ");
    put_name(&head, name);
    sb_str(&head, "(");
    size_t one_line = head.len + 1;
    char **args = calloc(iface->n_inputs ? iface->n_inputs : 1, sizeof *args);
    if (!args)
        head.oom = true;
    for (size_t i = 0; args && i < iface->n_inputs; i++) {
        if (!(args[i] = mbx_msl_argument(&iface->inputs[i], md)))
            head.oom = true;
        else
            one_line += strlen(args[i]) + 2;
    }
    if (iface->n_inputs)
        one_line -= 2;   /* no ", " after the last argument */
    bool wrap = (flags & MTLBX_MSL_ONE_PER_LINE) || one_line > MTLBX_MSL_WRAP ||
                ((flags & MTLBX_MSL_MEMBERS) && any_members);
    if (has_threads) {
        /* On the same line only when all of it fits. */
        sb_fmt(&b, "[[max_total_threads_per_threadgroup(%" PRId64 ")]]", threads);
        sb_str(&b, !wrap && one_line + b.len + 1 <= MTLBX_MSL_WRAP ? " " : "\n");
    }
    if (!head.oom)
        sb_put(&b, head.p, head.len);
    else
        b.oom = true;
    for (size_t i = 0; args && !b.oom && i < iface->n_inputs; i++) {
        if (wrap)
            sb_str(&b, "\n    ");
        sb_str(&b, args[i]);
        if (i + 1 < iface->n_inputs)
            sb_str(&b, wrap ? "," : ", ");
        if (wrap && (flags & MTLBX_MSL_MEMBERS))
            put_members(&b, &iface->inputs[i], "        ");
    }
    sb_str(&b, source ? ");" : ")");
    for (size_t i = 0; i < iface->n_outputs && !(source && iface->n_outputs > 1); i++) {
        sb_str(&b, "\n    // output: ");
        char *o = mbx_msl_argument(&iface->outputs[i], md);
        if (!o)
            b.oom = true;
        else
            sb_str(&b, o);
        free(o);
    }
    put_other_attributes(&b, iface);
    for (size_t i = 0; args && i < iface->n_inputs; i++)
        free(args[i]);
    free(args);
    free(head.p);
    return sb_done(&b);
}
