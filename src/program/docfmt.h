/* Text for the generated documents (src/ui/keydoc, src/cli/cmddoc). */
#ifndef MTLBX_DOCFMT_H
#define MTLBX_DOCFMT_H

#include <stdio.h>

/* Writes s as the text of a Markdown table cell ('|' escaped). */
void doc_md_cell(FILE *out, const char *s);

#endif
