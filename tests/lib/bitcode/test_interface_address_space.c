/* An argument's address space (CONTRACT "address_space", issue 36) from
 * modules written bit by bit (bitwriter.c), so that every shape of the
 * TYPE table is covered whatever llvm-as is installed: opaque pointers
 * (TYPE_CODE_OPAQUE_POINTER [addrspace], LLVM 15 and later), typed
 * pointers (TYPE_CODE_POINTER [pointee, addrspace], Apple's AIR so far),
 * a function record that names a pointer to its function type (writers
 * before LLVM 3.8), FUNCTION_OLD, and records that say nothing or are
 * broken. The kernel @k takes (ptr addrspace(1), ptr addrspace(2), i32,
 * ptr addrspace(3)); its AIR entry lists six arguments:
 *   0  buffer, no air.address_space         -> 1 from the parameter
 *   1  buffer, air.address_space 2           -> 2 from the metadata
 *   2  buffer on an i32 parameter            -> not a pointer
 *   3  buffer, no air.address_space          -> 3 from the parameter
 *   4  index 4: @k has no fifth parameter    -> unknown
 *   5  no index at all                       -> unknown */
#include "config.h"

#include "bitwriter.h"
#include "bitcode/interface_reader.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x2000

enum shape {
    OPAQUE,            /* ptr addrspace(N) */
    TYPED,             /* i32 addrspace(N)* */
    TYPED_FN_POINTER,  /* the function record names void (...)* */
    FUNCTION_OLD,      /* TYPE_CODE_FUNCTION_OLD [vararg, attrid, ret, params...] */
    NO_FUNCTION_TYPE,  /* the function record stops before its type */
    NOT_A_FUNCTION,    /* the function record names i32 */
    BROKEN_POINTERS,   /* a pointer record without operands, one in address space 2^24 */
};

#define U(x) ((uint64_t)(x))

/* Types: 0 i32, 1-3 pointers in address spaces 1-3, 4 void, 5 the
 * function type, 6 metadata, 7 a pointer to 5. Values: 0 @k, 1-5 the
 * i32 constants 0-4. */
static struct bitwriter *build(enum shape s)
{
    struct bitwriter *w = bw_new();
    bw_enter(w, 13, 5); /* IDENTIFICATION */
    bw_record_str(w, 1, "LLVM");
    bw_end(w);
    bw_enter(w, 8, 3); /* MODULE */
    bw_recordv(w, 1, 1, U(2)); /* VERSION 2: names from STRTAB */
    bw_enter(w, 17, 4); /* TYPE */
    bw_recordv(w, 7, 1, U(32));
    for (uint64_t as = 1; as <= 3; as++) {
        if (s == BROKEN_POINTERS && as == 1)
            bw_recordv(w, 25, 0);
        else if (s == BROKEN_POINTERS && as == 3)
            bw_recordv(w, 25, 1, U(1) << 24);
        else if (s == OPAQUE)
            bw_recordv(w, 25, 1, as);
        else
            bw_recordv(w, 8, 2, U(0), as);
    }
    bw_recordv(w, 2, 0);
    if (s == FUNCTION_OLD)
        bw_recordv(w, 9, 7, U(0), U(0), U(4), U(1), U(2), U(0), U(3));
    else
        bw_recordv(w, 21, 6, U(0), U(4), U(1), U(2), U(0), U(3));
    bw_recordv(w, 16, 0);
    bw_recordv(w, 8, 2, U(5), U(0));
    bw_end(w);
    /* FUNCTION [strtab offset, size, type, callingconv, isproto, linkage] */
    if (s == NO_FUNCTION_TYPE)
        bw_recordv(w, 8, 2, U(0), U(1));
    else
        bw_recordv(w, 8, 6, U(0), U(1), U(s == TYPED_FN_POINTER ? 7 : s == NOT_A_FUNCTION ? 0 : 5), U(0), U(0), U(0));
    bw_enter(w, 11, 4); /* CONSTANTS: i32 0..4 */
    bw_recordv(w, 1, 1, U(0));
    for (uint64_t v = 0; v <= 4; v++)
        bw_recordv(w, 4, 1, v << 1);
    bw_end(w);
    bw_enter(w, 15, 4); /* METADATA */
    bw_record_str(w, 1, "air.buffer");        /* !0 */
    bw_record_str(w, 1, "air.arg_name");      /* !1 */
    bw_record_str(w, 1, "air.address_space"); /* !2 */
    bw_record_str(w, 1, "a");                 /* !3 */
    for (uint64_t v = 0; v <= 4; v++)
        bw_recordv(w, 2, 2, U(0), v + 1);            /* !4..!8 = i32 0..4 */
    bw_recordv(w, 2, 2, U(1), U(0));                 /* !9 = @k */
    /* Node operands are metadata ids + 1. */
    bw_recordv(w, 3, 4, U(5), U(1), U(2), U(4));               /* !10 {0, buffer, arg_name, "a"} */
    bw_recordv(w, 3, 6, U(6), U(1), U(3), U(7), U(2), U(4));   /* !11 {1, buffer, address_space, 2, ...} */
    bw_recordv(w, 3, 4, U(7), U(1), U(2), U(4));               /* !12 {2, ...} */
    bw_recordv(w, 3, 4, U(8), U(1), U(2), U(4));               /* !13 {3, ...} */
    bw_recordv(w, 3, 4, U(9), U(1), U(2), U(4));               /* !14 {4, ...} */
    bw_recordv(w, 3, 3, U(1), U(2), U(4));                     /* !15 {buffer, arg_name, "a"} */
    bw_recordv(w, 3, 6, U(11), U(12), U(13), U(14), U(15), U(16)); /* !16 the arguments */
    bw_recordv(w, 3, 0);                                       /* !17 {} outputs */
    bw_recordv(w, 3, 3, U(10), U(18), U(17));                  /* !18 {@k, !17, !16} */
    bw_record_str(w, 4, "air.kernel");
    bw_recordv(w, 10, 1, U(18));
    bw_end(w);
    bw_end(w); /* MODULE */
    bw_strtab(w, "k", 1);
    return w;
}

struct want {
    enum mtlbx_address_space_from from;
    int64_t as;
};

static void expect(enum shape s, const struct want want[6])
{
    struct bitwriter *w = build(s);
    struct mtlbx_error err;
    struct mtlbx_interface *it = mbx_interface_decode(w->buf, bw_size(w), BASE, (const uint8_t *)"k", 1, &err);
    cr_assert_not_null(it, "%s", err.message);
    cr_assert(!it->module.failed, "shape %d: %s at 0x%llx", s, it->module.error,
              (unsigned long long)it->module.error_offset);
    cr_assert_str_eq(it->stage, "kernel");
    cr_assert_eq(it->n_inputs, 6);
    for (size_t i = 0; i < 6; i++) {
        const struct mtlbx_air_argument *a = &it->inputs[i];
        cr_expect_eq(a->address_space_from, want[i].from, "shape %d argument %zu: from %d, want %d", s, i,
                     a->address_space_from, want[i].from);
        if (want[i].from == MTLBX_AS_METADATA || want[i].from == MTLBX_AS_PARAMETER)
            cr_expect_eq(a->address_space, want[i].as, "shape %d argument %zu: address space %lld, want %lld", s,
                         i, (long long)a->address_space, (long long)want[i].as);
    }
    mbx_interface_free(it);
    bw_free(w);
}

#define PARAM(n) { MTLBX_AS_PARAMETER, (n) }
#define META(n) { MTLBX_AS_METADATA, (n) }
#define NOPTR { MTLBX_AS_NOT_POINTER, 0 }
#define UNKNOWN { MTLBX_AS_UNKNOWN, 0 }

Test(address_space, opaque_pointers)
{
    static const struct want w[6] = { PARAM(1), META(2), NOPTR, PARAM(3), UNKNOWN, UNKNOWN };
    expect(OPAQUE, w);
}

Test(address_space, typed_pointers)
{
    static const struct want w[6] = { PARAM(1), META(2), NOPTR, PARAM(3), UNKNOWN, UNKNOWN };
    expect(TYPED, w);
}

Test(address_space, a_function_record_naming_a_pointer_to_its_type)
{
    static const struct want w[6] = { PARAM(1), META(2), NOPTR, PARAM(3), UNKNOWN, UNKNOWN };
    expect(TYPED_FN_POINTER, w);
}

Test(address_space, function_old)
{
    static const struct want w[6] = { PARAM(1), META(2), NOPTR, PARAM(3), UNKNOWN, UNKNOWN };
    expect(FUNCTION_OLD, w);
}

/* What the module does not say is unknown, never "not a pointer"; the
 * metadata's own air.address_space still counts. */
Test(address_space, no_function_type_is_unknown)
{
    static const struct want w[6] = { UNKNOWN, META(2), UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN };
    expect(NO_FUNCTION_TYPE, w);
    expect(NOT_A_FUNCTION, w);
}

Test(address_space, broken_pointer_records_are_unknown)
{
    static const struct want w[6] = { UNKNOWN, META(2), NOPTR, UNKNOWN, UNKNOWN, UNKNOWN };
    expect(BROKEN_POINTERS, w);
}

/* The JSON name of where it came from (dump --json's address_space_from). */
Test(address_space, names)
{
    struct mtlbx_air_argument a = { 0 };
    cr_assert_null(mbx_address_space_from_name(&a));
    a.address_space_from = MTLBX_AS_METADATA;
    cr_assert_str_eq(mbx_address_space_from_name(&a), "air.address_space");
    a.address_space_from = MTLBX_AS_PARAMETER;
    cr_assert_str_eq(mbx_address_space_from_name(&a), "parameter");
    a.address_space_from = MTLBX_AS_UNKNOWN;
    cr_assert_str_eq(mbx_address_space_from_name(&a), "unknown");
}
