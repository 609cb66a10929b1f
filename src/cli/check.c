/* `mtlbx check`: everything that can be checked, one finding per line as
 * FILE:OFFSET: error|warning: message. It hashes every module, checks
 * that each is LLVM bitcode and that its interface decodes, walks the byte
 * layout and decompresses every source archive, so each lazily found
 * problem shows. Findings of a file
 * come sorted by offset, identical on every run. */
#include "config.h"

#include "commands.h"
#include "cli/requires_cli.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_diag(const char *path, const struct mtlbx_diag *d)
{
    cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) });
    printf(":%llu: %s: ", (unsigned long long)d->offset, d->severity == MTLBX_ERROR ? "error" : "warning");
    /* Messages may quote names from the file. */
    cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)d->message, strlen(d->message) });
    putchar('\n');
}

/* Below this, check_file takes no threads. */
#define SMALL_FILE ((uint64_t)8 << 20)

/* The walk's findings join the file's diagnostics; its layout is not
 * needed beyond that. */
static void *layout_check_thread(void *f)
{
    mtlbx_layout_free(mtlbx_layout_check(f));
    return NULL;
}

/* Checks one open file; returns the number of findings, or -1 when out
 * of memory. With --os (gate->on), the requirement findings join them. */
static long check_file(const char *path, mtlbx_file *f, const struct os_gate *gate)
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
    bool small = mtlbx_file_size(f) < SMALL_FILE || mtlbx_cpus() == 1;
    bool layout_threaded = !small && pthread_create(&layout, NULL, layout_check_thread, f) == 0;
    if (!layout_threaded)
        layout_check_thread(f);
    /* Each module's interface (what sig and dump --interfaces would fail
     * on) is decoded right after its hash, from the bytes just read. */
    for (size_t l = 0; l < mtlbx_file_library_count(f); l++)
        mtlbx_library_verify_and_check_interfaces(mtlbx_library_at(f, l), small ? 1 : 0, NULL);
    if (layout_threaded)
        pthread_join(layout, NULL);
    size_t n = mtlbx_file_diag_count(f);
    for (size_t l = 0; l < mtlbx_file_library_count(f); l++) {
        mtlbx_library *lib = mtlbx_library_at(f, l);
        mtlbx_library_validate_modules(lib);
        /* Every archive is decompressed to its end and listed: a bzip2
         * stream's combined CRC is known only after its last block, and
         * the tar's findings (a damaged header, a member shorter than it
         * says) can be anywhere in it, so no shorter read finds the same
         * problems. It is a quarter of check's CPU on the corpus. */
        const struct mtlbx_sources *src = mtlbx_library_sources(lib);
        for (size_t k = 0; src && k < src->n_archives; k++)
            mtlbx_archive_load(lib, k);
        n += mtlbx_library_diag_count(lib);
    }
    struct gate_finding *gf = NULL;
    size_t n_gate = 0;
    bool gate_ok = true;
    for (size_t l = 0; gate->on && gate_ok && l < mtlbx_file_library_count(f); l++)
        gate_ok = os_gate_library(gate, mtlbx_library_at(f, l), true, &gf, &n_gate);
    struct mtlbx_diag *gate_diags = malloc((n_gate + 1) * sizeof *gate_diags);
    const struct mtlbx_diag **all = malloc((n + n_gate + 1) * sizeof *all);
    if (!all || !gate_diags || !gate_ok) {
        for (size_t i = 0; i < n_gate; i++)
            free(gf[i].message);
        free(gf);
        free(gate_diags);
        free(all);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n_gate; i++) {
        gate_diags[i] = (struct mtlbx_diag){ gf[i].severity, gf[i].offset, gf[i].message };
        all[k++] = &gate_diags[i];
    }
    for (size_t i = 0; i < mtlbx_file_diag_count(f); i++)
        all[k++] = mtlbx_file_diag(f, i);
    for (size_t l = 0; l < mtlbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mtlbx_library_at(f, l);
        for (size_t i = 0; i < mtlbx_library_diag_count(lib); i++)
            all[k++] = mtlbx_library_diag(lib, i);
    }
    /* Offset order, the same on every run (mtlbx_diag_ptr_cmp). */
    qsort(all, k, sizeof *all, mtlbx_diag_ptr_cmp);
    for (size_t i = 0; i < k; i++)
        print_diag(path, all[i]);
    free(all);
    for (size_t i = 0; i < n_gate; i++)
        free(gf[i].message);
    free(gf);
    free(gate_diags);
    return (long)k;
}

int cmd_check(const struct cli_args *args)
{
    bool any_finding = false, any_unopened = false;
    struct os_gate gate;
    if (!os_gate_parse(args, &gate))
        return 2;
    for (int a = 0; a < args->n_operands; a++) {
        const char *path = args->operands[a];
        mtlbx_file *f = cli_open(path);
        if (!f) {
            any_unopened = true;
            continue;
        }
        long found = check_file(path, f, &gate);
        if (found < 0) {
            cli_error(path, NULL, "out of memory");
            any_unopened = true;
        }
        any_finding |= found > 0;
        if (cli_complete(path, f))
            any_unopened = true;
        mtlbx_close(f);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return 2;
    return any_unopened ? 2 : any_finding ? 1 : 0;
}
