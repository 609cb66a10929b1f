/* `mtlbx check`: everything that can be checked, one finding per line as
 * FILE:OFFSET: error|warning: message. It hashes every module, checks
 * that each is LLVM bitcode and decompresses every source archive, so each
 * lazily found problem shows. */
#include "config.h"

#include "commands.h"

#include <stdio.h>
#include <string.h>

static void print_diag(const char *path, const struct mtlbx_diag *d)
{
    cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) });
    printf(":%llu: %s: ", (unsigned long long)d->offset, d->severity == MTLBX_ERROR ? "error" : "warning");
    /* Messages may quote names from the file. */
    cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)d->message, strlen(d->message) });
    putchar('\n');
}

int cmd_check(int argc, char **argv, const struct global_options *g)
{
    (void)g;
    if (argc < 1) {
        fprintf(stderr, "mtlbx: check: missing FILE\nUsage: mtlbx check FILE...\n");
        return 2;
    }
    bool any_finding = false, any_unopened = false;
    for (int a = 0; a < argc; a++) {
        mtlbx_file *f = cli_open(argv[a]);
        if (!f) {
            any_unopened = true;
            continue;
        }
        /* Unclaimed bytes and dirty padding join the lists (the fat
         * container's or a library's) before anything is printed. */
        mtlbx_layout_check(f);
        for (size_t i = 0; i < mtlbx_file_diag_count(f); i++) {
            print_diag(argv[a], mtlbx_file_diag(f, i));
            any_finding = true;
        }
        for (size_t l = 0; l < mtlbx_library_count(f); l++) {
            mtlbx_library *lib = mtlbx_library_at(f, l);
            mtlbx_library_verify_all(lib, 0);
            mtlbx_library_validate_modules(lib);
            const struct mtlbx_sources *src = mtlbx_library_sources(lib);
            for (size_t k = 0; src && k < src->n_archives; k++)
                mtlbx_archive_load(lib, k);
            for (size_t i = 0; i < mtlbx_library_diag_count(lib); i++) {
                print_diag(argv[a], mtlbx_library_diag(lib, i));
                any_finding = true;
            }
        }
        if (cli_unchanged(argv[a], f))
            any_unopened = true;
        mtlbx_close(f);
    }
    fflush(stdout);
    return any_unopened ? 2 : any_finding ? 1 : 0;
}
