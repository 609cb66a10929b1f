/* The checks layer (src/lib/checks) on operating systems: which OS
 * version a function or a library needs (requirements.c, from
 * data/requirements.tsv), the modules' deployment target, the --os
 * specs a release is held to and the gate that holds it, and the stamps
 * Metal decides loading by. Values for the caller; it never prints. */
#ifndef MTLBX_CHECKS_REQUIREMENTS_H
#define MTLBX_CHECKS_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/diagnostics.h"

/* ---------------------------------------------------------- requirements -- */

/* Which OS version accepts a function or a library, without a Mac
 * (CONTRACT.md "Requirements", FORMAT.md §23): the highest of the
 * deployment target (the modules' target triples at the release level,
 * "deployment target" below) and what the function's MSL and AIR versions
 * need on the library's platform. The tables come from
 * data/requirements.tsv, the one copy of them (the build compiles it in).
 * Beyond the function list, each module's triple is read once per
 * library. */
enum mtlbx_os {
    MTLBX_OS_NONE = 0,         /* not known: no target OS and no triple */
    MTLBX_OS_MACOS, MTLBX_OS_IOS, MTLBX_OS_TVOS, MTLBX_OS_MACCATALYST, MTLBX_OS_VISIONOS,
    MTLBX_OS_WATCHOS,          /* no MTLLanguageVersion table: only its deployment target counts */
    MTLBX_OS_COUNT,
};
/* "macOS", "iOS", ... as CONTRACT.md spells them; NULL for MTLBX_OS_NONE. */
const char *mbx_os_name(enum mtlbx_os os);
/* A platform name as a user types it ("macos", "iOS", "macCatalyst",
 * "visionos", "xros"; any case), or MTLBX_OS_NONE (os_spec.c). */
enum mtlbx_os mbx_os_parse(const char *name, size_t len);
/* Apple's PLATFORM_* numbers (LC_BUILD_VERSION, and a metallib header's
 * byte 11 below its 0x80 flag): 1 macOS, 2 iOS, 3 tvOS, 4 watchOS, 6 Mac
 * Catalyst, 7-9 the simulators (as their OS), 11 visionOS, 12 its
 * simulator; MTLBX_OS_NONE for bridgeOS, DriverKit and the unknown. */
enum mtlbx_os mbx_platform_os(uint32_t platform);
/* The platform of an LLVM target triple ("air64-apple-macosx14.0.0"). */
enum mtlbx_os mbx_os_of_triple(const char *triple);

struct mtlbx_os_version {
    uint16_t major, minor;
};
/* <0, 0, >0 as a is lower than, equal to or higher than b. */
int mbx_os_version_cmp(struct mtlbx_os_version a, struct mtlbx_os_version b);

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

/* --------------------------------------------------------------- OS spec -- */

/* PLATFORM:VERSION as every command and API takes it (os_spec.c):
 * PLATFORM one of mbx_os_parse's names (any case), iOS, tvOS, watchOS
 * and visionOS also with "-simulator"; VERSION MAJOR[.MINOR[.PATCH]],
 * major up to 65535, minor and patch up to 255 (what a header holds). */
struct mtlbx_os_spec {
    enum mtlbx_os os;
    bool simulator;
    struct mtlbx_os_version version;
    uint8_t patch;
};
enum mtlbx_os_spec_error {
    MTLBX_OS_SPEC_OK,
    MTLBX_OS_SPEC_NOT_SPEC,          /* no ':' */
    MTLBX_OS_SPEC_PLATFORM,          /* no platform of that name */
    MTLBX_OS_SPEC_VERSION,           /* the version is not MAJOR[.MINOR[.PATCH]] in range */
};
enum mtlbx_os_spec_error mbx_os_spec_parse(const char *text, struct mtlbx_os_spec *out);
/* The platforms, for a message: */
#define MTLBX_OS_SPEC_PLATFORMS "macOS, iOS, tvOS, watchOS, macCatalyst, visionOS; iOS, tvOS, watchOS and " \
                                "visionOS also as e.g. iOS-simulator"

/* ------------------------------------------------------------- the gate -- */

/* The findings of `check --os PLATFORM:VERSION` for one library (os_gate.c),
 * the one writer of them for the program and the API: the library's,
 * then (with `functions`) one per function that needs more than `limit`.
 * `named`: the platform the caller has a limit for; when it is not the
 * library's, one warning says no --os names it. Each finding goes to
 * emit; false when emit does (out of memory). */
typedef bool (*mtlbx_finding_fn)(void *ctx, enum mtlbx_severity severity, uint64_t offset, const char *message);
bool mbx_os_gate_library(const mtlbx_library *lib, enum mtlbx_os named, struct mtlbx_os_version limit,
                           bool functions, mtlbx_finding_fn emit, void *ctx);

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
/* "deployment target macOS 26.0", "MSL 4.0 needs macOS 26.0", "AIR 2.8
 * needs macOS 26.0"; and "MSL 4.2" for an unknown version. Return buf. */
const char *mbx_req_reason_text(enum mtlbx_os os, const struct mtlbx_req_reason *r, char *buf, size_t size);
const char *mbx_req_unknown_text(const struct mtlbx_req_unknown *u, char *buf, size_t size);

#endif
