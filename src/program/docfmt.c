/* Text for the generated documents: shared by the key table's and the
 * command table's generators so both escape the same way. */
#include "config.h"

#include "docfmt.h"

#include <string.h>

void doc_md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else
            fputc(*s, out);
    }
}

void doc_md_row(FILE *out, const char *code, const char *text)
{
    fputs("| `", out);
    doc_md_cell(out, code);
    fputs("` | ", out);
    doc_md_cell(out, text);
    fputs(" |\n", out);
}

int doc_main(int argc, char **argv, const char *name, void (*man)(void), void (*markdown)(void))
{
    if (argc == 2 && strcmp(argv[1], "man") == 0)
        man();
    else if (argc == 2 && strcmp(argv[1], "markdown") == 0)
        markdown();
    else {
        fprintf(stderr, "usage: %s man|markdown\n", name);
        return 2;
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
}
