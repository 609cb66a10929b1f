/* `mtlbx src FILE NAME [--all]`: the embedded source of one function,
 * from the line that defines it (src/lib/source_locate.c finds it by its
 * name in the members' text) to the line that closes its body; --all
 * prints the whole member. A first line "// PATH:LINE" names the member
 * and line, as an MSL comment, so the output stays valid source.
 *
 * Text is printed as it is except for what could act on a terminal:
 * control bytes other than TAB and newline, invalid UTF-8 and unsafe code
 * points (mbx_codepoint_unsafe) are written as \xNN / \uNNNN escapes.
 *
 * Exit: 0 ok; 1 no such function (did you mean ...), the library has no
 * embedded sources, or no member defines the function; 2 the file cannot
 * be read. */
#include "config.h"

#include "cli/commands.h"
#include "model/source_locate.h"
#include "container/sources.h"

#include <stdlib.h>
#include <string.h>

static void put_text(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && ((p[run] >= 0x20 && p[run] < 0x7F) || p[run] == '\n' || p[run] == '\t'))
            run++;
        fwrite(p + i, 1, run - i, stdout);
        i = run;
        if (i >= n)
            break;
        if (p[i] < 0x80) {
            printf("\\x%02x", p[i]);
            i++;
            continue;
        }
        /* A run of non-ASCII bytes: the library's escaping keeps valid,
         * safe UTF-8 and escapes the rest (it holds no backslash to double). */
        size_t end = i;
        while (end < n && p[end] >= 0x80)
            end++;
        char *s = cli_escape_dup(p + i, end - i);
        if (s)
            fputs(s, stdout);
        free(s);
        i = end;
    }
}

int cmd_src(const struct cli_args *args)
{
    const char *file = args->operands[0], *name = args->operands[1];
    bool all = cli_flag(args, OPT_ALL);
    struct cli_function cf;
    int status = cli_open_function(args, file, name, &cf);
    if (status)
        return status;
    mtlbx_library *lib = cf.lib;
    struct mtlbx_source_location loc;
    int found = mbx_source_locate(lib, cf.index, &loc);
    if (found <= 0 && found != -2 && cli_complete(file, cf.file)) {
        status = 2; /* no sources, or none defines it: not known when reading ran out of memory */
    } else if (found == -2) {
        cli_error(file, NULL, "out of memory");
        status = 2;
    } else if (found < 0) {
        cli_error(file, NULL, "the library has no embedded sources (built without -frecord-sources)");
        status = 1;
    } else if (found == 0) {
        cli_error(file, NULL, "function %s: no embedded source member defines it", cf.shown);
        status = 1;
    } else {
        const struct mtlbx_member *mem = &mbx_library_sources(lib)->archives[loc.archive].members[loc.member];
        fputs("// ", stdout);
        put_text((const uint8_t *)mem->name, strlen(mem->name));
        printf(":%zu\n", all ? (size_t)1 : loc.line);
        if (all)
            put_text(mem->data, (size_t)mem->size);
        else
            put_text(mem->data + loc.line_offset, (size_t)(loc.end_offset - loc.line_offset));
        status = cli_complete(file, cf.file);
    }
    cli_close_function(&cf);
    return status;
}
