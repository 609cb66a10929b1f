/* A list of diagnostics as the handles keep them (src/lib only;
 * container/diag.c): capped, in blocks that never move. */
#ifndef MTLBX_CONTAINER_DIAG_LIST_H
#define MTLBX_CONTAINER_DIAG_LIST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/diagnostics.h"

#define DIAG_BLOCK 64
struct diag_list {
    size_t n, cap, dropped;
    struct mtlbx_diag **blocks;   /* DIAG_BLOCK items each; never moved */
    /* An allocation failed while parsing what this list belongs to (or
     * while recording a diagnostic): the parse is incomplete. */
    bool out_of_memory;
    uint64_t out_of_memory_offset; /* the first place it happened */
    /* What this list belongs to declares bytes the file does not have (a
     * section, the header or a module past its end, a fat slice past the
     * file's): the first such error, kept whole (mbx_file_damaged). */
    bool damaged;
    uint64_t damaged_offset;
    char damaged_why[200];
};
static inline struct mtlbx_diag *diag_item(const struct diag_list *l, size_t i)
{
    return &l->blocks[i / DIAG_BLOCK][i % DIAG_BLOCK];
}

void diag_add(struct diag_list *l, enum mtlbx_severity sev, uint64_t offset,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_vadd(struct diag_list *l, enum mtlbx_severity sev, uint64_t offset,
               const char *fmt, va_list ap);
void diag_free(struct diag_list *l);
/* Item i of a list, or the synthesised "further problems" notice after
 * the last one (written to *scratch), or NULL. */
const struct mtlbx_diag *diag_get(const struct diag_list *l, size_t i, struct mtlbx_diag *scratch);

#endif
