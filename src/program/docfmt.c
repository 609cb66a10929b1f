/* Text for the generated documents: shared by the key table's and the
 * command table's generators so both escape the same way. */
#include "config.h"

#include "docfmt.h"

void doc_md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else
            fputc(*s, out);
    }
}
