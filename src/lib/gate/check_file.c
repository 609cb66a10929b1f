/* The checker core of `mtlbx check` (gate.h): one open file, every
 * lazily found problem made to show, its findings handed out as values. */
#include "config.h"

#include "checks/byte_layout.h"
#include "checks/validate.h"
#include "gate/gate.h"
#include "container/sources.h"

#include <pthread.h>
#include <string.h>

/* Below this, mbx_gate_check_file takes no threads. */
#define SMALL_FILE ((uint64_t)8 << 20)

/* The walk's findings join the file's diagnostics; its layout is not
 * needed beyond that. */
static void *layout_check_thread(void *f)
{
    mbx_layout_free(mbx_layout_check(f));
    return NULL;
}

/* The gate's findings of one library, under the rule "os". */
struct os_emit {
    mbx_gate_emit_fn emit;
    void *ctx;
    long n;
};

static bool emit_os(void *ctx, enum mtlbx_severity sev, uint64_t offset, const char *message)
{
    struct os_emit *e = ctx;
    e->n++;
    return e->emit(e->ctx, sev, offset, message, MBX_RULE_OS);
}

long mbx_gate_check_file(mtlbx_file *f, const struct mbx_os_gate *g, mbx_gate_emit_fn emit, void *ctx)
{
    /* The byte layout is walked beside the hashing, which reads other
     * bytes on the other threads (the explorer builds nodes while it
     * hashes in the same way): on L20k the walk is a third of the time
     * when it runs on its own. Unclaimed bytes and dirty padding join the
     * lists (the fat container's or a library's) before they are counted. */
    pthread_t layout;
    /* A small file, or one CPU, is checked on this thread alone: a thread
     * costs more to start than it saves there, and as long as the process
     * has one thread each page-table change (munmap at close, pages let
     * go) flushes one CPU's TLB, not every CPU's. The corpus (54 files,
     * 12 MB) in one process: 0.178 -> 0.148 s CPU. */
    bool small = mbx_file_size(f) < SMALL_FILE || mbx_cpus() == 1;
    bool layout_threaded = !small && pthread_create(&layout, NULL, layout_check_thread, f) == 0;
    if (!layout_threaded)
        layout_check_thread(f);
    /* Each module's interface (what sig and dump --interfaces would fail
     * on) is decoded right after its hash, from the bytes just read. */
    for (size_t l = 0; l < mbx_file_library_count(f); l++)
        mbx_library_verify_and_check_interfaces(mbx_library_at(f, l), small ? 1 : 0, NULL);
    if (layout_threaded)
        pthread_join(layout, NULL);
    long n = 0;
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        mbx_library_validate_modules(lib);
        mbx_library_check_deployment(lib);
        /* Every archive is decompressed to its end and listed: a bzip2
         * stream's combined CRC is known only after its last block, and
         * the tar's findings (a damaged header, a member shorter than it
         * says) can be anywhere in it, so no shorter read finds the same
         * problems. It is a quarter of check's CPU on the corpus. */
        const struct mtlbx_sources *src = mbx_library_sources(lib);
        for (size_t k = 0; src && k < src->n_archives; k++)
            mbx_archive_load(lib, k);
    }
    bool ok = true;
    for (size_t i = 0; ok && i < mbx_file_diag_count(f); i++, n++) {
        const struct mtlbx_diag *d = mbx_file_diag(f, i);
        ok = emit(ctx, d->severity, d->offset, d->message, MBX_RULE_DIAGNOSTIC);
    }
    for (size_t l = 0; ok && l < mbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        for (size_t i = 0; ok && i < mbx_library_diag_count(lib); i++, n++) {
            const struct mtlbx_diag *d = mbx_library_diag(lib, i);
            ok = emit(ctx, d->severity, d->offset, d->message, MBX_RULE_DIAGNOSTIC);
        }
    }
    struct os_emit e = { emit, ctx, 0 };
    for (size_t l = 0; g->on && ok && l < mbx_file_library_count(f); l++)
        ok = mbx_os_gate_targets(g, mbx_library_at(f, l), true, emit_os, &e);
    return ok ? n + e.n : -1;
}

int mbx_gate_order(uint64_t offset_a, enum mtlbx_severity sev_a, const char *msg_a, uint64_t offset_b,
                   enum mtlbx_severity sev_b, const char *msg_b)
{
    if (offset_a != offset_b)
        return offset_a < offset_b ? -1 : 1;
    if (sev_a != sev_b)
        return sev_a > sev_b ? -1 : 1;
    return strcmp(msg_a, msg_b);
}
