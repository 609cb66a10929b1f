/* The function filter (f in the function table and the tree): what the
 * user types, read once into terms, each of which a function must match
 * (words narrow: "kernel argmin" keeps the kernels whose name has
 * argmin). A term matches what the table shows of the function:
 *   a word           its name contains it (ignoring case; a C++ name
 *                    also as shown, demangled), or it is its stage
 *                    ("kernel"), or its platform ("macOS"), or a GPU
 *                    it has compiled code for ("applegpu")
 *   a version "4.0"  its MSL version, its AIR version or the OS version
 *                    it requires
 *   COLUMN VALUE     only that column: "msl 4.0", "air 2.8", "stage
 *                    vertex", "requires macOS" or "requires 14.0",
 *                    "hash BAD", "gpu amdgpu" ("gpu -": no GPU code),
 *                    "name air" (a name with "msl" in it is
 *                    "name msl"); "msl4.0" and "air2.8" glued too
 * Pure: no terminal. */
#ifndef MTLBX_UI_MODEL_FNFILTER_H
#define MTLBX_UI_MODEL_FNFILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "container/functions.h"

#define FNFILTER_MAX_TERMS 16

/* The prompt of f: short enough for 80 columns. */
#define FNFILTER_PROMPT "Filter (words must all match)"

enum fnfilter_col { FF_ANY, FF_NAME, FF_STAGE, FF_MSL, FF_AIR, FF_REQUIRES, FF_HASH, FF_GPU };

struct fnfilter_term {
    enum fnfilter_col col;
    char text[64];               /* the word, NUL-terminated */
    bool is_version;             /* "X.Y" */
    unsigned major, minor;
    int os;                      /* an enum mtlbx_os the word names, or 0 */
};

struct fnfilter {
    struct fnfilter_term terms[FNFILTER_MAX_TERMS];
    size_t n;
};

/* Reads the text typed ("" : no term, every function passes). Words past
 * FNFILTER_MAX_TERMS are dropped. */
void fnfilter_parse(struct fnfilter *f, const char *text);
/* Whether function `index` of `lib` matches every term. */
bool fnfilter_matches(const struct fnfilter *f, const mtlbx_library *lib, size_t index);
/* The same for a function read already; lib NULL: the terms that need
 * the library (requires, hash) do not match. */
bool fnfilter_matches_function(const struct fnfilter *f, const struct mtlbx_function *fn,
                               const mtlbx_library *lib, size_t index);

#endif
