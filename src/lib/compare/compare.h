/* The comparison layer's face (src/lib/compare): what differs between two
 * opened libraries, field by field, function by function, source member by
 * member. It knows every layer below it (container, bitcode, checks,
 * model) and is known by none of them; only the command line and the
 * explorer call it. It reads, decodes and hashes through the layers
 * below, and never prints. */
#ifndef MTLBX_COMPARE_H
#define MTLBX_COMPARE_H

#include "bitcode/interface.h"

/* ------------------------------------------------------------- compare -- */

/* What differs between two opened files (compare.c). Libraries are paired
 * by position, functions by name and occurrence (the k-th function of a
 * name in A with the k-th of that name in B: a name may repeat, and each
 * is compared), embedded source members the same way by name, and by
 * content. The result holds indexes only: a caller renders values from
 * the two libraries with the accessors above, so nothing is copied.
 * Occurrences count from 1, in file order (for members: archive, then
 * member order); a name that appears once is its occurrence 1. */

enum mtlbx_header_field {
    MTLBX_HF_REQUIRES,         /* first: what a release job asks first (requirements.c) */
    MTLBX_HF_CONTAINER_VERSION, MTLBX_HF_PLATFORM, MTLBX_HF_FILE_TYPE, MTLBX_HF_STUB,
    MTLBX_HF_TARGET_OS, MTLBX_HF_OS_VERSION, MTLBX_HF_UUID, MTLBX_HF_HEADER_EXTENSION,
    MTLBX_HF_DYNAMIC_HEADER,
    MTLBX_HF_FUNCTION_ORDER,   /* the same functions in another order (CONTRACT.md: never "identical") */
    MTLBX_HF_COUNT,
};
enum mtlbx_function_field {
    MTLBX_FF_HASH, MTLBX_FF_HASH_OK, MTLBX_FF_TYPE, MTLBX_FF_AIR_VERSION,
    MTLBX_FF_LANGUAGE_VERSION, MTLBX_FF_TAGS, MTLBX_FF_CONSTANTS,
    MTLBX_FF_VERTEX_ATTRIBUTES, MTLBX_FF_INTERFACE,
    MTLBX_FF_MODULE_HASH,      /* SHA-256 of the module's bytes: set when the bytes
                                  differ behind an equal stored HASH */
    MTLBX_FF_COUNT,
};
/* The JSON key of CONTRACT.md ("container_version", "hash_ok", ...). */
const char *mbx_header_field_name(enum mtlbx_header_field f);
const char *mbx_function_field_name(enum mtlbx_function_field f);

struct mtlbx_function_change {
    size_t a, b;               /* function indexes in library A and in B */
    unsigned fields;           /* 1u << MTLBX_FF_* */
    uint32_t occurrence_a, occurrence_b;  /* of each one's name in its library
                                             (equal for a change; a rename may differ) */
};

/* A source member: archive index and member index in its library. */
struct mtlbx_member_ref {
    size_t archive, member;
};
struct mtlbx_member_change {
    struct mtlbx_member_ref a, b;
    uint32_t occurrence_a, occurrence_b;  /* of each one's name among its library's members */
};

struct mtlbx_library_diff {
    size_t index;
    mtlbx_library *a, *b;      /* one is NULL when only one file has library `index` */
    unsigned header_fields;    /* 1u << MTLBX_HF_*; 0 when a or b is NULL */
    /* Sorted by name (bytewise), then occurrence. added: indexes in b;
     * removed: in a; *_occurrence: the occurrence of each one's name. */
    size_t n_added, n_removed, n_changed;
    size_t *added, *removed;
    uint32_t *added_occurrence, *removed_occurrence;
    struct mtlbx_function_change *changed;
    /* Renamed or moved: a function removed from A whose stored HASH is that
     * of a function added in B (a: index in A, b: in B; fields 0), and a
     * source member removed whose bytes are those of one added. They are
     * not in the added and removed lists. */
    size_t n_renamed, n_members_renamed;
    struct mtlbx_function_change *renamed;
    struct mtlbx_member_change *members_renamed;
    size_t n_members_added, n_members_removed, n_members_changed;
    struct mtlbx_member_ref *members_added, *members_removed;
    uint32_t *members_added_occurrence, *members_removed_occurrence;
    struct mtlbx_member_change *members_changed;
    /* An archive on either side that did not decode: its members are not
     * compared (the diagnostics say why). */
    bool sources_incomplete;
};

struct mtlbx_diff {
    bool identical;            /* no change at all, libraries paired one to one,
                                  and as many functions and members on each side */
    size_t n_libraries;        /* the larger of the two library counts */
    struct mtlbx_library_diff *libraries;
    /* GPU slices of binary archives (gpu_slice.h), paired by their place
     * among the fat slices: how many differ in CPU or bytes, or have no
     * partner there. Their AIR is compared as a library; their compiled
     * code only here. */
    size_t gpu_slices_changed;
};

struct mtlbx_diff_options {
    /* Hash every module on both sides (the explorer's and `diff --verify`'s
     * "every module hashed"). Without it, where the two stored hashes are
     * equal the modules' bytes are compared (memcmp, as cmp does) and only
     * modules whose bytes differ are hashed: such a module is a change of
     * hash_ok, and of module_hash, never "identical". */
    bool verify;
};

/* How two function interfaces differ (compare_iface.c). Arguments are
 * paired by name (air.arg_name; by index when unnamed), inputs with inputs
 * and outputs with outputs, the first of a duplicated name. */
enum {
    MTLBX_ARG_ADDED = 1u << 0,
    MTLBX_ARG_REMOVED = 1u << 1,
    MTLBX_ARG_REBOUND = 1u << 2,   /* its kind or location changed: buffer(3) -> buffer(4) */
    MTLBX_ARG_RETYPED = 1u << 3,   /* air.arg_type_name changed */
    MTLBX_ARG_CHANGED = 1u << 4,   /* any other property (access, index, ...) changed */
};
struct mtlbx_argument_change {
    unsigned what;                 /* MTLBX_ARG_* bits */
    bool output;                   /* from the outputs lists */
    const struct mtlbx_air_argument *a, *b;  /* NULL on the side without it */
};
struct mtlbx_interface_diff {
    bool stage_changed;
    size_t n_changes;              /* inputs in A's order, then added ones; then outputs */
    struct mtlbx_argument_change *changes;
};
/* Fills *out (free with mbx_interface_diff_free); false only when out of
 * memory. Nothing differs when !stage_changed && n_changes == 0. */
bool mbx_interface_compare(const struct mtlbx_interface *a, const struct mtlbx_interface *b,
                             struct mtlbx_interface_diff *out);
void mbx_interface_diff_free(struct mtlbx_interface_diff *d);
/* Same key and the same values (for naming what MTLBX_ARG_CHANGED was). */
bool mbx_air_property_equal(const struct mtlbx_air_property *p, const struct mtlbx_air_property *q);

/* Compares a with b. Returns MTLBX_E_NONE with *out set (free with
 * mbx_diff_free), or MTLBX_E_NOMEM. The interface field: where the
 * stored hashes differ, both modules' interfaces are decoded (only there,
 * so unchanged functions cost no bitcode reading) and compared when both
 * decode. Reads modules only as said above;
 * decompresses source archives only when their compressed bytes differ. */
int mbx_diff_files(mtlbx_file *a, mtlbx_file *b, const struct mtlbx_diff_options *opt,
                     struct mtlbx_diff **out);
void mbx_diff_free(struct mtlbx_diff *d);

#endif
