/* The checks layer (src/lib/checks): the deployment target as Metal reads
 * it, from the modules' target triples (deployment.c). */
#ifndef MTLBX_CHECKS_DEPLOYMENT_H
#define MTLBX_CHECKS_DEPLOYMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "checks/os.h"
#include "container/types.h"

/* ---------------------------------------------------- deployment target -- */

/* The deployment target as Metal reads it (deployment.c): each module's
 * LLVM target triple (air64_v28-apple-macosx26.0.0). Metal refuses a
 * triple for a newer OS *major* than the running one ("Unsupported target
 * triple"), accepts a newer minor of the same major, and does not read
 * the container header's os_version (a header forged either way changes
 * nothing): measured on macOS 26.3 with libraries stamped 26.0, 26.4,
 * 26.9 and 27.0 (FORMAT.md §23). A library asks for its highest triple;
 * the header's os_version stands in only when no module's triple can be
 * read (from_header), and every answer built on it says so. Every module
 * is read once per library (cached in the handle). */
struct mtlbx_deployment {
    bool known;                      /* some triple, or the header, gives a version */
    bool from_triple;                /* false: the header's os_version stands in */
    enum mtlbx_os os;                /* the platform of `triple` (or of the header) */
    struct mtlbx_os_version asks;    /* the highest triple's OS version */
    struct mtlbx_os_version needs;   /* the oldest release that loads it: asks at the major */
    char triple[96];                 /* that triple, "" from the header */
    size_t triple_functions;         /* modules whose triple asks exactly that */
    size_t triples_read;             /* modules whose triple (with a version) was read */
    size_t triples_differ;           /* of those, asking something else */
    size_t modules_unread;           /* modules whose triple could not be read */
};
void mbx_library_deployment(const mtlbx_library *lib, struct mtlbx_deployment *out);
/* Function i's own: its module's triple (read once, or noted by whoever
 * read the module first), else the library's. False when nothing is
 * known. */
bool mbx_function_deployment(const mtlbx_library *lib, size_t i, struct mtlbx_os_version *asks, bool *from_header);
/* The release an OS version belongs to, the level Metal compares at:
 * 26.4 -> 26.0; macOS 10.x releases were majors in all but number, so
 * 10.14 -> 10.14. */
struct mtlbx_os_version mbx_os_release(enum mtlbx_os os, struct mtlbx_os_version v);
/* The OS version a triple asks for: "air64_v28-apple-macosx26.0.0" ->
 * 26.0; false when its OS part carries no version. */
bool mbx_triple_os_version(const char *triple, struct mtlbx_os_version *out);
/* Whether Metal on `running` loads a module whose triple asks for
 * `asks`, by the rule above. */
enum mtlbx_triple_verdict {
    MTLBX_TRIPLE_ACCEPTED,           /* not newer */
    MTLBX_TRIPLE_NEWER_MINOR,        /* a newer minor of the same release: loads (measured on macOS) */
    MTLBX_TRIPLE_REFUSED,            /* a newer release */
};
enum mtlbx_triple_verdict mbx_triple_accepts(enum mtlbx_os os, struct mtlbx_os_version running,
                                               struct mtlbx_os_version asks);

#endif
