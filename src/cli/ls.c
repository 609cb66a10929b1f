/* `mtlbx ls`: one line per function. It reads no module bytes unless
 * --verify, so listing a 300 MB library touches only its function list. */
#include "config.h"

#include "commands.h"

#include <stdio.h>
#include <string.h>

static void print_function(const mtlbx_library *lib, size_t i, bool verify)
{
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    char tbuf[24], hash[17] = "-";
    const char *type = (fn->present & MTLBX_F_TYPE) ? mtlbx_function_type_name(fn->type, tbuf, sizeof tbuf) : "-";
    if (fn->hash)
        for (int b = 0; b < 8; b++)
            snprintf(hash + 2 * b, 3, "%02x", fn->hash[b]);
    char vers[32] = "-    -";
    if (fn->present & MTLBX_F_VERS)
        snprintf(vers, sizeof vers, "%u.%-3u %u.%-3u", fn->air_major, fn->air_minor, fn->msl_major,
                 fn->msl_minor);
    printf("%5zu  %-12s %-14s 0x%08llx %10llu  %-16s", i, type, vers, (unsigned long long)fn->module.offset,
           (unsigned long long)fn->module.size, hash);
    if (verify) {
        enum mtlbx_hash_state s = mtlbx_function_hash_state(lib, i);
        printf("  %-8s", s == MTLBX_HASH_OK ? "ok" : s == MTLBX_HASH_MISMATCH ? "MISMATCH" : "-");
    }
    putchar(' ');
    putchar(' ');
    cli_put_escaped(stdout, fn->name);
    putchar('\n');
}

int cmd_ls(int argc, char **argv, const struct global_options *g)
{
    (void)g;
    bool verify = false;
    const char *path = NULL;
    for (int a = 0; a < argc; a++) {
        if (strcmp(argv[a], "--verify") == 0)
            verify = true;
        else if (!path && (argv[a][0] != '-' || argv[a][1] == '\0'))
            path = argv[a];
        else {
            fprintf(stderr, "mtlbx: ls: unexpected argument '%s'\nUsage: mtlbx ls FILE [--verify]\n", argv[a]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "mtlbx: ls: missing FILE\nUsage: mtlbx ls FILE [--verify]\n");
        return 2;
    }
    mtlbx_file *f = cli_open(path);
    if (!f)
        return 2;
    size_t mismatches = 0;
    size_t nlib = mtlbx_library_count(f);
    for (size_t l = 0; l < nlib; l++) {
        mtlbx_library *lib = mtlbx_library_at(f, l);
        if (verify)
            mismatches += mtlbx_library_verify_all(lib, 0);
        if (nlib > 1 || mtlbx_file_is_fat(f))
            printf("# library %zu at 0x%llx\n", l, (unsigned long long)mtlbx_library_header(lib)->base);
        for (size_t i = 0; i < mtlbx_function_count(lib); i++)
            print_function(lib, i, verify);
    }
    mtlbx_close(f);
    if (fflush(stdout) != 0)
        return 2;
    return mismatches ? 1 : 0;
}
