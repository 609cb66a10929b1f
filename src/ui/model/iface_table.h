/* The text of a function page's interface pane (iface_table.c). Reads
 * only what the interface worker has decoded: never decodes bitcode. */
#ifndef MTLBX_UI_IFACE_TABLE_H
#define MTLBX_UI_IFACE_TABLE_H

#include <stddef.h>

#include "model/model.h"

/* Lines of the pane (malloc'd, terminal-safe) and, per line, whether it
 * is a heading. Returns the interface state they were built from
 * (enum mtlbx_iface_state), or -1 when out of memory (nothing built). */
int iface_table_build(mtlbx_model *m, const mtlbx_library *lib, size_t fn, char ***lines, unsigned char **heading,
                      size_t *n);
void iface_table_free(char **lines, unsigned char *heading, size_t n);

#endif
