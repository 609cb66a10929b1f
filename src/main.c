/* mtlbx: entry point. Parses the global options, then either runs one of
 * the scriptable commands of CONTRACT.md or opens the explorer. Curses is
 * never initialised for a command, and the explorer only starts when both
 * stdin and stdout are terminals. */
#include "config.h"

#include "cli/commands.h"
#include "ui/explorer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: mtlbx [OPTION]... [FILE]...\n"
            "       mtlbx [OPTION]... COMMAND [ARG]...\n"
            "Explore Apple .metallib files: an interactive explorer when run in a\n"
            "terminal, and scriptable commands.\n"
            "\n"
            "Commands:\n"
            "  info FILE                   summary of the header, sections and counts\n"
            "  ls FILE [--verify]          one line per function (--verify: check SHA-256)\n"
            "  dump --json [--layout] FILE the whole parsed structure as JSON (--layout: every byte's owner)\n"
            "  check FILE...               validation report, one finding per line\n"
            "  extract FILE [-o DIR] [-f NAME]... [--force]\n"
            "                              write function modules to DIR/NAME.air\n"
            "  sources FILE [--list] [-o DIR] [--force]\n"
            "                              list or extract embedded source files\n"
            "  dis FILE NAME               LLVM assembly of a function (runs llvm-dis)\n"
            "\n"
            "Options:\n"
            "      --llvm-dis PATH         the llvm-dis to run (default: $MTLBX_LLVM_DIS, then PATH)\n"
            "      --no-color              no colours in the explorer (also: NO_COLOR)\n"
            "      --ascii                 ASCII line drawing in the explorer\n"
            "      --help                  display this help and exit\n"
            "      --version               output version information and exit\n"
            "\n"
            "With no FILE, the explorer opens the bundled sample library. When standard\n"
            "input or output is not a terminal, 'mtlbx FILE' prints 'mtlbx info FILE'.\n"
            "\n"
            "Exit status: 0 ok; 1 a finding, a mismatch or nothing matched; 2 a file\n"
            "could not be opened, is not a metallib, or a tool failed.\n"
            "Report bugs to: %s\n",
            PACKAGE_BUGREPORT);
}

/* The sample shipped in data/: installed copy, the build tree, then the
 * source tree (so a fresh build works before `make install`). */
static char *find_sample(void)
{
    const char *env = getenv("MTLBX_SAMPLE");
    if (env && *env)
        return strdup(env);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 64);
    const char *candidates[3] = { MTLBX_PKGDATADIR "/sample.metallib", NULL,
                                  MTLBX_SRCDATADIR "/sample.metallib" };
    char beside[4200];
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(beside, sizeof beside, "%s/../data/sample.metallib", exe);
            candidates[1] = beside;
        }
    }
    for (int i = 0; i < 3; i++)
        if (candidates[i] && access(candidates[i], R_OK) == 0)
            return strdup(candidates[i]);
    return NULL;
}

static const struct {
    const char *name;
    int (*run)(int, char **, const struct global_options *);
} commands[] = {
    { "info", cmd_info }, { "ls", cmd_ls }, { "dump", cmd_dump }, { "check", cmd_check },
    { "extract", cmd_extract }, { "sources", cmd_sources }, { "dis", cmd_dis },
};

int main(int argc, char **argv)
{
    struct global_options g = { 0 };
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("mtlbx %s\n", PACKAGE_VERSION);
            return 0;
        } else if (strcmp(a, "--no-color") == 0) {
            g.no_color = true;
        } else if (strcmp(a, "--ascii") == 0) {
            g.ascii = true;
        } else if (strcmp(a, "--llvm-dis") == 0 && i + 1 < argc) {
            g.llvm_dis = argv[++i];
        } else if (strncmp(a, "--llvm-dis=", 11) == 0) {
            g.llvm_dis = a + 11;
        } else if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "mtlbx: unknown option '%s'\nTry 'mtlbx --help' for more information.\n", a);
            return 2;
        } else {
            break;
        }
    }
    if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
        g.no_color = true;

    if (i < argc)
        for (size_t c = 0; c < sizeof commands / sizeof *commands; c++)
            if (strcmp(argv[i], commands[c].name) == 0)
                return commands[c].run(argc - i - 1, argv + i + 1, &g);

    char *sample = NULL;
    char *files_storage[1];
    char **files = argv + i;
    int n_files = argc - i;
    if (n_files == 0) {
        if (!(sample = find_sample())) {
            fprintf(stderr, "mtlbx: the bundled sample (data/sample.metallib) was not found; "
                            "give a FILE or set MTLBX_SAMPLE\n");
            return 2;
        }
        files_storage[0] = sample;
        files = files_storage;
        n_files = 1;
    }
    int status;
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        struct explorer_options opts = { .no_color = g.no_color, .ascii = g.ascii, .llvm_dis = g.llvm_dis };
        status = explorer_main(n_files, files, &opts);
    } else {
        status = cmd_info(n_files, files, &g);
    }
    free(sample);
    return status;
}
