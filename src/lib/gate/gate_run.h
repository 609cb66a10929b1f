/* The release gate over what `mtlbx check` takes (gate_run.c): a file, a
 * folder (walked: tree_walk.h), an archive (wheels, .ipa, .zip, tars:
 * archive_members.h), a Mach-O host (macho_members.h), ARCHIVE!MEMBER;
 * each library found checked by the checker core (gate.h), held to the
 * --os targets, to the package's declared minimum (--os declared:
 * declared_os.h, declared_gate.h) and to an --expect list (expect.h).
 *
 * Findings and problems go to the caller's sink, one job at a time (a
 * file, or an archive or host with what is inside it): the program's
 * check prints them, libmtlbx's mtlbx_gate_* keeps them, so both give the
 * same findings. No printing here. */
#ifndef MTLBX_GATE_RUN_H
#define MTLBX_GATE_RUN_H

#include "gate/declared_os.h"
#include "gate/declared_gate.h"
#include "gate/expect.h"
#include "gate/gate.h"
#include "container/file.h"

#include <stdbool.h>
#include <stddef.h>

struct mbx_gate_sink {
    /* A library (its name as check prints it) the next findings are
     * about: its index, or SIZE_MAX when out of memory. */
    size_t (*file)(void *ctx, const char *name);
    /* One finding of that library; false when out of memory. */
    bool (*finding)(void *ctx, size_t file, enum mtlbx_severity sev, uint64_t offset, const char *message,
                    const char *rule);
    /* A job is done: what it found is complete (check prints it, sorted).
     * False when that failed (the output is lost): the run stops. */
    bool (*flush)(void *ctx);
    /* Something that could not be read or opened (check's one-line error,
     * offset NULL when none): the run goes on, and says it (unopened). */
    void (*problem)(void *ctx, const char *path, const uint64_t *offset, const char *message);
    /* How a path is opened (the program guards its maps against SIGBUS);
     * NULL: mbx_open_any. */
    int (*open)(void *ctx, const char *path, mtlbx_file **out, struct mtlbx_error *err);
    void *ctx;
};

struct mbx_gate_run {
    const struct mbx_os_gate *gate;
    struct expect *expect;     /* --expect (loaded), or NULL */
    struct mbx_gate_sink sink;
    bool unopened;             /* a problem was said */
    bool stopped;              /* a flush failed */
    /* The job at hand (gate_run.c) */
    struct bundle_cache cache;
    struct package pkg;
    struct gate_wait wait;
    const char *operand;
    bool job_out_of_memory;
};

/* Checks one operand: every library found in it, its findings flushed
 * job by job, then (with an expect list) what the operand misses of it. */
void mbx_gate_run_operand(struct mbx_gate_run *r, const char *path);
void mbx_gate_run_free(struct mbx_gate_run *r);

/* Loads an --expect LIST from a path as check reads it: a text file, a
 * metallib, or a build (a folder, an archive, a Mach-O host) whose every
 * function name is expected. False (e freed) after sink->problem says
 * why; each library of a build is opened through sink->open. */
bool mbx_gate_run_expect(struct expect *e, const char *list, const struct mbx_gate_sink *sink);

#endif
