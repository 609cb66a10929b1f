/* Interfaces as MSL text (src/lib/model/msl_decl.c): an argument, its
 * struct members and a whole function's declaration as Metal source
 * spells them, terminal-safe. */
#ifndef MTLBX_MODEL_MSL_H
#define MTLBX_MODEL_MSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/metadata.h"
#include "bitcode/interface.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One member of an argument's air.struct_type_info. */
struct mtlbx_struct_member {
    int64_t offset, size, count;   /* bytes; count 0: not an array */
    struct mtlbx_bytes type, name;
};
/* The i-th member; false past the last one or when there is none. */
bool mbx_argument_member(const struct mtlbx_air_argument *a, size_t i,
                           struct mtlbx_struct_member *out);

/* Text of the declaration, terminal-safe (every byte from the file escaped),
 * malloc'd, NULL only when out of memory. `md` (may be NULL) names function
 * constants by their CNST index. */
enum {
    MTLBX_MSL_ONE_PER_LINE = 1u << 0, /* one argument per line even when short */
    MTLBX_MSL_MEMBERS = 1u << 1,      /* struct members under their argument */
    MTLBX_MSL_SOURCE = 1u << 2,       /* MSL to paste (sig): struct arguments as struct
                                         declarations first, several outputs as one
                                         return struct, a ';' at the end, a stage that
                                         is no MSL keyword as an attribute ([[mesh]]),
                                         anything else as a comment */
    MTLBX_MSL_CONSTANTS = 1u << 3,    /* the function constants `md` lists (CNST)
                                         declared first, one a line:
                                         constant uint M [[function_constant(0)]]; */
};
#define MTLBX_MSL_WRAP 100             /* longer declarations wrap, one argument a line */
/* "device const half* A [[buffer(0)]]" */
char *mbx_msl_argument(const struct mtlbx_air_argument *a, const struct mtlbx_metadata *md);
/* Its type alone, as that declaration spells it: "device const half*"
 * (the address space word, const, the type, * or &). malloc'd. */
char *mbx_msl_argument_type(const struct mtlbx_air_argument *a);
/* True for threadgroup memory: an air.buffer in address space 3, whose
 * binding MSL spells [[threadgroup(N)]], never [[buffer(N)]]. */
bool mbx_argument_is_threadgroup_memory(const struct mtlbx_air_argument *a);
/* "float4 v[2]  // offset 16, size 32" into out (always NUL-terminated). */
void mbx_msl_member(const struct mtlbx_struct_member *m, char *out, size_t size);
/* "kernel void f(...)" with [[max_total_threads_per_threadgroup(N)]], outputs
 * and other attributes on lines below, lines separated by '\n' (no final
 * one). `name` is the function's NAME (shown demangled); without a stage
 * entry (iface NULL or stage NULL) the declaration is `fallback_stage NAME`
 * (the container's type: "visible", "extern" ...). */
char *mbx_msl_declaration(const struct mtlbx_interface *iface, struct mtlbx_bytes name,
                            const char *fallback_stage, const struct mtlbx_metadata *md,
                            unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
