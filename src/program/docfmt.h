/* Text for the generated documents (src/ui/keydoc, src/cli/cmddoc). */
#ifndef MTLBX_DOCFMT_H
#define MTLBX_DOCFMT_H

#include <stdio.h>

/* Writes s as the text of a Markdown table cell ('|' escaped). */
void doc_md_cell(FILE *out, const char *s);
/* A Markdown table row of two cells: "| `code` | text |". */
void doc_md_row(FILE *out, const char *code, const char *text);

/* The generators' main: `NAME man` runs man(), `NAME markdown` runs
 * markdown(), both writing to stdout; anything else is a usage error.
 * Returns the exit status: 0, or 2 for a usage error or output that
 * could not be written. */
int doc_main(int argc, char **argv, const char *name, void (*man)(void), void (*markdown)(void));

#endif
