/* The release gate of `check` and `find --os declared`: one library
 * against the minimum its package declares (declared_os.h), in the
 * words of Metal's own refusals ("language version 4.0", "deployment
 * target 0x00020008 (AIR 2.8)", "Unsupported target triple"), naming
 * the stamp that decides (the modules' target triple: checks.h "load
 * stamps") and where the floor came from. */
#ifndef MTLBX_DECLARED_GATE_H
#define MTLBX_DECLARED_GATE_H

#include "gate/declared_os.h"
#include "gate/gate.h"
#include "checks/load_stamps.h"

/* One finding of the gate: its message is malloc'd (free it). */
struct gate_finding {
    enum mtlbx_severity severity;
    uint64_t offset;
    char *message;
};
/* Appends one finding (its message formatted); false when out of memory. */
bool mbx_gate_push(struct gate_finding **out, size_t *n, enum mtlbx_severity sev, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The findings for one library (its header at `at`) with its stamps and
 * floor, appended to *out; false when out of memory. */
bool mbx_declared_gate_library(uint64_t at, const struct mtlbx_load_stamps *stamps, const struct floor *floor,
                           struct gate_finding **out, size_t *n);

/* The libraries of one job (a file, an archive, a Mach-O host) waiting
 * for the job's declarations: an archive's WHEEL or Info.plist may come
 * after them. Each keeps its stamps, not the file. */
struct gate_subject {
    char *name;                /* as printed: PATH, ARCHIVE!MEMBER, HOST!SEGMENT,SECTION */
    size_t tag;                /* the caller's, handed back with its findings */
    char *member;              /* its joined name inside the job ("" for the file itself) */
    bool has_slice;            /* it lies in a Mach-O section of this slice */
    struct mtlbx_macho_slice slice;
    size_t n_libs;
    struct gate_lib {
        uint64_t at;
        struct mtlbx_load_stamps stamps;
    } *libs;
};
struct gate_wait {
    struct gate_subject *v;
    size_t n, cap;
    bool out_of_memory;
};
/* Records an opened file's libraries; every_module: read each module's
 * triple (check), else the first readable one (find). */
void mbx_gate_wait_add(struct gate_wait *w, const char *name, const char *member, const struct mtlbx_macho_slice *slice,
                   const mtlbx_file *f, bool every_module, size_t tag);
/* Each one's findings, in the order added: emit(ctx, tag, name, finding)
 * (the message is freed after). False when memory ran out (w says so too). */
typedef void (*gate_emit_fn)(void *ctx, size_t tag, const char *name, const struct gate_finding *g);
bool mbx_gate_wait_finish(struct gate_wait *w, const struct package *p, gate_emit_fn emit, void *ctx);
void mbx_gate_wait_free(struct gate_wait *w);

#endif
