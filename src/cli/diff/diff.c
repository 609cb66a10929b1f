/* `mtlbx diff A B [--json] [--verify] [--no-color]`: what differs between
 * two metallibs (CONTRACT.md "Comparing two libraries"). The comparison is
 * the library's (compare.c), its rendering diff_render.c's; this file opens
 * the two files (or hands two folders or archives to diff_tree.c) and picks
 * the text review or the JSON object of the contract. Exit 0 same, 1
 * different, 2 a file that cannot be opened (or changed while it was read,
 * or output failed). */
#include "config.h"

#include "cli/commands.h"
#include "cli/diff/diff_render.h"
#include "container/diagnostics.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int print_json(const struct mtlbx_diff *d, const char *pa, const char *pb)
{
    json_t *root = diff_json(d, pa, pb);
    if (!root)
        return -1;
    int rc = json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    json_decref(root);
    putchar('\n');
    return rc;
}

/* ------------------------------------------------------------- command -- */

static size_t problem_count(mtlbx_file *f)
{
    size_t n = mbx_file_diag_count(f);
    for (size_t l = 0; l < mbx_file_library_count(f); l++)
        n += mbx_library_diag_count(mbx_library_at(f, l));
    return n;
}

/* A damaged file is still compared; say so on stderr, once per file. */
static void note_problems(const char *path, mtlbx_file *f)
{
    size_t n = problem_count(f);
    if (n)
        cli_error(path, NULL, "%zu problem%s found (see 'mtlbx check'); compared what could be read", n,
                  n == 1 ? "" : "s");
}

int cmd_diff(const struct cli_args *args)
{
    /* The table (cmdtable.c) checked the options and that A and B are there. */
    bool json = cli_flag(args, OPT_JSON), no_color = args->g.no_color;
    struct mtlbx_diff_options opt = { 0 };
    opt.verify = cli_flag(args, OPT_VERIFY);
    const char *path[2] = { args->operands[0], args->operands[1] };
    /* Two folders or two archives: a release inventory (diff_tree.c). */
    if (diff_is_release(path[0]) || diff_is_release(path[1]))
        return diff_releases(path[0], path[1], json, opt.verify, !no_color && isatty(STDOUT_FILENO));
    mtlbx_file *fa = cli_open(path[0]);
    mtlbx_file *fb = fa ? cli_open(path[1]) : NULL;
    if (!fb) {
        mbx_close(fa);
        return 2;
    }
    struct mtlbx_diff *d = NULL;
    int status = 2;
    if (mbx_diff_files(fa, fb, &opt, &d) != MTLBX_E_NONE) {
        cli_error(path[0], NULL, "out of memory while comparing with %s", path[1]);
    } else if (cli_complete(path[0], fa) == 0 && cli_complete(path[1], fb) == 0) {
        /* Out of memory while either was read (a table, a decompressed
         * archive) has already failed: what was compared is not all. */
        note_problems(path[0], fa);
        note_problems(path[1], fb);
        int rc = 0;
        if (json) {
            rc = print_json(d, path[0], path[1]);
        } else {
            diff_print_text(d, path[0], path[1], opt.verify, !no_color && isatty(STDOUT_FILENO), "");
        }
        /* Lost output: cli_close_stdout says so, with the write's own errno. */
        bool lost = fflush(stdout) != 0 || ferror(stdout);
        if (rc == 0 && !lost)
            status = d->identical ? 0 : 1;
        else if (!lost)
            cli_error(path[0], NULL, "out of memory while writing the comparison with %s", path[1]);
    }
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
    return status;
}
