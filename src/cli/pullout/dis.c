/* `mtlbx dis FILE NAME` (CONTRACT.md): runs llvm-dis on the function's
 * whole module (bitcode wrapper included; Debian's LLVM 14 llvm-dis reads
 * it, FORMAT.md §20 W10) and prints the LLVM assembly.
 *
 * llvm-dis comes from --llvm-dis PATH, else $MTLBX_LLVM_DIS, else PATH
 * (llvm-dis, or the highest llvm-dis-N). When it rejects the module as an
 * older LLVM rejects newer bitcode, the other llvm-dis installed are tried,
 * newest first, and a note on stderr says which one read it. It runs
 * without a shell, with a deadline and an output cap (run_tool.c). NAME is
 * resolved as every command resolves it (names.c: exact, glob, unique
 * prefix); of several functions with that exact name the first is used (in
 * a fat file, the first slice that has it, or slice N with --slice N).
 *
 * LLVM escapes unprintable bytes of names and strings itself, but its
 * output is still filtered: anything but printable ASCII, TAB and newline
 * is written as \xNN, so no byte of the file reaches the terminal raw.
 *
 * Exit: 0 ok; 1 no such function; 2 the file cannot be opened, the module
 * is unreadable, or llvm-dis is missing, fails, times out or floods.
 */
#include "config.h"

#include "cli/commands.h"
#include "program/run_tool.h"

#include <stdlib.h>
#include <string.h>

/* Writes the assembly, escaping any byte that could act on a terminal. */
static void put_filtered(const char *p, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if ((c >= 0x20 && c < 0x7F) || c == '\n' || c == '\t') {
            run++;
            continue;
        }
        fwrite(p + i - run, 1, run, stdout);
        run = 0;
        printf("\\x%02x", c);
    }
    fwrite(p + n - run, 1, run, stdout);
}

int cmd_dis(const struct cli_args *args)
{
    const struct global_options *g = &args->g;
    const char *file = args->operands[0], *name = args->operands[1];
    struct cli_function cf;
    int status = cli_open_function(args, file, name, &cf);
    if (status)
        return status;
    status = 2;
    const struct mtlbx_function *fn = cf.fn;
    struct mtlbx_bytes mod = mbx_function_module_bytes(cf.lib, cf.index);
    if (!fn->module_valid || !mod.ptr || !mod.len) {
        cli_error(file, &fn->entry_offset, "function %s: its module lies outside the module section", cf.shown);
        goto done;
    }
    char *tool = find_llvm_dis(g ? g->llvm_dis : NULL);
    if (!tool) {
        const char *from = g && g->llvm_dis ? g->llvm_dis : getenv("MTLBX_LLVM_DIS");
        char *sf = from && *from ? cli_escape_str_dup(from) : NULL;
        if (sf)
            cli_error(file, NULL, "llvm-dis not found: %s is not an executable", sf);
        else
            cli_error(file, NULL, "llvm-dis not found on PATH (install llvm, or use --llvm-dis PATH)");
        free(sf);
        goto done;
    }
    struct tool_result res;
    int rc = run_llvm_dis(tool, mod.ptr, mod.len, LLVM_DIS_TIMEOUT_MS, LLVM_DIS_MAX_OUTPUT, &res);
    if (rc != 0) {
        cli_error(file, &fn->module.offset, "function %s: %s", cf.shown, res.message);
    } else {
        put_filtered(res.output, res.output_len);
        status = cli_complete(file, cf.file);
        /* It finished; what it left behind is worth a line, not a failure. */
        if (res.left_running || res.read_by[0])
            cli_error(file, NULL, "function %s: note: %s", cf.shown, res.message);
    }
    tool_result_free(&res);
    free(tool);
done:
    cli_close_function(&cf);
    return status;
}
