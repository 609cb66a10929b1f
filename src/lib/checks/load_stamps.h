/* The checks layer (src/lib/checks): the stamps Metal decides loading by
 * (load_stamps.c). */
#ifndef MTLBX_CHECKS_LOAD_STAMPS_H
#define MTLBX_CHECKS_LOAD_STAMPS_H

#include <stdbool.h>
#include <stddef.h>

#include "checks/os.h"
#include "container/types.h"

/* ---------------------------------------------------------- load stamps -- */

/* What Metal itself checks when it loads a library (load_stamps.c), each
 * stamp as the runtime's errors name it, for a gate that speaks them:
 * - the modules' LLVM target triple (air64_v28-apple-macosx26.0.0): what
 *   Metal decides the OS by. It refuses a triple for a newer OS major than
 *   the running one ("Unsupported target triple") and accepts a newer minor
 *   of the same major; the header's deployment target is not what it reads
 *   (a header forged either way changes nothing). Measured on macOS 26.3
 *   with libraries stamped 26.0, 26.4, 26.9 and 27.0: zig-metallib
 *   docs/air-format.md section 1.7 (data/requirements.tsv keeps the rule);
 * - the MSL version, "language version 4.0" (VERS);
 * - the AIR version, which the runtime calls "deployment target
 *   0x00020008" (major << 16 | minor).
 * The header's own deployment target is kept to say when it and the
 * triple disagree. */
struct mtlbx_load_stamps {
    enum mtlbx_os os;                /* the library's platform (mbx_library_os) */
    size_t n_functions;
    /* The triple that asks the most (by OS version), as read */
    bool has_triple;
    char triple[96];
    enum mtlbx_os triple_os;
    bool triple_has_version;
    struct mtlbx_os_version triple_version;
    size_t triple_functions;         /* modules read that ask that version */
    size_t triples_read;             /* modules whose triple was read */
    size_t triples_differ;           /* of those, asking another OS or version than `triple` */
    /* The header's deployment target (byte 11 and the version at 12) */
    bool has_header_target;
    enum mtlbx_os header_os;
    struct mtlbx_os_version header_version;
    /* The highest MSL and AIR versions of the functions, and how many
     * functions have each */
    bool has_msl, has_air;
    struct mtlbx_os_version msl, air;
    size_t msl_functions, air_functions;
};
/* every_module: read every module's triple (check: each module is read
 * anyway); else the first ones until one reads (what find can afford). */
void mbx_library_load_stamps(const mtlbx_library *lib, bool every_module, struct mtlbx_load_stamps *out);

#endif
