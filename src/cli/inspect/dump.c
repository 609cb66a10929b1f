/* `mtlbx dump --json`: the document the library's renderer writes
 * (src/lib/json/dump_json.c), and the one-line error of the command line
 * when it could not be written whole. */
#include "config.h"

#include "cli/commands.h"
#include "json/dump_json.h"

#include <jansson.h>
#include <stdlib.h>

/* The document with MTLBX_DOC_* flags, and the error when it is not whole. */
static int write_document(FILE *out, const char *path, mtlbx_file *f, unsigned flags)
{
    switch (mbx_doc_write(out, path, f, flags)) {
    case MTLBX_DOC_WRITTEN:
        return cli_complete(path, f);
    case MTLBX_DOC_NO_MEMORY:
        cli_error(path, NULL, "out of memory");
        return 2;
    case MTLBX_DOC_FILE_INCOMPLETE:
        return cli_complete(path, f);
    case MTLBX_DOC_CUT_NO_MEMORY:
        cli_error(path, NULL, "out of memory: the JSON document is incomplete");
        return 2;
    case MTLBX_DOC_CUT_LAYOUT:
        cli_error(path, NULL, "the byte layout could not be completed");
        return 2;
    case MTLBX_DOC_CUT_VALUE:
        cli_error(path, NULL, "the JSON document could not be written whole");
        return 2;
    case MTLBX_DOC_CUT_OUTPUT:
        /* The lost output is cli_close_stdout's to report. */
        (void)cli_complete(path, f);
        return 2;
    }
    return 2;
}

int dump_write_document(FILE *out, const char *path, mtlbx_file *f, bool one_line)
{
    return write_document(out, path, f, one_line ? MTLBX_DOC_ONE_LINE : 0);
}

int cmd_dump(const struct cli_args *args)
{
    /* The table requires --json and exactly one FILE. */
    const char *path = args->operands[0];
    unsigned flags = (cli_flag(args, OPT_INTERFACES) ? MTLBX_DOC_INTERFACES : 0) |
                     (cli_flag(args, OPT_LAYOUT) ? MTLBX_DOC_LAYOUT : 0);
    /* Every value jansson fails to build cuts the document short, instead
     * of leaving it out in silence. */
    json_set_alloc_funcs(mbx_doc_malloc, free);
    mtlbx_file *f = cli_open(path);
    if (!f)
        return 2;
    int rc = write_document(stdout, path, f, flags);
    mbx_close(f);
    if (fflush(stdout) != 0 || ferror(stdout))
        rc = 2;
    return rc;
}
