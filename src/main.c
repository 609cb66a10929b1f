/* mtlbx: entry point. Parses the command line (cli/cmdline.c, from the
 * command table), then either runs one of the scriptable commands of
 * CONTRACT.md or opens the explorer. Curses is
 * never initialised for a command, and the explorer only starts when both
 * stdin and stdout are terminals. */
#include "config.h"

#include "cli/commands.h"
#include "ui/explorer.h"
#include "gate/archive_members.h"
#include "checks/sha256.h"

#include <stdbool.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A copy of DIR with its last component (and the slash before it) cut. */
static bool parent_dir(char *dir)
{
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return false;
    *slash = '\0';
    return true;
}

/* What follows PREFIX in PATH, or NULL when PATH is not under PREFIX. */
static const char *under(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n) != 0 || (path[n] != '/' && path[n] != '\0'))
        return NULL;
    return path + n;
}

/* The sample shipped in data/. Run from the build tree, the source tree's
 * copy (so a fresh build works before `make install`); installed, the copy
 * in the data directory configure compiled in; then the same directory
 * under the prefix the program was really installed to, found from the
 * program's own path, for `make install prefix=DIR` after a configure for
 * another prefix, or a tree staged with DESTDIR or moved whole. */
static char *find_sample(void)
{
    const char *env = getenv("MTLBX_SAMPLE");
    if (env && *env)
        return strdup(env);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    bool have_exe = n > 0 && parent_dir((exe[n] = '\0', exe));
    const char *candidates[3] = { NULL, MTLBX_PKGDATADIR "/sample.metallib", NULL };
    char builddir[4096];
    if (have_exe && realpath(MTLBX_BUILDDIR, builddir) && under(exe, builddir))
        candidates[0] = MTLBX_SRCDATADIR "/sample.metallib";
    char moved[4096 + sizeof MTLBX_PKGDATADIR + 32];
    const char *bin_rest = under(MTLBX_BINDIR, MTLBX_PREFIX);
    const char *data_rest = under(MTLBX_PKGDATADIR, MTLBX_PREFIX);
    size_t exe_len = have_exe ? strlen(exe) : 0, bin_len = bin_rest ? strlen(bin_rest) : 0;
    if (have_exe && bin_rest && data_rest && exe_len >= bin_len &&
        strcmp(exe + exe_len - bin_len, bin_rest) == 0) {
        /* exe is PREFIX' + BINDIR's part under PREFIX: the data is PREFIX' + its part */
        snprintf(moved, sizeof moved, "%.*s%s/sample.metallib", (int)(exe_len - bin_len), exe, data_rest);
        candidates[2] = moved;
    }
    for (int i = 0; i < 3; i++)
        if (candidates[i] && access(candidates[i], R_OK) == 0)
            return strdup(candidates[i]);
    return NULL;
}

int main(int argc, char **argv)
{
    struct cli_args args;
    cli_stdout_keep_errno();  /* why output was lost, when it is */
    atexit(cli_close_stdout); /* lost output turns any exit into 2 */
    /* The parser library reads no environment: what these ask for is
     * passed on to it here (man/mtlbx.1, ENVIRONMENT). */
    const char *multi = getenv("MTLBX_NO_MULTI_BUFFER");
    if (multi)
        mbx_hash_use_multi_buffer(false);
    mbx_archive_use_library(getenv("MTLBX_LIBARCHIVE"));
    const char *limit = getenv("MTLBX_MEMBER_LIMIT");
    if (limit && *limit) {
        char *end;
        unsigned long long v = strtoull(limit, &end, 10);
        if (*end == '\0')
            mbx_member_limit_set(v); /* (0: the default) */
    }
    int status;
    if (cli_parse(argc, argv, &args, &status) != 0)
        return status;
    if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
        args.g.no_color = true;
    if (args.cmd) {
        status = args.cmd->run(&args);
        cli_args_free(&args);
        return status;
    }

    char *sample = NULL;
    char *files_storage[1];
    char **files = args.operands;
    int n_files = args.n_operands;
    if (n_files == 0) {
        if (!(sample = find_sample())) {
            fprintf(stderr, "mtlbx: the bundled sample (data/sample.metallib) was not found; "
                            "give a FILE or set MTLBX_SAMPLE\n");
            cli_args_free(&args);
            return 2;
        }
        files_storage[0] = sample;
        files = files_storage;
        n_files = 1;
    }
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        struct explorer_options opts = { .no_color = args.g.no_color, .ascii = args.g.ascii,
                                         .llvm_dis = args.g.llvm_dis, .no_mouse = args.g.no_mouse };
        status = explorer_main(n_files, files, &opts);
    } else {
        struct cli_args info = args;
        info.cmd = cli_find_command("info");
        info.operands = files;
        info.n_operands = n_files;
        status = cmd_info(&info);
    }
    free(sample);
    cli_args_free(&args);
    return status;
}
