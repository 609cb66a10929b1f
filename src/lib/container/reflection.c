/* Core Image reflection (FORMAT.md §22): the RETR and ARGR public-metadata
 * tags, the only description of a -fcikernel function's interface.
 *
 * ARGR is a u8 argument count, then per argument a C-string name, a u8 data
 * type and extra bytes that depend on the type: six for a texture, eleven for
 * a pointer (plus the members of a struct pointee), none otherwise. The
 * grammar is exact on every real value seen, so anything that does not end
 * precisely on the value's last byte is reported, never guessed at. */
#include "config.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/parse.h"
#include "container/report.h"
#include "container/value_names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    CI_STRUCT = 0x01,
    CI_TEXTURE = 0x3A,
    CI_POINTER = 0x3C,
    TEXTURE_EXTRA = 6,  /* u8 pixel type, u32, u8 texture type */
    POINTER_EXTRA = 11, /* u8, u8 alignment, u64 size, u8 pointee type */
    MEMBER_TAIL = 6,    /* after a member's name: u8 type, u32, u8 */
};

/* A cursor over one value; every read checks what is left first. */
struct reader {
    const uint8_t *base;
    size_t len, pos;
    uint64_t value_offset;
    struct mtlbx_decode_error *err;
};

static bool fail(struct reader *r, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(struct reader *r, size_t at, const char *fmt, ...)
{
    r->err->offset = r->value_offset + at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    va_end(ap);
    return false;
}

static bool read_name(struct reader *r, struct mtlbx_bytes *out)
{
    const uint8_t *p = r->base + r->pos;
    const uint8_t *nul = memchr(p, 0, r->len - r->pos);
    if (!nul)
        return false;
    *out = (struct mtlbx_bytes){ p, (size_t)(nul - p) };
    r->pos += out->len + 1;
    return true;
}

static bool read_members(struct reader *r, struct mtlbx_reflection *out, size_t *cap, struct mtlbx_ci_argument *a,
                         size_t arg_index)
{
    size_t count_at = r->pos;
    if (r->pos >= r->len)
        return fail(r, count_at, "ARGR argument %zu: struct pointee has no member count", arg_index);
    unsigned count = r->base[r->pos++];
    a->first_member = out->n_members;
    for (unsigned m = 0; m < count; m++) {
        size_t start = r->pos;
        struct mtlbx_bytes name;
        if (!read_name(r, &name) || r->len - r->pos < MEMBER_TAIL)
            return fail(r, start, "ARGR argument %zu: struct member %u of %u runs past the value", arg_index,
                        m + 1, count);
        if (!grow_array((void **)&out->members, cap, out->n_members + 1, sizeof *out->members))
            return fail(r, start, "ARGR argument %zu: out of memory", arg_index);
        const uint8_t *q = r->base + r->pos;
        out->members[out->n_members++] = (struct mtlbx_ci_member){
            .name = name, .type = q[0], .unknown_word = rd32(q + 1), .unknown_byte = q[5],
            .offset = r->value_offset + start, .size = r->pos + MEMBER_TAIL - start,
        };
        a->n_members++;
        r->pos += MEMBER_TAIL;
    }
    return true;
}

/* One argument: name, type, then the extra bytes its type calls for. */
static bool read_argument(struct reader *r, struct mtlbx_reflection *out, size_t *member_cap, size_t i,
                          unsigned count)
{
    size_t start = r->pos;
    struct mtlbx_ci_argument *a = &out->arguments[out->n_arguments];
    *a = (struct mtlbx_ci_argument){ .offset = r->value_offset + start };
    if (r->pos >= r->len)
        return fail(r, start, "ARGR declares %u arguments but the value ends after %zu", count, i);
    if (!read_name(r, &a->name) || r->pos >= r->len)
        return fail(r, start, "ARGR argument %zu of %u runs past the value", i + 1, count);
    a->type = r->base[r->pos++];
    a->extra_offset = r->value_offset + r->pos;
    size_t left = r->len - r->pos;
    const uint8_t *x = r->base + r->pos;
    if (a->type == CI_TEXTURE) {
        if (left < TEXTURE_EXTRA)
            return fail(r, start, "ARGR argument %zu: texture needs %d more bytes, %zu left", i + 1, TEXTURE_EXTRA,
                        left);
        a->has_element = true;
        a->element_type = x[0];
        a->texture_word = rd32(x + 1);
        a->texture_type = x[5];
        r->pos += TEXTURE_EXTRA;
    } else if (a->type == CI_POINTER) {
        if (left < POINTER_EXTRA)
            return fail(r, start, "ARGR argument %zu: pointer needs %d more bytes, %zu left", i + 1, POINTER_EXTRA,
                        left);
        a->has_element = true;
        a->pointer_byte = x[0];
        a->alignment = x[1];
        a->pointee_size = rd64(x + 2);
        a->element_type = x[10];
        r->pos += POINTER_EXTRA;
        if (a->element_type == CI_STRUCT && !read_members(r, out, member_cap, a, i + 1))
            return false;
    }
    a->size = r->pos - start;
    out->n_arguments++;
    return true;
}

bool mbx_argr_decode(const uint8_t *value, size_t len, uint64_t value_offset, struct mtlbx_reflection *out,
                       struct mtlbx_decode_error *err)
{
    struct reader r = { .base = value, .len = len, .value_offset = value_offset, .err = err };
    out->has_arguments = true;
    out->complete = false;
    out->arguments_offset = value_offset;
    if (len == 0)
        return fail(&r, 0, "ARGR value is empty (no argument count)");
    unsigned count = value[0];
    r.pos = 1;
    /* An argument takes at least two bytes (NUL and type): the count alone
     * never sizes more than the value can hold. */
    size_t cap = count < (len - 1) / 2 ? count : (len - 1) / 2;
    out->arguments = calloc(cap ? cap : 1, sizeof *out->arguments);
    if (!out->arguments)
        return fail(&r, 0, "ARGR: out of memory");
    size_t member_cap = 0;
    for (size_t i = 0; i < count; i++) {
        if (i == cap)
            return fail(&r, r.pos, "ARGR declares %u arguments but the value ends after %zu", count, i);
        if (!read_argument(&r, out, &member_cap, i, count))
            return false;
    }
    if (r.pos != len)
        return fail(&r, r.pos, "ARGR has %zu trailing bytes after its %u arguments", len - r.pos, count);
    out->complete = true;
    return true;
}

void mbx_reflection_free(struct mtlbx_reflection *r)
{
    free(r->arguments);
    free(r->members);
    r->arguments = NULL;
    r->members = NULL;
    r->n_arguments = r->n_members = 0;
}

/* metadata.c hands us the two tags of one public group. */
void reflection_decode_retr(mtlbx_library *lib, struct mtlbx_reflection *r, const struct mtlbx_tag *t)
{
    if (r->has_return) {
        lib_warning(lib, t->offset, "second RETR tag in one metadata group");
        return;
    }
    r->return_offset = t->value_offset;
    if (t->value_len != 1) {
        lib_error(lib, t->offset, "RETR value is %llu bytes, expected 1", (unsigned long long)t->value_len);
        return;
    }
    r->has_return = true;
    r->return_type = t->value[0];
    if (!mbx_data_type_known(r->return_type))
        lib_warning(lib, t->value_offset, "RETR has unknown data type 0x%02x", r->return_type);
}

void reflection_decode_argr(mtlbx_library *lib, struct mtlbx_reflection *r, const struct mtlbx_tag *t)
{
    if (r->has_arguments) {
        lib_warning(lib, t->offset, "second ARGR tag in one metadata group");
        return;
    }
    struct mtlbx_decode_error err;
    if (!mbx_argr_decode(t->value, (size_t)t->value_len, t->value_offset, r, &err))
        lib_error(lib, err.offset, "%s", err.message);
    for (size_t i = 0; i < r->n_arguments; i++) {
        const struct mtlbx_ci_argument *a = &r->arguments[i];
        if (!mbx_data_type_known(a->type))
            lib_warning(lib, a->offset, "ARGR argument %zu has unknown data type 0x%02x", i + 1, a->type);
    }
}
