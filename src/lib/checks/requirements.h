/* The checks layer (src/lib/checks): which OS version a function or a
 * library needs (requirements.c, from data/requirements.tsv), why, and
 * the tables on their own. Values for the caller; it never prints. */
#ifndef MTLBX_CHECKS_REQUIREMENTS_H
#define MTLBX_CHECKS_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/os.h"
#include "container/types.h"

/* ---------------------------------------------------------- requirements -- */

/* Which OS version accepts a function or a library, without a Mac
 * (CONTRACT.md "Requirements", FORMAT.md §23): the highest of the
 * deployment target (the modules' target triples at the release level,
 * "deployment target" below) and what the function's MSL and AIR versions
 * need on the library's platform. The tables come from
 * data/requirements.tsv, the one copy of them (the build compiles it in).
 * Beyond the function list, each module's triple is read once per
 * library. */

enum mtlbx_req_rule { MTLBX_REQ_DEPLOYMENT, MTLBX_REQ_MSL, MTLBX_REQ_AIR };
struct mtlbx_req_reason {
    enum mtlbx_req_rule rule;
    struct mtlbx_os_version of;      /* the MSL or AIR version (DEPLOYMENT: the target) */
    struct mtlbx_os_version needs;   /* the first OS version that accepts it */
    size_t n_functions;              /* library: functions that have this reason (0: deployment) */
    bool header;                     /* DEPLOYMENT: the header's os_version, no module's triple read */
};
struct mtlbx_req_unknown {
    enum mtlbx_req_rule rule;        /* MSL or AIR */
    struct mtlbx_os_version version; /* newer than the table (or not in it) */
};

/* Bounds: a function has at most 3 reasons and 2 unknown versions; a
 * library's reasons are rows of the tables (fewer than 24) and its unknown
 * versions are kept up to MTLBX_REQ_MAX_UNKNOWN (unknown_dropped counts
 * the rest), so hostile input cannot grow it. */
#define MTLBX_REQ_MAX_REASONS 24
#define MTLBX_REQ_MAX_UNKNOWN 16
struct mtlbx_requires {
    enum mtlbx_os os;
    bool has_version;                /* false: nothing known ("version": null) */
    struct mtlbx_os_version version;
    size_t n_reasons;                /* deployment, then MSL, then AIR */
    struct mtlbx_req_reason reasons[MTLBX_REQ_MAX_REASONS];
    size_t n_unknown;
    struct mtlbx_req_unknown unknown[MTLBX_REQ_MAX_UNKNOWN];
    size_t unknown_dropped;
    size_t n_functions;              /* library: functions whose own version is `version` */
};
void mbx_function_requires(const mtlbx_library *lib, size_t i, struct mtlbx_requires *out);
/* What a function of these MSL and AIR versions needs on `os`, with no
 * library around it (the writer checks modules against its target). */
void mbx_versions_require(enum mtlbx_os os, struct mtlbx_os_version msl, struct mtlbx_os_version air,
                            struct mtlbx_requires *out);
/* The whole library: the highest version of its functions and of its
 * deployment target, the reasons that give that version, and the union of
 * its functions' unknown versions. */
void mbx_library_requires(const mtlbx_library *lib, struct mtlbx_requires *out);
/* The same requirement as CONTRACT.md shows it: platform, version, reasons
 * and unknown versions (the function counts of a library's reasons aside). */
bool mbx_requires_equal(const struct mtlbx_requires *a, const struct mtlbx_requires *b);
/* The platform requirements are computed for (header, else module triple). */
enum mtlbx_os mbx_library_os(const mtlbx_library *lib);
/* The header's deployment target (byte 11's platform, the version at
 * 12); false when the header names no platform a table knows. Metal does
 * not read it: requirements use mbx_library_deployment. */
bool mbx_library_deployment_target(const mtlbx_library *lib, enum mtlbx_os *os, struct mtlbx_os_version *v);
/* The first module's target triple (printable ASCII); false if none reads. */
bool mbx_library_triple(const mtlbx_library *lib, char *buf, size_t size);
/* The tables on their own: the first version of `os` that accepts MSL
 * (or AIR) version v, in *needs when FOUND; OLDER: older than the table
 * (no constraint); UNKNOWN: newer than the table, or not in it;
 * NO_PLATFORM: no column for os (watchOS, unknown). */
enum mtlbx_table_answer { MTLBX_TABLE_FOUND, MTLBX_TABLE_OLDER, MTLBX_TABLE_UNKNOWN, MTLBX_TABLE_NO_PLATFORM };
enum mtlbx_table_answer mbx_msl_needs(enum mtlbx_os os, struct mtlbx_os_version v, struct mtlbx_os_version *needs);
enum mtlbx_table_answer mbx_air_needs(enum mtlbx_os os, struct mtlbx_os_version v, struct mtlbx_os_version *needs);

/* "deployment target macOS 26.0", "MSL 4.0 needs macOS 26.0", "AIR 2.8
 * needs macOS 26.0"; and "MSL 4.2" for an unknown version. Return buf. */
const char *mbx_req_reason_text(enum mtlbx_os os, const struct mtlbx_req_reason *r, char *buf, size_t size);
const char *mbx_req_unknown_text(const struct mtlbx_req_unknown *u, char *buf, size_t size);

#endif
