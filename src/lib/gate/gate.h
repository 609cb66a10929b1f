/* The release gate's checker core (gate/): what `mtlbx check` finds in
 * one opened file, and the --os PLATFORM:VERSION targets it holds each
 * library against, as values handed to the caller (no printing). The
 * walk over check's operands (gate_run.h), which the program's check
 * (src/cli/gate/check.c) and libmtlbx's mtlbx_gate_* (api/gate.c, the
 * Python module's mtlbx.check) both run, reads every file through it, so
 * both give the same findings. */
#ifndef MTLBX_GATE_H
#define MTLBX_GATE_H

#include <stdbool.h>

#include "checks/os_gate.h"

/* What a finding is about: the rule that made it (the "rule" of
 * check --json). */
#define MBX_RULE_DIAGNOSTIC "diagnostic"   /* the parser and check's own checks of the bytes */
#define MBX_RULE_OS "os"                   /* --os PLATFORM:VERSION */
#define MBX_RULE_OS_DECLARED "os-declared" /* --os declared */
#define MBX_RULE_EXPECT "expect"           /* --expect LIST */

/* --os PLATFORM:VERSION, repeatable (at most one per platform), and
 * --os declared (the package's own minimum: declared_os.h, declared_gate.h). */
struct mbx_os_gate {
    bool on;                   /* some PLATFORM:VERSION */
    bool declared;
    bool named[MTLBX_OS_COUNT];
    struct mtlbx_os_version version[MTLBX_OS_COUNT];
};

/* Why mbx_os_gate_add refused a value. */
enum mbx_os_gate_add {
    MBX_OS_GATE_ADDED,
    MBX_OS_GATE_BAD,           /* not PLATFORM:VERSION nor "declared" */
    MBX_OS_GATE_TWICE,         /* its platform named before with another version */
};
/* Adds one --os value ("declared" or PLATFORM:VERSION); on a refusal *os
 * is the platform named twice. */
enum mbx_os_gate_add mbx_os_gate_add(struct mbx_os_gate *g, const char *value, enum mtlbx_os *os);

/* The findings of the --os targets for one library: with `functions`,
 * one per function that needs more than the named version of its
 * platform (check), else only the library's own (find). With --os
 * declared, a platform no --os names is left to the package's minimum.
 * False when emit is (out of memory). */
bool mbx_os_gate_targets(const struct mbx_os_gate *g, const mtlbx_library *lib, bool functions, mtlbx_finding_fn emit,
                         void *ctx);

/* True when the first bytes (n of them, up to 512: a tar's magic is at
 * offset 257) are those of an archive or a compressed stream libarchive
 * may read: a file the gate walks for its libraries (content.c). */
bool mbx_archive_content(const uint8_t *head, size_t n);

/* One finding of check, with its rule (MBX_RULE_*). */
typedef bool (*mbx_gate_emit_fn)(void *ctx, enum mtlbx_severity severity, uint64_t offset, const char *message,
                                 const char *rule);
/* Checks one open file as `mtlbx check` does (every module hashed and its
 * interface decoded, the byte layout walked, every source archive read to
 * its end, deployment and the --os targets of g) and hands each finding
 * to emit, the file's and its libraries' diagnostics first, then the
 * gate's. Returns the number of findings, or -1 when out of memory (emit
 * returned false). The order is the caller's to sort: mbx_gate_order. */
long mbx_gate_check_file(mtlbx_file *f, const struct mbx_os_gate *g, mbx_gate_emit_fn emit, void *ctx);

/* The order check prints the findings of one library in: by offset,
 * errors first, then by message, so a listing is the same on every run. */
int mbx_gate_order(uint64_t offset_a, enum mtlbx_severity sev_a, const char *msg_a, uint64_t offset_b,
                   enum mtlbx_severity sev_b, const char *msg_b);

#endif
